"""Regressions found by fuzz53's layout fuzzer (tests/fuzz_layouts.py): inputs of every layout
handed in with `np.asarray`/`np.array`, their results' views and copies, writes through them,
reductions' bits, and warning blocks. Each runs the NumPy program on NumPy and on lazyarray, on
every backend, on plans (`eager_size=0`: what the cupy backend always takes) and at the default
(the at-once rule)."""

from __future__ import annotations

import numpy as np
import pytest

import lazyarray as la

from fuzz_layouts import Generator, compare

BOTH = pytest.mark.parametrize("eager_size", [0, 4096])


def _broadcast_ravel_writes(m):
    """`A = np.asarray(np.broadcast_to(v, s))` is NumPy's read-only broadcast view, whose ufunc
    results are C-ordered (a 0 stride has no say): `(A * 2).T * 3` is Fortran-ordered, so its
    `.T.ravel()` is a view and a write to it reaches the product."""
    a = m.asarray(np.broadcast_to(np.arange(4.0) * 1.5, (3, 4)))
    t = (a * 2).T * 3
    flat = t.T.ravel()
    flat[...] = 1.0
    try:
        a[0, 0] = 7.0
        wrote = True
    except ValueError as exc:  # NumPy's read-only view
        wrote = str(exc)
    return [np.array(t), np.array(flat), np.array(a), wrote, np.asarray(a * 2).strides]


@BOTH
def test_an_asarray_of_a_broadcast_view_is_numpys_view(backend, eager_size):
    """fuzz53 seed 269: lazyarray held a broadcast input as a copy in np.array's K order
    (Fortran here: the 0 stride sorted innermost), so `A * 2` was Fortran-ordered and the
    ravel above a copy; writes to A passed. At the default, the at-once walk computed the
    broadcast op once and broadcast it, handing back C order (eager.py `_leaf`)."""
    want = _broadcast_ravel_writes(np)
    with la.config(eager_size=eager_size):
        for _ in range(2):
            got = _broadcast_ravel_writes(la)
            for w, g in zip(want, got):
                if isinstance(w, np.ndarray):
                    np.testing.assert_array_equal(g, w)
                else:
                    assert g == w


@pytest.mark.exhaustive
@pytest.mark.parametrize("block", range(2))
def test_layout_programs_match_numpy(block):
    """The layout fuzzer's programs (tests/fuzz_layouts.py, 8 lines each, at the ambient
    eager_size: each program takes 4096, 3 or 0 at most that), seeds 0-199; fuzz53 swept
    1000-4599 with 12 lines on C at the default and at LAZYARRAY_EAGER_SIZE=0, and 4000-4599 on
    the numpy backend at 0."""
    for seed in range(100 * block, 100 * (block + 1)):
        if seed in KNOWN:
            continue
        program = Generator(seed).program(8, la.get_settings().eager_size)
        problem = compare(program)
        assert problem is None, f"{problem}\n--- program:\n{program.text()}"


KNOWN: dict[int, str] = {}  # (seeds 6 and 99: fixed by fuzz54, tests/test_fuzz54.py)


def _ordered_copies(m, x):
    """NumPy's copies of a NumPy array in an explicit order: a Fortran-ordered one's full sum
    folds along its memory, its ravel is a copy."""
    out = []
    for make in (lambda: m.array(x, order="F"), lambda: m.asarray(x, order="F"),
                 lambda: m.array(x.T, order="A"), lambda: m.array(x[:, ::2], order="F")):
        a = make()
        out += [np.asarray(a.sum()), np.asarray(a.sum(axis=1)), np.asarray(a).strides]
        flat = a.ravel()
        flat[0] = -1.0
        out.append(np.array(a))
    return out


@BOTH
def test_an_explicit_order_copy_of_a_numpy_array_has_that_order(backend, eager_size):
    """fuzz53 seed 22: `np.array(x, order='F')` and `np.asarray(x, order='F')` of a C-ordered
    x were held C-ordered here: the sum of a (40, 70) one was a last bit off NumPy's, and its
    ravel a view whose write changed it (creation.py `copy_axes`)."""
    x = np.random.default_rng(264).standard_normal((40, 70)) * 100
    want = _ordered_copies(np, x)
    with la.config(eager_size=eager_size):
        for _ in range(2):
            for k, (w, g) in enumerate(zip(want, _ordered_copies(la, x))):
                assert np.array_equal(np.asarray(g), np.asarray(w)), k


def _recorded_inside(m):
    """The stdlib's documented idiom: the block's list read on the block's own lines."""
    import warnings
    a = m.asarray(np.arange(4.0))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        t = a / 0
        inside = [(str(w.message), w.lineno) for w in seen]
        u = (t * 0).sum()
        later = len(seen)
    return [inside, later, [str(w.message) for w in seen], np.array(t), np.array(u)]


@BOTH
def test_a_recording_block_holds_its_warnings_on_its_own_lines(backend, eager_size):
    """fuzz53: `with warnings.catch_warnings(record=True) as w: t = a / 0; n = len(w)` read an
    empty list here (the block computed its ops at its exit); a user's recording block's list
    computes the block's pending ops when read now (warning_blocks._RecordList), naming the
    lines that built them, NumPy's."""
    want = _recorded_inside(np)
    with la.config(eager_size=eager_size):
        for _ in range(2):
            got = _recorded_inside(la)
            assert got[:3] == want[:3]
            np.testing.assert_array_equal(got[3], want[3])
            np.testing.assert_array_equal(got[4], want[4])


def _errors_in_a_try(m):
    """`simplefilter("error")` turns NumPy's RuntimeWarning into an exception at the op's line:
    a handler around that line catches it; an in-place op has written its result first."""
    import warnings
    a = m.asarray(np.arange(4.0))
    caught = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            t = a * 1e308 * 1e308
            t = t + 1
        except RuntimeWarning as exc:
            caught.append(str(exc))
        try:
            a /= 0
        except RuntimeWarning as exc:
            caught.append(str(exc))
        try:
            b = a * 0
        except RuntimeWarning as exc:
            caught.append(str(exc))
    return [caught, np.array(a), np.array(b) if "b" in locals() else None]


@BOTH
def test_a_warnings_error_filter_raises_at_the_line_inside_a_try(backend, eager_size):
    """fuzz53: a lazy op built in a try block under `simplefilter("error")` raised its
    RuntimeWarning at the block's exit, outside the handler (the program stopped where NumPy's
    went on), and `a /= 0` computed at once lost its write; now it is computed at its line as
    under errstate's 'raise' (_handled.raises_at_the_line)."""
    want = _errors_in_a_try(np)
    with la.config(eager_size=eager_size):
        for _ in range(2):
            got = _errors_in_a_try(la)
            assert got[0] == want[0]
            np.testing.assert_array_equal(got[1], want[1])
            assert (got[2] is None) == (want[2] is None)


def _written_fortran_root(m, x):
    """A Fortran-ordered root written in part keeps its layout (NumPy writes in place): its
    reshape is a copy, its sums fold along its memory."""
    a = m.asarray(x.copy().T)  # (NumPy's is a view of its input: a copy each run)
    a[0] *= 2
    rows = np.asarray(a.sum(axis=1))
    b = m.array(np.asfortranarray(x))
    v = b[::-1]
    v[...] -= 3
    flat = a.reshape(-1)
    flat[0] = 99.0
    flat = b.ravel()
    flat[1] = 99.0
    return [rows, np.array(a), np.array(b)]


@BOTH
def test_a_written_fortran_ordered_root_keeps_its_layout(backend, eager_size):
    """fuzz53 seeds 22, 274: a write into a root held in Fortran order (`A[0] *= 2` of
    `np.asarray(x.T)`) made a C-ordered value here (a scatter was any op's C order,
    passes/numpy_layout.py): its reshape was a view whose writes changed A, and its row sums
    a last bit off NumPy's. (Left: a sum of `b` after `b[::-1][...] -= 3`, a write through a
    reversed view, folds in C order on plans: the scatter's buffer inside the plan is C.)"""
    x = np.random.default_rng(264).standard_normal((40, 70)) * 100
    want = _written_fortran_root(np, x)
    with la.config(eager_size=eager_size):
        for _ in range(2):
            for k, (w, g) in enumerate(zip(want, _written_fortran_root(la, x))):
                assert np.array_equal(g, w), k


def _reduced_layouts(m, x):
    """Reductions of a Fortran-ordered array: NumPy's results keep the kept axes' memory order
    (argmax's are C); a ravel of a Fortran-ordered one is a copy, its sums fold along it."""
    a = m.asarray(x)
    out = []
    for r in (a.sum(axis=2), a.max(axis=2), a.argmax(axis=2), (a * 2).mean(axis=1)):
        flags = np.asarray(r).flags
        out.append((flags.c_contiguous, flags.f_contiguous))
        out.append(np.asarray(r.sum(axis=1)))
        flat = r.ravel()
        flat[0] = 99
        out.append(np.array(r))
    return out


@BOTH
def test_a_reduction_keeps_its_operands_order(backend, eager_size):
    """fuzz53 seed 264: `r1 = A.max(axis=2)` of a Fortran-ordered A was C-ordered here
    (passes/numpy_layout.py took a reduction's result as C order): `np.asarray(r1).flags`
    differed, its ravel was a view whose write changed r1, and its own row sums folded in C
    order."""
    x = np.asfortranarray(np.random.default_rng(264).standard_normal((20, 30, 40)) * 100)
    want = _reduced_layouts(np, x)
    with la.config(eager_size=eager_size):
        for _ in range(2):
            for k, (w, g) in enumerate(zip(want, _reduced_layouts(la, x))):
                assert np.array_equal(np.asarray(g), np.asarray(w)), k


def _more_layouts(m):
    """A Fortran-order ravel of a reversed 1-D root (NumPy's copy: not Fortran-contiguous),
    a cumsum of a Fortran-ordered array (Fortran-ordered, as its operand), and
    `np.asarray(np.broadcast_to(...), order='F')` (NumPy's writable Fortran-ordered copy)."""
    a = m.asarray(np.arange(5.0)[::-1].copy()[::-1])
    flat = m.ravel(a, order="F")
    flat[0] = 99.0
    x = np.asfortranarray(np.random.default_rng(425).standard_normal((4, 30, 20)) * 1e3)
    c = m.cumsum(m.array(x), axis=1)
    total = np.asarray((c.T + 1).sum())
    cflat = c.ravel()
    cflat[0] = 0.0
    b = m.asarray(np.broadcast_to(np.arange(3.0)[:1], (3,)), order="F")
    b[1] = 7.0
    return [np.array(a), np.array(flat), total, np.asarray(c).strides, np.array(c), np.array(b)]


@BOTH
def test_fortran_order_ravels_cumsums_and_copies(backend, eager_size):
    """fuzz53 seeds 1049, 1286, 1170: `np.ravel(A, order='F')` of a reversed 1-D root was a
    view here whose write changed A; `np.cumsum(A, axis=1)` of a Fortran-ordered A was C-ordered
    (a full sum of its transpose a last bit off NumPy's, its ravel a view); and
    `np.asarray(b, order='F')` of a 1-D broadcast view was a read-only view here, NumPy's a
    writable copy."""
    want = _more_layouts(np)
    with la.config(eager_size=eager_size):
        for _ in range(2):
            for k, (w, g) in enumerate(zip(want, _more_layouts(la))):
                assert np.array_equal(np.asarray(g), np.asarray(w)), k


def _order_a_views(m):
    """`np.asarray(v, order='A')` of a strided view is the view itself in NumPy 2 (as 'K'):
    a later write through it reaches the base."""
    base = m.asarray(np.arange(12.0).reshape(3, 4) * 1)
    v = base[:, ::2]
    w = m.asarray(v, order="A")
    w[...] = -3.0
    u = m.asarray(base[1], order="A")
    u[0] = 7.0
    return [np.array(base), np.array(w), np.array(v)]


@BOTH
def test_an_order_a_request_keeps_a_strided_view(backend, eager_size):
    """fuzz53 seed 1586: `L8 = np.asarray(v7, order='A')` of a strided view was a copy here
    (writes.numpy_layout_copies took 'A' as 'C or F'); NumPy's is v7, so its writes changed
    the base."""
    want = _order_a_views(np)
    with la.config(eager_size=eager_size):
        for _ in range(2):
            for k, (w, g) in enumerate(zip(want, _order_a_views(la))):
                assert np.array_equal(np.asarray(g), np.asarray(w)), k


def _contiguous_copies(m):
    """`np.ascontiguousarray`, `np.asarray(order='C')` and `np.require(..., 'C')` of a strided
    root are C-contiguous copies: their reshape(-1) is a view, whose writes reach them."""
    out = []
    for make in (m.ascontiguousarray, lambda b: m.asarray(b, order="C"),
                 lambda b: m.require(b, requirements="C")):
        b = m.asarray(np.arange(20).reshape(4, 5)[::-1].copy()[::-1])
        c = make(b)
        flat = c.reshape(-1)
        flat += 1
        out += [np.array(c), np.array(b)]
    return out


@BOTH
def test_a_contiguous_copy_of_a_strided_root_is_c_ordered(backend, eager_size):
    """fuzz53 seed 1469: `L7 = np.ascontiguousarray(B)` of a reversed root B was a root of B's
    own node here, so it kept B's strided layout: `L7.reshape(-1)` was a copy and writes
    through it missed L7 (result_layout.c_ordered_copy)."""
    want = _contiguous_copies(np)
    with la.config(eager_size=eager_size):
        for _ in range(2):
            for k, (w, g) in enumerate(zip(want, _contiguous_copies(la))):
                assert np.array_equal(np.asarray(g), np.asarray(w)), k


def _c_copies(m):
    """`x.copy()` is C-ordered in NumPy whatever x's layout: its transpose's reshape(-1) is a
    copy, its own reshape(-1) a view."""
    a = m.asarray(np.arange(20).reshape(4, 5).T.copy().T.copy(order="F"))  # (Fortran-ordered)
    c1 = a.copy()
    t = c1.T.reshape(-1)
    c1[...] = 7
    c2 = a.T.copy()
    flat = c2.reshape(-1)
    flat[0] = -1
    return [np.array(t), np.array(c1), np.array(c2), np.array(a)]


@BOTH
def test_a_c_copy_of_another_layout_is_c_ordered(backend, eager_size):
    """fuzz53 seed 3859: `L1 = A.copy(order='C')` of a Fortran-ordered A was a handle on A's
    node, so `L1.T.reshape(-1)` was a view here whose values followed writes to L1 (NumPy's
    is a copy); `x.T.copy()`'s reshape(-1) was a copy, NumPy's a view."""
    want = _c_copies(np)
    with la.config(eager_size=eager_size):
        for _ in range(2):
            for k, (w, g) in enumerate(zip(want, _c_copies(la))):
                assert np.array_equal(np.asarray(g), np.asarray(w)), k


def _flat_copies_of_1d_views(m):
    """A ravel/flatten copy of a reversed 1-D view is a C-contiguous array of its own: a
    Fortran-order request of it is the array itself, whose writes it sees."""
    out = []
    for flat in (lambda v: v.ravel(), lambda v: v.flatten(), lambda v: m.ravel(v)):
        a = m.asarray(np.arange(5.0)) * 1
        c = flat(a[::-1])
        f = m.asarray(c, order="F")
        f[...] -= 3
        out += [np.array(c), np.array(a)]
    return out


@BOTH
def test_a_flat_copy_of_a_1d_view_is_contiguous(backend, eager_size):
    """fuzz53 seed 3810: `L2 = v1.ravel()` of `v1 = A[::-1]` was a root of the reversed view's
    own node (a 1-D reshape adds none), keeping its strides: `np.asarray(L2, order='F')` copied,
    so writes through it missed L2 (NumPy's is L2 itself)."""
    want = _flat_copies_of_1d_views(np)
    with la.config(eager_size=eager_size):
        for _ in range(2):
            for k, (w, g) in enumerate(zip(want, _flat_copies_of_1d_views(la))):
                assert np.array_equal(np.asarray(g), np.asarray(w)), k


def _array_copies_of_strided_roots(m):
    """`np.array(A)` (order 'K', 'A' or 'C') of a reversed root is C-contiguous in NumPy: its
    `ascontiguousarray` is itself, whose writes it sees."""
    out = []
    for order in ("K", "A", "C"):
        a = m.asarray(np.arange(60).reshape(3, 4, 5)[::-1].copy()[::-1])
        c = m.array(a, copy=True, order=order)
        same = m.ascontiguousarray(c)
        m.subtract(c, same, out=same)
        out += [np.array(c), np.array(a)]
    return out


@BOTH
def test_an_array_copy_of_a_strided_root_is_c_contiguous(backend, eager_size):
    """fuzz53 seed 3713: `L1 = np.array(A, copy=True, order='K')` of a reversed root was a
    handle on A's node here, keeping its strides: `np.ascontiguousarray(L1)` copied, and
    `np.subtract(L1, L10, out=L10)` left L1 as it was (NumPy's L10 is L1: zeros)."""
    want = _array_copies_of_strided_roots(np)
    with la.config(eager_size=eager_size):
        for _ in range(2):
            for k, (w, g) in enumerate(zip(want, _array_copies_of_strided_roots(la))):
                assert np.array_equal(np.asarray(g), np.asarray(w)), k


def _bytes_in_order_a(m):
    """`tobytes(order='A')` is Fortran order only for Fortran-contiguous memory."""
    b = m.asarray(np.random.default_rng(928).standard_normal((6, 6)).T)  # (Fortran-ordered)
    v = b[::-1]
    m.multiply(v, 1, out=v)
    return [b.tobytes(order="A"), v.tobytes(order="A"), (b * 2).tobytes(order="A"),
            b[:, ::2].tobytes(order="A")]


@BOTH
def test_tobytes_in_order_a_follows_numpys_layout(backend, eager_size):
    """fuzz53 seed 118: `v1.tobytes(order='A')` of `v1 = B[::-1]` (B Fortran-ordered) gave
    Fortran-order bytes here (the export of a view is a copy in its strides' order), NumPy's
    are C order (v1 is not Fortran-contiguous)."""
    want = _bytes_in_order_a(np)
    with la.config(eager_size=eager_size):
        assert _bytes_in_order_a(la) == want
