"""Index loops run at once (lazyarray/eager.py): values indexed out of computed arrays are computed
at the line, and writes into a buffer nothing else reads go in place. Every test checks NumPy's
values, including the values the program kept from before a write."""

import gc
import importlib
import operator
import sys
import warnings
import weakref
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazyarray as la
from sites import notes_of

sys.path.insert(0, str(Path(__file__).parent))
from numpy_oracle import assert_as_numpy  # noqa: E402
from programs import make_inputs  # noqa: E402


def _is_leaf(a):
    return not a._node.inputs


def _same_value(a):
    """A test for "still the same buffer" that holds no reference to it (a held reference is a
    reader, and rightly forbids writing in place). On a backend without the at-once path the
    node may be pending (no buffer): never the same then."""
    if a._node.data is None:
        return lambda: False
    ref = weakref.ref(a._node.data)  # (the node may change: an element write marks it, eager.py
    return lambda: a._node.data is ref()  # `mark_written`; the buffer is what must stay)


# --- what runs at once, and what stays lazy ---------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.int32, np.complex128, np.bool_])
def test_recycled_element_arrays_never_change_a_held_value(backend, dtype):
    """_trace.c's template_copy hands a 0-d array that nothing holds any more (its leaf freed) to
    the next element result: every value still held (an Array, a NumPy export of one, a weak
    reference to its bytes) keeps its value through many more element ops than it recycles."""
    base = (np.arange(64) % 7 + 1).astype(dtype).reshape(8, 8)
    A = la.asarray(base)
    held, exports, weak = [], [], []
    for k in range(60):
        i, j = k % 8, (k // 8) % 8
        held.append((i, j, A[i, j], A[i][j]))  # (the intermediates of the next line die at once)
        held.append((i, j, A[j, i] + A[i, j], None))
        if k % 3 == 0:
            exports.append((i, j, np.asarray(A[i, j] * A[j, j])))
        if k % 5 == 0:
            e = np.asarray(A[j, i] + A[i, i])
            weak.append((i, j, weakref.ref(e.base if e.base is not None else e), e.copy()))
            del e
    for i, j, a, b in held[::2]:
        assert np.asarray(a) == base[i, j] and np.asarray(b) == base[i, j]
        assert a.dtype == base.dtype
    for i, j, s, _ in held[1::2]:
        assert np.asarray(s) == base[j, i] + base[i, j]
    for i, j, e in exports:
        assert e == base[i, j] * base[j, j]
    for i, j, ref, value in weak:
        assert ref() is None or np.array_equal(ref(), value)



@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.int32, np.uint8])
def test_element_arrays_are_handed_out_again_only_when_nothing_holds_them(backend, dtype):
    """_trace.c's element_leaf hands a dropped element's Array (with its leaf and buffer) to a
    later element read or op. Where the C path runs: a dropped one comes back, after the ring's
    turn and not before; and never one whose Array, node or buffer something still holds (a
    name, a weak reference, its node, an export, a pending op), nor a key from before
    `la.clear_caches()`: a graph over a reused leaf evaluates to NumPy's value."""
    base = (np.arange(64) % 9 + 1).astype(dtype).reshape(8, 8)
    A = la.asarray(base)
    from lazyarray import _bind
    A[0, 0]  # (the first read of a dtype makes its template the general way)
    ids = [id(A[k % 8, k // 8]) for k in range(40)]  # each dropped at once
    if _bind.FAST is not None:
        assert ids[0] not in ids[1:16] and ids[16] == ids[0], ids  # the ring's turn: 16
    held = []
    for k in range(48):
        i, j = (k * 3) % 8, (k * 5) % 8
        e, want = A[i, j], base[i, j]
        kind = k % 6
        if kind == 0:
            held.append((e, want))
        elif kind == 1:
            held.append((weakref.ref(e), want))
        elif kind == 2:
            held.append((e._node, want))
        elif kind == 3:
            held.append((np.asarray(e), want))
        elif kind == 4:
            held.append((A[(i + 1) % 8, j] + e, base[(i + 1) % 8, j] + want))
        else:
            if k == 5:  # (once: a clear makes the next plans compile again)
                la.clear_caches()
            held.append((la.sum(la.asarray(base[0]) * e), np.sum(base[0] * want)))
        del e
        for q in range(20):  # results that die at once: the ring's
            A[q % 8, (q + k) % 8] * 1
    for value, want in held:
        if isinstance(value, weakref.ref):
            value = value()
            if value is None:
                continue
        if hasattr(value, "op"):  # a held node: its buffer
            value = value.data
        assert np.array_equal(np.asarray(value), np.asarray(want)), (value, want)


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_dropped_views_are_handed_out_again_and_held_ones_keep_their_place(backend):
    """_trace.c's view ring: `A[i]` dropped comes back as `A[j]` (its start leaf set to j), and a
    view something still holds (a name, its node, a weak reference, a pending graph, a view of
    it) is never handed out again: each keeps its row, against NumPy, also across
    `la.clear_caches()`; element writes into the root still go into its buffer; a root larger
    than the ring keeps is let go when dropped."""
    import gc
    from lazyarray import _bind
    base = np.arange(48.0).reshape(6, 8)
    A = la.asarray(base.copy())
    np.asarray(A[0] * 1)
    first = id(A[1])
    if _bind.FAST is not None:
        assert id(A[2]) == first  # (the dropped A[1], now A[2])
    held = []
    for k in range(30):
        i = k % 6
        r = A[i]
        kind = k % 5
        if kind == 0:
            held.append((r, base[i]))
        elif kind == 1:
            held.append((r._node, base[i]))
        elif kind == 2:
            held.append((weakref.ref(r), base[i]))
        elif kind == 3:
            with la.config(eager_size=0):
                held.append((r * 2 + A[(i + 1) % 6], base[i] * 2 + base[(i + 1) % 6]))
        else:
            held.append((r[1:5], base[i, 1:5]))
            if k == 4:  # (once: a clear makes the next plans compile again)
                la.clear_caches()
        held.append((A[i, : k % 8], base[i, : k % 8]))  # (another length each time)
        held.append((A[k % 6 :, i], base[k % 6 :, i]))
        del r
        for q in range(12):  # views dropped at once: the ring's
            A[q % 6][q % 8]
            A[(q + 1) % 6, 1:-1].sum()
            got = A[q % 6, : q % 7] @ A[(q + 2) % 6, 1 : q % 7 + 1]
            assert np.asarray(got) == base[q % 6, : q % 7] @ base[(q + 2) % 6, 1 : q % 7 + 1]
            assert np.array_equal(np.asarray(A[q % 6, q % 5 :] * 2), base[q % 6, q % 5 :] * 2)
    for value, want in held:
        if isinstance(value, weakref.ref):
            value = value()
            if value is None:
                continue
        if hasattr(value, "op"):  # a held node: its value
            value = la.Array(value)
        assert np.array_equal(np.asarray(value), want), (value, want)
    del held, value
    same = _same_value(A)
    for i in range(6):
        A[i][0]  # views dropped into the ring; then writes into the root itself
        A[i, 1] = -1.0
        A[i, 2] += 1.0
    base[:, 1] = -1.0
    base[:, 2] += 1.0
    np.testing.assert_array_equal(np.asarray(A), base)
    if _bind.FAST is not None:
        assert same()  # (in place, with the ring's views of A about)
    big = la.asarray(np.zeros(1 << 20))
    big[0:3]
    gone = weakref.ref(big._node)
    del big
    gc.collect()
    assert gone() is None


@pytest.mark.parametrize("form", range(3))
def test_a_dead_root_the_view_ring_kept_is_not_evaluated_at_a_cut(backend, form):
    """The view ring keeps `w = A[:2]` (and so its root A) after the names are gone; A written
    lazily (through w, or with w about) and then dropped stayed alive there, and the next
    node-budget cut, which evaluates every live pending Array, evaluated it: its 0/0 warned
    'invalid value' at an unrelated loop (under errstate 'raise', raised there). A cut lets go
    of the ring's dropped views first (cuts._release_view_ring; fuzz40)."""
    A = la.asarray(np.zeros(5))
    with la.config(eager_size=0):
        w = A[0:2]
        if form == 0:
            w /= 0.0
        elif form == 1:
            w[0] = A[3] / 0.0
        else:
            A[2] = A[3] / 0.0
    del A, w
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with la.config(eager_size=0, max_graph_nodes=3):
            B = la.asarray(np.ones(3))
            for _ in range(10):
                B = B + 1
            assert np.array_equal(np.asarray(B), np.full(3, 11.0))
    assert [str(w.message) for w in caught] == []


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
@pytest.mark.parametrize("held", [False, True])
def test_a_views_evaluation_computes_the_root_only_it_holds(backend, held):
    """`v = A[0]; A = A * 2; v[-2] = np.sqrt(-3)` under eager_size 0: only v holds the old root,
    pending with the write. `np.asarray(v)` computed the write (and warned 'invalid') but left
    the root pending, and the next node-budget cut, which evaluates every live pending Array,
    computed it again: a second warning, and the work twice (fuzz41's seed 180096). The root is
    evaluated with its view now (evaluation._view_roots), also where v is held in a list."""
    with warnings.catch_warnings(record=True) as caught:  # (its entry computes what is pending)
        warnings.simplefilter("always")
        with la.config(eager_size=0):
            A = la.asarray(np.arange(6.0).reshape(2, 3))
            v = A[0]
            keep = [v] if held else None
            A = A * 2
            v[-2] = la.sqrt(la.asarray(np.float64(-3.0)))
        got = np.asarray(keep[0] if held else v)
        with la.config(eager_size=0, max_graph_nodes=3):
            B = la.asarray(np.ones(3))
            for _ in range(10):
                B = B + 1
            assert np.array_equal(np.asarray(B), np.full(3, 11.0))
    assert np.array_equal(got, [0.0, np.nan, 2.0], equal_nan=True)
    assert [str(w.message) for w in caught] == ["invalid value encountered in sqrt"]


def test_element_comparisons_and_abs_are_numpys(backend):
    """_trace.c's element_compare and abs of a float64 element: IEEE comparisons and fabs in C,
    NumPy's values for NaN, infinities, signed zeros, subnormals and Python ints (within and past
    2**53), a bool (or float64) element that is NumPy's scalar, no warning or error even under
    `errstate(all='raise')`, as NumPy's own element comparisons."""
    values = [0.0, -0.0, 1.0, -2.5, 1e-310, float("nan"), float("inf"), float("-inf"), 2.0**53]
    others = values + [3, -7, 2**53 + 1, 2**60]
    base = np.array(values)
    A = la.asarray(base.copy())
    ops = [lambda x, y: x < y, lambda x, y: x <= y, lambda x, y: x > y, lambda x, y: x >= y,
           lambda x, y: x == y, lambda x, y: x != y]
    with np.errstate(all="raise"), la.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        for i in range(len(values)):
            a, e = A[i], base[i]
            got, want = abs(a), abs(e)
            assert np.asarray(got).tobytes() == np.asarray(want).tobytes() and got._view is False
            for other in others:
                for op in ops:
                    for g, w in ((op(a, other), op(e, other)), (op(other, a), op(other, e))):
                        assert np.asarray(g).dtype == np.bool_ and g.shape == ()
                        assert bool(g) == bool(w), (e, other)
                for j in range(len(values)):
                    for op in ops:
                        assert bool(op(a, A[j])) == bool(op(e, base[j])), (e, base[j])


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
@pytest.mark.parametrize("name", ["abs", "sqrt", "square", "floor", "ceil", "trunc", "sign",
                                  "** 2"])
def test_element_unary_functions_are_numpys(backend, name):
    """_trace.c's element_unary_f64: np.<ufunc>(e) and la.<fn>(e) of a float64 element in C
    where that is NumPy's bits and flags (sqrt of a negative, square overflowing or
    underflowing, sign of a NaN: the general path, NumPy's warning or error), against NumPy's
    own scalars; a finite element takes no Python frame."""
    import sys
    values = [0.0, -0.0, 2.25, -2.5, 1e-310, 1e-200, 1e200, -7.5, float("nan"), float("inf"),
              float("-inf"), 2.0**52 + 0.5, -(2.0**53), -float("nan")]
    base = np.array(values)
    A = la.asarray(base.copy())
    if name == "** 2":  # (the operator: NumPy's scalar power, `e ** 2` of an element)
        fn_np = fn_la = lambda x: x ** 2
    else:
        fn_np, fn_la = getattr(np, name), getattr(la, name)
    e, seen = A[2], []
    sys.setprofile(lambda frame, event, arg: seen.append(frame) if event == "call" else None)
    try:
        fn_la(e) if name != "** 2" else e ** 2
    finally:
        sys.setprofile(None)
    assert not seen or la._bind.FAST is None, [f.f_code.co_name for f in seen]
    for mode in ("ignore", "warn", "raise"):
        for i, e in enumerate(base):
            outcomes = []
            for f, x in ((fn_np, e), (fn_np, A[i]), (fn_la, A[i])):
                with np.errstate(all=mode), la.errstate(all=mode), warnings.catch_warnings(
                        record=True) as seen:
                    warnings.simplefilter("always")
                    try:
                        got = np.asarray(f(x)).tobytes()
                    except FloatingPointError:
                        got = "raised"
                outcomes.append((got, sorted({type(w.message).__name__ for w in seen})))
            assert outcomes[1] == outcomes[0] and outcomes[2] == outcomes[0], (mode, e, outcomes)


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
@pytest.mark.parametrize("exponent", [1, 2, 3, 4])
def test_float_powers_by_small_ints_are_numpys_power(backend, exponent):
    """`x ** 3` of floats is a power (one rounding), not (x * x) * x (two: 1 ulp off NumPy's
    for ~27% of values); `x ** 2` stays the exact square. The numpy backend gives NumPy's bits
    (at once and lazily); the C backend's power is libm's, at most 1 ulp from NumPy's (which
    may be SVML's here), equal for most values."""
    x = np.random.default_rng(exponent).standard_normal(300) * 3.0
    want = x ** exponent
    for eager_size in (4096, 0):
        with la.config(eager_size=eager_size):
            got = np.asarray(la.asarray(x) ** exponent)
        if backend == "numpy" or exponent <= 2:
            assert got.tobytes() == want.tobytes()
        else:
            np.testing.assert_array_max_ulp(got, want, 1)
            assert np.count_nonzero(got != want) < 0.1 * x.size


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_float_element_floor_division_and_remainder_are_numpys(backend):
    """_trace.c's float_element_divmod: `a // b` and `a % b` of float64 elements and Python
    numbers as NumPy's npy_divmod computes them (signs of zeros, negative divisors, quotients
    snapped to integers), and NumPy's warnings or errors through the general path for a zero
    divisor, infinities, NaN, overflow and subnormal results, forward and reflected."""
    values = [0.0, -0.0, 1.0, -1.0, 7.5, -7.5, 0.1, 3.0, 1e308, -1e308, 1e-308, 5e-324,
              float("inf"), float("nan"), 2.0**53, 0.3]
    base = np.array(values)
    A = la.asarray(base.copy())

    def outcome(expr, x, y, mode):
        with np.errstate(all=mode), la.errstate(all=mode), warnings.catch_warnings(
                record=True) as seen:
            warnings.simplefilter("always")
            try:
                got = np.asarray(eval(f"x {expr} y")).tobytes()
            except (FloatingPointError, ZeroDivisionError) as exc:
                got = type(exc).__name__
        return got, sorted({type(w.message).__name__ for w in seen})

    for mode in ("ignore", "warn", "raise"):
        for i, e in enumerate(base):
            for j, f in enumerate(base):
                for expr in ("//", "%"):
                    assert outcome(expr, A[i], A[j], mode) == outcome(expr, e, f, mode), (
                        e, expr, f, mode)
            for other in (2, -3, 0.25, -0.5):
                for expr in ("//", "%"):
                    assert outcome(expr, A[i], other, mode) == outcome(expr, e, other, mode)
                    assert outcome(expr, other, A[i], mode) == outcome(expr, other, e, mode)


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int16, np.int8])
def test_integer_element_operators_and_comparisons_are_numpys(backend, dtype):
    """_trace.c's int_element_operator and element_compare's integer side: & | ^ << >> // % and
    the six comparisons of int32/int64 elements and Python ints, as NumPy's scalars compute them
    (wrapping, shifts by negative counts and past the width, floor division and modulo by
    negative divisors), NumPy's warnings for a division by zero and MIN // -1 (the Python
    methods), NumPy's OverflowError for a Python int the dtype cannot hold, forward and reflected."""
    info = np.iinfo(dtype)
    values = [0, 1, -1, 7, -7, 3, 100, info.max, info.min, info.min + 1]
    others = values + [2, -3, 7, 8, 15, 16, 31, 32, 63, 64, 65, -64, 2**31, -(2**31) - 1, 2**40]
    base = np.array(values, dtype=dtype)
    A = la.asarray(base.copy())
    ops = ["&", "|", "^", "<<", ">>", "//", "%", "**", "<", "<=", ">", ">=", "==", "!="]

    def outcome(expr, x, y):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                got = eval(f"x {expr} y")
                got = (np.asarray(got).dtype.str, np.asarray(got).tobytes())
            except (OverflowError, ZeroDivisionError, ValueError) as exc:
                got = next(k.__name__ for k in (OverflowError, ZeroDivisionError, ValueError)
                           if isinstance(exc, k))
        return got, sorted({type(w.message).__name__ for w in seen})

    for i, e in enumerate(base):
        for j, f in enumerate(base):
            for expr in ops:
                assert outcome(expr, A[i], A[j]) == outcome(expr, e, f), (e, expr, f)
        for other in others:
            for expr in ops:
                assert outcome(expr, A[i], other) == outcome(expr, e, other), (e, expr, other)
                assert outcome(expr, other, A[i]) == outcome(expr, other, e), (other, expr, e)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_an_index_loop_over_small_ints_runs_without_a_python_frame(backend, backend_does, dtype):
    """ising's step in C (lazyarray/_trace.c): + - * / of int8/int16 elements (as int32/int64's:
    NumPy's 0-d values, wrapping), a write keyed by computed elements (`spins[i, j] *= -1` with
    `i, j = sites[k]`, NumPy's integer scalars: basic indices, as Python ints) and a unary
    function of a Python float (`np.exp(-beta * dE)`) call no Python function (they took the
    Python paths: 1.3, 2.4 and 2.6 us); the values are NumPy's."""
    import sys

    info = np.iinfo(dtype)
    base = np.array([[info.max, info.min, 3], [-7, 1, 0]], dtype=dtype)
    S, K = la.asarray(base.copy()), la.asarray(np.array([[0, 2], [1, 0]]))
    s, k = base.copy(), np.array([[0, 2], [1, 0]])

    import os

    ours = tuple(os.path.dirname(m.__file__) for m in (la, la.graph, la.runtime, la.passes))

    def frames(step):
        step()  # (the first call of a kind remembers its loop in Python)
        seen = []
        sys.setprofile(lambda frame, event, arg: seen.append(frame.f_code.co_qualname) if (
            event == "call" and frame.f_code is not step.__code__
            and frame.f_code.co_filename.startswith(ours)) else None)  # (not a gc callback's)
        try:
            out = step()
        finally:
            sys.setprofile(None)
        return out, seen

    runs = backend_does("eager") and la._bind.FAST is not None
    for x, y in [(S[0, 0], S[0, 2]), (S[0, 1], S[1, 0]), (S[1, 0], -1), (2, S[0, 2])]:
        for name in ("add", "subtract", "multiply", "divide"):
            got, called = frames(lambda: getattr(operator, name[:3] if name != "divide"
                                                 else "truediv")(x, y))
            assert not called or not runs, (name, called)
            want = getattr(np, name)(*[np.asarray(v) if isinstance(v, la.Array) else v
                                       for v in (x, y)])
            assert np.asarray(got).dtype == want.dtype and np.asarray(got) == want, name
    for row in range(2):
        i, j = K[row]
        _, called = frames(lambda: S.__setitem__((i, j), S[i, j] * -1))
        assert not called or not runs, called  # (S.__setitem__ itself: a C method, no frame)
        s[k[row][0], k[row][1]] *= -1
        s[k[row][0], k[row][1]] *= -1
    np.testing.assert_array_equal(np.asarray(S), s)
    got, called = frames(lambda: la.exp(-0.45 * 4))
    assert not called or not runs, called
    assert np.asarray(got) == np.exp(-0.45 * 4) and type(got) is la.Array


def test_a_vector_loop_reads_writes_and_wheres_take_the_direct_paths(backend, backend_does,
                                                                      monkeypatch):
    """dijkstra's step: `dist[u]` by a computed element u (NumPy's integer scalar: a basic
    index) and `visited[u] = True` run in C without a Python frame (the Python paths: 2.9 and
    6 us); `np.where(visited, np.inf, dist)` of computed buffers and a Python number is NumPy's
    where on the buffers, without building and walking a node (eager.where_now: 19 -> 6 us)
    nor binding its operands first; NumPy's values and dtypes, also where it declines."""
    import sys

    from lazyarray import eager

    rng = np.random.default_rng(5)
    d, w = rng.random(12), rng.random((12, 12))
    dist, W = la.asarray(d) * 1.0, la.asarray(w)
    dist = dist + W[0]  # (a result of the at-once rule: a leaf)
    d = d * 1.0 + w[0]
    visited, v = la.zeros(12, dtype=bool), np.zeros(12, dtype=bool)
    visited[11] = False  # (a zeros value becomes a buffer at its first write: Python's path)
    runs = backend_does("eager") and la._bind.FAST is not None
    for step in range(3):
        u, k = la.argmin(la.where(visited, np.inf, dist)), np.argmin(np.where(v, np.inf, d))
        seen = []
        sys.setprofile(lambda frame, event, arg: seen.append(frame) if event == "call" else None)
        try:
            e = dist[u]
            visited[u] = True
        finally:
            sys.setprofile(None)
        assert not seen or not runs, [f.f_code.co_name for f in seen]
        v[k] = True
        assert float(e) == d[k] and int(u) == k
    np.testing.assert_array_equal(np.asarray(visited), v)
    if runs:
        monkeypatch.setattr(eager, "run_candidate", None)  # (the rule's walk: not taken)
    got = la.where(visited, np.inf, dist)
    assert _is_leaf(got) or not runs
    np.testing.assert_array_equal(np.asarray(got), np.where(v, np.inf, d))
    monkeypatch.undo()
    names = []  # leaves and numbers go to where_now before any operand is bound (~1.5 us)
    sys.setprofile(lambda frame, event, arg: names.append(frame.f_code.co_name) if (
        event == "call") else None)
    try:
        got = la.where(visited, np.inf, dist)
    finally:
        sys.setprofile(None)
    assert not {"operand", "broadcast_shapes", "result_type"} & set(names) or not runs, names
    np.testing.assert_array_equal(np.asarray(got), np.where(v, np.inf, d))
    i32 = la.asarray(np.arange(12, dtype=np.int32)) + W[0].astype(np.int32)
    f32 = dist.astype(np.float32)
    for args, want in [((visited, dist, 0), np.where(v, d, 0)),
                       ((visited, 2, dist), np.where(v, 2, d)),
                       ((visited, i32, 5), np.where(v, np.arange(12, dtype=np.int32), 5)),
                       ((visited, f32, 1.5), np.where(v, d.astype(np.float32), 1.5)),
                       ((i32, dist, -1.0), np.where(np.arange(12, dtype=np.int32), d, -1.0)),
                       ((visited, dist, 2 ** 60), np.where(v, d, 2 ** 60))]:
        got = la.where(*args)
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)


def test_an_argmin_of_a_computed_vector_is_numpys_now(backend, backend_does, monkeypatch):
    """`np.argmin(np.where(visited, np.inf, dist))` (dijkstra): argmin/argmax over every element
    of an at-once result or a view of a computed buffer is the ndarray method on the buffer
    (eager.arg_now: ~7 -> ~2 us), an int64 0-d Array: no reduction node, no `reduce_now`;
    NumPy's index (the first of ties, the first NaN); an empty input raises as before."""
    from lazyarray import reductions

    runs = backend_does("eager")
    if runs:
        monkeypatch.setattr(reductions, "_reduce_now", None)  # (the general at-once call)
    base = la.asarray(np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]))
    data = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
    at_once = base + base[0]  # (a result of the rule)
    cases = [(at_once, data + 3.0), (base[1:7], data[1:7]), (base[::-2], data[::-2]),
             (at_once > 5.0, data + 3.0 > 5.0), ((at_once * 0).astype(np.int32),
                                                 (data * 0).astype(np.int32))]
    for x, want in cases:
        for name in ("argmin", "argmax"):
            got = getattr(la, name)(x)
            assert _is_leaf(got) or not runs, name
            assert np.asarray(got).dtype == np.int64 and int(got) == getattr(np, name)(want)
    nan = la.asarray(np.array([2.0, np.nan, 1.0, np.nan])) + base[0]
    assert int(la.argmin(nan)) == 1 == int(la.argmax(nan))
    monkeypatch.undo()
    with pytest.raises(ValueError):
        la.argmin(base[3:3] + base[0])


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
@pytest.mark.parametrize("dtype", [np.float64, np.uint8, np.complex64])
def test_recycled_element_arrays_keep_values_other_holders_read(backend, dtype):
    """More holders of a 0-d result than the test above (fuzz39): a memoryview and a DLPack
    export, its views `e[()]` and `e[None]`, a pending expression, a pickled copy, an element
    through a view chain, a list, la.jit's and la.grad's arguments, an element as an index and a
    slice bound, each checked after many more element ops of the dtype than the ring recycles."""
    import pickle
    base = (np.arange(40) % 7 + 1).astype(dtype).reshape(5, 8)
    A = la.asarray(base)
    v = la.asarray(np.arange(10.0))
    twice = la.jit(lambda x: x * 2)
    held = []
    for k in range(40):
        i, j = k % 5, (k * 3) % 8
        e, want = A[i, j], base[i, j]
        held += [(memoryview(np.asarray(e)), want), (np.from_dlpack(e), want), (e[()], want),
                 (e[None], np.array([want])), (e * 1, want * 1), ([A[::-1][4 - i][j]], want),
                 (pickle.loads(pickle.dumps(e)), want), (twice(e), want * 2)]
        if dtype == np.float64:
            held.append((la.grad(lambda x: x * x)(e), 2 * want))
        if dtype == np.uint8:
            held += [(v[A[i, j]], float(want)), (v[A[i, j]:], np.arange(float(want), 10.0))]
        for q in range(20):  # (results that die at once: the ring hands their arrays out again)
            t = A[q % 5, q % 8] * 1
            u = A[(q + 1) % 5][q % 8]
        del e, t, u
    for value, want in held:
        got = np.asarray(value[0] if isinstance(value, list) else value)
        assert np.array_equal(got, np.asarray(want)), (got, want)


def test_a_pickled_element_stays_numpys_scalar(backend):
    """An element or a 0-d result pickled and loaded is still NumPy's scalar (`_view` False):
    `q /= 2.0` of an int element rebinds q to a float, as NumPy's int64 does, where an int 0-d
    array raises the in-place casting error (fuzz40's seed 150230); a pickled 0-d array stays
    one."""
    import pickle
    A = la.asarray(np.arange(5))
    for q, want in ((A[2], np.int64(2)), (A[1] + A[2], np.int64(3)), (A[3:4].sum(), np.int64(3))):
        q, want = pickle.loads(pickle.dumps(q)), pickle.loads(pickle.dumps(want))
        q /= 2.0
        want /= 2.0
        assert np.asarray(q).dtype == want.dtype and float(q) == float(want)
    z = pickle.loads(pickle.dumps(la.asarray(np.array(3))))
    with pytest.raises(TypeError):  # (NumPy's UFuncTypeError)
        z /= 2.0


def test_an_op_on_an_indexed_read_runs_at_once(backend, backend_does):
    A = la.asarray(np.arange(12.0).reshape(3, 4))
    d = A[1, 2] * 2.0 - A[0, 1]
    assert _is_leaf(d) or not backend_does("eager")
    assert float(d) == 11.0
    s = la.dot(A[1, :2], A[2, :2])
    assert _is_leaf(s) or not backend_does("eager")
    assert float(s) == np.dot(np.arange(4.0, 6.0), np.arange(8.0, 10.0))


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_ufunc_of_a_python_number_runs_at_its_line(backend, backend_does):
    """`np.exp(-beta * dE)` of a Python float (ising's acceptance test) is computed at its line,
    as NumPy does: a 0-d Array (lazyarray's NumPy scalar, as before) holding the value, so its
    reader runs at once too and builds no plan; NumPy's values, dtypes and warnings (at the
    user's line); lazy under eager_size=0."""
    from lazyarray import _bind

    runs = backend_does("eager") and _bind.FAST is not None
    draws = la.asarray(np.array([0.1, 0.9]))
    before = la.cache_info().plans_built
    for k in range(2):
        e = la.exp(-0.45 * 4)
        assert type(e) is la.Array and (_is_leaf(e) or not runs)
        assert bool(draws[k] < e) == (np.array([0.1, 0.9])[k] < np.exp(-0.45 * 4))
    assert la.cache_info().plans_built == before or not runs
    for name, value in [("exp", 3), ("sqrt", 2.0), ("floor", -2.5), ("logical_not", True),
                        ("negative", 2 ** 62), ("sin", 1.0), ("isnan", 0.5), ("abs", -7)]:
        got, want = getattr(la, name)(value), getattr(np, name)(value)
        assert type(got) is la.Array and (_is_leaf(got) or not runs), name
        assert np.asarray(got).dtype == want.dtype and np.asarray(got) == want, name
    with pytest.warns(RuntimeWarning, match="divide by zero") as caught:
        la.log(0.0)
    assert caught[0].filename == __file__
    with la.config(eager_size=0):
        assert not _is_leaf(la.exp(1.0))


def test_ops_on_whole_user_arrays_stay_lazy(backend):
    x = la.asarray(np.ones((4, 4)))
    y = la.tanh(x @ x + 1.0)
    assert not _is_leaf(y)  # one fused plan, as before
    np.testing.assert_allclose(np.asarray(y), np.tanh(np.ones((4, 4)) @ np.ones((4, 4)) + 1.0))


def test_a_view_of_a_computed_array_stays_a_view(backend):
    A = la.asarray(np.zeros((3, 3)))
    row = A[1]
    assert not _is_leaf(row)
    A[1, 2] = 5.0
    np.testing.assert_array_equal(np.asarray(row), [0.0, 0.0, 5.0])


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_walk_keeps_the_pending_arrays_it_computed(backend, backend_does, monkeypatch):
    """nbody's `acc = f(pos)` then `vel += acc * dt / 2` twice: the first at-once walk computes
    `acc` (a pending Array of the user's frame) and `acc` keeps that value, so the second read
    walks nothing; a view of a computed buffer stays a view; values are NumPy's."""
    from lazyarray import eager

    rng = np.random.default_rng(3)
    d_np, m_np, v_np = rng.random((60, 60)), rng.random((60, 1)), rng.random((60, 3))
    D, mass, vel = la.asarray(d_np), la.asarray(m_np), la.asarray(v_np)
    vel *= 1.0  # a computed buffer: `vel + ...` runs at once
    walks = []
    run = eager._run
    monkeypatch.setattr(eager, "_run", lambda node, order, *a: walks.append(len(order))
                        or run(node, order, *a))
    acc = la.hstack((D * 2.0 @ mass, D * 3.0 @ mass, D * 4.0 @ mass))
    row = D[3]  # a view of a computed buffer: stays the view
    vel += acc * 0.5 + row[None, :3]
    assert not backend_does("eager") or (_is_leaf(acc) and not _is_leaf(row) and walks)
    before = len(walks)
    vel += acc * 0.5 + row[None, :3]
    assert not backend_does("eager") or all(n <= 3 for n in walks[before:])
    acc_np = np.hstack((d_np * 2.0 @ m_np, d_np * 3.0 @ m_np, d_np * 4.0 @ m_np))
    want = v_np + (acc_np * 0.5 + d_np[None, 3, :3])
    want += acc_np * 0.5 + d_np[None, 3, :3]
    np.testing.assert_array_equal(np.asarray(vel), want)
    np.testing.assert_array_equal(np.asarray(acc), acc_np)


def test_a_reduction_of_a_large_product_runs_as_one_plan_on_c(backend, backend_does,
                                                              monkeypatch):
    """conv2d's `np.sum(x[:, i:i+k, j:j+k, :, None] * w, axis=(1, 2, 3))`: a small result of a
    reduction whose input is a computed value above eager_size. On C it is evaluated at its line
    through one plan (the reduction folds the product in its kernel; the slice starts are
    arguments: no plan per (i, j)) and is a leaf of the rule, so the write takes the at-once
    path; elsewhere the walk computes it. Values are NumPy's within float32 sums' rounding."""
    from lazyarray import eager

    rng = np.random.default_rng(5)
    x_np = rng.random((4, 12, 12, 8)).astype(np.float32)
    w_np = rng.random((3, 3, 8, 16)).astype(np.float32)
    x, w = la.array(x_np), la.array(w_np)
    out = la.empty((4, 10, 10, 16), dtype=np.float32)
    walks = []
    run = eager._run
    monkeypatch.setattr(eager, "_run", lambda n, o, *a: walks.append(len(o)) or run(n, o, *a))
    for i, j in ((0, 0), (3, 5)):
        s = la.sum(x[:, i:i + 3, j:j + 3, :, np.newaxis] * w[np.newaxis], axis=(1, 2, 3))
        assert not backend_does("eager") or _is_leaf(s)
        out[:, i, j, :] = s
    built = la.cache_info().plans_built
    for i, j in ((7, 2), (9, 9)):
        s = la.sum(x[:, i:i + 3, j:j + 3, :, np.newaxis] * w[np.newaxis], axis=(1, 2, 3))
        out[:, i, j, :] = s
    if backend == "c":
        assert not walks and la.cache_info().plans_built == built
    elif backend_does("eager"):
        assert walks
    want = np.zeros((4, 10, 10, 16), np.float32)
    got = np.asarray(out)
    for i, j in ((0, 0), (3, 5), (7, 2), (9, 9)):
        want = np.sum(x_np[:, i:i + 3, j:j + 3, :, np.newaxis] * w_np[np.newaxis], axis=(1, 2, 3))
        np.testing.assert_allclose(got[:, i, j, :], want, rtol=1e-5)


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.bool_])
def test_a_reduction_of_an_at_once_leaf_runs_directly(backend, backend_does, monkeypatch,
                                                      dtype):
    """lenet's `np.sum(p, axis=(1, 2, 3))` of the at-once window product p, and its pooling's
    `np.max` of a window view: the result is computed in `_reduce` (eager.reduce_now), not
    through the Array's rule (`run_now`); the same leaf, dtype and bits as that path gives
    (NumPy's), and NumPy's overflow warning."""
    from lazyarray import eager

    array_module = sys.modules["lazyarray.array"]  # (`lazyarray.array` is also la.array)
    x_np = (np.random.default_rng(6).random((4, 9, 9, 2)) * 100).astype(dtype)
    x = la.array(x_np)
    q = x[:, 1:4, 2:5, :] * x[:, 2:5, 1:4, :]  # an at-once leaf
    assert not backend_does("eager") or _is_leaf(q)
    calls = []
    monkeypatch.setattr(array_module, "_run_now",
                        lambda n, f=eager.run_now: calls.append(n) or f(n))
    got = [la.sum(q, axis=(1, 2, 3)), la.prod(q[0:1], axis=0), la.max(q, axis=(1, 2)),
           la.sum(q, axis=(1, 2, 3), dtype=np.float64), la.max(x[:, 2:4, 4:6, :], axis=(1, 2)),
           la.min(x[1, ::2], axis=0)]  # (views of a computed buffer: lenet's pooling)
    direct = [c for c in calls if c.op.name in ("sum", "prod", "max", "min") and (
        c.inputs[0] is q._node or c.inputs[0].op.write_back is not None)]  # (no cast between)
    assert not backend_does("eager") or (
        _is_leaf(got[0]) and _is_leaf(got[4]) and _is_leaf(got[5]) and not direct)
    q_np = x_np[:, 1:4, 2:5, :] * x_np[:, 2:5, 1:4, :]
    want = [np.sum(q_np, axis=(1, 2, 3)), np.prod(q_np[0:1], axis=0), np.max(q_np, axis=(1, 2)),
            np.sum(q_np, axis=(1, 2, 3), dtype=np.float64),
            np.max(x_np[:, 2:4, 4:6, :], axis=(1, 2)), np.min(x_np[1, ::2], axis=0)]
    for g, w in zip(got, want):
        g = np.asarray(g)
        assert g.dtype == w.dtype and np.array_equal(g, w)
    if dtype == np.float32:
        big = la.array(np.full((4, 8), 3e38, np.float32))
        r = big[:2] * 1.0  # an at-once leaf
        with pytest.warns(RuntimeWarning, match="overflow"):
            s = np.asarray(la.sum(r, axis=0))
        assert s.dtype == np.float32 and np.isinf(s).all()


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_walk_gives_ufuncs_their_inputs_unbroadcast(backend, backend_does, monkeypatch):
    """An at-once walk over a graph with broadcast_to nodes (`x * (mass * mass.T)`, a (100, 100)
    intermediate under a (100,) sum) hands a ufunc op its inputs as they are (NumPy broadcasts
    them), so np.broadcast_to (3.4 us) is not called; a reader that needs the whole shape
    (`la.triu`'s where) still gets it; values and shapes are NumPy's."""
    from lazyarray import eager

    rng = np.random.default_rng(4)
    m_np, r_np = rng.random((100, 1)), rng.random((100, 100))
    mass, R = la.asarray(m_np), la.asarray(r_np)
    R *= 1.0  # a computed buffer: its row is an indexed read
    calls, walks = [], []
    broadcast_to, run = np.broadcast_to, eager._run
    monkeypatch.setattr(np, "broadcast_to",
                        lambda *a, **k: calls.append(1) or broadcast_to(*a, **k))
    monkeypatch.setattr(eager, "_run", lambda n, o, *a: walks.append(len(o)) or run(n, o, *a))
    s = la.sum(R[3] * (mass * mass.T), axis=1) - 1.0  # (the scalar leaf of `- 1.0` stays 0-d)
    # (C folds the product in the sum's kernel, one plan: test_a_reduction_of_a_large_product_*)
    assert not backend_does("eager") or (_is_leaf(s) and bool(walks) == (backend != "c")
                                         and not calls)
    t = la.sum(la.triu(R[3] * (mass * mass.T), 1), axis=0)
    monkeypatch.undo()
    want = np.sum(r_np[3] * (m_np * m_np.T), axis=1) - 1.0  # (C: the plan's sum, its order)
    np.testing.assert_allclose(np.asarray(s), want, rtol=1e-13 if backend == "c" else 0)
    want = np.sum(np.triu(r_np[3] * (m_np * m_np.T), 1), axis=0)  # (a plan's sum: its order)
    np.testing.assert_allclose(np.asarray(t), want, rtol=1e-13)


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_power_at_once_gets_its_scalar_unbroadcast(backend, monkeypatch):
    """`r ** -1.5` of a computed r at once (a small one's; nbody's masked update's value at any
    size, through one_op_now) hands np.power the exponent 0-d, as the ufunc ops get theirs: no
    np.broadcast_to (~3 us at 10,000 elements); NumPy's bits and dtypes, integer powers
    (power's own rule for negative exponents) included."""
    rng = np.random.default_rng(6)
    r_np, k_np = rng.random((100, 100)) - 0.1, np.arange(-3, 5, dtype=np.int64)
    s_np = np.abs(r_np[:10]).astype(np.float32)
    r, k, s = la.asarray(r_np), la.asarray(k_np), la.asarray(s_np)
    s *= 1.0  # a computed buffer: the at-once rule's
    calls = []
    broadcast_to = np.broadcast_to
    monkeypatch.setattr(np, "broadcast_to",
                        lambda *a, **kw: calls.append(1) or broadcast_to(*a, **kw))
    r[r > 0] = r[r > 0] ** -1.5
    got = [s ** 2.5, 2 ** k[4:]]
    assert all(_is_leaf(g) for g in got + [r]) and not calls
    monkeypatch.undo()
    r_np[r_np > 0] = r_np[r_np > 0] ** -1.5
    for g, want in zip(got + [r], [s_np ** np.float32(2.5), 2 ** k_np[4:], r_np]):
        assert np.asarray(g).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(g), want)


def test_eager_size_zero_keeps_everything_lazy(backend):
    A = la.asarray(np.arange(6.0).reshape(2, 3))
    with la.config(eager_size=0):
        d = A[1, 2] * 2.0
        assert not _is_leaf(d)
        A[0, 0] = 1.0
        assert not _is_leaf(A)
    assert float(d) == 10.0 and np.asarray(A)[0, 0] == 1.0


@pytest.mark.needs("eager")
def test_results_above_the_size_limit_stay_lazy(backend):
    A = la.asarray(np.ones((8, 8)))
    with la.config(eager_size=4):
        r = A[1] * 2.0  # 8 elements > 4
        assert not _is_leaf(r)
        e = A[1, 1] * 2.0
        assert _is_leaf(e)


# --- writes in place, and the values that must not change --------------------------------------------


def test_element_writes_go_into_the_buffer_itself(backend, backend_does):
    A = la.asarray(np.zeros((5, 5)))
    A[0, 0] = 1.0  # the first write may copy the user's buffer
    same = _same_value(A)
    for i in range(5):
        for j in range(5):
            A[i, j] = float(i * 5 + j)
    assert same() or not backend_does("eager")  # no copy of A per write
    np.testing.assert_array_equal(np.asarray(A), np.arange(25.0).reshape(5, 5))


def test_augmented_element_writes_match_numpy(backend):
    a = np.arange(1.0, 17.0).reshape(4, 4)
    A = la.asarray(a.copy())
    for i in range(4):
        for j in range(i):
            A[i, j] -= la.dot(A[i, :j], A[j, :j])
            a[i, j] -= np.dot(a[i, :j], a[j, :j])
            A[i, j] /= A[j, j]
            a[i, j] /= a[j, j]
    assert_as_numpy(A, a)  # (la.dot is cuBLAS's on a GPU)


def test_augmented_operators_on_numpy_scalars_are_a_new_value(backend):
    """An element and a 0-d result of an op are NumPy's scalars, which have no in-place operators:
    `t += 1` is `t = t + 1` (another name of t keeps its value), `A[i, j] += 1.5` on an int A is
    NumPy's read, add and casting write, not the in-place UFuncTypeError
    (tests/test_fuzz_at_once.py found both)."""
    def run(xp):
        A = xp.array(np.arange(6, dtype=np.int32).reshape(2, 3))
        B = xp.array(np.arange(6.0).reshape(2, 3))
        e = B[0, 1]
        f = e
        e += 1
        e *= 3
        g = B[1, 1] * 2
        h = g
        g -= 1
        A[0, 1] += 1.5
        A[1][1] *= 2.5
        w = A[1, 2]
        w += xp.array(np.array([1, 2], np.int32))  # a (2,) result: NumPy's too
        return A, e, f, g, h, w
    for got, want in zip(run(la), run(np)):
        assert_as_numpy(got, want)


@pytest.mark.parametrize("dtype", ["float64", "int64", "float32", "bool"])
def test_element_writes_of_every_value_kind_match_numpy(dtype, backend, backend_does):
    """Python floats, ints (negative indices too), NumPy float64 scalars and 0-d Arrays written
    into an element: NumPy's conversion in every case; into a buffer only the handle holds the
    write goes into that buffer (float64/int64 values of the array's own kind), else through
    the general path."""
    a = np.arange(12).reshape(3, 4).astype(dtype)
    A = la.asarray(a.copy())
    A[0, 0] = A[0, 0]  # the first write copies the user's buffer
    a[0, 0] = a[0, 0]
    same = _same_value(A)
    values = [2.5, -3, np.float64(7.25), True, 0]
    for k, v in enumerate(values):
        with np.errstate(all="ignore"):
            a[k % 3, -1 - k % 4] = v
            A[k % 3, -1 - k % 4] = v
    A[2, 1] = A[1, 2]
    a[2, 1] = a[1, 2]
    A[1, 1] += A[2, 2]
    a[1, 1] += a[2, 2]
    np.testing.assert_array_equal(np.asarray(A), a)
    assert np.asarray(A).dtype == a.dtype
    if dtype in ("float64", "int64") and backend_does("eager"):
        assert same()


@pytest.mark.parametrize("layout", ["C", "F", "reversed", "strided"])
@pytest.mark.parametrize("dtype", ["float64", "int32", "uint8", "complex128", "bool"])
def test_element_writes_into_buffers_of_every_layout_match_numpy(layout, dtype, backend):
    """_trace.c store_element writes an element's bytes at the address the buffer's strides
    give (NumPy's setitem skipped): roots over Fortran-ordered, reversed and strided buffers,
    negative indices, NumPy-integer indices, values read from other elements and Python floats,
    each against NumPy's own writes."""
    base = (np.arange(35) % 11).astype(dtype).reshape(5, 7)
    a = {"C": base.copy(), "F": np.asfortranarray(base), "reversed": base[::-1, ::-1].copy()[::-1, ::-1],
         "strided": np.repeat(base, 2, axis=1)[:, ::2]}[layout]
    A = la.asarray(a.copy(order="K") if layout != "strided" else a)
    n = a.copy(order="K") if layout != "strided" else a.copy()
    for k in range(40):
        i, j = (k * 3) % 5 - (k % 2) * 5, np.int64((k * 4) % 7)
        src = ((k + 1) % 5, (k * 2) % 7)
        if k % 3 == 2 and dtype == "float64":
            n[i, j] = k * 0.5
            A[i, j] = k * 0.5
        else:
            n[i, j] = n[src]
            A[i, j] = A[src]
    np.testing.assert_array_equal(np.asarray(A), n)
    assert np.asarray(A).dtype == n.dtype


def test_an_element_write_numpy_refuses_raises_its_error(backend):
    A = la.asarray(np.zeros((2, 2), dtype=np.int64))
    A[0, 0] = 1
    with pytest.raises(OverflowError):
        np.zeros((2, 2), dtype=np.int64)[0, 0] = 1 << 64
    with pytest.raises(OverflowError):
        A[0, 1] = 1 << 64
    with pytest.raises(IndexError):
        A[2, 0] = 1
    with pytest.raises(IndexError):
        A[0, -3] = 1.0
    np.testing.assert_array_equal(np.asarray(A), [[1, 0], [0, 0]])


def test_basic_writes_go_into_the_buffer_and_match_numpy(backend, backend_does):
    """`out[:, i, j, :] = s`, `A[i] = row`, `A[i, j:] = 0.0` into a buffer only the handle holds:
    NumPy's values, the same buffer; a value of another dtype, with extra leading dims or of a
    shape that does not broadcast takes the general path (NumPy's cast, or its error)."""
    out_np = np.zeros((2, 3, 4, 5))
    out = la.asarray(out_np.copy())
    out[0, 0, 0, 0] = 0.0
    same = _same_value(out)
    rng = np.random.default_rng(0)
    for i in range(3):
        for j in range(4):
            s_np = rng.random((2, 5))
            s = la.asarray(s_np) * 1.0
            out[:, i, j, :] = s
            out_np[:, i, j, :] = s_np
    out[0, 2, 1:] = 7
    out_np[0, 2, 1:] = 7
    assert same() or not backend_does("eager")
    out[1] = out[0, 0]  # a view of its own buffer: the general path (refcounts)
    out_np[1] = out_np[0, 0]
    np.testing.assert_array_equal(np.asarray(out), out_np)
    out[0, 0] = la.asarray(np.ones((4, 5), np.int64))  # int64 into float64: NumPy's cast
    out_np[0, 0] = np.ones((4, 5), np.int64)
    np.testing.assert_array_equal(np.asarray(out), out_np)
    with pytest.raises(ValueError):
        out[0, 0] = la.asarray(np.ones((3, 5)))
    np.testing.assert_array_equal(np.asarray(out), out_np)
    # NumPy's values (14-15 us on the general path): an ndarray whose cast cannot warn, a flat
    # list of Python numbers into float64; the others (a float64 list into float32 rows, a
    # nested list, a float32 narrowing) take the general path and its checks
    for value in (rng.random(5), np.arange(5, dtype=np.int32), [0.5, 1, 2.0, -3, 4.25]):
        same = _same_value(out)
        out[1, 2, 3] = value
        out_np[1, 2, 3] = value
        assert same() or not backend_does("eager")
    for value in ([[1.0] * 5], np.full(5, 1e300), [1.0, 2], np.ones((1, 2))):
        errors = []
        for x in (out, out_np):
            try:
                x[0, 1, 2] = value
                errors.append(None)
            except ValueError as exc:
                errors.append(str(exc).split("\n")[0])
        assert errors[0] == errors[1], value
    np.testing.assert_array_equal(np.asarray(out), out_np)
    rows32 = la.asarray(np.zeros((2, 3), np.float32))
    rows32[0] = 1.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows32[1] = np.array([1e300, 1.0, 2.0])  # NumPy's 'overflow encountered in cast'
    assert [str(w.message) for w in caught] == ["overflow encountered in cast"]
    assert np.asarray(rows32)[1].tolist() == [np.inf, 1.0, 2.0]


def test_region_writes_of_numpy_values_build_no_node(backend, backend_does, monkeypatch):
    """`A[i, :] = row` of an ndarray or a flat list of Python numbers into a buffer only the
    handle holds is NumPy's assignment into that buffer (`eager._basic_write`): no scatter node
    is built (the general path took 14-15 us a row, NumPy 0.3)."""
    if not backend_does("eager"):
        pytest.skip("the at-once path's buffers")
    import lazyarray._methods as methods

    built = []
    general = methods.set_node
    monkeypatch.setattr(methods, "set_node", lambda *a: built.append(a) or general(*a))
    a = np.zeros((4, 3))
    A = la.asarray(a.copy())
    for i, row in enumerate((np.arange(3.0), [1, 2.5, 3], np.ones(3, np.float32),
                             np.array([True, False, True]))):
        A[i, :] = row
        a[i, :] = row
    assert built == []
    np.testing.assert_array_equal(np.asarray(A), a)
    with pytest.warns(np.exceptions.ComplexWarning):
        A[0] = np.array([1 + 1j, 2, 3])  # complex into floats: the general path's ComplexWarning
    assert len(built) == 1


def test_chained_element_writes_reach_the_root_and_keep_other_readers(backend, backend_does):
    """`A[i][j] = v` writes through the row view into A's buffer; a pending reader of the root
    and an evaluated copy keep their values, an evaluated live view sees the write (NumPy's
    view), and a view of a reshape NumPy would copy takes the general path."""
    a = np.arange(12.0).reshape(3, 4)
    A = la.asarray(a.copy())
    A[0, 0] = 0.0
    same = _same_value(A)
    row = A[2]
    np.asarray(row)  # evaluated: its node is a copy until the write resets it
    for i in range(3):
        for j in range(4):
            A[i][j] = A[i][j] * 2.0 + 1.0
            a[i][j] = a[i][j] * 2.0 + 1.0
    assert same() or not backend_does("eager")
    np.testing.assert_array_equal(np.asarray(A), a)
    np.testing.assert_array_equal(np.asarray(row), a[2])
    pending = A * 1.0  # a reader of A's buffer (lazy, or computed at once)
    copy = la.array(A)
    A[1][2] = -5.0
    expect = a.copy()
    a[1][2] = -5.0
    np.testing.assert_array_equal(np.asarray(pending), expect)
    np.testing.assert_array_equal(np.asarray(copy), expect)
    np.testing.assert_array_equal(np.asarray(A), a)
    T = A.T[1:3]  # a permuted view: the general path
    T[0][1] = 9.0
    a.T[1:3][0][1] = 9.0
    np.testing.assert_array_equal(np.asarray(A), a)


_WRITE_CHAINS = {
    "row": lambda x, i, j: x[i],
    "slice then row": lambda x, i, j: x[1:][i - 1],
    "reversed rows": lambda x, i, j: x[::-1][-i - 1],
    "stepped row": lambda x, i, j: x[i, ::2],
    "added unit dim": lambda x, i, j: x[None][0][i],
    "row of rows": lambda x, i, j: x[i - 1:i + 1][1],
    "transposed": lambda x, i, j: x.T[:, i],  # (a permute: NumPy's view, the general way)
}


@pytest.mark.parametrize("chain", sorted(_WRITE_CHAINS))
@pytest.mark.parametrize("dtype", ["float64", "int32", "complex128", "bool"])
def test_element_writes_through_view_chains(backend, backend_does, chain, dtype):
    """`view[j] = v` for views made by chains of slices and reshapes (_trace.c
    write_element_through_view writes the element's bytes at its address in the root's buffer):
    NumPy's values in the root and in every live view, and readers of the old value (a pending
    op, a copy, an element read, a NumPy export) keep it."""
    make = _WRITE_CHAINS[chain]
    a = (np.arange(48).reshape(6, 8) % 5).astype(dtype)
    A = la.asarray(a.copy())
    keep = A[0]  # a live view: it sees every write, as NumPy's does
    for i in range(1, 5):
        for j in range(0, 4):
            v = A[i, j + 1] if dtype != "float64" or j % 2 else 0.5 * (A[i, j] + A[j, i])
            make(A, i, j)[j] = v
            w = a[i, j + 1] if dtype != "float64" or j % 2 else 0.5 * (a[i, j] + a[j, i])
            make(a, i, j)[j] = w
    np.testing.assert_array_equal(np.asarray(A), a)
    np.testing.assert_array_equal(np.asarray(keep), a[0])
    before = a.copy()
    pending, copy, element, export = A + A, la.array(A), A[2, 3], np.asarray(A)
    make(A, 2, 3)[3] = A[4, 4]
    make(a, 2, 3)[3] = a[4, 4]
    np.testing.assert_array_equal(np.asarray(A), a)
    np.testing.assert_array_equal(np.asarray(pending), before + before)
    np.testing.assert_array_equal(np.asarray(copy), before)
    assert np.asarray(element) == before[2, 3]
    np.testing.assert_array_equal(export, before)


def test_writes_keyed_by_numpy_integers_go_into_the_buffer(backend, backend_does):
    """`for i in np.arange(n)`: NumPy integer keys write as Python ints do (in place, NumPy's
    values); out of range is NumPy's IndexError."""
    a, b = np.zeros((4, 5)), np.arange(20.0).reshape(4, 5)
    A, B = la.asarray(a.copy()), la.asarray(b)
    A[0, 0] = 0.0
    same = _same_value(A)
    for i in np.arange(4):
        for j in np.arange(5, dtype=np.int32):
            A[i, j] = float(i * 5 + j)
            a[i, j] = float(i * 5 + j)
        A[np.uint8(i), 1:3] = B[i, 3:5]
        a[np.uint8(i), 1:3] = b[i, 3:5]
    assert same() or not backend_does("eager")
    np.testing.assert_array_equal(np.asarray(A), a)
    with pytest.raises(IndexError):
        A[np.int64(4), 0] = 1.0


def test_an_element_read_before_a_write_keeps_its_value(backend):
    A = la.asarray(np.arange(4.0).reshape(2, 2))
    e = A[1, 1]
    A[1, 1] = 10.0
    assert float(e) == 3.0 and np.asarray(A)[1, 1] == 10.0


def test_copies_keep_the_old_value_and_asarray_aliases_as_numpys(backend):
    import copy

    A = la.asarray(np.zeros((3, 3)))
    B = la.asarray(A)  # NumPy's asarray of an array is that array
    copies = [copy.copy(A), copy.deepcopy(A), la.array(A), la.asarray(A, copy=True)]
    A[0, 0] = 7.0
    assert B is A and np.asarray(B)[0, 0] == 7.0
    for c in copies:
        assert np.asarray(c)[0, 0] == 0.0


def test_a_pending_expression_over_the_old_value_keeps_it(backend):
    A = la.asarray(np.ones((3, 3)))
    pending = A * 3.0  # not an indexed read: lazy, reads A's buffer when evaluated
    assert not _is_leaf(pending)
    A[0, 0] = 9.0
    assert np.asarray(pending)[0, 0] == 3.0 and np.asarray(A)[0, 0] == 9.0


def test_a_pending_reader_of_a_view_keeps_the_old_value(backend):
    A = la.asarray(np.ones((60, 80)))
    row = A[0]
    big = row[None, :] * la.asarray(np.ones((100, 1)))  # 8000 elements: lazy, reads row's chain
    assert not _is_leaf(big)
    A[0, 0] = 5.0
    np.testing.assert_array_equal(np.asarray(big), np.ones((100, 80)))
    assert np.asarray(row)[0] == 5.0  # the view follows, as NumPy's


def test_an_exported_buffer_keeps_its_value(backend):
    A = la.asarray(np.zeros((2, 2)))
    A[0, 1] = 1.0
    host = np.asarray(A)
    A[0, 0] = 4.0
    assert host[0, 0] == 0.0 and np.asarray(A)[0, 0] == 4.0


def test_the_users_numpy_array_is_never_written(backend):
    x = np.zeros((3, 3))
    A = la.asarray(x)
    A[1, 1] = 2.0
    A[2, 2] += 1.0
    assert not x.any()
    np.testing.assert_array_equal(np.asarray(A), np.diag([0.0, 2.0, 1.0]))


def test_a_fill_becomes_a_buffer_at_its_first_write(backend, backend_does):
    z = la.zeros((4, 4))
    kept = z + 0.0  # lazy, over the fill
    z[1, 2] = 3.0
    assert _is_leaf(z) or not backend_does("eager")
    same = _same_value(z)
    z[2, 1] = 4.0
    assert same() or not backend_does("eager")
    expected = np.zeros((4, 4))
    expected[1, 2], expected[2, 1] = 3.0, 4.0
    np.testing.assert_array_equal(np.asarray(z), expected)
    assert not np.asarray(kept).any()


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_fill_becomes_a_buffer_at_its_first_indexed_read(backend, fresh_caches):
    """SOR's first sweep: `x_old = x.copy()` of `x = np.zeros(n)`, read by `x_old[i]` and
    `A[i, i + 1:] @ x_old[i + 1:]` (eager.py `fill_read`, from the C getitem and indexing.py):
    the handle gets the fill's buffer at its first read, so each read is an element read or
    view of a buffer, not a walk of the pending fill; no plan; the handle sharing the fill and
    a later write are unaffected; a fill above 64x eager_size stays a fill."""
    a = np.arange(36.0).reshape(6, 6)
    A, x = la.asarray(a), la.zeros(6)
    x_old = x.copy()
    built = la.cache_info().plans_built
    e = x_old[2]
    assert x_old._node.holds_buffer and not x._node.holds_buffer
    got = A[1, 3:] @ x_old[3:]
    assert got._node.holds_buffer and la.cache_info().plans_built == built
    x[0] = 1.0
    assert float(e) == 0.0 and e.shape == () and float(got) == 0.0
    np.testing.assert_array_equal(np.asarray(x_old), np.zeros(6))
    np.testing.assert_array_equal(np.asarray(x), [1.0, 0, 0, 0, 0, 0])
    with la.config(eager_size=1):
        big = la.full((8, 9), 2.5)
        assert float(big[1, 1]) == 2.5 and not big._node.holds_buffer
    ones = la.ones((3, 2), dtype=la.int32)
    assert ones[1].dtype == np.int32 and ones._node.holds_buffer


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_fill_operand_of_a_product_becomes_a_buffer(backend, fresh_caches):
    """portfolio's `w = np.full(n, 1 / n, dtype=np.float32); port = returns @ w`: the fill
    gets its buffer at the product (as at an indexed read, eager.py `fill_read`), which then
    takes the at-once or plain matmul path instead of walking the fill through its reference
    (42 -> 12 us at (1000, 150) @ (150,), NumPy 10); NumPy's bits; the handle sharing the fill
    keeps its own value."""
    rng = np.random.default_rng(4)
    r = rng.standard_normal((60, 7)).astype(np.float32)
    R, w = la.asarray(r), la.full(7, 1 / 7, dtype=np.float32)
    other = w
    w2 = la.full((7, 3), 0.5)
    got, got2 = R @ w, la.asarray(r.astype(np.float64)) @ w2
    assert w._node.holds_buffer and w2._node.holds_buffer
    want = r @ np.full(7, 1 / 7, dtype=np.float32)
    assert np.asarray(got).tobytes() == want.tobytes()
    np.testing.assert_array_equal(np.asarray(got2), r.astype(np.float64) @ np.full((7, 3), 0.5))
    np.testing.assert_array_equal(np.asarray(other), np.full(7, 1 / 7, dtype=np.float32))


def test_writes_through_views_reach_the_root_and_its_views(backend):
    a = np.arange(20.0).reshape(4, 5)
    A = la.asarray(a.copy())
    row, col = A[2], A[:, 3]
    A[2][1] = -1.0
    a[2][1] = -1.0
    row[4] += 100.0
    a[2, 4] += 100.0
    col[0] = 0.5
    a[0, 3] = 0.5
    A[1] /= A[1, 1]
    a[1] /= a[1, 1]
    np.testing.assert_array_equal(np.asarray(A), a)
    np.testing.assert_array_equal(np.asarray(row), a[2])
    np.testing.assert_array_equal(np.asarray(col), a[:, 3])


def test_element_writes_while_views_live_go_into_the_buffer(backend, backend_does):
    """`A[i, j] = v` while views of A live (`row = A[i]` kept, a loop's `x[:i]` operand) writes
    the buffer in C (_trace.c try_write_region's element case, ~12 -> ~0.5 us); the views see the
    write as NumPy's do; a pending reader, an alias's export or an out-of-range index take the
    general path, which keeps their values and raises NumPy's IndexError at the line."""
    a = np.arange(20.0).reshape(4, 5)
    A = la.asarray(a.copy())
    A[0, 0] = 0.0
    a[0, 0] = 0.0
    same = _same_value(A)
    row, col, tail = A[2], A[:, 3], A[1:, ::-2]
    for i in range(4):
        A[i, 3] = float(i) - 0.5  # seen by col, tail and (i == 2) row
        a[i, 3] = float(i) - 0.5
        A[i, i] = A[3 - i, 1] * 2.0  # a computed 0-d value of A's dtype
        a[i, i] = a[3 - i, 1] * 2.0
        np.testing.assert_array_equal(np.asarray(col), a[:, 3])
    assert same() or not backend_does("eager")
    pending, pending_want = A * 2.0, a * 2.0  # a lazy reader: the write must not reach it
    A[1, 1] = 99.0
    a[1, 1] = 99.0
    export = np.asarray(A)
    A[3, 0] = -7.0
    np.testing.assert_array_equal(export, a)  # an export keeps its value (_methods.__setitem__)
    a[3, 0] = -7.0
    with pytest.raises(IndexError) as info:
        A[4, 0] = 1.0
    assert "test_eager.py" in notes_of(info)
    for got, want in ((A, a), (row, a[2]), (col, a[:, 3]), (tail, a[1:, ::-2])):
        np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(pending), pending_want)


def test_region_writes_of_python_numbers_go_into_the_buffer_in_c(backend, backend_does):
    """cavity_flow's boundaries `u[0, :] = 0`, `u[-1, :] = 1`: a Python int or bool written into a
    region of a computed buffer is NumPy's `data[key] = v` from C (_trace.c try_write_region with
    element_value's numbers; the Python path took ~2.8 us, NumPy 0.3): no Python frame, NumPy's
    stored values; a number the dtype cannot hold exactly (an int past int8, a bool into float)
    or an unsigned dtype takes the general path, which raises NumPy's error or stores its value."""
    cases = [(np.float64, 0), (np.float64, -(10**20) - 1), (np.float64, 2**53 + 1),
             (np.int64, -1), (np.int8, -128), (np.uint8, 255), (np.bool_, 2), (np.bool_, True),
             (np.float64, True), (np.float32, 3)]
    for dtype, value in cases:
        a = np.arange(12).reshape(3, 4).astype(dtype)
        A = la.asarray(a.copy())
        A[0, 0] = a[0, 0].item()  # a computed buffer of its own
        seen = []
        sys.setprofile(lambda frame, event, arg: seen.append(frame) if event == "call" else None)
        try:
            A[-1, :] = value
            A[:, 1] = value
        finally:
            sys.setprofile(None)
        a[-1, :] = value
        a[:, 1] = value
        got = np.asarray(A)
        assert got.dtype == a.dtype and got.tobytes() == a.tobytes(), (dtype, value)
        c_path = dtype in (np.float64, np.int64, np.int8, np.bool_) and type(value) is (
            bool if dtype is np.bool_ and value is True else int)
        assert not c_path or not seen or la._bind.FAST is None or not backend_does("eager"), (
            dtype, value, [f.f_code.co_name for f in seen])
    A = la.asarray(np.zeros((2, 3), np.int8))
    A[0, 0] = 1
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        A[1, :] = 300


def test_a_small_buffer_set_by_elements_is_an_at_once_value(backend, backend_does):
    """jacobi_eigen's rotation: `J = np.eye(n)` set by element writes (eager.py `mark_written`,
    _trace.c's for its element writes), then `V @ J`: J's buffer is an index loop's value, so
    the product runs at once (a buffer, no plan: it was a lazy chain cut through plans), with
    NumPy's bytes; so does a fill set by an element. A buffer above eager_size, or written by
    a region, stays as it was. (`LAZYARRAY_PURE_PYTHON=1` runs eager.py's.)"""
    rng = np.random.default_rng(3)
    v, c = rng.standard_normal((5, 5)), rng.standard_normal(5)
    V, C = la.asarray(v), la.asarray(c)
    J, want = la.eye(5), np.eye(5)
    J[1, 1] = J[3, 3] = C[0]  # (a 0-d at-once value)
    J[1, 3] = 0.5
    want[1, 1] = want[3, 3] = c[0]
    want[1, 3] = 0.5
    Z = la.zeros((5, 5))
    Z[2, 4] = 2.0
    z = np.zeros((5, 5))
    z[2, 4] = 2.0
    built = la.cache_info().plans_built
    got, got_z = V @ J, V @ Z
    now = backend_does("eager")
    assert got._node.holds_buffer == now and got_z._node.holds_buffer == now
    assert la.cache_info().plans_built == built
    assert np.asarray(got).tobytes() == (v @ want).tobytes()
    assert np.asarray(got_z).tobytes() == (v @ z).tobytes()
    W, R = la.asarray(v[:1]), la.eye(5)
    R[1:3] = 2.0  # (a region write: not an index loop's element)
    with la.config(eager_size=16):
        B = la.eye(5)
        B[0, 0] = 3.0
        lazy = [W @ B, W @ R]  # (results of 5 elements)
    assert not any(x._node.holds_buffer for x in lazy)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_products_of_indexed_matrices_run_at_once_as_numpys(backend, dtype, fresh_caches):
    """`x[:, i] @ x[:, i:]` (covariance's loop), `x[i:, :] @ y[:, j]`, `x[:2] @ y[:, 1:3]`, `A @ v`
    of computed values: NumPy's matmul of the views now (eager.matrix_product), its bits, no plan;
    two plain buffers stay lazy (the rule reads indexed values only); shapes that do not
    contract raise the general path's error at the line."""
    rng = np.random.default_rng(11)
    a = rng.standard_normal((7, 6)).astype(dtype)
    b = rng.standard_normal((6, 5)).astype(dtype)
    x, y = la.asarray(a), la.asarray(b)
    built = la.cache_info().plans_built
    cases = [(x[:, 2] @ x[:, 2:], a[:, 2] @ a[:, 2:]), (x[3:, :] @ y[:, 1], a[3:, :] @ b[:, 1]),
             (x[:2] @ y[:, 1:3], a[:2] @ b[:, 1:3]), (x[1] @ y, a[1] @ b),
             (x.T[::2] @ x[:, ::-1], a.T[::2] @ a[:, ::-1]),
             (x @ la.asarray(b[:, 0]), a @ b[:, 0])]  # (power iteration's `A @ v`)
    for got, want in cases:
        assert got._node.holds_buffer and got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)
    assert la.cache_info().plans_built == built
    assert not (x @ y)._node.holds_buffer
    with pytest.raises(ValueError, match="matmul") as info:
        x[:, 2] @ x[:5, :]
    assert "test_eager.py" in notes_of(info)
    # `@` of computed matrices in C (matrix_now_c: scattering_self_energies' 4 x 4 blocks,
    # ~6 -> ~2 us), no Python frame; as `x[1] @ y` above
    import gc
    import sys

    # transposed views too (jacobi_eigen's `J.T @ A @ J`: a permute in C's view layout)
    seen, p, q = [], x[:4, :4], y[1:5, :4]
    pt, xt, qt = p.T, x.T, y[1:5, :4].T
    gc.disable()  # (a collection here runs callbacks, e.g. Hypothesis's: Python frames not ours)
    sys.setprofile(lambda frame, event, arg: seen.append(frame) if event == "call" else None)
    try:
        got = [p @ q, pt @ q, xt @ x[:, :3], qt[::2] @ pt]
    finally:
        sys.setprofile(None)
        gc.enable()
    assert not seen or la._bind.FAST is None, [f.f_code.co_name for f in seen]
    wanted = [a[:4, :4] @ b[1:5, :4], a[:4, :4].T @ b[1:5, :4], a.T @ a[:, :3],
              b[1:5, :4].T[::2] @ a[:4, :4].T]
    for g, w in zip(got, wanted):
        assert g.dtype == w.dtype and np.asarray(g).tobytes() == w.tobytes()


@pytest.mark.needs("fp_errors")
def test_a_product_of_indexed_matrices_warns_at_the_users_line(backend, backend_does):
    """At the product's line; on the general path (eager_size=0, cupy's) where it is computed."""
    big = np.full((3, 3), 1e200)
    x = la.asarray(big)
    with pytest.warns(RuntimeWarning, match="overflow encountered in matmul"):
        r = x[:, 0] @ x[:, 1:]
        if not backend_does("eager"):
            r = np.asarray(r)
    assert np.isinf(np.asarray(r)).all()


_CONVERSION_VALUES = [(np.bool_, True), (np.bool_, False), (np.int8, -7), (np.uint64, 2**64 - 1),
                      (np.int16, -2**15), (np.int32, 2**31 - 1), (np.uint8, 255),
                      (np.int64, -2**63), (np.float32, 2.5), (np.float64, np.nan),
                      (np.float64, -np.inf), (np.float64, -0.0), (np.complex128, 1 + 2j),
                      (np.complex64, 0j)]


@pytest.mark.parametrize("dtype, value", _CONVERSION_VALUES)
def test_scalar_conversions_of_computed_elements_are_numpys(backend, dtype, value):
    """int(x), float(x), operator.index(x), bool(x) of a computed 0-d Array (C: crc16's `int(b)`
    per byte), of a pending one and of a one-element vector (the Python methods) give NumPy's
    values and types, or its exception types."""
    import operator

    a = np.array([value, value], dtype=dtype)
    x = la.asarray(a)
    for got in (x[1], x[1] * 1 if dtype is not np.bool_ else x[1] & True, x[:1]):
        want = a[1] if got.ndim == 0 else a[:1]
        for convert in (int, float, operator.index, bool, complex):
            if got.ndim and convert is not bool:
                continue  # (NumPy 2: only 0-d arrays convert to numbers)
            try:  # (x[1] stands for NumPy's scalar a[1]: float() of a complex one is its
                with warnings.catch_warnings():  # real part, with a ComplexWarning; probe54)
                    warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
                    expected = convert(want)
            except Exception as error:  # noqa: BLE001 (its type is the expectation)
                with pytest.raises(type(error)):
                    convert(got)
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
                result = convert(got)
            assert type(result) is type(expected)
            assert result == expected or (result != result and expected != expected)
            if type(result) is float:
                assert np.signbit(result) == np.signbit(expected)


def test_row_swaps_with_advanced_indexing(backend):
    a = np.arange(12.0).reshape(4, 3)
    A = la.asarray(a.copy())
    A[[0, 3]] = A[[3, 0]]
    a[[0, 3]] = a[[3, 0]]
    np.testing.assert_array_equal(np.asarray(A), a)


# --- errors and warnings as NumPy gives them ---------------------------------------------------------


@pytest.mark.needs("fp_errors")
def test_a_division_by_zero_warns_at_the_users_line(backend, backend_does):
    """NumPy's scalar-math text (`A[0, 0]` is NumPy's scalar); at the line, or on the general
    path (eager_size=0, cupy's) where the value is computed."""
    A = la.asarray(np.ones((2, 2)))
    with pytest.warns(RuntimeWarning, match="divide by zero encountered in scalar divide"):
        r = A[0, 0] / 0.0
        if not backend_does("eager"):
            float(r)
    assert float(r) == np.inf


@pytest.mark.needs("fp_errors")
def test_errstate_raise_applies(backend):
    """At the line, or at the block's exit on the general path (which computes the live Arrays
    the block built; an unread one is never computed, docs/numpy_coverage.md): NumPy's error."""
    A = la.asarray(np.ones((2, 2)))
    with pytest.raises(FloatingPointError, match="divide by zero"), la.errstate(divide="raise"):
        r = A[0, 0] / 0.0  # noqa: F841


def test_an_out_of_bounds_gather_raises_index_error(backend):
    A = la.asarray(np.ones((3, 3)))
    with pytest.raises(IndexError):
        r = A[[0, 5]]
        np.asarray(r)


def test_integer_division_by_zero_is_numpys(backend):
    A = la.asarray(np.arange(4).reshape(2, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = A[1, 1] // 0
        expected = np.arange(4).reshape(2, 2)[1, 1] // np.int64(0)
    assert int(r) == expected


# --- transformations see no eager values ---------------------------------------------------------------


def test_jit_does_not_bake_in_its_stand_ins(backend):
    f = la.jit(lambda x: x[0, 1] * 2.0 + x[1, 0])
    a = np.arange(4.0).reshape(2, 2)
    assert float(f(la.asarray(a))) == 4.0
    assert float(f(la.asarray(a + 10))) == 34.0


def test_grad_through_indexed_reads(backend):
    v = la.asarray(np.array([1.0, 2.0, 3.0]))
    w = v[1:] * 1.0  # an eager result as the argument
    g = la.grad(lambda x: x[0] * x[1] + x[1] * 3.0)(w)
    np.testing.assert_allclose(np.asarray(g), [3.0, 2.0 + 3.0])


# --- index-loop programs: NumPy's values, no plan per iteration ------------------------------------------


INDEX_LOOPS = ["cholesky", "lu", "trisolv", "durbin", "gramschmidt", "syrk", "gauss_pivot",
               "element_write", "ludcmp", "crc16", "nussinov", "floyd_warshall"]


@pytest.mark.parametrize("name", [  # (the count is the graph's: C runs three in the fast tier)
    n if n in ("cholesky", "lu", "trisolv") else pytest.param(n, marks=pytest.mark.exhaustive_on("c"))
    for n in INDEX_LOOPS])
def test_index_loops_build_no_plan_per_iteration(name, backend, backend_does):
    module = importlib.import_module(f"programs.{name}")
    args_np = [a.copy() if isinstance(a, np.ndarray) else a for a in make_inputs(name, "small")]
    args = [la.asarray(a.copy()) if isinstance(a, np.ndarray) else a for a in args_np]
    want = module.kernel(np, *args_np)  # mutates args_np as the program does
    la.clear_caches()
    got = module.kernel(la, *args)
    la.eval(*[a for a in args if isinstance(a, la.Array)])
    built = la.cache_info().plans_built
    assert built <= 3 or not backend_does("eager"), f"{name}: {built} plans for one call"
    for g, w in zip(args, args_np):
        if isinstance(w, np.ndarray):
            np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12, atol=1e-12)
    if want is not None:
        for g, w in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("N", [12, 40])
def test_cholesky_plans_do_not_grow_with_size(N, backend, backend_does):
    module = importlib.import_module("programs.cholesky")
    (a,) = make_inputs("cholesky", dict(N=N))
    A = la.asarray(a.copy())
    la.clear_caches()
    module.kernel(la, A)
    np.asarray(A)
    assert la.cache_info().plans_built == 0 or not backend_does("eager")
    module.kernel(np, a)
    np.testing.assert_allclose(np.asarray(A), a, rtol=1e-12)


# --- random write sequences against NumPy ---------------------------------------------------------------


_op = st.tuples(st.sampled_from(["set", "iadd", "row", "rowview", "keep", "swap", "dot",
                                 "slice", "shift", "other", "scalar_slice"]),
                st.integers(0, 4), st.integers(0, 4), st.floats(-4, 4, allow_nan=False))


@settings(max_examples=40, derandomize=True)
@given(ops=st.lists(_op, min_size=1, max_size=25), eager_size=st.sampled_from([0, 3, 4096]))
def test_random_write_sequences_match_numpy(ops, eager_size):
    a = np.arange(25.0).reshape(5, 5) / 7.0
    b = np.linspace(-1.0, 1.0, 25).reshape(5, 5)
    with la.config(eager_size=eager_size):
        A = la.asarray(a.copy())
        B = la.asarray(b.copy())
        B[0, 0] = b[0, 0]  # B's own buffer
        kept_la, kept_np = [], []
        for kind, i, j, v in ops:
            if kind == "set":
                A[i, j] = v
                a[i, j] = v
            elif kind == "iadd":
                A[i, j] += A[j, i] * v
                a[i, j] += a[j, i] * v
            elif kind == "row":
                A[i] = A[j] * v
                a[i] = a[j] * v
            elif kind == "rowview":
                r, rn = A[i], a[i]
                r[j] -= v
                rn[j] -= v
                kept_la.append(r)
                kept_np.append(rn)
            elif kind == "keep":  # old values the program holds on to: copies, elements, views
                kept_la += [A[i, j], A[i] * 1.0, A * 1.0, A[:, j]]
                kept_np += [a[i, j].copy(), a[i] * 1.0, a * 1.0, a[:, j]]
            elif kind == "swap":
                A[[i, j]] = A[[j, i]]
                a[[i, j]] = a[[j, i]]
            elif kind == "slice":  # a block from another row, broadcast down the rows
                A[i:, j:] = A[j, j:] * v
                a[i:, j:] = a[j, j:] * v
            elif kind == "shift":  # source and target overlap in A's own buffer
                A[i, 1:] = A[i, :-1]
                a[i, 1:] = a[i, :-1]
            elif kind == "other":  # a view of another array's buffer
                A[:, j] = B[i]
                a[:, j] = b[i]
            elif kind == "scalar_slice":
                A[i, j:] = v
                a[i, j:] = v
            else:
                A[i, i] -= la.dot(A[i, :j], A[j, :j])
                a[i, i] -= np.dot(a[i, :j], a[j, :j])
        np.testing.assert_allclose(np.asarray(A), a, rtol=1e-12, atol=1e-12)
        for got, want in zip(kept_la, kept_np):
            np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12)


def test_augmented_writes_through_views_go_in_place_once(backend, backend_does):
    """`A[:, j] -= v` writes through the view `A[:, j]` and then assigns it back: the second
    write is the same view (its run-time starts equal) and is skipped; the first goes into A's
    buffer (the view is A's only other reader)."""
    a = np.arange(24.0).reshape(6, 4)
    A = la.asarray(a.copy())
    A[0, 0] = 0.0  # the first write may copy the user's buffer
    same = _same_value(A)
    v = la.asarray(np.linspace(0, 1, 6))
    for j in range(4):
        A[:, j] -= v * float(j)
        a[:, j] -= np.linspace(0, 1, 6) * float(j)
        A[j] /= A[j, j] + 1.0
        a[j] /= a[j, j] + 1.0
    assert same() or not backend_does("eager")
    np.testing.assert_allclose(np.asarray(A), a, rtol=1e-15)


def test_writes_through_a_view_keep_values_other_readers_hold(backend):
    A = la.asarray(np.ones((60, 80)))
    row = A[0]
    big = row[None, :] * la.asarray(np.ones((100, 1)))  # lazy, reads the view's chain
    e = A[0, 1]
    host = np.asarray(A[0, 2:5])
    row[1] = 7.0
    row[3:5] -= 1.0
    np.testing.assert_array_equal(np.asarray(big), np.ones((100, 80)))
    assert float(e) == 1.0 and host.tolist() == [1.0, 1.0, 1.0]
    want = np.ones(80)
    want[1], want[3:5] = 7.0, 0.0
    np.testing.assert_array_equal(np.asarray(row), want)
    np.testing.assert_array_equal(np.asarray(A)[0], want)


def test_writes_through_views_go_into_the_buffer(backend, backend_does):
    a = np.arange(30.0).reshape(5, 6)
    A = la.asarray(a.copy())
    A[0, 0] = 0.0
    a[0, 0] = 0.0
    same = _same_value(A)
    T = A.T
    for k in range(5):
        A[k][k] = -1.0  # an element through a row view
        a[k][k] = -1.0
        T[k, 1:4] *= 2.0  # a slice through a transposed view
        a.T[k, 1:4] *= 2.0
        col = A[:, k]
        col += 0.5
        a[:, k] += 0.5
    assert same() or not backend_does("eager")
    np.testing.assert_array_equal(np.asarray(A), a)
    np.testing.assert_array_equal(np.asarray(T), a.T)


@pytest.mark.parametrize("write", ["element", "slice", "augmented"])
def test_a_write_through_a_view_keeps_pending_readers_of_the_root(write, backend):
    A = la.asarray(np.arange(12.0).reshape(3, 4))
    A[0, 0] = 0.0
    pending = A * 2.0  # lazy (no indexed read), reads A's buffer
    also = A.T  # another view, whose chain a pending expression reads
    pending_t = also * 1.0
    row = A[1]
    if write == "element":
        row[2] = -5.0
    elif write == "slice":
        row[1:3] = -5.0
    else:
        row -= 100.0
    np.testing.assert_array_equal(np.asarray(pending), np.arange(12.0).reshape(3, 4) * 2.0)
    np.testing.assert_array_equal(np.asarray(pending_t), np.arange(12.0).reshape(3, 4).T)
    assert np.asarray(A)[1].tolist() == np.asarray(row).tolist()


def test_a_large_pending_array_read_by_an_index_loop_is_evaluated_once(backend, backend_does):
    """covariance: `data -= mean` leaves data pending (large: lazy); the loop's small products
    of its columns compute it once (the Array's own evaluation), not once per iteration."""
    d = np.random.default_rng(4).random((300, 40))
    data = la.asarray(d.copy())
    data -= la.mean(data, axis=0)
    assert data._node.inputs  # pending
    la.clear_caches()
    cov = np.zeros((40, 40))
    out = la.zeros((40, 40))
    for i in range(40):
        out[i, i:] = data[:, i] @ data[:, i:] / 299.0
        if i == 0 and backend_does("eager"):
            assert not data._node.inputs  # evaluated at the first product, as an Array
    assert la.cache_info().plans_built <= 2 or not backend_does("eager")
    dn = d - d.mean(axis=0)
    for i in range(40):
        cov[i, i:] = dn[:, i] @ dn[:, i:] / 299.0
    np.testing.assert_allclose(np.asarray(out), cov, rtol=1e-12, atol=1e-14)


def test_a_small_value_of_a_large_graph_is_evaluated_at_its_write(backend, backend_does):
    """`out[i] = (A * x).sum()`: the value is one element but its graph reads a (600, 600)
    intermediate, too large to run node by node. Left pending, the scatter's index `i` entered
    the key of whichever plan computed it later (a plan per index: nbody's energies); evaluated
    at the write it is the same plan each step, and the write goes into the buffer."""
    rng = np.random.default_rng(5)
    a, v = rng.random((600, 600)), rng.random(600)
    A, x = la.asarray(a), la.asarray(v)
    out, want = la.zeros(24), np.zeros(24)
    la.clear_caches()
    for i in range(24):
        x = x * 0.9 + 0.1
        v = v * 0.9 + 0.1
        out[i] = (A * x).sum()
        want[i] = (a * v).sum()
    assert _is_leaf(out) or not backend_does("eager")
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-12)
    assert la.cache_info().plans_built <= 3 or not backend_does("eager"), la.cache_info()


def test_a_held_value_is_evaluated_for_every_array_that_holds_it(backend, backend_does):
    """Floyd-Warshall's `path[:] = minimum(path[:], add.outer(path[:, k], path[k, :]))`: the
    column read finds path's large pending value held by a live Array and evaluates it. The view
    `path[:]` holds the same node as its root: evaluating only the first Array found left `path`
    pending, so each step's graph was one step longer (and ran again) until the node budget cut
    it: a plan per length. Every Array on that node now gets the buffer: one step a plan."""
    p = np.random.default_rng(6).integers(1, 100, size=(120, 120)).astype(np.int32)
    want = p.copy()
    path = la.asarray(p)
    la.clear_caches()
    for k in range(40):
        path[:] = la.minimum(path[:], la.add.outer(path[:, k], path[k, :]))
        want[:] = np.minimum(want[:], np.add.outer(want[:, k], want[k, :]))
        if k and backend_does("eager"):
            assert not path._node.inputs or path._node.inputs[0].inputs == (), k  # one step
    np.testing.assert_array_equal(np.asarray(path), want)
    assert la.cache_info().plans_built <= 3 or not backend_does("eager"), la.cache_info()


# --- views replayed on a buffer: C and Python agree with NumPy -----------------------------------------

_index = st.one_of(
    st.integers(-4, 3),
    st.builds(slice, st.one_of(st.none(), st.integers(-6, 6)), st.one_of(st.none(), st.integers(-6, 6)),
              st.one_of(st.none(), st.sampled_from([1, 2, -1, -3]))))


@settings(max_examples=60, derandomize=True)
@given(keys=st.lists(st.tuples(_index, _index), min_size=1, max_size=3),
       reshape=st.booleans())
def test_view_values_match_numpys_views(keys, reshape):
    """eager.view_value replays a chain of slices (run-time starts, negative steps, empty) and
    reshapes on a computed buffer: NumPy's view, from C (lazyarray/_trace.c) and from Python."""
    from lazyarray import eager

    a = np.arange(48.0).reshape(4, 12)
    A = la.asarray(a.copy())
    A[0, 0] = 0.0  # its own computed buffer
    la.eval(A)  # (a pending write on the general path, eager_size=0 as on cupy)
    view, want = A, a
    for key in keys:
        key = key[:want.ndim]
        if not key:
            break
        try:
            want = want[key] if len(key) < want.ndim else want[(*key, ...)]  # (NumPy's view,
        except IndexError:  # not its scalar, where the key is all ints)
            return
        view = view[key]
    if reshape and want.ndim >= 1 and want.size:
        want, view = want.reshape(-1), view.reshape(-1)
    node = view._node
    got = eager.view_value(node)
    c_view, eager._C_VIEW_VALUE = eager._C_VIEW_VALUE, None
    try:
        python = eager.view_value(node)
    finally:
        eager._C_VIEW_VALUE = c_view
    if not node.inputs:  # no view op left (a whole-array key): the buffer itself
        return
    assert python is not None and got is not None
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(python, want)
    if not reshape:  # (a reshape of a strided view is NumPy's copy)
        assert np.shares_memory(got, A._node.data) or got.size == 0
        if got.size:  # NumPy's own view: the same address, strides (where a dim moves) and base
            def offset(v, base):
                return v.__array_interface__["data"][0] - base.__array_interface__["data"][0]
            assert offset(got, A._node.data) == offset(want, a)
            assert [s for s, n in zip(got.strides, got.shape) if n > 1] == \
                [s for s, n in zip(want.strides, want.shape) if n > 1]
            assert got.base is A._node.data and got.flags.writeable


def test_ops_on_views_broadcast_as_numpy(backend, backend_does):
    """One ufunc over views and scalars computed at once lets NumPy broadcast (the graph's
    broadcast_to nodes skipped), the result of the graph's shape and dtype."""
    a = np.arange(24.0).reshape(4, 6)
    A = la.asarray(a.copy())
    A[0, 0] = 0.0
    cases = [(lambda m: m[:, 1:2] * m[1], (4, 6)), (lambda m: m[2, 3] + m[:, :1], (4, 1)),
             (lambda m: m[1:3, None, 2] - m[0, :3], (2, 3)), (lambda m: m[0, 1] * 2.0, ())]
    for fn, shape in cases:
        got, want = fn(A), fn(a)
        assert not got._node.inputs or not backend_does("eager")  # computed at once
        assert got.shape == shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)


def test_slices_bounded_by_computed_elements_match_numpy(backend):
    """`A_col[A_row[i]:A_row[i + 1]]` (CSR rows): bounds that are computed 0-d integer Arrays
    are read as their __index__ gives them, in C; a pending bound evaluates first; a float or
    bool bound is NumPy's TypeError."""
    rows_np = np.array([0, 2, 2, 5, 9], np.int64)
    vals_np = np.arange(10.0) * 3
    rows = la.asarray(rows_np.copy())
    rows[0] = 0
    vals = la.asarray(vals_np.copy())
    vals[0] = 0.0
    for i in range(4):
        got = vals[rows[i]:rows[i + 1]]
        np.testing.assert_array_equal(np.asarray(got), vals_np[rows_np[i]:rows_np[i + 1]])
        np.testing.assert_array_equal(np.asarray(vals[rows[i + 1]:rows[i]:-1]),
                                      vals_np[rows_np[i + 1]:rows_np[i]:-1])
    pending = la.cumsum(la.asarray(np.array([1, 2, 3])))  # 1, 3, 6: lazy
    np.testing.assert_array_equal(np.asarray(vals[pending[0]:pending[2]]), vals_np[1:6])
    for bad in (vals[1], la.asarray(np.array(True))):
        with pytest.raises(TypeError):
            vals[bad:3]


def test_assigning_a_view_to_its_own_selection_is_skipped_and_others_are_written(backend,
                                                                                 backend_does):
    """`A[:, j] = view` where the view is that very selection of A's buffer changes nothing
    (NumPy's second write of `A[:, j] -= x`); a view of another selection (another column,
    rows shifted by one, a reversed row) is written as NumPy writes it."""
    a = np.arange(20.0).reshape(4, 5)
    A = la.asarray(a.copy())
    A[0, 0] = 0.0
    same = _same_value(A)
    col = A[:, 2]
    A[:, 2] = col
    assert same() or not backend_does("eager")
    for key, src in [((slice(None), 1), (slice(None), 3)), (slice(1, 3), slice(0, 2)),
                     (0, (1, slice(None, None, -1))), ((slice(None), 0), (slice(None), 0))]:
        A[key] = A[src]
        a[key] = a[src]
        np.testing.assert_array_equal(np.asarray(A), a)
    np.testing.assert_array_equal(np.asarray(col), a[:, 2])


@pytest.mark.needs("eager")
def test_graphs_over_at_once_values_share_plans_with_graphs_over_buffers(backend, fresh_caches):
    """A value computed at once carries a mark its key leaves out: the same lazy graph over it
    and over any other buffer of its shape and dtype is one plan (nbody built 3 plans apart by
    marks alone)."""
    A = la.asarray(np.arange(12.0).reshape(3, 4))
    A[0, 0] = 0.0
    e = A[1, 2]  # computed at once, marked
    assert e._node.attrs == ("eager",) and not e._node.inputs
    big = la.asarray(np.ones(6000))
    first = np.asarray(big * e + 1.0)
    second = np.asarray(big * la.asarray(np.array(3.0)) + 1.0)
    info = la.cache_info()
    assert (info.plans_built, info.plan_hits) == (1, 1)
    np.testing.assert_array_equal(first, np.full(6000, 7.0))
    np.testing.assert_array_equal(second, np.full(6000, 4.0))


def _recorded(fn, args, errstate, error):
    """fn(*args) under `errstate`, NumPy scalars as 0-d arrays (the at-once path's values):
    (its value as an array, or the `error` it raised; the warnings' texts)."""
    args = [np.asarray(a) if isinstance(a, np.generic) else a for a in args]
    with warnings.catch_warnings(record=True) as caught, errstate:
        warnings.simplefilter("always")
        try:
            out = np.asarray(fn(*args))
        except error as exc:
            out = exc
    return out, [str(w.message) for w in caught]


def _on_the_python_path(fn, *args):
    """fn(*args) as a host array with _trace.c's paths off (the operators', indexing's and the
    at-once C levers' general paths), warnings silenced: what the C levers must equal."""
    from lazyarray import _bind
    was = _bind.FAST.set_enabled(False)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.asarray(fn(*args))
    finally:
        _bind.FAST.set_enabled(was)


_ELEMENT_VALUES = [0.0, -0.0, 1.0, -2.5, 3.0, 1e308, -1e308, 1e-308, 5e-324, 1e-200, 1e200,
                   np.inf, -np.inf, np.nan, 2.0**-1022]
_ELEMENT_SCALARS = [0.0, -0.0, 2, -3, 0.1, 1e-300, 1e300, 2**53, 2**60, True]


@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_element_arithmetic_is_numpys_bits_and_flags(backend, op):
    """`A[i] / A[j]`, `A[i] * 2`, `1 / A[i]`: _trace.c computes element arithmetic in C doubles
    where NumPy raises no flag (finite operands, a finite normal or exactly zero result) and
    leaves the rest (overflow, division by zero, underflow, NaN, ints past 53 bits) to the
    general path. Bits, signed zeros, warnings and errstate('raise') as NumPy's scalars give."""
    values = np.array(_ELEMENT_VALUES)
    A = la.asarray(values.copy())
    fn = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
          "/": lambda x, y: x / y}[op]
    pairs = [(i, j) for i in range(len(values)) for j in range(len(values))]
    pairs += [(i, s) for i in range(len(values)) for s in _ELEMENT_SCALARS]
    for i, j in pairs:
        reflected = type(j) is not int or j >= len(values)  # (a Python scalar on the right)
        for flip in (False, True) if type(j) is not int or reflected else (False,):
            want_args = (values[i], j if reflected else values[j])
            got_args = (A[i], j if reflected else A[j])
            if flip:
                want_args, got_args = want_args[::-1], got_args[::-1]
            for mode in ("warn", "raise"):
                want, wanted = _recorded(fn, want_args, np.errstate(all=mode), FloatingPointError)
                got, got_w = _recorded(fn, got_args, la.errstate(all=mode), FloatingPointError)
                case = (op, want_args, mode)
                if isinstance(want, Exception):
                    assert isinstance(got, FloatingPointError), case
                    continue
                assert not isinstance(got, Exception), case
                assert got.dtype == np.asarray(want).dtype, case
                np.testing.assert_array_equal(got, want, err_msg=str(case))
                assert np.signbit(got) == np.signbit(want) or np.isnan(want), case
                assert ({w.split(" encountered")[0] for w in got_w}
                        == {w.split(" encountered")[0] for w in wanted}), case


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "int64", "complex128"])
@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/="])
@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_augmented_writes_of_views_at_once_are_numpys(backend, dtype, op):
    """`C[i, :j] += v`, `row *= s`, `A[1:3, 0] -= A[0, 1:3]` (other views of the same buffer),
    `A.T[0] /= 0.0`: _trace.c computes `view op other` and writes it through the view in one
    step (inplace_now) where the general path would; anything else (a cast, a raised flag, a
    shape NumPy refuses) goes the general way. NumPy's values in the root and every view, its
    warnings and errors, and values held from before the write kept."""
    def run(xp, errstate):
        a = (xp.arange(24.0).reshape(4, 6) - 7.5).astype(dtype)
        held = a[1] * 1  # a value from before the writes
        row = a[1]
        col = a[:, 2]
        steps = [lambda: a[1:3, 0:2], lambda: row, lambda: a.T[3], lambda: col[1:],
                 lambda: a[0, ::-2], lambda: a[2:, 1:5]]
        others = [lambda s: 2, lambda s: 0.5, lambda s: -0.0, lambda s: a[0, :s.shape[-1]],
                  lambda s: s * 1, lambda s: a[3, :1], lambda s: 0]
        with warnings.catch_warnings(record=True) as caught, errstate:
            warnings.simplefilter("always")
            for take in steps:
                for other in others:
                    view = take()
                    try:
                        value = other(view)
                        if op == "+=":
                            view += value
                        elif op == "-=":
                            view -= value
                        elif op == "*=":
                            view *= value
                        else:
                            view /= value
                    except (TypeError, ValueError, FloatingPointError) as exc:
                        return type(exc), None, None, None
        messages = {str(w.message).split(" encountered")[0] for w in caught}
        return np.asarray(a), np.asarray(row), np.asarray(held), messages
    for mode in ("warn", "raise"):
        want = run(np, np.errstate(all=mode))
        got = run(la, la.errstate(all=mode))
        if isinstance(want[0], type):
            assert got[0] is want[0], (mode, got[0])
            continue
        for g, w in zip(got[:3], want[:3]):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)
        assert got[3] == want[3]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "bool", "complex128"])
@pytest.mark.parametrize("name", ["abs", "sqrt", "negative", "exp", "log", "sin", "floor",
                                  "logical_not", "isnan"])
@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_unary_ops_on_rows_at_once_are_numpys(backend, backend_does, dtype, name):
    """`np.abs(A[i:, i])`, `np.sqrt(row)`: _trace.c computes a unary ufunc of an indexed read before
    any node is built (unary_now); a raised flag or a result it does not take goes the general
    way. NumPy's values, dtypes, warnings and errstate('raise'), and the result with the compiled
    path off."""
    from lazyarray import _bind
    values = np.array([_ELEMENT_VALUES[:6], _ELEMENT_VALUES[6:12]])
    if dtype == "bool":
        values = values > 0
    elif dtype[0] == "i":
        values = np.nan_to_num(values, posinf=7, neginf=-7).clip(-100, 100)
    values = values.astype(dtype)
    A = la.asarray(values.copy())
    np_fn, la_fn = getattr(np, name), getattr(la, name)
    errors = (FloatingPointError, TypeError, ValueError)
    for row in range(2):
        for mode in ("warn", "raise"):
            want, wanted = _recorded(np_fn, (values[row],), np.errstate(all=mode), errors)
            got, got_w = _recorded(la_fn, (A[row],), la.errstate(all=mode), errors)
            case = (name, dtype, values[row], mode)
            if isinstance(want, Exception):
                assert type(got) is type(want), case
                continue
            if isinstance(got, TypeError) and "complex inputs" in str(got):
                continue  # (the Array API's refusal of complex logical ops, named)
            assert not isinstance(got, Exception), case
            assert got.dtype == want.dtype, case
            np.testing.assert_array_equal(got, want, err_msg=str(case))
            assert ({w.split(" encountered")[0] for w in got_w}
                    == {w.split(" encountered")[0] for w in wanted}), case
            if mode == "warn" and backend_does("eager") and _bind.FAST is not None:
                general = _on_the_python_path(la_fn, A[row])
                np.testing.assert_array_equal(got, general, err_msg=str(case))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "uint16", "int64",
                                   "bool", "complex64", "complex128"])
def test_element_reads_are_copies_of_numpys_elements(backend, dtype):
    """`A[i, j]`, `A[i][j]`, `A.T[j, i]`, `for x in v`: _trace.c copies the element's bytes into a
    copy of a 0-d template of the dtype (after the first read made it the general way). Every
    element of every layout as NumPy's, of the array's dtype, and a copy: later writes to A do
    not reach it."""
    _check_element_reads(dtype)


@pytest.mark.parametrize("dtype", ["float64", "int8", "complex64"])
def test_element_reads_on_the_general_path_export_numpys_arrays(backend, dtype):
    """The same reads with the at-once path off (debug_nans here; always on cupy): each stays a
    view of A's buffer, and its export is `_trace.c` view_value's replay of the chain, which must
    be NumPy's 0-d array: a key of ints alone gave NumPy's scalar (`B.reshape(8, 6)[j][i]`:
    "__array__ method not producing an array", found on the lent GPU)."""
    with la.config(debug_nans=True):
        _check_element_reads(dtype)


def _check_element_reads(dtype):
    a = (np.arange(-6, 6).reshape(3, 4) * 1.25).astype(dtype)
    A = la.asarray(a.copy())
    reads = [(A[i, j], a[i, j]) for i in range(3) for j in range(4)]
    reads += [(A[i][j], a[i][j]) for i in range(3) for j in range(-4, 4)]
    reads += [(A.T[j, i], a.T[j, i]) for i in range(3) for j in range(4)]
    reads += [(A[1:, ::-2][i, j], a[1:, ::-2][i, j]) for i in range(2) for j in range(2)]
    reads += list(zip(A[2], a[2]))
    # chains of slices and of reshapes adding or dropping 1s (view_element_address), and others
    chains = [lambda x, i, j: x[1:][i - 1][j - 1], lambda x, i, j: x[None][0][i][j],
              lambda x, i, j: x[:, None][i][0][j], lambda x, i, j: x[::-1][i][-j - 1],
              lambda x, i, j: x[i, 1:][::-1][j - 1], lambda x, i, j: x[1:3][:, j:][i - 1][0],
              lambda x, i, j: x[..., None][i][j][0], lambda x, i, j: x.reshape(8, 6)[j][i],
              lambda x, i, j: x.T[j][i], lambda x, i, j: x[None, i][0][j]]
    big = (np.arange(-24, 24).reshape(6, 8) * 1.25).astype(dtype)  # (room for a wrong offset)
    B = la.asarray(big.copy())
    reads += [(f(B, i, j), f(big, i, j)) for f in chains for i in range(1, 3) for j in range(1, 3)]
    reads += [(B[1:, ::-2][i, j], big[1:, ::-2][i, j]) for i in range(3) for j in range(3)]
    B[...] = la.zeros_like(B)
    A[...] = la.zeros_like(A)  # (the reads are copies: no write reaches them)
    for got, want in reads:
        assert got.shape == () and got.dtype == a.dtype
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (got, want)
    assert not np.asarray(A).any()


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_vector_products_at_once_are_the_named_functions_bits(backend, dtype):
    """`u @ v` is np.matmul's bits and `np.dot(u, v)` / `la.dot` np.dot's: for vectors both are
    BLAS's dot where the strides are positive, but np.dot copies a vector of negative stride
    first where matmul sums it in a plain loop, and their last bits differ (`@` gave np.dot's)."""
    rng = np.random.default_rng(5)
    for n in (1, 2, 17, 64, 100):
        x = rng.standard_normal(3 * n) + (1j * rng.standard_normal(3 * n) if "c" in dtype else 0)
        x, y = x.astype(dtype), rng.standard_normal(2 * n).astype(dtype)
        X, Y = la.asarray(x), la.asarray(y)
        for cut in (lambda v: v[::-3][:n], lambda v: v[::2][:n], lambda v: v[:n], lambda v: v[::-1][:n]):
            cases = [(cut(X) @ Y[:n], cut(x) @ y[:n]), (Y[n:] @ cut(X), y[n:] @ cut(x)),
                     (la.dot(cut(X), Y[:n]), np.dot(cut(x), y[:n])),
                     (np.dot(cut(X), Y[::-2][:n]), np.dot(cut(x), y[::-2][:n])),
                     (la.matmul(Y[::-2][:n], cut(X)), np.matmul(y[::-2][:n], cut(x)))]
            for k, (got, want) in enumerate(cases):
                got = np.asarray(got)
                assert got.dtype == want.dtype and got.tobytes() == np.asarray(want).tobytes(), \
                    (n, k, got, want)
        if dtype == "float64":  # signed zeros, infinities and NaN, with NumPy's warnings
            specials = np.array([-0.0, 0.0, np.inf, -147.0, np.nan, 1e308, -1e308, 2.0])
            for p in (specials[:1], specials[:2], specials[1:3], specials[3:6], specials[5:8]):
                for q in (np.zeros(len(p)), -np.ones(len(p)), p[::-1].copy(), np.full(len(p), 1e10)):
                    P, Q = la.asarray(np.concatenate([p, p])), la.asarray(np.concatenate([q, q]))
                    for fn, np_fn in ((lambda u, v: u @ v, np.matmul), (np.dot, np.dot),
                                      (la.dot, np.dot)):
                        with warnings.catch_warnings(record=True) as want_w:
                            warnings.simplefilter("always")
                            want = np.asarray(np_fn(np.concatenate([p, p])[::-2], q))
                        with warnings.catch_warnings(record=True) as got_w:
                            warnings.simplefilter("always")
                            got = np.asarray(fn(P[::-2], Q[:len(q)]))
                        assert got.tobytes() == want.tobytes(), (p, q, got, want)
                        # (a flag: NumPy's value and report for this call, eager._product_now;
                        # the general path summed in BLAS's order, NaN for NumPy's inf)
                        assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w]
        # matrices and vectors (BLAS's gemv and gemm, or the plain loops of matmul)
        m = rng.standard_normal((2 * n, 2 * n)).astype(dtype)
        M = la.asarray(m)
        for cut in (lambda v: v[:n, :n], lambda v: v[::-1][:n, :n], lambda v: v[:n, :n].T,
                    lambda v: v[::2, ::-2][:n, :n]):
            for vec in (lambda v: v[:n], lambda v: v[::-2][:n]):
                for fn, np_fn in ((la.dot, np.dot), (np.dot, np.dot), (la.matmul, np.matmul)):
                    pairs = [(fn(cut(M), vec(Y)), np_fn(cut(m), vec(y))),
                             (fn(vec(Y), cut(M)), np_fn(vec(y), cut(m)))]
                    if n * n <= 4096:  # (a larger product is lazy: BLAS's bits, semantics.md)
                        pairs.append((fn(cut(M), M[1:n + 1, 1:n + 1]),
                                      np_fn(cut(m), m[1:n + 1, 1:n + 1])))
                    for got, want in pairs:
                        got = np.asarray(got)
                        assert got.tobytes() == np.asarray(want).tobytes(), (n, fn, got, want)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_small_float_ops_at_once_are_numpys_bits_and_warnings(backend, op, dtype):
    """_trace.c's small_float_loop computes + - * / of float64 or float32 operands of at most 256
    elements (1024 in one row of any stride) in a C loop (NumPy's call costs more than the
    loop): NumPy's bits (signed zeros, infinities, subnormals, NaN) and warnings (a raised flag drops the loop's result for NumPy's call), for
    rows, reversed and stepped views, 2-d blocks and a 0-d operand, at sizes around the bound."""
    fn = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
          "/": lambda x, y: x / y}[op]
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -2.5e-310, 1e308, -1e308,
                        1.0, -3.5, 1e-300, 3.0, 7.0]) if dtype == "float64" else np.array(
        [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -2.5e-40, 3e38, -3e38, 1.0, -3.5, 1e-38, 3.0,
         7.0], np.float32)
    top = 300 if dtype == "float64" else 38
    rng = np.random.default_rng(11)
    pairs = [lambda X: (X[0], X[1]), lambda X: (X[2][::-1], X[1]),
             lambda X: (X[0, :X.shape[1] // 2 * 2:2], X[1, 1::2]), lambda X: (X[:2], X[1:]),
             lambda X: (X[0], X[2, -1]), lambda X: (X[2, 0], X[1]),
             lambda X: (X[1:, :4].T, X[:2, 2:6].T), lambda X: (X[2], X[0]),
             lambda X: (X[1][::-1], X[1])]  # (overlapping: in place, NumPy's buffered result)
    for n in (1, 14, 127, 256, 257, 1024, 1025):
        a = (rng.standard_normal((3, n)) * 10.0 ** rng.integers(-top, top, (3, n))).astype(dtype)
        a[0, :min(n, 14)] = special[:min(n, 14)]
        a[1, :min(n, 14)] = special[::-1][:min(n, 14)]
        a[2] = rng.permutation(a[0]) if n > 1 else a[2]
        A = la.asarray(a.copy())
        for k, pick in enumerate(pairs):
            if n < 6 and k == 6:
                continue
            with warnings.catch_warnings(record=True) as want_w:
                warnings.simplefilter("always")
                want = np.asarray(fn(*pick(a)))
            with warnings.catch_warnings(record=True) as got_w:
                warnings.simplefilter("always")
                got = np.asarray(fn(*pick(A)))
            case = (op, n, k)
            assert got.dtype == want.dtype and got.shape == want.shape, case
            nan = np.isnan(want)
            np.testing.assert_array_equal(np.isnan(got), nan, err_msg=str(case))
            assert got[~nan].tobytes() == want[~nan].tobytes(), case
            assert ({str(w.message) for w in got_w} == {str(w.message) for w in want_w}), case
            if k in (4, 5):  # (the first operand is not a view)
                continue
            with warnings.catch_warnings(record=True) as want_w:  # in place: `view op= other`
                warnings.simplefilter("always")
                x, y = pick(a)
                x[...] = fn(x, y)
            with warnings.catch_warnings(record=True) as got_w:
                warnings.simplefilter("always")
                x, y = pick(A)
                {"+": x.__iadd__, "-": x.__isub__, "*": x.__imul__, "/": x.__itruediv__}[op](y)
            got = np.asarray(A)
            np.testing.assert_array_equal(np.isnan(got), np.isnan(a), err_msg=str(case))
            assert got[~np.isnan(a)].tobytes() == a[~np.isnan(a)].tobytes(), case
            assert ({str(w.message) for w in got_w} == {str(w.message) for w in want_w}), case


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "int64", "bool", "complex128"])
@pytest.mark.parametrize("op", ["+", "-", "*", "/", "**", "<", "&"])
@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_ops_on_rows_at_once_are_numpys_bits_dtypes_and_flags(backend, backend_does, dtype, op):
    """`row * 0.5`, `A[i] + A[j]`: _trace.c computes an op on indexed reads before any node is
    built (binary_now), its scalar constants as cached read-only 0-d arrays (`-0.0` and `0.0`
    apart, NaN kept); anything it does not take, a raised flag included, goes the general way.
    NumPy's values, dtypes, signed zeros, warnings and errstate('raise'), and the same result
    with the compiled path off."""
    from lazyarray import _bind
    fn = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
          "/": lambda x, y: x / y, "**": lambda x, y: x ** y, "<": lambda x, y: x < y,
          "&": lambda x, y: x & y}[op]
    values = np.array([_ELEMENT_VALUES[:6], _ELEMENT_VALUES[6:12]]).astype(
        dtype if dtype != "bool" else "float64")
    if dtype == "bool":
        values = values > 0
    A = la.asarray(values.copy())
    scalars = [0.0, -0.0, 2, -3, 0.5, np.nan, 1e300, True]
    cases = [(lambda X: X[0], lambda X: X[1])] + [
        (lambda X: X[0], lambda X, s=s: s) for s in scalars] + [
        (lambda X, s=s: s, lambda X: X[1]) for s in scalars]
    for left, right in cases:
        for mode in ("warn", "raise"):
            # (NumPy refuses some: `&` of floats, integers to negative integer powers)
            errors = (FloatingPointError, ValueError, OverflowError, TypeError)
            want, wanted = _recorded(fn, (left(values), right(values)), np.errstate(all=mode),
                                     errors)
            got, got_w = _recorded(fn, (left(A), right(A)), la.errstate(all=mode), errors)
            case = (op, dtype, left(values), right(values), mode)
            if isinstance(want, ValueError) and op == "**" and dtype.startswith("int"):
                continue  # integer `x ** negative` of an array: defined, graph/semantics.py
            if op == "<" and dtype.startswith("complex"):  # NumPy's order, its values; not its
                # loops' 'invalid' flag where a real part is NaN (docs/semantics.md, "Ordering")
                if not isinstance(want, FloatingPointError):
                    np.testing.assert_array_equal(got, want, err_msg=str(case))
                continue
            if isinstance(want, Exception):
                assert type(got) is type(want), case
                continue
            assert not isinstance(got, Exception), case
            assert got.dtype == want.dtype, case
            np.testing.assert_array_equal(got, want, err_msg=str(case))
            if want.dtype.kind == "f":
                assert (np.signbit(got) == np.signbit(want)).all(), case
            assert ({w.split(" encountered")[0] for w in got_w}
                    == {w.split(" encountered")[0] for w in wanted}), case
            if mode == "warn" and backend_does("eager") and _bind.FAST is not None:
                general = _on_the_python_path(fn, left(A), right(A))
                np.testing.assert_array_equal(got, general, err_msg=str(case))
                assert got.dtype == general.dtype, case
    assert np.asarray(A).tolist() == values.tolist()  # (the cached constants wrote nothing)


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_np_dot_of_two_slices_is_numpys_bits_at_once(backend, backend_does, dtype):
    """`np.dot(A[i, :j], A[j, :j])` reaches _trace.c's __array_function__ (and `L[i, :i] @
    x[:i]` Array's C __matmul__), which dots two
    computed vectors at once (dot_now): NumPy's bits and dtype, a 0-d result already computed;
    an overflow still warns as NumPy's; other np.dot calls (matrices, a pending vector, keywords)
    take the Python dispatch."""
    rng = np.random.default_rng(7)
    a = (rng.standard_normal((9, 9)) + (1j * rng.standard_normal((9, 9)) if dtype[0] == "c"
                                          else 0)).astype(dtype)
    A = la.asarray(a.copy())
    A[0, 0] = a[0, 0]  # a buffer of its own: a computed array
    for i, j in [(3, 5), (8, 1), (2, 9), (4, 0)]:
        for got, want in [(np.dot(A[i, :j], A[j % 9, :j]), np.dot(a[i, :j], a[j % 9, :j])),
                          (la.dot(A[i, :j], A[j % 9, :j]), np.dot(a[i, :j], a[j % 9, :j])),
                          (A[i, :j] @ A[j % 9, :j], a[i, :j] @ a[j % 9, :j])]:  # (`@`: the same)
            assert isinstance(got, la.Array) and got.dtype == want.dtype and got.shape == ()
            assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
            if backend_does("eager") and j:
                assert not got._node.inputs  # computed at once
    np.testing.assert_allclose(np.asarray(A[:3, :3] @ A[3, :3]), a[:3, :3] @ a[3, :3], rtol=1e-5)
    with pytest.raises(ValueError):
        A[1, :3] @ A[2, :4]  # lengths that differ: the general path's error
    m = np.asarray(np.dot(A[:3, :3], A[:3, 3]))  # a matrix: the general path
    np.testing.assert_allclose(m, np.dot(a[:3, :3], a[:3, 3]), rtol=1e-5)
    pending = A[1, :4] * 2
    np.testing.assert_allclose(np.asarray(np.dot(pending, A[2, :4])),
                               np.dot(a[1, :4] * 2, a[2, :4]), rtol=1e-5)
    big = la.asarray(np.full((2, 3), 1e308 if dtype != "float32" else 3e38, dtype))
    big[0, 0] = big[0, 1]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(over="warn"):
            want_inf = np.dot(np.asarray(big)[0], np.asarray(big)[1])
        got_inf = np.asarray(np.dot(big[0], big[1]))
    np.testing.assert_array_equal(got_inf, want_inf)
    if backend_does("fp_errors"):
        assert sum("overflow" in str(w.message) for w in caught) == 2, [str(w.message) for w in caught]


def test_a_gather_by_a_computed_index_array_is_numpys_copy_at_once(backend, backend_does):
    """spmv's `x[A_col[lo:hi]]`: a computed array indexed by a computed integer array is read at
    once (eager.gather; in C _trace.c's gather_now): NumPy's values, negative indices and rows
    included, a copy that later
    writes on either side do not reach, and NumPy's IndexError at the line when out of range."""
    x0 = np.arange(10.0) * 1.5
    m0 = np.arange(12.0).reshape(4, 3)
    x, m = la.asarray(x0.copy()), la.asarray(m0.copy())
    x[0], m[0, 0] = -1.0, -2.0  # computed buffers of their own
    x0[0], m0[0, 0] = -1.0, -2.0
    cols = la.asarray(np.array([3, -1, 0, 9, 3, 2]))
    cols[0] = 4  # a computed index array
    c0 = np.array([4, -1, 0, 9, 3, 2])
    g = x[cols[1:5]]
    r = m[cols[2:4] % 4]
    np.testing.assert_array_equal(np.asarray(g), x0[c0[1:5]])
    np.testing.assert_array_equal(np.asarray(r), m0[c0[2:4] % 4])
    if backend_does("eager"):
        assert not g._node.inputs  # read at once
    x[1] = 100.0  # the gather was a copy
    g[0] = -7.0
    np.testing.assert_array_equal(np.asarray(g), np.r_[-7.0, x0[c0[2:5]]])
    assert float(x[9]) == x0[9] and float(x[1]) == 100.0
    bad = la.asarray(np.array([1, 10]))
    bad[0] = 2
    with pytest.raises(IndexError, match="out of bounds") as info:
        np.asarray(x[bad])
    assert "test_eager.py" in notes_of(info)
    for dtype in ("int32", "uint8", "int16"):  # every integer index dtype takes it
        idx = la.asarray(np.array([9, 0, 2], dtype))
        idx[0] = 8
        np.testing.assert_array_equal(np.asarray(x[idx]), np.asarray(x)[[8, 0, 2]])
    mask = la.asarray(x0 > 3)  # a mask: the general path
    np.testing.assert_array_equal(np.asarray(x[mask]), np.where(True, np.asarray(x), 0)[x0 > 3])


def _negated(x, y):
    return -x


@pytest.mark.parametrize("dtype", ["int32", "int64", "float64"])
@pytest.mark.parametrize("fn", [np.maximum, np.minimum, _negated])
def test_extrema_and_negation_of_elements_are_numpys(backend, dtype, fn):
    """`np.maximum(table[i, j], table[i, k] + 1)`, `-alpha`: _trace.c takes the extremum of two
    elements (or an element and a Python number) in C where NumPy's loop cannot differ (no NaN,
    not two zeros), and an element's negation (ints wrapping); the rest the general way.
    NumPy's values, signed zeros, NaNs and dtypes."""
    if dtype == "float64":
        values = [0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan, 1e308]
        scalars = [0.0, -0.0, 2, -3, 1.5, np.nan]
    else:
        info = np.iinfo(dtype)
        values = [0, 1, -1, 7, info.min, info.max]
        scalars = [0, 5, -5, int(info.max), 2**40, 2**70]
    a = np.array(values, dtype)
    A = la.asarray(a.copy())
    pairs = [(A[i], A[j], a[i], a[j]) for i in range(len(a)) for j in range(len(a))]
    pairs += [(A[i], s, a[i], s) for i in range(len(a)) for s in scalars]
    pairs += [(s, A[i], s, a[i]) for i in range(len(a)) for s in scalars]
    for gx, gy, wx, wy in pairs:
        if fn is _negated and not isinstance(gx, la.Array):
            continue  # (a Python number's own negation)
        try:
            want = fn(np.asarray(wx) if isinstance(wx, np.generic) else wx,
                      np.asarray(wy) if isinstance(wy, np.generic) else wy)
        except OverflowError:
            with pytest.raises(OverflowError):
                fn(gx, gy)
            continue
        got = fn(gx, gy)
        case = (fn.__name__, wx, wy)
        assert isinstance(got, la.Array) and got.dtype == np.asarray(want).dtype, case
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes() or (
            np.isnan(want) and np.isnan(np.asarray(got))), case


@pytest.mark.parametrize("dtype", ["int32", "int64"])
@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_integer_element_arithmetic_is_numpys(backend, dtype, op):
    """`table[i, k] + table[k + 1, j]` on int32/int64 elements (nussinov): _trace.c computes it in
    C where NumPy's integer loops would (wrapping as they wrap, `/` as float64 true division);
    division by zero, an int past the dtype, and int32 with int64 take the general path."""
    info = np.iinfo(dtype)
    values = np.array([0, 1, -1, 7, -13, info.max, info.min, info.max // 3, 2], dtype)
    A = la.asarray(values.copy())
    A[0] = values[0]  # a computed buffer
    other = la.asarray(np.array([5, -6], "int64" if dtype == "int32" else "int32"))
    other[0] = 5
    fn = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
          "/": lambda x, y: x / y}[op]
    cases = [(A[i], A[j], values[i], values[j]) for i in range(len(values))
             for j in range(len(values))]
    cases += [(A[i], s, values[i], s) for i in range(len(values)) for s in (3, -2, 0, 2**40)]
    cases += [(s, A[i], s, values[i]) for i in range(len(values)) for s in (3, -2)]
    cases += [(A[i], other[0], values[i], np.asarray(other)[0]) for i in range(3)]
    for x, y, wx, wy in cases:
        want, wanted = _recorded(fn, (wx, wy), np.errstate(all="warn"), OverflowError)
        got, got_w = _recorded(fn, (x, y), la.errstate(all="warn"), OverflowError)
        case = (op, wx, wy)
        if isinstance(want, Exception):
            assert isinstance(got, OverflowError), case
            continue
        assert got.dtype == want.dtype, case
        np.testing.assert_array_equal(got, want, err_msg=str(case))
        assert len(got_w) == len(wanted), case


def test_a_region_write_into_a_root_another_handle_reads_copies_it(backend, backend_does):
    """cavity_flow's `pn = p.copy(); p[1:-1, 1:-1] = f(pn)`: `p.copy()` is a new handle on the
    same value, so the write may not go into the shared buffer; the handle takes its own copy,
    written (in C: try_write_region), and the copy's next writes go in place. Every handle keeps
    NumPy's value; a root with live views takes the general path (the views follow it)."""
    rng = np.random.default_rng(3)
    p0, b0 = rng.random((9, 9)), rng.random((9, 9))
    p, b = la.asarray(p0.copy()), la.asarray(b0)
    p[0, 0] = p0[0, 0]  # a buffer of its own
    olds, want_olds, want = [], [], p0.copy()
    for q in range(4):
        pn, wn = p.copy(), want.copy()
        p[1:-1, 1:-1] = (pn[1:-1, 2:] + pn[1:-1, :-2]) * 0.5 - b[1:-1, 1:-1]
        want[1:-1, 1:-1] = (wn[1:-1, 2:] + wn[1:-1, :-2]) * 0.5 - b0[1:-1, 1:-1]
        p[:, -1] = p[:, -2]
        want[:, -1] = want[:, -2]
        p[0, :] = 1.5
        want[0, :] = 1.5
        olds.append(pn)
        want_olds.append(wn)
    np.testing.assert_array_equal(np.asarray(p), want)
    for got, w in zip(olds, want_olds):
        np.testing.assert_array_equal(np.asarray(got), w)
    row = p[2]  # a live view: the write reaches it
    keep = p.copy()
    p[2:4, 1:3] = 0.25
    want_keep = want.copy()
    want[2:4, 1:3] = 0.25
    np.testing.assert_array_equal(np.asarray(row), want[2])
    np.testing.assert_array_equal(np.asarray(keep), want_keep)
    np.testing.assert_array_equal(np.asarray(p), want)


def test_row_swaps_by_lists_of_ints_are_numpys(backend):
    """gauss_pivot's `Ab[[i, p]] = Ab[[p, i]]`: a list of distinct in-range Python ints reads the
    rows at once (NumPy's copy) and writes them into the buffer where only the root and its live
    views read it (a live row view sees the write), into the handle's own copy where another
    handle reads it; repeats, bools (a mask), out-of-range ints take the general path and its
    errors."""
    a = np.arange(24.0).reshape(6, 4)
    A = la.asarray(a.copy())
    A[0, 0] = a[0, 0]  # a buffer of its own
    got = A[[4, 1, -1]]
    np.testing.assert_array_equal(np.asarray(got), a[[4, 1, -1]])
    A[[1, 4]] = A[[4, 1]]
    a[[1, 4]] = a[[4, 1]]
    np.testing.assert_array_equal(np.asarray(got), np.arange(24.0).reshape(6, 4)[[4, 1, -1]])
    row, keep, kept = A[2], A.copy(), a.copy()
    A[[2, -1]] = A[[-1, 2]]
    a[[2, -1]] = a[[-1, 2]]
    np.testing.assert_array_equal(np.asarray(row), a[2])
    np.testing.assert_array_equal(np.asarray(keep), kept)
    A[[0, 0]] = la.asarray(np.full((2, 4), 5.0))  # repeats: the general path
    a[[0, 0]] = 5.0
    A[[True, False, True, False, False, False]] = -1.0  # a mask
    a[[True, False, True, False, False, False]] = -1.0
    np.testing.assert_array_equal(np.asarray(A), a)
    with pytest.raises(IndexError, match="out of bounds"):
        A[[6]]
    with pytest.raises(IndexError):
        A[[1, 9]] = 0.0
    with pytest.raises(ValueError):
        A[[1, 2]] = la.asarray(np.ones((3, 4)))  # shapes NumPy refuses
    np.testing.assert_array_equal(np.asarray(A), a)


@pytest.mark.needs("eager")
def test_a_mixed_dtype_recurrence_casts_at_once_without_walks(backend, monkeypatch):
    """deriche's `y[:, j] = a1 * img[:, j] + b2 * y[:, j - 2]`: float64 0-d coefficients (NumPy's
    strong scalars) times float32 columns, written back into float32. The operands' safe casts
    are computed with their op in C (the value's astype), and the float64 value is cast into the
    float32 region under the flags' test (_trace.c try_write_region): no walk over cast nodes,
    NumPy's bits. A cast that overflows takes the general path and warns as NumPy's."""
    rng = np.random.default_rng(5)
    img0 = rng.random((6, 9)).astype(np.float32)
    c0 = np.array([0.3, -0.7, 1e300])
    img, c = la.asarray(img0.copy()), la.asarray(c0.copy())
    img[0, 0], c[0] = img0[0, 0], c0[0]  # computed buffers
    a1, b2, w1, w2 = c[0], c[1], c0[0], c0[1]
    y, want = la.zeros((6, 9), la.float32), np.zeros((6, 9), np.float32)
    y[:, 0], want[:, 0] = a1 * img[:, 0], w1 * img0[:, 0]
    y[:, 1], want[:, 1] = a1 * img[:, 1], w1 * img0[:, 1]
    walks = []
    walk = la.eager._walk
    monkeypatch.setattr(la.eager, "_walk", lambda *a: walks.append(a[0]) or walk(*a))
    for j in range(2, 9):
        y[:, j] = a1 * img[:, j] + b2 * y[:, j - 2]
        want[:, j] = w1 * img0[:, j] + w2 * want[:, j - 2]
    assert walks == []
    assert np.asarray(y).tobytes() == want.tobytes()
    with pytest.warns(RuntimeWarning, match="overflow"):
        y[:, 3] = c[2] * img[:, 3]
    with pytest.warns(RuntimeWarning, match="overflow"):
        want[:, 3] = c0[2] * img0[:, 3]
    assert np.asarray(y).tobytes() == want.tobytes()


@pytest.mark.needs("eager")
def test_reductions_and_squares_of_at_once_values_take_the_c_path(backend, monkeypatch):
    """row_loop's `((row - target) ** 2).sum()`, `row.sum()`, `row.min()` on rows of a computed
    buffer: the float methods `sum`, `min`, `max` without arguments build and compute the
    reduction in C (_trace.c reduce_all_now), other reductions of such values run their
    reference in C (one_op_now, from eager.reduce_now), and a float `x ** 2` is `np.square(x)`
    without elementwise.power's checks; a float `x.clip(0, None)` skips promoting its Python bounds.
    NumPy's bits and its overflow warning; bool ** 2 stays NumPy's int8 square."""
    rng = np.random.default_rng(9)
    a0 = rng.random((5, 7)) - 0.3
    A = la.asarray(a0.copy())
    A[0, 0] = a0[0, 0]  # a computed buffer
    t0 = rng.random(7)
    t = la.asarray(t0)
    (A[4] - t) * (A[3] - t)  # (a first (op, dtypes) pair resolves its loop the general way)
    (A[4] - t) ** 2
    run_one, power = la.eager._run_one, la.elementwise.power
    ones, powers = [], []
    monkeypatch.setattr(la.eager, "_run_one", lambda *a: ones.append(a[0]) or run_one(*a))
    monkeypatch.setattr(la.elementwise, "power", lambda *a: powers.append(a) or power(*a))
    primitive, built = la._bind.primitive, []
    monkeypatch.setattr(la._bind, "primitive", lambda *a: built.append(a[0]) or primitive(*a))
    result_type, promoted = la.elementwise.dtypes.result_type, []
    monkeypatch.setattr(la.elementwise.dtypes, "result_type",
                        lambda *a: promoted.append(a) or result_type(*a))
    for i in range(5):
        row, want = A[i], a0[i]
        d = (row - t) ** 2
        got = [d, d.sum(), row.sum(), row.min(), row.max(), row[1:].sum()]
        wanted = [(want - t0) ** 2, ((want - t0) ** 2).sum(), want.sum(), want.min(), want.max(),
                  want[1:].sum()]
        for g, w in zip(got, wanted):
            assert g.dtype == w.dtype and np.asarray(g).tobytes() == np.asarray(w).tobytes()
    assert ones == [] and powers == [] and built == []  # (x.sum(), .min(), .max(): C methods)
    for i in range(5):  # a float clip's Python bounds are weak: nothing to promote
        for lo, hi in ((0, None), (-0.1, 0.2), (None, 1)):
            got, want = A[i].clip(lo, hi), a0[i].clip(lo, hi)
            assert got.dtype == want.dtype and np.asarray(got).tobytes() == want.tobytes()
    assert promoted == []
    big = la.asarray(np.full(4, 1e308))
    big[0] = 1e308
    with pytest.warns(RuntimeWarning, match="overflow"):
        total = big[:3].sum()
    assert np.asarray(total) == np.inf
    with pytest.warns(RuntimeWarning, match="overflow"):
        assert np.asarray(la.sum(big[:3], axis=0, keepdims=True)).shape == (1,)
    with pytest.raises(ValueError):
        big[:0].min()
    b = la.asarray(np.array([True, False]))
    assert (b ** 2).dtype == np.int8
    assert np.asarray(la.asarray(np.arange(3)) ** 2).tolist() == [0, 1, 4] and powers


@pytest.mark.needs("eager")
def test_row_lists_with_a_computed_element_take_the_c_paths(backend, monkeypatch):
    """row_swaps' `k = i + np.argmax(np.abs(A[i:, 0])); A[[i, k]] = A[[k, i]]`: a list of Python
    ints and computed integer elements (NumPy's integer scalars) is the list of their ints for
    _trace.c's row reads and writes (gather_now, try_write_region); NumPy's rows, a live row view
    seeing the write. A float element, a bool, a pending Array keep the general path."""
    rng = np.random.default_rng(4)
    a = rng.random((7, 3))
    A = la.asarray(a.copy())
    A[0, 0] = a[0, 0]  # a computed buffer
    row = A[2]
    general = []
    getitem, list_index = la._methods.getitem, la.indexing.list_index
    monkeypatch.setattr(la._methods, "getitem", lambda *x: general.append(x) or getitem(*x))
    monkeypatch.setattr(la.indexing, "list_index", lambda *x: general.append(x) or list_index(*x))
    for i in range(6):
        k = i + np.argmax(np.abs(A[i:, 0]))
        w = i + np.argmax(np.abs(a[i:, 0]))
        assert int(k) == int(w)
        if k != i:  # (a repeated row: the general path)
            A[[i, k]] = A[[k, i]]
            a[[i, w]] = a[[w, i]]
    assert general == []
    np.testing.assert_array_equal(np.asarray(A), a)
    np.testing.assert_array_equal(np.asarray(row), a[2])
    with pytest.raises(IndexError):
        A[[0, la.asarray(np.array([1.5]))[0]]]


@pytest.mark.needs("eager")
def test_a_loop_region_update_above_eager_size_is_computed_at_its_write(backend):
    """Householder's `R[j:, :] = R[j:, :] - np.outer(tau * w, w @ R[j:, :])`: the value is
    above eager_size but reads at-once results (`w`, the product), so it is computed at the
    write into R's buffer; left lazy, its shape shrinking with `j` was a new plan per column
    and each read of R ran one (householder_qr: 99 plans a call). A stencil's value of the
    same size, which reads no at-once result, is evaluated at its write as one plan
    (`test_a_stencils_region_write_above_eager_size_is_evaluated_into_its_buffer`)."""
    rng = np.random.default_rng(7)
    a = rng.standard_normal((40, 12))

    def reflect(xp, R):
        for j in range(8):
            w = R[j:, j] / (R[j, j] + 3.0)
            R[j:, :] = R[j:, :] - xp.outer(w * 2.0, w @ R[j:, :])  # 12 * (40 - j) > 64
        return R

    with la.config(eager_size=64):  # the rule's bound, small for a fast test
        R = la.asarray(a.copy())
        np.asarray(R)  # a computed buffer
        la.clear_caches()
        reflect(la, R)
        assert not R._node.inputs  # written into its buffer, no pending scatter
        assert la.cache_info().plans_built == 0, la.cache_info()
        assert_as_numpy(R, reflect(np, a.copy()))  # NumPy's bits: its references


@pytest.mark.needs("eager")
def test_a_stencils_region_write_above_eager_size_is_evaluated_into_its_buffer(backend):
    """jacobi_1d's `B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])` above eager_size: the value
    is evaluated at the write (one plan, the same each step) and written into B's own buffer.
    Left lazy, each write was a scatter over B, a chain cut at the node budget whose kernels
    wrote temporaries that library calls then copied into the bases. A write of the whole array
    (`x[...] = v`) stays the value's own lazy node, a write by index arrays keeps its value lazy,
    and a live view of the base sees the write."""
    rng = np.random.default_rng(9)
    a0, b0 = rng.random(200), rng.random(200)

    def sweep(xp, A, B):
        for _ in range(3):
            B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
            A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])
            A[2:100] = A[1:99] + 1.0  # reading its own base: NumPy's value first
        return A, B

    with la.config(eager_size=64):
        A, B = la.asarray(a0.copy()), la.asarray(b0.copy())
        np.asarray(A), np.asarray(B)  # computed buffers
        addresses = [x._node.data.ctypes.data for x in (A, B)]  # (a reference would be a reader)
        got = sweep(la, A, B)
        assert not A._node.inputs and not B._node.inputs  # no pending scatter
        assert [x._node.data.ctypes.data for x in (A, B)] == addresses  # written in place
        for g, w in zip(got, sweep(np, a0.copy(), b0.copy())):
            assert_as_numpy(g, w)
        held = la.asarray(b0.copy())
        np.asarray(held)
        alias = held[:]  # a live view: the general path (its write reaches the view)
        held[1:-1] = held[:-2] * 2.0
        assert_as_numpy(alias, np.concatenate([b0[:1], b0[:-2] * 2.0, b0[-1:]]))
        x = la.asarray(a0.copy())
        np.asarray(x)
        v = x[100:] * 2.0
        x[(np.arange(100),)] = v  # index arrays: no region, the value stays lazy (fused onward)
        assert v._node.inputs
        x[...] = x * 2.0  # the whole array: lazy, the value's node
        assert x._node.inputs
        want = a0.copy()
        want[np.arange(100)] = want[100:] * 2.0
        assert_as_numpy(x, want * 2.0)


@pytest.mark.needs("eager")
def test_rows_written_under_a_live_view_of_a_large_fill_go_into_its_buffer(backend):
    """An automaton's history: `H = np.zeros((steps, n)); prev = H[t - 1]; H[t] = f(prev)` with
    rows above eager_size. The root has a live view (`prev`), so the write took the views' path,
    which left the row's value lazy: a scatter chain over H, cut every few rows, each cut a plan
    of its own (142 at (1000, 10000), all rebuilt on the next call). Now the value is computed
    at the write as without views and goes into the buffer the view shares; a fill of more than
    2^22 elements becomes its buffer at the first write too (NumPy's is one from the start)."""
    row0 = np.zeros(200, np.uint8)
    row0[100] = 1

    def automaton(xp, H):
        H[0] = xp.asarray(row0)
        for t in range(1, H.shape[0]):
            prev = H[t - 1]
            code = (xp.roll(prev, 1) << 2) | (prev << 1) | xp.roll(prev, -1)
            H[t] = (30 >> code) & 1
        return H

    with la.config(eager_size=64):
        got = automaton(la, la.zeros((40, 200), dtype=la.uint8))
        before = la.cache_info()
        again = automaton(la, la.zeros((40, 200), dtype=la.uint8))
        after = la.cache_info()
        assert not again._node.inputs  # written in place: no pending scatter
        assert after.graph_cuts == before.graph_cuts
        assert after.plans_built - before.plans_built <= 1, (before, after)
        want = automaton(np, np.zeros((40, 200), np.uint8))
        assert_as_numpy(got, want)
        assert_as_numpy(again, want)
        big = la.zeros((5, 1_000_000), dtype=la.uint8)  # 5,000,000 elements: above 2^22
        big[1, 3:9] = 7
        assert not big._node.inputs
        assert int(big[1, 5]) == 7 and int(big.sum()) == 42


@pytest.mark.needs("eager")
def test_an_inplace_update_of_a_root_by_at_once_values_is_computed_at_its_line(backend):
    """mnist_mlp's `weights_1 += learning_rate * np.outer(layer_0, delta)` (12,544 elements):
    above eager_size, but its value reads at-once results, so the root takes it computed (one
    NumPy op per node, NumPy's bits); left lazy, the next `np.dot(layer_0, weights_1)` ran a
    plan every image."""
    rng = np.random.default_rng(8)
    images, w, d = rng.random((6, 30)), rng.random((30, 8)), rng.random((6, 8))

    def train(xp, images, w, d):
        for i in range(6):
            delta = xp.dot(images[i], w) * d[i]  # at once: reads a row and a computed w
            w += 0.5 * xp.outer(images[i], delta)  # 240 > eager_size 64
        return w

    with la.config(eager_size=64):
        W = la.asarray(w.copy())
        args = la.asarray(images), la.asarray(d)
        la.eval(W, *args)
        la.clear_caches()
        train(la, args[0], W, args[1])
        assert not W._node.inputs  # computed at each line
        assert la.cache_info().plans_built == 0, la.cache_info()
        assert_as_numpy(W, train(np, images, w.copy(), d))


@pytest.mark.needs("eager")
def test_the_mean_of_a_float64_at_once_value_is_its_c_total_over_the_count(backend):
    """azimint_naive's `values_r12.mean()` per radial bin: `x.mean()` and `la.mean(x)` of a
    float64 at-once value are the C total (`x.sum()`'s path) over NumPy's count, no reduction
    built in Python (7.2 -> 2.7 us at 400 elements); NumPy's bits past the pairwise sum's
    blocks, with a NaN and an inf; float32, an axis and an empty value the general path
    (NumPy's values and its warning)."""
    rng = np.random.default_rng(9)
    data = rng.standard_normal(3000) * 1e3
    X = la.asarray(data)
    for n in (1, 9, 130, 1000, 2999):
        want = data[:n][data[:n] > -1e9]
        v = X[:n][np.asarray(X[:n]) > -1e9]  # a masked read: an at-once value
        seen = []
        sys.setprofile(lambda frame, event, arg: seen.append(frame.f_code.co_name) if (
            event == "call") else None)
        try:
            got = (v.mean(), la.mean(v))
        finally:
            sys.setprofile(None)
        assert "_reduce" not in seen or la._bind.FAST is None, seen
        for g in got:
            assert np.asarray(g).dtype == want.mean().dtype
            assert np.asarray(g).tobytes() == np.float64(want.mean()).tobytes(), n
    for special in (np.nan, np.inf):
        w = data[:50].copy()
        w[7] = special
        v = la.asarray(w)[np.ones(50, bool)]
        assert np.asarray(v.mean()).tobytes() == np.float64(w.mean()).tobytes()
    f32 = data[:40].astype(np.float32)
    v32 = la.asarray(f32)[np.ones(40, bool)]
    assert np.asarray(v32.mean()).tobytes() == f32.mean().tobytes()
    np.testing.assert_array_equal(np.asarray(la.mean(X.reshape(30, 100)[::2] * 1.0, axis=0)),
                                  data.reshape(30, 100)[::2].mean(axis=0))
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        assert np.isnan(float(la.asarray(data)[np.zeros(3000, bool)].mean()))


def test_namespace_totals_and_squares_of_at_once_values_run_in_c(backend):
    """ml_from_scratch's `np.sqrt(np.sum((x1 - x2) ** 2))` per training row: `np.sum(v)`,
    `np.max(v)`, `np.min(v)` of a float at-once value take the methods' C path
    (_trace.c reduce_all) and `v ** 2` of a float Array the operator's `np.square(v)` (_trace.c
    float_array_square), without a Python frame past the namespace function's; NumPy's bits; an integer sum, an axis, an
    empty max and `v ** 3` the general path (NumPy's values, NumPy's ValueError)."""
    rng = np.random.default_rng(8)
    a = rng.standard_normal((6, 5)) * 1e3
    A = la.asarray(a.copy())
    A[0, 0] = a[0, 0]  # a computed buffer
    d, want_d = A[2] - A[3], a[2] - a[3]
    la.sum(d ** 2)  # (a dtype pair's first op resolves its loop in Python)
    seen = []
    gc.disable()  # (a collection's callbacks are Python calls too)
    sys.setprofile(lambda frame, event, arg: seen.append(frame.f_code.co_name) if (
        event == "call") else None)
    try:
        got = (d ** 2, la.sum(d ** 2), la.max(d), la.min(d), la.sqrt(la.sum((A[1] - A[4]) ** 2)))
    finally:
        sys.setprofile(None)
        gc.enable()
    assert set(seen) <= {"sum", "max", "min"} or la._bind.FAST is None, seen  # (their own)
    wanted = (want_d ** 2, np.sum(want_d ** 2), np.max(want_d), np.min(want_d),
              np.sqrt(np.sum((a[1] - a[4]) ** 2)))
    for g, w in zip(got, wanted):
        assert np.asarray(g).dtype == w.dtype and np.asarray(g).tobytes() == w.tobytes()
    n = la.asarray(np.arange(6)) + A[0].astype(np.int64)[:6 - 1].sum() * 0
    np.testing.assert_array_equal(np.asarray(la.sum(n)), np.sum(np.arange(6)))
    np.testing.assert_array_equal(np.asarray(la.sum(A[1:3] * 1.0, axis=0)), a[1:3].sum(axis=0))
    np.testing.assert_array_equal(np.asarray(d ** 3), want_d ** 3)
    with pytest.raises(ValueError):
        la.max(A[1, :0] * 1.0)


@pytest.mark.needs("eager")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_reductions_of_at_once_values_are_their_ufuncs_reduce_in_c(backend, dtype):
    """python_builtins' `P[i].sum()`, csv_table's `row.max()`: `x.sum()`, `x.max()`, `x.min()`
    of a float at-once value or view of a computed buffer are the ufunc's reduce called from C
    (_trace.c `reduce_value_now`, `np.add.reduce(value, None, dtype)`): no Python frame (the
    reduction's reference was one), NumPy's bits for rows, strided and 2-D views, NaN; an
    overflow warns at the line through the node's path; an empty sum is NumPy's 0."""
    rng = np.random.default_rng(12)
    p = (rng.standard_normal((40, 7)) * 1e3).astype(dtype)
    p[8, 2] = np.nan
    P = la.asarray(p.copy())
    P[0, 0] = p[0, 0]  # a computed buffer
    seen, twice, nan_row = [], P[4] * 2, P[8]  # (an at-once value, a row with a NaN)
    sys.setprofile(lambda frame, event, arg: seen.append(frame) if event == "call" else None)
    try:
        got = (P[3].sum(), P[5, ::-2].sum(), P[2:9, 1:6].sum(), twice.sum(), P[6].max(),
               P[7, 1::3].min(), nan_row.max(), nan_row.min())
    finally:
        sys.setprofile(None)
    got += (P[3, :0].sum(),)  # (empty: the node's path)
    wanted = (p[3].sum(), p[5, ::-2].sum(), p[2:9, 1:6].sum(), (p[4] * 2).sum(), p[6].max(),
              p[7, 1::3].min(), p[8].max(), p[8].min(), p[3, :0].sum())
    assert not seen or la._bind.FAST is None, [f.f_code.co_name for f in seen]
    for g, w in zip(got, wanted):
        assert g.dtype == w.dtype and g.shape == () and np.asarray(g).tobytes() == w.tobytes()
    big = la.asarray(np.full(4, np.finfo(dtype).max, dtype=dtype))
    big[0] = np.finfo(dtype).max
    with pytest.warns(RuntimeWarning, match="overflow") as record:
        total = big[1:].sum()
    assert np.isinf(float(total)) and record[0].filename == __file__


@pytest.mark.needs("eager")
def test_any_and_all_of_at_once_bool_values_take_the_c_path(backend, monkeypatch):
    """csv_table's `if np.isnan(row).any(): continue`: `x.any()` and `x.all()` without
    arguments of a bool at-once value build and compute the reduction in C, as sum/min/max do
    (_trace.c reduce_all_now), and any/all's reference is their ufunc's reduce, without
    np.any's Python wrappers. NumPy's values for rows, views, 2-D and empty values; any other
    argument or dtype takes the Python method."""
    rng = np.random.default_rng(10)
    t = rng.random((6, 5))
    t[t < 0.3] = np.nan
    T = la.asarray(t.copy())
    T[0, 0] = t[0, 0]  # a computed buffer
    la.isnan(T[1]).any()  # (a first op resolves its loop the general way)
    primitive, built = la._bind.primitive, []
    monkeypatch.setattr(la._bind, "primitive", lambda *a: built.append(a[0]) or primitive(*a))
    wrappers = []  # Python frames of NumPy's np.any/np.all (numpy/_core/fromnumeric.py)

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_filename.endswith("fromnumeric.py"):
            wrappers.append(frame.f_code.co_name)

    for i in range(6):
        m, want = la.isnan(T[i]), np.isnan(t[i])
        sys.setprofile(profile)
        try:
            got = (m.any(), m.all(), m[:0].any(), m[:0].all(), la.isnan(T[:i]).any())
        finally:
            sys.setprofile(None)
        wanted = (want.any(), want.all(), want[:0].any(), want[:0].all(), np.isnan(t[:i]).any())
        for g, w in zip(got, wanted):
            assert type(g) is la.Array and g.dtype == w.dtype and bool(g) == bool(w)
    assert built == [] and wrappers == []  # (C methods; the reference is a ufunc's reduce)
    got = la.isnan(T).any(axis=0)  # an argument: the Python method
    np.testing.assert_array_equal(np.asarray(got), np.isnan(t).any(axis=0))
    x = la.asarray(t.copy())
    assert bool(la.all(x[0] == x[0])) == bool(np.all(t[0] == t[0]))  # floats: Python's path


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_bool_element_comparisons_and_logic_are_numpys_in_c(backend):
    """`if Z[y, x] == 0:` (a maze), `visited[u] & done`, `~b` of bool elements: NumPy's bool
    scalar's values and dtype, each computed in C without a node (the general path: 1.5-6 us,
    `b == False` the slowest). A Python int compares as NumPy's int64 would; one past int64's
    range is NumPy's OverflowError (the general path's)."""
    import operator as op
    from lazyarray.graph.node import built_count
    B = np.array([False, True])
    with la.config(eager_size=4096):
        L = la.asarray(B)
        elements = [(B[i], L[i]) for i in range(2)]
        before = built_count()
        for (xn, xl), (yn, yl) in [(x, y) for x in elements for y in elements]:
            for o in (op.eq, op.ne, op.lt, op.le, op.gt, op.ge, op.and_, op.or_, op.xor):
                for other_n, other_l in ((yn, yl), (False, False), (True, True), (0, 0), (5, 5),
                                         (-1, -1)):
                    if o in (op.and_, op.or_, op.xor) and type(other_n) is int:
                        continue  # (an int: NumPy's int64 result, the general path's)
                    want, got = o(xn, other_n), o(xl, other_l)
                    assert np.asarray(got).dtype == want.dtype and bool(got) == bool(want), (
                        o, xn, other_n)
                    want, got = o(other_n, xn), o(other_l, xl)  # reflected
                    assert np.asarray(got).dtype == want.dtype and bool(got) == bool(want)
            assert bool(~xl) == bool(~xn) and np.asarray(~xl).dtype == np.bool_
        assert built_count() == before  # every one in C: no node
        for other in (2**70, -2**70):  # NumPy's OverflowError, not a silent answer
            with pytest.raises(OverflowError):
                B[0] == other  # noqa: B015
            with pytest.raises(OverflowError):
                L[0] == other  # noqa: B015


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_bitwise_shift_floordiv_and_mod_operators_of_arrays_run_in_c(backend, backend_does):
    """automaton's `(rule >> code) & 1` and `(np.roll(prev, 1) << 2) | (prev << 1)`: & | ^ << >>
    // % between Arrays and Python scalars take the namespace function's C path from the C
    operator (_trace.c element_operator's try_binary), without the Python method's two frames
    (~0.3 us an op); NumPy's values and dtypes; NumPy's TypeError for a float `&`."""
    h = (np.arange(24) % 7).astype(np.uint8).reshape(4, 6)
    H = la.asarray(h.copy())
    H[0, 0] = int(h[0, 0])  # a computed buffer: its row's ops run at once
    runs = backend_does("eager") and la._bind.FAST is not None
    for f in (lambda a: (30 >> a) & 1, lambda a: (a << 2) | (a << 1) ^ a, lambda a: a // 3,
              lambda a: 100 % (a + 1), lambda a: a % 4 - (7 & a)):
        f(H[2])  # (the first of a dtype pair resolves its loop in Python)
        seen = []
        gc.disable()  # (a collection's callbacks are Python calls too: the test flaked)
        sys.setprofile(lambda frame, event, arg: seen.append(frame.f_code.co_name) if (
            event == "call" and frame.f_code.co_name != "<lambda>") else None)
        try:
            got = f(H[1])
        finally:
            sys.setprofile(None)
            gc.enable()
        assert not seen or not runs, seen
        want = f(h[1])
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
    with pytest.raises(TypeError):
        la.asarray(np.ones(3)) & 1


def test_roll_of_a_computed_value_is_numpys_roll_at_once(backend, monkeypatch):
    """`np.roll(prev, 1)` of a computed row (automaton's two rolls a step): NumPy's roll on the
    buffer now, no slices and concat built and walked (15 -> 8 us; NumPy 6); one shifted axis
    copies the two slices itself (shaping._rolled: NumPy's roll builds its index tuples in
    Python, 5.5 us of a 4,000-element row against 1.6). A copy, as NumPy's (also with no
    shift): writing it leaves the source; NumPy's values for every shift form."""
    import lazyarray.shaping as shaping

    calls, rolls, real_roll = [], [], np.roll
    real = shaping.concat
    monkeypatch.setattr(shaping, "concat", lambda *a, **k: calls.append(a) or real(*a, **k))
    monkeypatch.setattr(np, "roll", lambda *a, **k: rolls.append(a[1]) or real_roll(*a, **k))
    h = np.arange(24, dtype=np.uint8).reshape(4, 6)
    H = la.asarray(h)
    with la.config(eager_size=4096):
        for x, want_x in ((H, h), (H[1], h[1]), (H.T[::2], h.T[::2]), (H[:, :0], h[:, :0])):
            for shift, axis in ((1, None), (-2, 0), (7, -1), ((1, 2), (0, 0)), (0, 0),
                                (-13, 1), ((1, -1), (0, 1))):
                if axis is not None and x.ndim == 1 and axis not in (0, -1, (0, 0)):
                    continue
                got = la.roll(x, shift, axis=axis)
                want = real_roll(want_x, shift, axis=axis)
                assert not got._node.inputs or axis is None  # a leaf (2-D: its reshape)
                np.testing.assert_array_equal(np.asarray(got), want)
                assert np.asarray(got).dtype == want.dtype
        r = la.roll(H[2], 0)
        r[0] = 99
        assert int(H[2, 0]) == h[2, 0]
    assert not calls
    assert all(type(shift) is tuple and len(shift) == 2 for shift in rolls), rolls  # two axes
    with la.config(eager_size=0):
        np.testing.assert_array_equal(np.asarray(la.roll(H[1], 2)), np.roll(h[1], 2))
    assert calls  # lazy: the slices and concat


def test_advanced_reads_of_computed_arrays_are_numpys_indexing_now(backend, backend_does,
                                                                   monkeypatch):
    """`A[idx]`, `A[:, idx]`, `A[rows, cols]`, `A[mask, 2]` of a computed A by NumPy's index
    arrays (or lists, or computed integer Arrays) are NumPy's `data[key]` at the line
    (eager.advanced_now): a copy, no take node (the general path took ~24 us for `A[idx]` of a
    (20, 20) A, NumPy 0.9). Keys NumPy refuses keep the general path and its errors."""
    import lazyarray.indexing as indexing

    general = indexing.general_getitem
    built = []
    monkeypatch.setattr(indexing, "general_getitem", lambda *a: built.append(a) or general(*a))
    a = np.arange(60.0).reshape(3, 4, 5)
    I = np.array
    keys = [I([0, 2]), (I([0, 2]), 1), (slice(None), I([1, 3])), (I([[0], [2]]), I([1, 3])),
            (Ellipsis, I([4, 0])), (None, I([1])), (I([True, False, True]), 2),
            (0, I([1, 1]), slice(1, 3)), (I([0, 1]), slice(None), I([2, 3])), ([0, 2], [1, 2]),
            (I([-1, -3]),), (I(2), 1), I([], dtype=int), (la.asarray(I([2, 0])), 3)]
    for key in keys:
        A = la.asarray(a)
        got = A[key]
        want = a[tuple(np.asarray(k) if isinstance(k, la.Array) else k for k in key)
                 if type(key) is tuple else key]
        np.testing.assert_array_equal(np.asarray(got), want)
        assert np.asarray(got).shape == want.shape
        got[...] = -1.0  # a copy, as NumPy's
        np.testing.assert_array_equal(np.asarray(A), a)
    assert built == [] or not backend_does("eager")
    for key in [(I([0, 2]), I([1, 2, 3])), (I([3]),), (I([1.0]),), (I([True, True]),)]:
        with pytest.raises(IndexError) as got:
            la.asarray(a)[key]
        with pytest.raises(IndexError) as want:
            a[key]
        assert str(got.value) == str(want.value)


def test_small_index_arrays_are_bounds_checked_as_python_ints():
    """`v[idx] = 0` by a small computed index array: its bounds (`eager.in_bounds`, before the
    write into the buffer) as Python ints, exact for every integer dtype; NumPy's min and max
    were half the statement's 4.9 us. Out of range: the general path's IndexError, v unchanged."""
    in_bounds = sys.modules["lazyarray.eager"].in_bounds
    for k, n, want in ((np.array([1, 3, 5]), 20, True), (np.array([-20, 19]), 20, True),
                       (np.array([-21]), 20, False), (np.array([20]), 20, False),
                       (np.array([[0, 4], [2, 1]], np.int8)[:, ::-1], 5, True),
                       (np.array([2**63], np.uint64), 20, False),
                       (np.arange(100), 100, True), (np.arange(101), 100, False)):
        assert in_bounds(k, n) is want
    v = la.asarray(np.arange(5.0))
    v[np.array([-5, 4])] = 7.0
    with pytest.raises(IndexError):
        v[np.array([0, 5])] = 9.0
    np.testing.assert_array_equal(np.asarray(v), [7.0, 1.0, 2.0, 3.0, 7.0])
