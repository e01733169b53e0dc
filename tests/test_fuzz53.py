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
    """The layout fuzzer's programs (fuzz53: seeds 0-...), a modest share per block."""
    for seed in range(100 * block, 100 * (block + 1)):
        if seed in KNOWN:
            continue
        program = Generator(seed).program(8, la.get_settings().eager_size)
        problem = compare(program)
        assert problem is None, f"{problem}\n--- program:\n{program.text()}"


KNOWN: dict[int, str] = {}


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
