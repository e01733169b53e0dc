"""Background compiles (runtime/c/tiered.py, c_background.py): a C plan runs through the NumPy
executor until its kernels arrive, and both executors give the same bits, so a loop may switch
between them at any iteration (issue 9: one value, one bit pattern)."""

import threading

import c_programs as P
from conftest import fresh_kernel_memory
import numpy as np
import pytest
from lazyarray.graph import all_ops
from lazyarray.passes import optimize
from lazyarray.runtime.c import background as c_background, compiler as c_compiler
from lazyarray.runtime.c import backend as c_backend, quick as c_quick, tiered as c_tiered
from lazyarray.runtime.c.backend import CBackend
from lazyarray.runtime.c.tiered import FlatProgram, TieredPlan, run_interpreted, runs_same_bits
from lazyarray.runtime.compile_stats import CompileForbidden
from test_loops import LOOPS

import lazyarray as la

pytestmark = pytest.mark.skipif(CBackend.unavailable_reason() is not None,
                                reason="no working C compiler")

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64")
WAIT_S = 120  # bounded waits: a hung compiler fails the test instead of hanging it


def same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal bit patterns, -0.0 distinct from 0.0; any NaN equals any NaN (docs/semantics.md)."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if want.dtype.kind != "f":
        return bool(np.array_equal(got, want))
    nan = np.isnan(want)
    uint = np.uint32 if want.dtype == np.float32 else np.uint64
    return bool(np.array_equal(np.isnan(got), nan)
                and np.array_equal(got[~nan].view(uint), want[~nan].view(uint)))


def numpy_case(op, xs: list) -> tuple | None:
    """(op name, operands, NumPy's result dtype) for a sweep of an op's bits, or None where NumPy
    refuses the operands or the result is not a real number of a kind C computes as NumPy does
    (float16 plans run on NumPy's half loops, never in C)."""
    try:
        with np.errstate(all="ignore"):
            out = np.asarray(op.reference(tuple(xs), (), xs[-1].dtype))
    except TypeError:
        return None
    if out.dtype.kind in "biuf" and out.dtype != np.float16:
        return op.name, xs, out.dtype
    return None


def _edge_values(dtype: str) -> np.ndarray:
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.array([False, True])
    if dt.kind in "iu":
        info, bits = np.iinfo(dt), dt.itemsize * 8
        vals = [0, 1, -1, 2, -2, 7, -7, 3, info.min, info.max, info.min + 1, info.max - 1,
                bits - 1, bits, bits + 1, 100, -100]
        return np.array([v for v in vals if info.min <= v <= info.max], dt)
    info = np.finfo(dt)
    return np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 7.0, -3.0, 1e30, -1e30,
                     np.inf, -np.inf, np.nan, info.max, -info.max, info.tiny,
                     info.smallest_subnormal, -info.smallest_subnormal, 2.0**31, -2.0**63,
                     255.5, -128.5], dt)


def _operands(op, dtype: str) -> list[np.ndarray] | None:
    """Every combination of edge values for the op's arity, or None where the op does not take
    this dtype in C (no template) or its reference refuses it."""
    kind = np.dtype(dtype).kind
    if "numpy_bits" not in op.properties and kind not in "iu":
        return None
    if op.template(kind) is None:
        return None
    v = _edge_values(dtype)
    if op.name == "where":
        c, a, b = np.meshgrid(np.array([False, True]), v, v[::-1])
        return [c.ravel(), a.ravel(), b.ravel()]
    if op.arity == 1:
        return [v]
    a, b = np.meshgrid(v, v)
    return [a.ravel(), b.ravel()]


def _cases(dtypes=DTYPES):
    """(name, inputs, output dtype) for every op marked numpy_bits(_integer) and dtype it takes,
    and every cast between two real dtypes."""
    cases = []
    for op in all_ops():
        if not {"numpy_bits", "numpy_bits_integer"} & op.properties or op.name == "cast":
            continue
        for dtype in dtypes:
            xs = _operands(op, dtype)
            case = None if xs is None else numpy_case(op, xs)
            if case is not None:
                cases.append(case)
    for src in dtypes:
        for dst in dtypes:  # float sources too (float->int->float: see the test below)
            cases.append(("cast", [_edge_values(src)], np.dtype(dst)))
    return cases


@pytest.fixture
def kernel_dir(tmp_path):
    """A fresh kernel cache: for evaluations (the setting) and direct backend calls."""
    saved = c_compiler.cache_dir_override
    c_compiler.cache_dir_override = str(tmp_path)
    with la.config(cache_dir=str(tmp_path)), fresh_kernel_memory():
        yield tmp_path
    c_compiler.cache_dir_override = saved


@pytest.mark.parametrize("dtypes", [
    ("int8", "float32", "float64"),  # fast tier: ~4 s cold
    pytest.param(DTYPES, marks=pytest.mark.exhaustive)])  # every dtype: one ~11 s compile
def test_every_numpy_bits_op_gives_the_same_bits_in_both_executors(kernel_dir, dtypes):
    """Each marked op on every dtype it takes, over all pairs of edge values (NaN, ±inf, -0.0,
    subnormals, integer extremes, shifts past the width, division by zero): C, the flat
    executor and kernel_numpy agree bit for bit. One program, one compile."""
    cases = _cases(dtypes)
    assert {"add", "sqrt", "cast", "where", "floor_divide", "bitwise_left_shift"} <= {
        c[0] for c in cases}
    programs = [P.elementwise_program(name, [x.dtype for x in xs], out, xs[0].size)
                for name, xs, out in cases]
    merged = P.merge_programs(programs)
    inputs = [x for _, xs, _ in cases for x in xs]
    compiled = CBackend().compile(merged).run(inputs, [])
    flat = FlatProgram(merged).run(inputs, [])
    stepwise = run_interpreted(merged, inputs, [])
    bad = [f"{name}({', '.join(str(x.dtype) for x in xs)}) -> {out}"
           for (name, xs, out), c, f, s in zip(cases, compiled, flat, stepwise)
           if not (same_bits(f, c) and same_bits(s, c))]
    assert not bad, bad


def test_transcendentals_float_extremes_and_complex_wait_for_the_compiler():
    x = la.array(np.linspace(-1, 1, 8, dtype=np.float32))
    z = la.array(np.ones(4, np.complex64))
    i = la.array(np.arange(8, dtype=np.int32))
    h = la.array(np.ones(8, np.float16))
    for y in (la.exp(x) + 1, la.tanh(x), la.max(x + 1), la.min(x, axis=0), z * z, x ** 1.5,
              la.sum(z), la.max(h)):
        assert not runs_same_bits(optimize(_graph(y)))
    for y in (x * 2 + 1, la.where(x > 0, x, -x), la.sqrt(la.abs(x)) / 3, la.maximum(i, 3) // 3,
              i.astype(np.float32) * x, x.astype(np.int32),
              x.astype(np.int16).astype(np.float32),
              # reductions whose C fold order runtime/c/fold.py replays, or no order changes
              la.sum(x * 2), la.mean(x), la.prod(x), la.var(x), la.sum(i), la.max(i),
              la.argmax(x), la.any(x > 0), la.sum(x > 0),
              la.maximum(x, 0.0), la.minimum(-0.0, x), la.nn.relu(x) * 2):
        assert runs_same_bits(optimize(_graph(y)))


def _graph(y):
    from lazyarray.graph import Graph

    return Graph([y._node])


def _random_graph(seed: int) -> list:
    """A random chain of eligible ops over adversarial float32/float64 inputs, with broadcasting
    and weak Python scalars; the same seed builds the same graph over the same data."""
    from graph_strategies import adversarial

    rng = np.random.default_rng(seed)
    dtype = (np.float32, np.float64)[seed % 2]
    pool = [la.array(adversarial(rng, dtype, (3, 4))), la.array(adversarial(rng, dtype, (4,))),
            la.array(adversarial(rng, dtype, (3, 1)))]
    unary = [la.negative, la.abs, la.square, lambda a: la.sqrt(la.abs(a)), la.floor, la.trunc,
             la.ceil, la.rint, lambda a: 1.0 / a]
    binary = [la.add, la.subtract, la.multiply, la.divide, lambda a, b: la.where(a > b, a, b - 0.5),
              lambda a, b: a * 0.3 + b, lambda a, b: la.where((a <= b) | (a != a), a, -b)]
    for _ in range(int(rng.integers(3, 9))):
        if rng.random() < 0.4:
            made = unary[int(rng.integers(len(unary)))](pool[int(rng.integers(len(pool)))])
        else:
            a, b = (pool[int(i)] for i in rng.integers(len(pool), size=2))
            made = binary[int(rng.integers(len(binary)))](a, b)
        pool.append(made)
    return pool[-2:]


@pytest.fixture
def background(kernel_dir):
    """Background compiles on, empty caches; every compile finished afterwards."""
    la.clear_caches()
    with la.config(background_compiles=True):
        yield
    assert la.wait_for_compiles(WAIT_S)
    la.clear_caches()


@pytest.mark.parametrize("seeds", [range(0, 12, 2),  # (~0.7 s of gcc a graph: half exhaustive)
                                   pytest.param(range(1, 12, 2), marks=pytest.mark.exhaustive)])
def test_random_graphs_keep_their_bits_when_the_compiled_kernels_arrive(background, seeds):
    """Each graph runs interpreted first (its compile queued), then compiled: the same bits."""
    with hold_the_compiler():
        with np.errstate(all="ignore"):
            first = [[np.asarray(a) for a in la.eval(*_random_graph(s))] for s in seeds]
        interpreted = la.cache_info().interpreted_runs
        assert interpreted >= len(seeds) - 2, interpreted  # all but graphs folded to no kernel
    with np.errstate(all="ignore"):
        second = [[np.asarray(a) for a in la.eval(*_random_graph(s))] for s in seeds]
    assert la.cache_info().interpreted_runs == interpreted  # the second round ran compiled
    for s, (xs, ys) in enumerate(zip(first, second)):
        for x, y in zip(xs, ys):
            assert same_bits(x, y), s


class hold_the_compiler:
    """Keeps the background compiler from finishing until the block exits (bounded), so that
    which executor runs is certain; counts the worker's compile calls."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls: list[list[str]] = []

    def __enter__(self):
        real = c_compiler.load_kernels

        def held(kernels, header, keys=None):
            self.calls.append([symbol for symbol, _ in kernels])
            self.release.wait(WAIT_S)
            return real(kernels, header, keys)

        self._real = real
        c_background.c_compiler = _Patched(held)
        return self

    def __exit__(self, *exc):
        self.release.set()
        assert la.wait_for_compiles(WAIT_S)
        c_background.c_compiler = c_compiler


class _Patched:
    def __init__(self, load_kernels):
        self.load_kernels = load_kernels


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_loops_give_the_same_bits_with_and_without_background_compiles(name, kernel_dir):
    fn, k = LOOPS[name]
    start = [np.linspace(0.5, 1.0, 8, dtype=np.float32) + i for i in range(k)]
    results = []
    for background in (True, False):  # compiling first: the second run finds the kernels
        la.clear_caches()
        with la.config(background_compiles=background, max_graph_nodes=60):
            results.append([np.asarray(a) for a in la.eval(*fn(la, *map(la.array, start), 150))])
            info = la.cache_info()
            assert info.plans_built <= 3
            assert (info.kernels_queued > 0) == background
        assert la.wait_for_compiles(WAIT_S)
    for got, want in zip(*results):
        assert same_bits(got, want)


def test_a_plan_switches_to_its_kernels_once_they_arrive(background):
    x = la.array(np.arange(8, dtype=np.float32))
    with hold_the_compiler():
        y = np.asarray(x * 3.0 - 1.0)
        info = la.cache_info()
        assert (info.interpreted_runs, info.kernels_queued, info.kernels_compiled) == (1, 1, 0)
        assert info.kernels_compiling == 1
    assert la.cache_info().kernels_compiled == 1
    z = np.asarray(x * 3.0 - 1.0)
    info = la.cache_info()
    assert (info.interpreted_runs, info.plan_hits, info.kernels_compiling) == (1, 1, 0)
    assert same_bits(y, z)


def test_queued_kernels_compile_together_and_once(background):
    """What queues while the compiler runs goes into its next translation unit; a kernel already
    queued is not queued again."""
    x = la.array(np.arange(8, dtype=np.float32))
    with hold_the_compiler() as held:
        np.asarray(x + 1.0)  # the worker takes this one and is held
        for _ in range(WAIT_S * 100):
            if held.calls:
                break
            held.release.wait(0.01)
        np.asarray(x * 2.0)
        np.asarray(x - 3.0)
        np.asarray(x * 2.0)  # a plan hit: nothing new
        source = ("la_k_test", "void la_k_test(void) {}")
        futures = c_background.submit([source, source], ["", ""], lambda fns: "\n".join(fns))
        assert futures[0] is futures[1]
    assert [len(c) for c in held.calls] == [1, 3], held.calls
    assert la.cache_info().kernels_queued == 3


def test_programs_that_would_change_bits_are_not_interpreted(background):
    """They run on quick builds of their kernels instead (tests/test_c_quick.py)."""
    x = la.array(np.linspace(-1, 1, 8, dtype=np.float32))
    with hold_the_compiler():
        np.asarray(la.exp(x) * 2.0)
        info = la.cache_info()
        assert (info.kernels_queued, info.interpreted_runs, info.stand_in_runs) == (1, 0, 1)


def test_large_programs_are_not_interpreted(background, monkeypatch):
    monkeypatch.setattr(c_tiered, "INTERPRET_MAX_WORK", 100)
    with hold_the_compiler():
        np.asarray(la.array(np.ones(200, np.float32)) + 1.0)
        info = la.cache_info()
        assert (info.kernels_queued, info.interpreted_runs, info.stand_in_runs) == (1, 0, 1)


def test_forbid_compiles_still_raises(background):
    with la.config(forbid_compiles=True), pytest.raises(CompileForbidden):
        np.asarray(la.array(np.ones(8, np.float32)) * 5.0 + 7.0)


def test_off_compiles_before_running(kernel_dir):
    la.clear_caches()
    with la.config(background_compiles=False):
        np.asarray(la.array(np.ones(8, np.float32)) * 5.0 + 9.0)
    info = la.cache_info()
    assert (info.kernels_queued, info.kernels_compiled, info.interpreted_runs) == (0, 1, 0)


def test_a_failed_compile_reaches_the_plan(background, monkeypatch):
    def broken(kernels, header, keys=None):
        raise c_compiler.CompileError("the compiler rejected generated code (test)")

    monkeypatch.setattr(c_background, "c_compiler", _Patched(broken))
    x = la.array(np.ones(8, np.float32))
    np.testing.assert_array_equal(np.asarray(x * 6.0), np.full(8, 6.0, np.float32))
    assert la.wait_for_compiles(WAIT_S)
    with pytest.raises(c_compiler.CompileError):
        np.asarray(la.array(np.ones(8, np.float32)) * 6.0)


def test_tiered_plan_reports_workspace_and_state(kernel_dir, monkeypatch):
    monkeypatch.setattr(c_backend, "background_compiles", True)
    x = la.array(np.ones((8, 8), np.float32))
    program = optimize(_graph(la.max(x * 2.0, axis=1)[:, None] * (x + 1.0)))
    with hold_the_compiler():
        plan = CBackend().compile_without_waiting(optimize(_graph(x * 2.0 + 1.0)))
        assert isinstance(plan, TieredPlan) and not plan.compiled
    assert plan.compiled
    assert plan.workspace_bytes == plan._ready().workspace_bytes
    monkeypatch.setattr(c_quick, "QUICK_MAX_COST", -1)  # no quick builds: compiled at once
    assert not isinstance(CBackend().compile_without_waiting(program), TieredPlan)



@pytest.mark.parametrize("ft,it", [("float32", "int32"), ("float64", "int64"),
                                   ("float32", "uint8"), ("float64", "int16")])
@pytest.mark.parametrize("n", [7, 53])  # scalar tail only; vector body and tail
def test_float_to_int_to_float_is_never_negative_zero(kernel_dir, ft, it, n):
    """gcc folds (float)(int)x into trunc(x) in the scalar tail (-0.3 -> -0.0, NumPy +0.0)."""
    x = np.resize(np.array([-0.3, -1e-30, -0.0, 0.7, -2.5, -0.999, 3.5, 0.999], ft), n)
    if it == "uint8":
        x = np.abs(x)
    la.clear_caches()
    with la.config(backend="c", background_compiles=False):
        got = np.asarray(la.array(x).astype(it).astype(ft) * la.array(-x))
    assert same_bits(got, x.astype(it).astype(ft) * -x)


def test_jit_calls_run_interpreted_then_compiled_with_the_same_bits(background):
    f = la.jit(lambda a, s: (a * s - 1.0) / (a + 2.0))
    x = la.array(np.linspace(-3, 3, 16, dtype=np.float32))
    with hold_the_compiler():
        first = [np.asarray(f(x, s)) for s in (0.5, 1.5)]
        assert la.cache_info().interpreted_runs == 2
    second = [np.asarray(f(x, s)) for s in (0.5, 1.5)]
    info = la.cache_info()
    assert (info.interpreted_runs, info.jit_traces) == (2, 1)
    assert all(same_bits(a, b) for a, b in zip(first, second))


def test_a_blocking_compile_waits_for_the_same_kernel_queued(background, monkeypatch):
    """A size-generic plan's first size is small (queued), its next one large (compiled at
    once): the large one waits for the queued kernel instead of compiling it again."""
    monkeypatch.setattr(c_tiered, "INTERPRET_MAX_WORK", 1000)
    monkeypatch.setattr(c_quick, "QUICK_MAX_COST", 1000)
    with hold_the_compiler() as held:
        small = np.asarray(la.array(np.ones(10, np.float32)) * 4.0 - 1.0)
        releaser = threading.Timer(0.2, held.release.set)
        releaser.start()
        large = np.asarray(la.array(np.ones(5000, np.float32)) * 4.0 - 1.0)
        releaser.join(WAIT_S)
    info = la.cache_info()
    assert (info.kernels_queued, info.kernels_compiled, info.interpreted_runs) == (1, 1, 1)
    assert (small == 3).all() and (large == 3).all()


REDUCTION_DTYPES = (np.float32, np.float64, np.int8, np.uint16, np.int64, np.bool_)


def _reduction_cases(seed: int, dtypes=REDUCTION_DTYPES) -> list:
    """Reductions runtime/c/fold.py replays, over lengths around the lane count, strided and
    transposed rows (no collapse), partial axes of 3-d arrays, a split full reduction."""
    from graph_strategies import adversarial

    rng = np.random.default_rng(seed)
    out = []
    for dt in dtypes:
        for n in (1, 7, 8, 9, 19, 70):
            if dt == np.bool_:
                a = la.array(rng.random(n) > 0.5)
            elif np.dtype(dt).kind == "f":
                a = la.array(adversarial(rng, dt, (n,)) if seed % 2 else
                             rng.standard_normal(n).astype(dt) * 1e3)
            else:
                a = la.array(rng.integers(-100, 100, n).astype(dt))
            out += [la.sum(a), la.prod(a[:6]), la.argmax(a), la.sum(a * 3)]
        for shape, axis in (((5, 19), 1), ((5, 19), 0), ((19, 5), None), ((3, 4, 11), (0, 2)),
                            ((3, 4, 11), (1, 2)), ((6, 9), -1)):
            x = rng.standard_normal(shape) * 100
            a = la.array(x > 0 if dt == np.bool_ else x.astype(dt))
            t = la.permute_dims(a, tuple(reversed(range(a.ndim))))
            out += [la.sum(a, axis=axis), la.sum(t, axis=axis), la.sum(a[..., ::2], axis=axis)]
            if np.dtype(dt).kind == "f":
                out += [la.mean(a * 2 + 1, axis=axis), la.var(a, axis=axis),
                        a / la.sum(a, axis=-1, keepdims=True) - 1]  # a kept row
    big = la.array(rng.standard_normal(3000).astype(np.float32))
    out += [la.sum(big), la.mean((big - 1) ** 2)]  # split in chunks (threshold patched below)
    return out


@pytest.mark.parametrize(("seed", "dtypes"), [  # one unit of every case: ~10 s to compile
    pytest.param(1, (np.float32, np.int8, np.bool_),  # a sample (~9 s cold: the fast tier
                 marks=pytest.mark.exhaustive),  # keeps test_float64_sums_are_numpys_pairwise_...
    pytest.param(1, REDUCTION_DTYPES, marks=pytest.mark.exhaustive),
    pytest.param(0, REDUCTION_DTYPES, marks=pytest.mark.exhaustive)], ids=["1-sample", "1", "0"])
def test_replayed_reductions_keep_their_bits_when_the_compiled_kernels_arrive(background,
                                                                            monkeypatch, seed,
                                                                            dtypes):
    """Float sums and products (mean, var, a row over its sum) run interpreted in C's fold
    order, then compiled: the same bits, for the same seed (1: adversarial values); and since
    stop 50 (float32 and complex trees, blocks, memory order) NumPy's bits in every case (what
    the numpy backend gives: NumPy's own reductions); until then C's lanes differed somewhere."""
    monkeypatch.setattr(c_backend, "PARALLEL_THRESHOLD", 1024)
    with hold_the_compiler():
        with np.errstate(all="ignore"):
            first = [np.asarray(y) for y in la.eval(*_reduction_cases(seed, dtypes))]
        assert la.cache_info().interpreted_runs >= 1
    runs = la.cache_info().interpreted_runs
    with np.errstate(all="ignore"):
        second = [np.asarray(y) for y in la.eval(*_reduction_cases(seed, dtypes))]
    assert la.cache_info().interpreted_runs == runs  # the second ran compiled
    bad = [k for k, (a, b) in enumerate(zip(first, second)) if not same_bits(a, b)]
    assert not bad, bad
    with la.config(backend="numpy"), np.errstate(all="ignore"):
        pairwise = [np.asarray(y) for y in la.eval(*_reduction_cases(seed, dtypes))]
    off = [k for k, (a, b) in enumerate(zip(first, pairwise)) if not same_bits(a, b)]
    assert not off, off


_PAIRWISE_SHAPES = [((1,), None), ((7,), None), ((8,), None), ((129,), None), ((1000,), None),
                    ((4099,), None), ((1, 377), None), ((6, 300), 1), ((6, 300), None),
                    ((3, 4, 50), (1, 2)), ((2, 3, 70), -1), ((5, 3, 9), None), ((40, 7), None),
                    ((3, 11, 13), None)]


def _pairwise_cases():
    """Each dtype on a third of the shapes in the fast tier, offset per dtype so that every
    shape runs in some dtype (each tree's small, block and split branches), the rest
    exhaustive."""
    for d, dt in enumerate(("float64", "float32", "complex128", "complex64")):
        for k, (shape, axis) in enumerate(_PAIRWISE_SHAPES):
            marks = () if (k + d) % 3 == 0 else (pytest.mark.exhaustive,)
            yield pytest.param(dt, shape, axis, marks=marks)


@pytest.mark.parametrize("dtype, shape, axis", _pairwise_cases())
def test_sums_are_numpys_pairwise_sums_bit_for_bit(dtype, shape, axis):
    """The C backend sums float and complex values over trailing axes in NumPy's pairwise order
    and in their own dtype (runtime/c/printer.py `emit_pairwise`, replayed by runtime/c/fold.py
    while a float kernel compiles): `np.sum`, a row sum, a sum of products and a mean give
    NumPy's bits, and a product NumPy's in-order `multiply.reduce` (emit_sequential), on the
    tiered first run and on the compiled kernel alike. Several inner dims: the lanes' indices
    by carries from a chunk's start, or by a division per value where the last dim is shorter
    than the lanes. float32 summed in float64 lanes and complex in 8 lanes (before stop 50)
    were a last bit off NumPy's on most rows; complex64's mean divides in complex128, as
    NumPy's by its intp count."""
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape) * 10.0 ** rng.integers(-5, 5, shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape) * 10.0 ** rng.integers(-5, 5, shape)
    x = x.astype(dtype)
    x.flat[0] = -0.0
    p = 1.0 + x * 1e-3
    want = [np.sum(x, axis=axis), np.sum(x * x, axis=axis), np.mean(x, axis=axis),
            np.prod(p, axis=axis), np.sum(x * x[..., :1], axis=axis)]
    with la.config(backend="c", eager_size=0):
        for _ in range(2):  # tiered (or compiled), then compiled once the compile is done
            X = la.asarray(x)
            got = [la.sum(X, axis=axis), la.sum(X * X, axis=axis), la.mean(X, axis=axis),
                   la.prod(la.asarray(p), axis=axis), la.sum(X * X[..., :1], axis=axis)]
            for g, w in zip(got, want):
                assert np.asarray(g).tobytes() == np.asarray(w).tobytes(), (shape, axis)
            la.block_until_ready(got)
            c_background.wait_for_compiles(WAIT_S)
