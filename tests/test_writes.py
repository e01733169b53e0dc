"""Writes as NumPy code makes them (lazyarray/writes.py): `x op= y` writes the handle, views write
through to their base and see its writes, `x.shape = s`, read-only views. Every case runs the same
code on NumPy and on lazyarray (each backend) and compares every handle afterwards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from numpy_oracle import ULPS, assert_matches, backend_ulps
from together import compile_together

import lazyarray as la


def _run_both(program, make):
    """`program(xp, *args)` on NumPy arrays and on Arrays of the same values; returns both results
    and both argument lists (NumPy's, lazyarray's)."""
    np_args = [a.copy() for a in make()]
    la_args = [la.asarray(a) for a in make()]
    want = program(np, *np_args)
    got = program(la, *la_args)
    return want, got, np_args, la_args


def _check(program, make):
    """The programs' values and mutated arguments as NumPy's (their `xp.dot` is cuBLAS's on a
    GPU: numpy_oracle.DEVICE_ULPS)."""
    want, got, np_args, la_args = _run_both(program, make)
    ulps = backend_ulps(ULPS)
    for w, g in zip(np_args, la_args):
        assert_matches(g, w, ulps)
    if want is not None:
        for w, g in zip(want if isinstance(want, tuple) else (want,),
                        got if isinstance(got, tuple) else (got,)):
            assert_matches(g, np.asarray(w), ulps)


def _matrix():
    return [np.arange(24.0).reshape(4, 6)]


# --- augmented assignment ------------------------------------------------------------------------


def _kernel(xp, alpha, A, x, w):
    """A BLAS-style update of its arguments (gemver's shape): the caller's arrays change."""
    u = xp.arange(A.shape[0], dtype=A.dtype)
    A += xp.outer(u, u)
    x += 0.5 * (A @ x)
    w *= alpha
    return None


def test_function_updates_its_arguments(backend):
    def make():
        return [np.arange(16.0).reshape(4, 4), np.linspace(0, 1, 4), np.ones(4)]

    want, got, np_args, la_args = _run_both(lambda xp, *a: _kernel(xp, 1.5, *a), make)
    for w, g in zip(np_args, la_args):
        assert_matches(g, w)


_OPS = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>="]
_DTYPES = [np.bool_, np.int8, np.int64, np.uint8, np.float32, np.float64, np.complex64]
_OTHERS = [2, 1.5, True, np.float64(2.0), "int64", "float64", "float32"]


def _operand(other, shape):
    if isinstance(other, str):
        return (np.arange(int(np.prod(shape))).reshape(shape) % 3 + 1).astype(other)
    return other


@pytest.mark.parametrize("dtype", _DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", _OPS)
def test_inplace_operator_matches_numpy(reference_backend, op, dtype):
    """Each augmented operator x dtype x operand: NumPy's value and dtype, the same object, or
    NumPy's own exception (its casting rule 'same_kind' for in-place results)."""
    for other in _OTHERS:
        base = (np.arange(6).reshape(2, 3) % 4 + 1).astype(dtype)
        operand = _operand(other, base.shape)
        want, err = base.copy(), None
        try:
            with np.errstate(all="ignore"):
                exec(f"want {op} operand", {}, {"want": want, "operand": operand})
        except Exception as exc:  # noqa: BLE001 - NumPy's verdict is the oracle
            err = exc
        x = la.asarray(base)
        handle = x
        env = {"x": x, "operand": la.asarray(operand) if isinstance(operand, np.ndarray)
               else operand}
        if err is not None:
            with pytest.raises(type(err)):
                exec(f"x {op} operand", {}, env)
            assert_matches(x, base)  # nothing written
            continue
        exec(f"x {op} operand", {}, env)
        assert env["x"] is handle
        assert_matches(handle, want)


def test_inplace_keeps_dtype_and_shape_rules(backend):
    x = la.asarray(np.ones(3, np.float32))
    x += np.ones(3)  # float64 operand: the result is cast back, as NumPy's
    assert x.dtype == np.float32
    i = la.asarray(np.arange(3))
    with pytest.raises(TypeError, match="same_kind"):
        i += 1.5
    assert_matches(i, np.arange(3))
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        x += np.ones((2, 3))
    m = la.asarray(np.eye(2))
    m @= np.full((2, 2), 2.0)
    assert_matches(m, np.full((2, 2), 2.0))
    with pytest.raises(ValueError):
        m @= np.ones((2, 3))


@pytest.mark.parametrize("code", [
    "v = xp.asarray(np.zeros(5, bool))[:]; v %= xp.asarray(np.ones(4, np.uint8))",
    "v = xp.asarray(np.zeros((5, 2), np.int32)); w = v[:, 0]; w += xp.asarray(np.ones(4))",
    "v = xp.asarray(np.zeros((5, 2), np.int32)); w = v[:, 0]; w += xp.asarray(np.ones(4, np.int8))",
    "a = xp.asarray(np.ones((1, 1), bool)); a[0] //= a",
    "a = xp.asarray(np.ones(3, np.int32)); a += xp.asarray(np.ones((2, 3)))",
    "a = xp.asarray(np.ones(3)); a += xp.asarray(np.ones(4))",
    "a = xp.asarray(np.ones(3, np.int32)); a @= xp.asarray(np.ones((2, 3)))",
    "with xp.errstate(divide='raise'):\n a = xp.asarray(np.zeros(4, np.int8)); a[1] = 0\n"
    " v = abs(a[:])[1:2]\n v //= xp.maximum(a[3], a)",
])
def test_inplace_checks_the_cast_before_the_shapes(backend, code):
    """NumPy resolves `x op= y`'s loop and its cast before it broadcasts, and checks the
    output's shape before it computes: where both fail, the error is its UFuncTypeError, not
    the shapes' ValueError, and a shape it refuses is its ValueError, not the FloatingPointError
    of the value computed at once (tests/test_fuzz_at_once.py)."""
    def outcome(xp):
        try:
            exec(code, {"xp": xp, "np": np})
        except Exception as exc:  # noqa: BLE001: NumPy's exception type is the answer
            return type(exc).__name__
        return None
    assert outcome(la) == outcome(np)


def test_inplace_error_names_the_line(reference_backend):
    i = la.asarray(np.arange(3))
    with pytest.raises(TypeError) as info:
        i += 0.5
    assert "test_writes.py" in "".join(getattr(info.value, "__notes__", [])) + str(info.value)


# --- views write through, and see their base's writes ------------------------------------------


def _row_zero(xp, A):
    row = A[1]
    row[:] = 0


def _chained_index(xp, A):
    A[2][3] = -7.0
    A[0][1:3] = 5.0


def _transpose_write(xp, A):
    A.T[0] = 1.0
    xp.transpose(A)[1, 1:] += 2.0
    A.swapaxes(0, 1)[2] *= -1.0


def _column_tail(xp, A):
    A[:, 0][2:] += 1.0


def _reshape_view(xp, A):
    A.reshape(2, 12)[0] = 5.0
    A.ravel()[-1] = 9.0


def _reshape_copy(xp, A):
    v = A.T.reshape(-1)  # NumPy copies here: A must not change
    v[0] = 100.0
    w = A[:, ::2].ravel()  # and here
    w += 1.0
    return v, w


def _flatten_copy(xp, A):
    f = A.flatten()
    f[0] = -1.0
    return f


def _mask_through_view(xp, A):
    """Game of Life's write: Z[1:-1, 1:-1][birth | survive] = 1."""
    inner = A[1:-1, 1:-1]
    A[1:-1, 1:-1][(inner % 3 == 0) | (inner > 15)] = 1.0


def _view_sees_base_write(xp, A):
    row = A[1]
    col = A[:, 2]
    A[1, 2] = 77.0
    A += 1.0
    return row + 0, col * 1


def _view_of_view(xp, A):
    v = A[1:, ::2]
    w = v[1]
    w[0] = -5.0
    v[0, 1] += 10.0
    return w + 0, v + 0


def _index_loop(xp, A):
    """Cholesky-style updates: `A[i, j] -= dot(...)` is a view in place, then a setitem."""
    for i in range(A.shape[0]):
        for j in range(1, A.shape[1]):
            A[i, j] -= xp.dot(A[i, :j], A[i, :j]) * 0.001
            A[i, j] /= 2.0


def _moveaxis_expand_squeeze(xp, A):
    B = A.reshape(2, 2, 6)
    xp.moveaxis(B, 0, -1)[0, 0] = 3.0
    xp.expand_dims(A, 0)[0, 3] = 4.0
    xp.squeeze(A[None, :, None, :])[2, 5] = -4.0
    xp.flip(A, axis=0)[0] = 8.0


def _shape_setter(xp, A):
    v = A[::2]
    A.shape = (6, 4)
    A[0] = 3.0
    v[1, 1] = -9.0
    return v + 0


def _view_shape_setter(xp, A):
    v = A[1:3]
    v.shape = (3, 4)
    v[0] = -1.0
    return v + 0


_PROGRAMS = [_row_zero, _chained_index, _transpose_write, _column_tail, _reshape_view,
             _reshape_copy, _flatten_copy, _mask_through_view, _view_sees_base_write,
             _view_of_view, _index_loop, _moveaxis_expand_squeeze, _shape_setter,
             _view_shape_setter]


@pytest.mark.parametrize("program", _PROGRAMS, ids=lambda f: f.__name__.strip("_"))
def test_views_write_through_as_numpy(backend, program):
    _check(program, _matrix)


def test_sort_method_sorts_in_place(backend):
    def program(xp, A):
        row = A[1]
        A[::-1].sort(axis=0)
        row.sort()
        return row + 0

    _check(program, lambda: [np.array([[3.0, 1, 2], [9, -1, 4], [0, 5, 5], [2, 2, 1]])])
    x = la.asarray(np.array([3, 1, 2]))
    assert x.sort() is None
    assert_matches(x, np.array([1, 2, 3]))


def test_complex_parts_write_through(backend):
    def program(xp, z):
        z.real[0] = 5.0
        z.imag[1] += 2.0
        r = z.real
        z[2] = 7 - 1j
        return r + 0

    _check(program, lambda: [np.array([1 + 1j, 2 - 2j, 3 + 0.5j, np.inf + 1j])])


def test_complex_parts_set_by_attribute(backend):
    """`z.imag *= -1`, `z.real = v`, `x.real += 1` assign the attribute as NumPy's setters do
    (AttributeError: the properties had no setter); a real array's imag refuses (TypeError)."""
    def program(xp, z, x):
        part = z.imag
        z.imag *= -1
        z.real = xp.abs(z)
        x.real += 1.0
        return part + 0

    _check(program, lambda: [np.array([1 + 1j, 2 - 2j, 3 + 0.5j]), np.arange(3.0)])
    for xp, make in ((np, np.asarray), (la, la.asarray)):
        with pytest.raises(TypeError):
            make(np.arange(3.0)).imag = 1.0


def test_real_of_real_array_is_a_view(backend):
    def program(xp, x):
        x.real[1] = -1.0

    _check(program, lambda: [np.arange(3.0)])


@pytest.mark.parametrize("make_view", [
    lambda xp, A: A.diagonal(),
    lambda xp, A: xp.diagonal(A, 1),
    lambda xp, A: xp.broadcast_to(A[0], (3, 6)),
    lambda xp, A: A.imag,
], ids=["diagonal", "np.diagonal", "broadcast_to", "imag-of-real"])
def test_read_only_views_refuse_writes_and_follow_the_base(backend, make_view):
    A = np.arange(24.0).reshape(4, 6)
    with pytest.raises(ValueError, match="read-only"):
        make_view(np, A)[0] = 1.0
    x = la.asarray(A)
    view = make_view(la, x)
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 1.0
    assert_matches(x, A)  # the refused write wrote nothing
    A2 = A.copy()
    want_view = make_view(np, A2)
    A2[0, 0] = A2[1, 2] = -3.0
    x[0, 0] = x[1, 2] = -3.0
    assert_matches(view, want_view)


def test_computed_values_stay_independent(backend):
    x = la.asarray(np.arange(4.0))
    y = x + 1
    z = y[1:]
    x[0] = 50.0
    z[0] = -1.0  # writes y (z's base), never x
    assert_matches(x, np.array([50.0, 1, 2, 3]))
    assert_matches(y, np.array([1.0, -1, 3, 4]))


def test_copies_are_not_views(backend):
    x = la.asarray(np.arange(4.0))
    for c in (x.copy(), la.asarray(x, copy=True), x[[0, 1, 2, 3]], x.flatten()):
        c[0] = 9.0
    assert_matches(x, np.arange(4.0))


@pytest.mark.parametrize("view", ["A", "A[::-1].T", "A[1:]", "A[1]"])
def test_astype_to_the_same_dtype_is_a_copy(backend, view):
    """`x.astype(x.dtype)` is NumPy's copy (unless copy=False): writes into x, or into the root
    x is a view of, leave it; it returned x itself, which the writes then changed (fuzz40's
    seed 160374: `v = A[::-1].T.astype(np.float64)`, then `t = A[k, :-12]; t[0] = ...`)."""
    base = np.arange(20.0).reshape(4, 5)
    for write in ("A[1, 0] = 99", "t = A[1, :-1]\nt[0] = 99", "A += 1", "A[...] = 5",
                  "u = A[1:]\nu[0, 0] = 7"):
        env = {"A": la.asarray(base.copy()), "np": np}
        v = eval(f"{view}.astype(np.float64)", env)
        w = eval(f"{view}.astype('float64', copy=True)", env)
        exec(write, env)
        want = eval(view, {"A": base})
        assert np.array_equal(np.asarray(v), want) and np.array_equal(np.asarray(w), want)
    A = la.asarray(base.copy())
    assert A.astype(np.float64, copy=False) is A  # (as NumPy's)


@pytest.mark.parametrize("call", ["np.roll(x, 0)", "np.roll(x, 6)", "np.roll(x, (0, 3), (0, 1))",
                                  "np.pad(x, 0)", "np.pad(x, 0, mode='edge')", "np.clip(x, None, None)",
                                  "np.delete(x, [])", "np.delete(x, [], axis=1)",
                                  "np.split(x, 1)[0]", "np.split(x, [1], axis=1)[1]",
                                  "np.hsplit(x, 3)[2]", "np.vsplit(x, [1])[0]"])
def test_results_that_change_nothing_copy_or_view_as_numpy(reference_backend, call):
    """A write into the result reaches x exactly where NumPy's result shares x's memory: roll by
    a whole turn, pad by nothing, clip with no bound and delete of nothing are NumPy's copies
    (here x itself, or a reshaped view of it: the write changed x); split's parts are NumPy's
    views (here unlinked copies: the write missed x). fuzz42's sweep (`c = np.roll(r, -100)`
    of a (1, 1) r, then `c[m] = ...` wrote r)."""
    seen = []
    for xp in (np, la):
        x = xp.asarray(np.arange(6.0).reshape(2, 3))
        out = eval(call, {"np": xp, "x": x})
        out[...] = -1
        out += 1
        seen.append(np.asarray(x).tolist())
    assert seen[0] == seen[1], seen


def test_an_element_is_a_copy_as_numpys_scalar(backend):
    """`A[i, j]` (every dim an integer) is NumPy's scalar, not a view; `A[i, j, ...]` is a view."""
    def program(xp, A):
        e = A[1, 2]
        e += 100.0
        v = A[1, 2, ...]
        v += 1.0
        return e + 0

    _check(program, _matrix)


def test_numpys_scalar_hashes_as_its_value_and_is_a_scalar(reference_backend):
    """An element and a 0-d result of an op stand for NumPy's scalars, which hash as their value
    and are `np.isscalar`: `counts[x] += 1` over a 1-D array's elements, `set(labels)`, a dict
    keyed by Python numbers looked up with elements (they raised "unhashable type" here). Other
    Arrays, a 0-d array included, stay unhashable and no scalar, as NumPy's arrays."""
    labels = np.array([3, 1, 3, 2, 3])
    F = np.arange(6.0).reshape(2, 3)
    for xp, lab, A in ((np, labels, F), (la, la.asarray(labels), la.asarray(F))):
        counts = {}
        for x in lab:
            counts[x] = counts.get(x, 0) + 1
        assert sorted((int(k), v) for k, v in counts.items()) == [(1, 1), (2, 1), (3, 3)]
        assert sorted(int(x) for x in set(lab)) == [1, 2, 3]
        assert {2.0: "two"}[A[0, 2]] == "two" and {3: "max"}[lab.max()] == "max"
        assert hash(A[1, 0] * 0.5) == hash(1.5)
        assert xp.isscalar(A[0, 1]) and xp.isscalar(A.sum())
        assert not xp.isscalar(A[0]) and not xp.isscalar(xp.asarray(np.array(2.0)))
        for unhashable in (A, A[0], xp.asarray(np.array(2.0))):
            with pytest.raises(TypeError, match="unhashable"):
                hash(unhashable)


@pytest.mark.lazy_only  # the graph of a small indexed value (tests/conftest.py)
def test_index_write_through_a_view_builds_one_scatter(reference_backend):
    """`A[i, j] -= v` writes the view `A[i, j]` (a scatter into A) and then calls
    `A[i, j] = view`: that second write is skipped, it would store the same values."""
    A = la.asarray(np.ones((4, 4)))
    A[1, 2] -= 5.0
    ops = [n.op.name for n in la.graph.topological_order([A._node])]
    assert ops.count("scatter") == 1
    assert_matches(A, np.where(np.arange(16).reshape(4, 4) == 6, -4.0, 1.0))


@pytest.mark.parametrize("budget", [3, 7, 100])
def test_index_loop_with_views_under_graph_cuts(backend, budget):
    """Cholesky-like writes through rows, columns and elements while the node budget cuts the
    graph (evaluating the root between a view's creation and its write)."""
    def program(xp, A):
        for i in range(1, 6):
            r, c = A[i], A.T[:, i]
            for j in range(i):
                A[i, j] = A[i, j] / A[j, j]
                v = A[i, :j + 1]
                v *= 1.01
                c[j:] += 0.5
            A[i, i:] -= xp.dot(A[i, :i], A[i, :i])
            r[0] += 1
        return r + 0, c + 0

    with la.config(max_graph_nodes=budget):
        _check(program, lambda: [np.eye(6) * 5 + 1.0])


def test_jit_body_gets_its_own_handles(backend):
    """la.jit's documented argument rule holds for `x += y` too: the caller's Array keeps its value
    (return the updated array instead)."""

    @la.jit
    def f(x):
        x += 1.0
        return x * 2

    x = la.asarray(np.arange(3.0))
    assert_matches(f(x), (np.arange(3.0) + 1) * 2)
    assert_matches(x, np.arange(3.0))


# --- random programs of views and writes, against NumPy ---------------------------------------


def _basic_key(draw, shape):
    key = []
    for n in shape:
        kind = draw(st.sampled_from(["int", "slice", "all"]) if n else st.just("all"))
        if kind == "int":
            key.append(draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            start = draw(st.one_of(st.none(), st.integers(-n, n)))
            stop = draw(st.one_of(st.none(), st.integers(-n, n)))
            step = draw(st.sampled_from([None, 1, 2, -1, -2]))
            key.append(slice(start, stop, step))
        else:
            key.append(slice(None))
    return tuple(key)


@st.composite
def _programs(draw):
    """Steps over a list of handles (the root first): take a view of a handle, write a handle
    (setitem with a basic key, or an augmented assignment), or read one."""
    steps, shapes = [], [(4, 3, 2)]
    for _ in range(draw(st.integers(1, 12))):
        h = draw(st.integers(0, len(shapes) - 1))
        shape = shapes[h]
        kind = draw(st.sampled_from(["view", "view", "set", "iadd", "imul", "T", "reshape",
                                     "element", "element", "pending", "assign"]))
        if kind == "view":
            key = _basic_key(draw, shape)
            steps.append(("view", h, key))
            shapes.append(np.empty(shape)[key].shape)
        elif kind == "T":
            steps.append(("T", h, None))
            shapes.append(shape[::-1])
        elif kind == "reshape":
            steps.append(("reshape", h, None))
            shapes.append((int(np.prod(shape)),))
        elif kind == "pending":  # a value computed from the handle, read at the end
            steps.append(("pending", h, None))
            shapes.append(shape)
        elif kind == "assign" and shape:  # `x[:, :] = y`: another handle of that shape, views too
            same = [k for k, s in enumerate(shapes) if s == shape]
            steps.append(("assign", h, draw(st.sampled_from(same))))
        elif kind == "element" and shape and all(shape):
            # `x[i, j] = 2.5` or `x[i, j] = x[k, l]`: the element writes _trace.c does in C
            dst = tuple(draw(st.integers(-n, n - 1)) for n in shape)
            src = draw(st.one_of(st.floats(-9, 9, width=16),
                                 st.tuples(*(st.integers(-n, n - 1) for n in shape))))
            steps.append(("element", h, (dst, src)))
        elif shape:  # (an element is NumPy's scalar: a copy, with nothing to write)
            key = _basic_key(draw, shape)
            value = draw(st.one_of(st.integers(-9, 9), st.floats(-9, 9, width=16)))
            steps.append((kind if kind != "element" else "set", h, (key, value)))
    return steps


def _play(steps, root):
    handles = [root]
    for kind, h, arg in steps:
        x = handles[h]
        if kind == "view":
            handles.append(x[arg])
        elif kind == "T":
            handles.append(x.T)
        elif kind == "reshape":
            handles.append(x.reshape(-1))  # a view or a copy, by NumPy's rule
        elif kind == "pending":
            handles.append(x * 1.0)
        elif kind == "assign":
            x[(slice(None),) * x.ndim] = handles[arg]
        elif kind == "element":
            dst, src = arg
            x[dst] = x[src] if type(src) is tuple else src
        elif kind == "set":
            x[arg[0]] = arg[1]
        elif kind == "iadd":
            x[arg[0]] += arg[1]
        else:
            x[arg[0]] *= arg[1]
    return handles


def _reshapes_a_transposed_result(steps) -> bool:
    """Whether a step reshapes the result of an op over a transposed view (`(A.T * 1.0).reshape(
    -1)`): NumPy lays that result out in the transposed order ('K') and its reshape copies, where
    lazyarray's results are C-ordered and the reshape is a view (docs/semantics.md, "Immutability,
    copies and memory", difference (2): a known one, left out here)."""
    transposed, odd = [False], [False]  # odd: NumPy's memory of it is not C-ordered, ours is
    for kind, h, _ in steps:
        if kind in ("view", "T", "reshape", "pending"):
            if kind == "reshape" and odd[h]:
                return True
            transposed.append(kind == "T" or (transposed[h] and kind != "pending"))
            odd.append(odd[h] or (kind == "pending" and transposed[h]))
    return False


@pytest.mark.parametrize("backend_name,budget", [
    ("numpy", 100), pytest.param("c", 100, marks=pytest.mark.exhaustive), ("numpy", 4)])
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(steps=_programs())
def test_random_view_programs_match_numpy(backend_name, budget, steps):
    """Budget 4: graph cuts evaluate the handles while views are taken and written (a cut inside
    a view's build hands it the root's new leaf)."""
    assume(not _reshapes_a_transposed_result(steps))
    base = np.arange(24.0).reshape(4, 3, 2)
    want = _play(steps, base.copy())
    with la.config(backend=backend_name, max_graph_nodes=budget):
        got = _play(steps, la.asarray(base))
        for w, g in zip(want, got):
            assert_matches(g, w)


@pytest.mark.parametrize("value", [np.array([7.25]), np.array([[7.25]]), [7.25]], ids=str)
def test_a_sequence_into_an_element_raises_as_numpy(reference_backend, value):
    want = np.zeros((3, 3))
    with pytest.raises(ValueError, match="sequence") as np_err:
        want[1, 2] = value
    x = la.asarray(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="sequence"):
        x[1, 2] = la.asarray(value) if isinstance(value, np.ndarray) else value
    assert_matches(x, np.zeros((3, 3)))
    assert np_err.value is not None
    x[1, 2, ...] = la.asarray([7.25])  # a 0-d view, not an element: NumPy broadcasts there too
    want = np.zeros((3, 3))
    want[1, 2, ...] = np.array([7.25])
    assert_matches(x, want)


def test_fill_clip_out_outer_out_write_as_numpy(backend):
    """ndarray.fill, clip(out=), outer(out=): the corpus helper's probe of NumPy's write idioms."""
    def program(xp, A, B):
        A[1].fill(0.5)
        xp.clip(A[2:], 2.0, 5.0, out=A[2:])
        xp.outer(B[0], B[1], out=B[2:].reshape(2, 2))
        row = B[0]
        xp.outer(row, row, out=B.T[:2, :2])

    _check(program, lambda: [np.arange(12.0).reshape(4, 3), np.arange(8.0).reshape(4, 2)])
    i = la.asarray(np.arange(3))
    i.fill(2.7)  # NumPy's assignment cast
    assert_matches(i, np.full(3, 2))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(steps=_programs(), keep=st.lists(st.integers(0, 12), max_size=4))
def test_view_holders_in_c_counts_as_python(steps, keep):
    """eager.view_holders runs in C (_trace.c view_holders_c) for writes through views: the same
    count of the root node's references its live views hold, and the same refusal (None) where
    a node of their chains has another reader (a pending `row * 1.0`, a kept view node)."""
    from lazyarray import eager

    if eager._C_VIEW_HOLDERS is None:
        pytest.skip("no compiled lazyarray._trace")
    root = la.asarray(np.arange(24.0).reshape(4, 3, 2))
    root[0, 0, 0] = 1.0  # a buffer of its own
    handles = _play(steps, root)
    extra_readers = [handles[k]._node for k in keep if k < len(handles)]  # noqa: F841 (readers)
    live = [v for r in (root._view if type(root._view) is list else []) if (v := r()) is not None]
    old = root._node
    got = eager._C_VIEW_HOLDERS(old, live, None)
    c_fn, eager._C_VIEW_HOLDERS = eager._C_VIEW_HOLDERS, None
    try:
        want = eager.view_holders(old, live)
    finally:
        eager._C_VIEW_HOLDERS = c_fn
    assert got == want


def test_a_roots_view_list_keeps_its_live_views_and_stays_short():
    """A loop that takes a view per step while it holds many (`rows = [A[i] for i in ...]`): the
    root's weak list of views is pruned of the dead ones at 32 and each power of two past it,
    so it stays within twice the live views, and never drops a live one (a write through a held
    view must still reach its siblings)."""
    A = la.asarray(np.arange(200.0).reshape(50, 4))
    rows = [A[i] for i in range(40)]
    longest = 0
    for step in range(1000):
        A[step % 50, 1:3]  # a view per step, dead at once
        longest = max(longest, len(A._view))
    assert longest <= 128
    assert {id(r()) for r in A._view if r() is not None} >= {id(r) for r in rows}
    rows[3][0] = -1.0
    assert float(A[3, 0]) == -1.0 and float(rows[3][0]) == -1.0


def test_views_of_a_zero_d_result_are_copies_as_numpys_scalars():
    """`t = A[0, 0] * 1.0` is NumPy's scalar: `t.reshape(-1)` is a copy there, so a write to it
    leaves t as it was; a 0-d array (asarray of one, zeros(())) keeps its views."""
    A = la.asarray(np.arange(6.0).reshape(2, 3))
    A[0, 0] = 2.0
    for t in (A[0, 0] * 1.0, A[1, 2] + A[0, 1], A.sum(), -A[0, 0]):
        before = float(t)
        r = t.reshape(-1)
        r[0] = 99.0
        assert float(t) == before and float(r[0]) == 99.0
    z = la.asarray(np.array(5.0))
    v = z.reshape(-1)
    v[0] = 7.0
    want = np.array(5.0)
    want.reshape(-1)[0] = 7.0
    assert float(z) == float(want) == 7.0


@pytest.mark.parametrize("fn", ["u @ u", "np.dot(u, u)", "np.inner(u, u)", "np.median(u)",
                                "np.linalg.slogdet(M)[1]", "np.tensordot(u, u, axes=1)"])
@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_a_zero_d_result_ending_in_a_reshape_is_numpys_scalar(backend, fn, dtype):
    """`t = u @ u` of vectors (and np.dot, inner, tensordot, median, slogdet) is NumPy's scalar,
    though its graph ends in a reshape to () (a view op): `u2 = t; t -= 1` rebinds t and keeps u2
    (it wrote both: fuzz39's sweep, seed 110116 `t4 = P3 @ I; u6 = t4; t4 -= np.exp(I[2])`), and
    `t -= 0.5` of an int t is NumPy's float, not a casting error. (np.tensordot's is a 0-d
    array in NumPy too: `t -= 0.5` writes it, both names see it, an int one raises.)"""
    if "slogdet" in fn and dtype == "int64":
        return  # (float results either way)
    for xp in (np, la):
        u = xp.asarray(np.array([3, 1, 2], dtype=dtype))
        M = xp.asarray(np.array([[2.0, 1.0], [1.0, 3.0]]))
        if xp is la:
            u[0] = 3  # a computed buffer (the at-once path) as well as the lazy one below
        for t in (eval(fn, {"np": xp, "u": u, "M": M}),
                  eval(fn, {"np": xp, "u": xp.asarray(np.array([3, 1, 2], dtype=dtype)),
                            "M": M})):
            before = float(t)
            alias = t
            if "tensordot" in fn and dtype == "int64":
                with pytest.raises(TypeError):  # (UFuncTypeError)
                    t -= 0.5
                continue
            t -= 0.5
            if "tensordot" in fn:
                assert float(alias) == float(t) == before - 0.5, (xp.__name__, fn)
                continue
            assert float(alias) == before and float(t) == before - 0.5, (xp.__name__, fn)


@pytest.mark.parametrize("fn", ["np.flip(z)", "np.flip(3.0)", "np.flip(u[0] * 2)",
                                "u[0] != 2147483648", "u[1] < -1", "np.equal(300, 2**70)"])
def test_zero_d_flips_and_out_of_range_comparisons_are_numpys_scalars(backend, fn):
    """np.flip of a 0-d value is NumPy's `m[()]`, a scalar copy (it was a view of z: writing it
    wrote z), and `uint8_element != 2**31` a scalar bool (it was a 0-d array: `t += x` wrote t in
    place, its aliases too, and raised on a cast): fuzz39's sweep, seeds 110721, 111594, 111729."""
    for xp in (np, la):
        z = xp.asarray(np.array(3.0))
        u = xp.asarray(np.array([7, 0, 2], dtype=np.uint8))
        if xp is la:
            u[2] = 2  # a computed buffer: the at-once path
        t = eval(fn, {"np": xp, "z": z, "u": u})
        before = float(t)
        alias = t
        t += np.array([1, 2], dtype=np.int8)  # (a NumPy scalar: t becomes an array)
        assert float(alias) == before and float(z) == 3.0, (xp.__name__, fn)
        assert np.asarray(t).tolist() == [before + 1, before + 2], (xp.__name__, fn)


@pytest.mark.parametrize("code", ["t = C[1, I[2]]", "t = x[I[1]]", "t = C[I[1], I[2]]"])
def test_an_element_by_zero_d_integer_arrays_is_numpys_scalar(backend, code):
    """`C[1, i]` with i a 0-d integer Array (an element of I, as NumPy's int64 scalar or 0-d
    array index) is NumPy's scalar: `u = t; t += 1` keeps u (it changed u: a 0-d handle), and
    `C[1, i] += 1.5` of an int C is NumPy's read, add and cast write (it raised NumPy's in-place
    casting error): fuzz39's sweep, seed 111833."""
    for xp in (np, la):
        C = xp.asarray(np.arange(12).reshape(3, 4))
        I = xp.asarray(np.array([3, 1, 2]))
        x = xp.asarray(np.array([1, 5, 2]))
        if xp is la:
            C[0, 0], I[0], x[0] = 0, 3, 1  # computed buffers (the at-once path)
        env = {"C": C, "I": I, "x": x}
        exec(code, env)
        t = env["t"]
        before, alias = int(t), t
        t += 1
        assert int(alias) == before and int(t) == before + 1, (xp.__name__, code)
        C[1, I[2]] += 1.5
        assert int(C[1, 2]) == 7, xp.__name__


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_a_row_by_an_element_index_is_a_view_as_numpys(backend, eager_size):
    """An element, a reduction's or an op's 0-d result used as an index is NumPy's integer
    scalar there: a basic index, a view. `row = A[np.argmax(x)]; row *= 2` writes A, and a
    later write to A shows in the row; an advanced index here made a copy (fuzz39). A pending
    one (eager_size 0) makes a dynamic view (tests/test_lazy_index.py)."""
    got = []
    for xp in (np, la):
        with la.config(eager_size=eager_size):
            C = xp.asarray(np.arange(12.0).reshape(3, 4))
            I = xp.asarray(np.array([3, 1, 2]))
            row = C[I[2]]
            row[0] = 50.0
            p = xp.argmax(xp.asarray(np.array([1.0, 5.0, 2.0])))
            other = C[p, 1:]
            other *= 2.0
            C[p, 3] = -1.0
            last = C[xp.sum(I[:2]) - 4, ::2]  # 0
            C[0, 2] = 99.0
            got.append((np.asarray(C).tolist(), np.asarray(other).tolist(),
                        np.asarray(last).tolist()))
    assert got[0] == got[1]


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint64"])
@pytest.mark.parametrize("code", ["A[i] = 1.0", "A[i, 1] = 1.0", "A[i, 1] *= -1.0", "A[i][1] = 2.0",
                                  "A[1, j] = 1.0"])
@pytest.mark.parametrize("view", [False, True])
def test_a_computed_element_index_out_of_range_raises_at_the_line(backend, backend_does, dtype,
                                                                  code, view):
    """A computed element (`i, j = sites[k]`) is NumPy's integer scalar as an index: out of range,
    NumPy's IndexError (past int64's range for a uint64, its OverflowError) at the line, and
    nothing written. A uint64 one (and any one where a view of A was alive) was the scatter's
    0-d index array, checked only when A was read (fuzz41). Where the at-once rule is off (cupy)
    `sites` is pending, so `i` is a pending index: IndexError when A is read (docs/semantics.md,
    "A 0-d integer Array as an index"), never a clamped or wrapped write."""
    for xp in (np, la):
        for value in (3, 2**63) if dtype == "uint64" else (3,):
            error = OverflowError if value >= 2**63 and "j]" not in code else IndexError
            sites = xp.asarray(np.array([[value, 7]], dtype=dtype)) + np.array(0, dtype=dtype)
            i, j = sites[0]
            A = xp.asarray(np.arange(12.0).reshape(3, 4)) * 1
            row = A[1] if view else None
            if xp is la and not backend_does("eager") and error is IndexError:
                try:  # (some forms read the pending index at the line: the static chain)
                    exec(code)
                except IndexError:
                    assert np.asarray(A).tolist() == np.arange(12.0).reshape(3, 4).tolist()
                    continue
                with pytest.raises(IndexError):
                    np.asarray(A)
                continue
            with pytest.raises(error):
                exec(code)
            assert np.asarray(A).tolist() == np.arange(12.0).reshape(3, 4).tolist(), xp.__name__
            del row


@pytest.mark.parametrize("code", ["A[i] = 1.0", "A[i, 1] = 1.0", "A[i, 1] *= -1.0", "A[1, i] = 1.0"])
def test_a_pending_uint64_element_index_is_read_at_the_line(backend, code):
    """With the at-once rule off (cupy's case, here `eager_size=0`) a pending uint64 element index
    is read at the writing line, as getitem reads it: 2**63 is NumPy's OverflowError there (the
    scatter clamped it to 2**63 - 1: an IndexError naming that value, only when A was read; the
    GPU run of stop 43), 5 its IndexError, and nothing is written."""
    for value, error in ((2**63, OverflowError),
                         (5, IndexError)):
        got = []
        for xp in (np, la):
            with la.config(eager_size=0):
                sites = xp.asarray(np.array([value], dtype=np.uint64)) + np.uint64(0)
                i = sites[0]
                A = xp.asarray(np.arange(12.0).reshape(3, 4)) * 1
                with pytest.raises(error):
                    exec(code)
                got.append(np.asarray(A).tolist())
        assert got[0] == got[1]


@pytest.mark.parametrize("eager_size", [0, 4096])
@pytest.mark.parametrize("code", ["v = A[I[2]::-1]; v[0] = 9", "A[I[2]:][0] = 9", "A[:I[2]][-1] = 9",
                                  "v = A[I[1]:][None]; v[0, 1] = 9"])
def test_a_view_with_a_zero_d_array_slice_bound_writes_its_base(backend, eager_size, code):
    """`v = A[i::-1]; v[0] = 9` with i a 0-d integer Array is NumPy's view: the write reaches A.
    Where i was pending (eager_size 0) or the compiled getitem was off (LAZYARRAY_PURE_PYTHON=1)
    the general getitem made a copy and A kept its value (fuzz39's sweep, seed 110426)."""
    got = []
    for xp in (np, la):
        with la.config(eager_size=eager_size):
            A = xp.asarray(np.zeros(5, dtype=np.int64))
            I = xp.asarray(np.array([0, 1, 2]))
            exec(code, {"A": A, "I": I})
            got.append(np.asarray(A).tolist())
    assert got[0] == got[1]


def test_in_place_methods_view_partition_put(backend):
    """ndarray.view() shares memory both ways; partition and put work in place (AttributeError
    before): through a view too."""
    def program(xp, a, b):
        v = a.view()
        v[0] = 9.0
        a[1] = -9.0
        row = b[1]
        row.partition(2)
        b.put([0, -1], [5.0, 6.0])
        b[0].put([1], [7.0], mode="wrap")
        return v + 0, xp.sort(row[:2]) + 0, row[2] + 0

    _check(program, lambda: [np.arange(6.0),
                             np.array([[3.0, 1, 2, 0], [9, -1, 4, 4], [0, 5, 5, 1]])])
    with pytest.raises(NotImplementedError, match="reinterpreting"):
        la.asarray(np.arange(3.0)).view(np.int64)


@pytest.mark.parametrize("reps", [1, (1, 1), (1, 1, 1), (2, 1)])
def test_tile_is_a_new_writable_array(reps):
    """NumPy's tile copies, also with every repetition 1; lazyarray's kept broadcast_to's
    read-only view of x there (SciPy's RigidTransform tests write into `tile(eye(4), (1, 1))`)."""
    x, want = la.eye(3), np.tile(np.eye(3), reps)
    t = la.tile(x, reps)
    t[..., 0, 2] = 7.0
    want[..., 0, 2] = 7.0
    x[1, 1] = -1.0  # the tile does not follow x either
    np.testing.assert_array_equal(np.asarray(t), want)
    np.testing.assert_array_equal(np.asarray(x), np.eye(3) - 2 * np.diag([0, 1, 0]))


_EMPTY_SELECTIONS = [([], [7]), ([9], []), ([[9]], []), ([], [[0]]), ([], [-5])]
_COMPILED: dict = {}  # sweeps whose C kernels are compiled in few units (tests/together.py)


def _empty_selection_written(shape, key, computed):
    """The test's read, then its write, of one case: a builder for tests/together.py."""
    got = la.asarray(np.zeros(shape)) * 1
    arrays = tuple(np.array(k, dtype=np.int64) for k in key)
    index = tuple(la.asarray(a) + 0 for a in arrays) if computed else arrays
    la.eval(got[index])
    got[index] = 2.0
    return got


@pytest.mark.xdist_group("test_index_arrays_of_an_empty_selection_are_not_bounds_checked")
@pytest.mark.parametrize("key", _EMPTY_SELECTIONS)
@pytest.mark.parametrize("computed", [False, True])
def test_index_arrays_of_an_empty_selection_are_not_bounds_checked(backend, key, computed):
    """Index arrays that broadcast to an empty selection select nothing, and NumPy checks none
    of their values (`A[[], [7]]` of a (3, 4) A: an empty read, a write of nothing); each array
    was checked on its own here, an IndexError at the line (or, for computed ones, when A was
    read: fuzz41's sweep, seeds 180224, 180389, 181058)."""
    compile_together(_COMPILED, ("empty selections", backend), [
        lambda s=s, k=k, c=c: _empty_selection_written(s, k, c)
        for k in _EMPTY_SELECTIONS for c in (False, True) for s in ((3, 4), (3, 0))])
    for shape in ((3, 4), (3, 0)):
        want = np.zeros(shape)
        arrays = tuple(np.array(k, dtype=np.int64) for k in key)
        got = la.asarray(np.zeros(shape)) * 1
        index = tuple(la.asarray(a) + 0 for a in arrays) if computed else arrays
        read = got[index]
        assert_matches(read, want[arrays])
        want[arrays] = 2.0
        got[index] = 2.0
        assert_matches(got, want)


@pytest.mark.parametrize("computed", [False, True])
def test_a_write_by_index_into_an_empty_dim_checks_the_value_first(backend, computed):
    """NumPy checks the value's shape before the indices' bounds: `x[[[0]]] = v` of an empty x
    and a (4,) v is its broadcast ValueError, a (1,) v its IndexError. The scatter's shape probe
    indexed the empty dim with zeros and raised IndexError first, without the line (fuzz41's
    sweep, seed 182348)."""
    for value, error in ((np.arange(4.0), ValueError), (np.arange(1.0), IndexError)):
        with pytest.raises(error):
            np.zeros(0)[np.array([[0]])] = value
        x = la.asarray(np.zeros(0)) * 1
        index = la.asarray(np.array([[0]])) + 0 if computed else np.array([[0]])
        with pytest.raises(error):
            x[index] = la.asarray(value) + 0
            np.asarray(x)


def _dead_root_programs():
    def chained(m):  # the root was a temporary: a root of its own, writes as NumPy's
        a = m.arange(12.0).reshape(3, 4)
        r = a[1]
        a[0, 0] = 5
        r[0] = -1
        return a, r

    def held_root(m):  # the root is held: writes through the view reach it
        base = m.arange(12.0)
        a = base.reshape(3, 4)
        a[1]
        a[0, 0] = 99
        return base, a

    def other_view(m):  # another view holds the root too: both stay in sync
        a = m.arange(12.0).reshape(3, 4)
        b = a[0]
        a[0, 1] = 7
        b[2] = -3
        return a, b

    def read_only(m):  # a read-only view stays one
        d = m.diagonal(m.arange(9.0).reshape(3, 3))
        d[0]
        d[0] = 1
        return (d,)

    def rows_of_a_transpose(m):
        a = m.arange(6.0).reshape(2, 3).T
        rows = [r for r in a]
        rows[0][0] = 100
        return a, rows[0], rows[1]

    def root_then_dropped(m):
        base = m.arange(12.0)
        a = base.reshape(3, 4)
        rows = [r for r in a]
        base[0] = 42
        del base
        a[1, 1] = -5
        rows[1] += 1
        return a, rows[0], rows[1]

    return [chained, held_root, other_view, read_only, rows_of_a_transpose, root_then_dropped]


@pytest.mark.parametrize("program", _dead_root_programs(), ids=lambda f: f.__name__)
def test_a_view_of_a_dead_root_becomes_a_root_and_writes_stay_numpys(reference_backend, program):
    """`a = np.arange(n).reshape(r, c)`: a view of a temporary. When nothing else holds the root,
    a read, a loop or a write makes `a` a root (the compiled paths: `a[5]` 9.7 -> 0.2 us); where
    the root or another view of it lives, or the view is read-only, it stays a view. NumPy's
    values and errors either way."""
    outcomes = []
    for m in (np, la):
        try:
            outcomes.append([np.array(v) for v in program(m)])
        except ValueError as exc:
            outcomes.append(type(exc))
    want, got = outcomes
    if not isinstance(want, list):
        assert got is want
        return
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    a = la.arange(12.0).reshape(3, 4)
    assert type(a._view) is tuple
    rows = list(a)
    assert type(a._view) is not tuple  # released: a root now
    np.testing.assert_array_equal(np.asarray(rows[2]), np.arange(8.0, 12.0))


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_python_int_element_writes_are_numpys_conversions(reference_backend, dtype):
    """`A[i, j] = i * j + 1` (a Python int) into a float64 or int64 buffer is stored by the
    compiled element write (1.66 -> 0.14 us; floats only before): float(v)'s rounding past 2**53;
    an int past the dtype raises NumPy's OverflowError at the line, nothing written."""
    values = [7, -3, 2**53 + 1, 2**62, -(2**63), 0]
    with la.config(eager_size=4096):
        a, want = la.zeros((3, 4), dtype=dtype), np.zeros((3, 4), dtype=dtype)
        a[0, 0] = want[0, 0] = 1
        for k, v in enumerate(values):
            a[k // 4 + 1, k % 4] = v
            want[k // 4 + 1, k % 4] = v
        np.testing.assert_array_equal(np.asarray(a), want)
        assert np.asarray(a).dtype == want.dtype
        for big in (2**63, 10**400) if dtype == np.int64 else (10**400,):
            with pytest.raises(OverflowError):
                want[0, 1] = big
            with pytest.raises(OverflowError):
                a[0, 1] = big
        np.testing.assert_array_equal(np.asarray(a), want)
