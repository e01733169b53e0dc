"""Structural facts of the CPU speed levers of issue 9 (kernel and copy counts, never timings; the
timings are benchmarks/bench_cpu.py's), each with its values checked against NumPy on every backend."""

import numpy as np
import pytest
from lazyarray.graph import Graph
from lazyarray.passes import optimize
from lazyarray.runtime.c.backend import CBackend
from lazyarray.runtime.c.split import split_full_reductions

import lazyarray as la
from sites import notes_of
from together import compile_together

rng = np.random.default_rng(9)
X = rng.standard_normal((48, 40)).astype(np.float32)
W = rng.standard_normal((24, 40)).astype(np.float32)


def _program(*outs):
    return optimize(Graph([o._node for o in outs]))


def test_matmul_of_a_transpose_uses_the_blas_flag_not_a_copy(backend):
    x, w = la.array(X), la.array(W)
    y, z = x @ w.T, la.exp(x).T @ (x + 1)
    program = _program(y, z)
    assert len(program.kernels) == 1  # exp(x) and x + 1 in one loop; no transposing copy
    assert [c.transposed for c in program.library_calls] == [(1,), (0,)]
    assert ".T)" in la.explain(y).library_calls[0]
    la.eval(y, z)
    np.testing.assert_allclose(np.asarray(y), X @ W.T, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(z), np.exp(X).T @ (X + 1), rtol=1e-5, atol=1e-4)


def test_a_permute_that_is_not_a_last_two_swap_is_still_copied(reference_backend):
    b = la.array(rng.standard_normal((2, 3, 4)))
    program = _program(la.permute_dims(b, (1, 0, 2)) @ la.array(np.ones((3, 4, 2))))
    assert program.library_calls[0].transposed == ()
    assert len(program.kernels) == 1


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_an_output_and_its_reduction_are_one_kernel(backend, axis):
    """`la.eval(e, la.sum(e))`: e is stored from the reduction kernel's inner stage, not written
    by one kernel and read back by another."""
    x = la.array(X)
    e = la.exp(x) * 2
    s = la.sum(e, axis=axis)
    assert len(_program(e, s).kernels) == 1
    la.eval(e, s)
    want = np.exp(X) * 2
    np.testing.assert_array_equal(np.asarray(e), np.asarray(la.exp(x) * 2))
    np.testing.assert_allclose(np.asarray(s), want.sum(axis=axis), rtol=1e-5)


def test_a_full_reduction_with_an_output_still_splits_over_threads(monkeypatch):
    if CBackend.unavailable_reason() is not None:
        pytest.skip("no C compiler")
    from lazyarray.runtime.c import backend as c_backend

    monkeypatch.setattr(c_backend, "PARALLEL_THRESHOLD", 1024)
    x = rng.standard_normal(2**14).astype(np.float32)
    a = la.array(x)
    e, s = la.exp(a), la.sum(la.exp(a))
    program = _program(e, s)
    assert len(program.kernels) == 1
    split = split_full_reductions(program, 1024)
    assert len(split.kernels) == 2 and split.kernels[0].stages[0].stores  # e stored by the partial
    with la.config(backend="c"):
        la.clear_caches()
        la.eval(e, s)
    with la.config(backend="numpy"):
        want_e = np.asarray(la.exp(la.array(x)))
    np.testing.assert_allclose(np.asarray(e), want_e, rtol=2e-7)
    np.testing.assert_allclose(np.asarray(s), np.exp(x.astype(np.float64)).sum(), rtol=1e-6)


@pytest.mark.parametrize("name, lazy, eager", [
    ("reshape then add", lambda m, x: m.exp(x * 2).reshape(20, 96) + 1,
     lambda x: np.exp(x * 2).reshape(20, 96) + 1),
    ("reshape then reduce", lambda m, x: m.sum(m.tanh(x).reshape(6, 8, 40), axis=1),
     lambda x: np.tanh(x).reshape(6, 8, 40).sum(axis=1)),
])
def test_a_reshape_of_a_computed_value_costs_no_kernel(backend, name, lazy, eager):
    y = lazy(la, la.array(X))
    assert len(_program(y).kernels) == 1
    np.testing.assert_allclose(np.asarray(y), eager(X), rtol=2e-6, atol=1e-6)


def test_a_reshape_of_a_value_used_twice_is_not_moved(reference_backend):
    e = la.exp(la.array(X))
    y = e.reshape(20, 96) + la.sum(e)
    assert len(_program(y).kernels) == 2  # e is materialized once, then read through the reshape
    np.testing.assert_allclose(np.asarray(y), np.exp(X).reshape(20, 96) + np.exp(X).sum(),
                               rtol=1e-5)


@pytest.mark.gpu
def test_an_output_stored_by_a_full_reduction_compiles_for_cuda():
    """The two-stage CUDA frame stores `e` from its partial kernel (no GPU here: NVRTC only)."""
    from lazyarray.runtime.cuda import nvrtc
    from lazyarray.runtime.c.printer import render_translation_unit, shared_slots
    from lazyarray.runtime.cuda.launch import choose_frame
    from lazyarray.runtime.cuda.printer import CUDA_DIALECT, render_cuda_kernel

    if nvrtc.unavailable_reason() is not None:
        pytest.skip(nvrtc.unavailable_reason())
    a = la.array(np.ones(2**20, np.float32))
    e = la.exp(a)
    program = _program(e, la.sum(e))
    (kernel,) = program.kernels
    assert choose_frame(kernel) == "two_stage"
    source = render_cuda_kernel(kernel, shared_slots(program, kernel))[2]
    partial = source[:source.index("_final(")]
    assert "b1[" in partial.split("_partial(", 1)[1]  # e is written by the partial kernel
    module = nvrtc.compile_cuda(render_translation_unit([source], CUDA_DIALECT), name="levers.cu")
    assert "warning" not in module.log


def _c_sources(*outs) -> list[str]:
    return [k.source for k in la.explain(*outs, backend="c").kernels]


def test_a_transposed_read_runs_in_tiles(reference_backend):
    """Elementwise kernels whose access has unit stride in the second-innermost loop dim loop in
    tiles (runtime/c/printer.py `tiles_transposed_access`); contiguous ones and reductions over
    the same read do not (their order is the fold order)."""
    from lazyarray.runtime.c.printer import TILE_INNER

    a, b = la.array(X), la.array(X.T.copy())
    tiled = f"t1 += {TILE_INNER})"
    assert tiled in _c_sources(a.T + b)[0]
    assert tiled in _c_sources(la.exp(la.permute_dims(la.array(np.ones((2, 3, 4))), (0, 2, 1))))[0]
    assert tiled not in _c_sources(a * 2 + la.array(X))[0]
    assert "t0 +=" not in _c_sources(la.sum(a.T + b, axis=1))[0]


TILED_SHAPES = [
    ((1, 1), (1, 0)), ((31, 33), (1, 0)), ((64, 32), (1, 0)), ((100, 37), (1, 0)),
    ((3, 45, 70), (0, 2, 1)), ((33, 5, 40), (2, 1, 0)), ((2, 3, 35, 34), (0, 1, 3, 2)),
]
TILED_DTYPES = [np.float32, np.float64, np.int8, np.bool_, np.complex64]
_COMPILED: dict = {}  # backends whose tiled cases' kernels are compiled (tests/together.py)


def _tiled(shape, axes, dtype, held: list) -> tuple:
    """A case's two values; its operands stay alive in `held`, as the test's do (a dead operand
    may be written over in place: another kernel)."""
    a = la.array(np.ones(shape, dtype))
    b = la.array(np.ones(tuple(shape[i] for i in axes), dtype))
    held += [a, b]
    return la.permute_dims(a, axes) + b, la.permute_dims(a, axes) * 3


@pytest.mark.xdist_group("test_tiled_kernels_match_numpy")
@pytest.mark.parametrize("shape, axes", TILED_SHAPES)
@pytest.mark.parametrize("dtype", [  # on C float64 and int8 exhaustive
    d if d not in (np.float64, np.int8) else pytest.param(d, marks=pytest.mark.exhaustive_on("c"))
    for d in TILED_DTYPES])
def test_tiled_kernels_match_numpy(backend, shape, axes, dtype, monkeypatch):
    """Every element once, at its place, whatever the tile edges (sizes off the tile size, a
    parallel dim split in chunks across threads). (Every case's C kernels compile in one unit,
    tests/together.py.)"""
    from lazyarray.runtime.c import backend as c_backend

    monkeypatch.setattr(c_backend, "PARALLEL_THRESHOLD", 256)
    held: list = []
    compile_together(_COMPILED, (backend, np.dtype(dtype).name), [
        lambda s=s: _tiled(*s, dtype, held) for s in TILED_SHAPES])
    del held
    src = (rng.standard_normal(shape) * 50).astype(dtype)
    other = (rng.standard_normal(tuple(shape[i] for i in axes)) * 50).astype(dtype)
    a, b = la.array(src), la.array(other)
    y = la.permute_dims(a, axes) + b
    z = la.permute_dims(a, axes) * 3
    la.eval(y, z)
    np.testing.assert_array_equal(np.asarray(y), np.transpose(src, axes) + other)
    np.testing.assert_array_equal(np.asarray(z), np.transpose(src, axes) * 3)


def test_a_tiled_function_gives_the_bits_of_the_untiled_one(backend):
    """exp over a transposed read (tiled, vector body and scalar tails at tile edges) has the bits
    of exp over the contiguous copy (one implementation per function, issue 9)."""
    x = rng.standard_normal((67, 45)).astype(np.float32) * 10
    tiled = np.asarray(la.tanh(la.exp(la.array(x).T)))
    straight = np.asarray(la.tanh(la.exp(la.array(np.ascontiguousarray(x.T)))))
    np.testing.assert_array_equal(tiled, straight)


def test_triu_and_tril_read_one_cached_mask(backend):
    """`np.triu(x, 1)` is a `where` over one cached read-only mask per (shape, k): built from two
    aranges each call it was ~8 nodes and two host arrays (nbody's energy each step). Values as
    NumPy's for every k, batched inputs and 1-d rows; a non-integer k raises."""
    from lazyarray.graph.node import built_count
    x = rng.standard_normal((2, 5, 7))
    lx = la.asarray(x)
    for k in (-9, -2, 0, 1, 3, 8, np.int64(2)):
        for name in ("triu", "tril"):
            nodes = built_count()
            got = getattr(la, name)(lx, k)
            assert built_count() - nodes <= 4  # the mask leaf, the zero, where (and its cast)
            np.testing.assert_array_equal(np.asarray(got), getattr(np, name)(x, k))
    np.testing.assert_array_equal(np.asarray(la.tril(la.asarray(x[0, 0]))), np.tril(x[0, 0]))
    with pytest.raises(TypeError):
        la.triu(lx, 1.5)


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_computed_elements_as_indices_take_the_int_paths(backend):
    """`i, j = sites[k]; spins[i, j] *= -1` (a Metropolis sweep): iterating a view of a computed
    buffer runs no plan, computed elements index as ints (NumPy's scalars: basic indices) in the
    compiled getitem, and the write goes into the buffer with no scatter node: the general paths
    cost ~36, ~8 and ~25 us a statement. Values, NumPy's."""
    with la.config(eager_size=4096):  # (this module runs lazy: tests/conftest.py)
        _flip_sites()


def _flip_sites():
    spins0 = np.where(rng.random((6, 5)) < 0.5, -1, 1).astype(np.int8)
    sites = rng.integers(-5, 5, (12, 2))
    spins, want = la.asarray(spins0) * np.int8(1), spins0.copy()
    la.eval(spins)
    lsites = la.asarray(sites) * 1
    la.eval(lsites)
    plans = la.cache_info().plans_built + la.cache_info().plan_hits
    for k in range(len(sites)):
        i, j = lsites[k]
        ni, nj = sites[k]
        assert _nodes_of(lambda: spins[i, j]) == _nodes_of(lambda: spins[int(ni), int(nj)])
        assert int(spins[i, j]) == int(want[ni, nj])
        spins[i, j] *= -1
        want[ni, nj] *= -1
    A0 = rng.random((6, 4))
    A, wantA = la.asarray(A0) * 1.0, A0.copy()
    la.eval(A)
    plans += 1  # (A's own evaluation)
    for i in range(4):  # a row swap by a list of a computed element and an int
        k = i + la.argmax(la.abs(A[i:, 0]))
        nk = i + np.argmax(np.abs(wantA[i:, 0]))
        nodes = _nodes_of(lambda: A[[k, i]])
        assert nodes <= 1, nodes  # (the result's leaf; the general path built a take's nodes)
        A[[i, k]] = A[[k, i]]
        wantA[[i, nk]] = wantA[[nk, i]]
    info = la.cache_info()
    assert info.plans_built + info.plan_hits == plans
    np.testing.assert_array_equal(np.asarray(spins), want)
    np.testing.assert_array_equal(np.asarray(A), wantA)


def _nodes_of(f):
    from lazyarray.graph.node import built_count
    before = built_count()
    f()
    return built_count() - before


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_bool_and_small_int_slice_writes_go_into_the_buffer(backend):
    """A sieve's `is_prime[i * i::i] = False` and `counts[a:b] = 7` into int8 write the buffer
    at once (eager._basic_write takes a Python bool into bool and a Python int into any integer
    dtype that holds it): each stride was a scatter, and the element read `if is_prime[i]` then
    ran a new plan per stride (90 plans a call at 2,000,000). Out of range: NumPy's
    OverflowError at the line, nothing written."""
    with la.config(eager_size=4096):  # (this module runs lazy: tests/conftest.py)
        n = 5000
        sieve, want = la.ones(n + 1, dtype=bool), np.ones(n + 1, dtype=bool)
        sieve[:2], want[:2] = False, False
        plans = la.cache_info().plans_built + la.cache_info().plan_hits
        for i in range(2, int(n ** 0.5) + 1):
            if sieve[i]:
                sieve[i * i::i] = False
            if want[i]:
                want[i * i::i] = False
        info = la.cache_info()
        assert info.plans_built + info.plan_hits == plans
        np.testing.assert_array_equal(np.asarray(sieve), want)
        counts, wc = la.zeros(9, dtype=la.int8), np.zeros(9, np.int8)
        counts[2:5], wc[2:5] = 7, 7
        with pytest.raises(OverflowError) as info:
            counts[1:3] = 300
        assert "test_speed_levers.py" in notes_of(info)
        np.testing.assert_array_equal(np.asarray(counts), wc)


def test_roll_of_a_1d_array_without_axis_takes_no_reshapes(monkeypatch):
    """np.roll(v, s) of a 1-D v is the roll along axis 0 (v is its own flattening): no flattening
    and unflattening reshapes, ~40 us each on a computed buffer at once (two view layouts and
    their links; automaton rolls its row twice a step: 36 -> 21 ms a call); a 2-D roll without
    axis still flattens; values as NumPy's."""
    import lazyarray.shaping as shaping

    calls = []
    real = shaping.reshape
    monkeypatch.setattr(shaping, "reshape", lambda *a, **k: calls.append(a) or real(*a, **k))
    v = np.arange(4000, dtype=np.uint8)
    lv = la.asarray(v)
    for shift in (1, -1, 4001, [1, 2], 0, np.int64(3)):
        np.testing.assert_array_equal(np.asarray(la.roll(lv, shift)), np.roll(v, shift))
    assert not calls
    m = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(np.asarray(la.roll(la.asarray(m), 5)), np.roll(m, 5))
    assert len(calls) == 2


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_abs_of_an_integer_element_is_computed_in_c(backend):
    """`min(abs(x) for x in v)` of int32/int64 elements: NumPy's integer absolute in C (the most
    negative value wraps to itself, no flag), no node: the general path built and ran one per
    element (~1.3 us, NumPy's 0.07)."""
    from lazyarray.graph.node import built_count
    with la.config(eager_size=4096):  # (this module runs lazy: tests/conftest.py)
        for dtype in (np.int32, np.int64):
            info = np.iinfo(dtype)
            values = np.array([-5, 3, info.min, info.max, 0, -1], dtype)
            for x, want in zip(la.asarray(values), np.abs(values)):
                before = built_count()
                got = abs(x)
                assert built_count() == before
                assert got.dtype == want.dtype and int(got) == int(want)


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_an_array_of_computed_elements_is_an_at_once_value(backend):
    """`k = np.array([s * (y - x), x * y - z])` of elements computed at once (rk4's right-hand
    side) is such a value itself: the next small op on it computes at once, one op at a time.
    A plain leaf left `k1 + 2 * k2 + ...` pending until a computed operand (`h / 6 *`) made the
    rule walk the whole chain: ~24 us a line where NumPy takes 3."""
    with la.config(eager_size=4096):  # (this module runs lazy: tests/conftest.py)
        for xp in (np, la):
            Y = xp.asarray(np.array([[1.0, 2.0, 4.0], [0.5, 0.25, 8.0]]))
            x, y, z = Y[0]
            k = xp.array([10.0 * (y - x), x * (28.0 - z) - y, x * y - 8 / 3 * z])
            f32 = xp.array([x, z], dtype=np.float32)
            total = k + 2 * k
            if xp is la:
                assert not total._node.inputs  # computed at once, before a walk could
            out = (Y[1] + 0.5 * total, f32 * 2)
            if xp is la:
                assert not out[0]._node.inputs and not out[1]._node.inputs
                got = out
            else:
                want = out
        for g, w in zip(got, want):
            assert np.asarray(g).dtype == w.dtype
            np.testing.assert_array_equal(np.asarray(g), w)


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_writes_into_a_fresh_fill_and_ints_into_bools_build_no_node(backend):
    """`N = np.zeros_like(G); N[1:-1, 1:-1] = ...` (maze's sweep) writes the fill's buffer, made
    at the write; `Z[y, x] = 1` into a bool maze stores the int's truth (NumPy's, 2**70 too), in
    C: the general path built a scatter over the fill (~30 us) and a scatter per int (~12 us).
    A fill that another Array reads, or a view of, keeps its value."""
    from lazyarray.graph.node import built_count
    with la.config(eager_size=4096):  # (this module runs lazy: tests/conftest.py)
        got = []
        for xp in (np, la):
            G = xp.asarray(np.arange(30.0).reshape(5, 6))
            N = xp.zeros_like(G)
            reader = xp.zeros((3, 3))
            other = reader + 1  # reads the fill: the write must not change it
            row = (xp.zeros((3, 3)), None)
            row = (row[0], row[0][1])  # a view of the fill
            Z = xp.zeros((4, 4), dtype=bool)
            part = G[:-2, 1:-1]
            before = built_count()
            N[1:-1, 1:-1] = part
            for v in (1, 5, -1, 2**70, 0):
                Z[1, 2] = v
                Z[2, 1] = v if v else 3
            if xp is la:
                assert built_count() == before  # no node: both went into buffers
            reader[0] = 9.0
            row[0][1, 1] = 4.0
            got.append([np.asarray(a).tolist() for a in (N, Z, reader, other, row[0], row[1])])
        assert got[0] == got[1]
