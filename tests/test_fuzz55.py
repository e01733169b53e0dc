"""Regressions found by fuzz55 (tests/fuzz_programs.py: write-heavy NumPy programs in the style
users write). Each runs the NumPy program on NumPy and on lazyarray, on every backend, on plans
(`eager_size=0`: what the cupy backend always takes) and at the default (the at-once rule)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import lazyarray as la

BOTH = pytest.mark.parametrize("eager_size", [0, 4096])


def _run(program, backend, eager_size):
    want = program(np)
    with la.config(backend=backend, eager_size=eager_size):
        got = program(la)
    return want, got


def _assert_same(want, got):
    assert len(want) == len(got)
    for w, g in zip(want, got):
        g = np.asarray(g)
        assert g.dtype == np.asarray(w).dtype and g.shape == np.shape(w)
        np.testing.assert_array_equal(g, w)


def _round_of_ints(m):
    """Writes into `np.round` of an integer array: NumPy's result is a copy."""
    a = m.arange(6, dtype=m.int16)
    r = m.round(a, 1)
    r[0] = 100
    b = m.arange(5)[::-1]
    q = m.round(b)
    q[1] = -7
    c = m.arange(6, dtype=m.uint8).reshape(2, 3).T
    s = c.round(2)
    s[0, 0] = 9
    return [a, r, b, q, c, s]


@BOTH
def test_round_of_an_integer_array_is_a_copy(backend, eager_size):
    """fuzz55's seeds 164 and 182: `t = np.round(a, 1)` of an integer array (decimals >= 0) was
    `a` itself, so `t[0] = 100` changed `a`; NumPy's round returns a new array."""
    want, got = _run(_round_of_ints, backend, eager_size)
    _assert_same(want, got)


def _written_with_a_reversed_view(m):
    """A whole write of a reversed view of the array into it, then writes through its ravel
    and reshape (views of C-contiguous memory in NumPy)."""
    out = []
    for form in range(4):
        t = m.arange(5.0) if form < 2 else m.arange(12.0).reshape(3, 4)
        if form == 0:
            t[...] = t[::-1]
        elif form == 1:
            m.copyto(t, t[::-1])
        elif form == 2:
            t[:] = t[::-1, ::-1]
        else:
            m.add(t[:, ::-1], 0, out=t)
        v = t.ravel()
        v[-2] = -9
        r = t.reshape(-1)
        r[0] = -5
        out += [t, v, r]
    return out


@BOTH
def test_a_whole_write_of_a_reversed_view_keeps_c_memory(backend, eager_size):
    """fuzz55's seed 86: `t[...] = t[::-1]` made t's value the reversed slice node, which as a
    root's value stands for strided memory; `t.ravel()` was then a copy and `ravel()[-2] = 0`
    never reached t. NumPy copies the values into t's C-contiguous memory."""
    want, got = _run(_written_with_a_reversed_view, backend, eager_size)
    _assert_same(want, got)


def _complex_into_real_reductions(m):
    z = m.arange(6) * (1 + 2j)
    seen = []
    for f in (lambda: z.sum(dtype=m.float64), lambda: m.prod(z, dtype=m.int64),
              lambda: m.cumsum(z, dtype=m.float64), lambda: m.cumprod(z, dtype=m.float32),
              lambda: z.mean(dtype=m.float64), lambda: m.nansum(z, dtype=m.float64),
              lambda: m.sum(z, dtype=m.float64, where=m.real(z) > 2),
              lambda: m.sum(z.reshape(2, 3), axis=1, dtype=m.float32, initial=1),
              lambda: z.sum(dtype=bool), lambda: z.sum(dtype=m.complex64)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = np.asarray(f())
        seen.append(([(w.category, str(w.message)) for w in caught], value))
    return seen


@BOTH
def test_a_reduction_of_complex_values_in_a_real_dtype_warns(backend, eager_size):
    """fuzz55's seeds 242, 381, 391: `z.sum(dtype=np.float64)`, `np.cumprod(z, dtype=np.float32)`
    and `z.mean(dtype=np.float64)` of a complex z were silent; NumPy warns its ComplexWarning
    (the imaginary parts are dropped), once."""
    want, got = _run(_complex_into_real_reductions, backend, eager_size)
    for (w_warn, w_value), (g_warn, g_value) in zip(want, got):
        assert g_warn == w_warn
        assert g_value.dtype == w_value.dtype
        np.testing.assert_allclose(g_value, w_value, rtol=1e-6)


def _copyto_complex_into_real(m):
    a = m.zeros((2, 3))
    z = m.arange(3) * (1 - 1j)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for row in a:
            m.copyto(row, z, casting="unsafe")
        m.copyto(a, z + 1, casting="unsafe", where=m.asarray([True, False, True]))
    return [(w.category, str(w.message)) for w in caught], np.asarray(a)


@BOTH
def test_copyto_of_complex_values_into_a_real_array_warns_once(backend, eager_size):
    """fuzz55's seed 228: `np.copyto(row, z, casting='unsafe')` of complex z into a real row
    warned NumPy's ComplexWarning twice (the cast check's stand-in, then the cast); NumPy warns
    once per call."""
    (w_warn, w_value), (g_warn, g_value) = _run(_copyto_complex_into_real, backend, eager_size)
    assert g_warn == w_warn
    np.testing.assert_array_equal(g_value, w_value)


def _row_loop_then_view_write(m):
    a = m.arange(4, dtype=m.int64).reshape((1, 4))
    for row in a:
        row[0] = 0
    np.asarray(a)
    t = a * 1
    np.asarray(t)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t[0:1] //= 0
        value = np.asarray(t)
    return [(w.category, str(w.message)) for w in caught], value


@BOTH
def test_a_write_through_a_view_warns_once(backend, eager_size):
    """fuzz55's seed 0 (C): after `for row in a: row[0] = 0`, `t[0:1] //= 0` of a computed t
    warned 'divide by zero' twice: the write through the view computed the quotient, found the
    buffer held elsewhere, and the general write computed it again (eager.write_through_view
    now hands back what it computed)."""
    (w_warn, w_value), (g_warn, g_value) = _run(_row_loop_then_view_write, backend, eager_size)
    assert g_warn == w_warn
    np.testing.assert_array_equal(g_value, w_value)


def _flat_out_of_bounds(m):
    seen = []
    for shape, key in (((0,), 0), ((2, 3), 6), ((2, 3), -7), ((2, 3), [0, 9])):
        for write in (False, True):
            a = m.zeros(shape)
            try:
                if write:
                    a.flat[key] = 100
                else:
                    a.flat[key]
                seen.append(None)
            except IndexError as exc:
                seen.append(str(exc))
    return seen


@BOTH
def test_flat_out_of_bounds_has_numpy_text(backend, eager_size):
    """fuzz55's seed 1032: `a.flat[0] = 100` of an empty a raised IndexError 'index 0 is out of
    bounds for axis 0 with size 0' (the ravelled Array's text); NumPy's flatiter says 'index 0 is
    out of bounds for size 0'."""
    want, got = _run(_flat_out_of_bounds, backend, eager_size)
    assert got == want


@pytest.mark.parametrize("value", [2, 2.5, 1 + 2j, True, -0.0])
def test_real_and_imag_of_a_python_scalar_are_python_scalars(value):
    """fuzz54's left class: `np.real(2)` is the int 2 and `np.imag(2.5)` the float 0.0 (NumPy
    takes the scalar's `.real`/`.imag`); lazyarray gave 0-d Arrays."""
    for part in ("real", "imag"):
        want, got = getattr(np, part)(value), getattr(la, part)(value)
        assert type(got) is type(want) and repr(got) == repr(want)


def _error(f):
    try:
        f()
    except Exception as exc:  # noqa: BLE001
        return type(exc), str(exc)
    return None


def _error_texts(m):
    return [_error(lambda: m.add.at(m.zeros(3), [0, 1], m.ones(3))),
            _error(lambda: m.maximum.at(m.zeros((3, 2)), [0, 1], m.ones(3))),
            _error(lambda: m.divmod(m.ones(2) * 1j, 2)),
            _error(lambda: divmod(m.ones(2, m.int8), 2j)),
            _error(lambda: m.ldexp(m.ones(2), m.ones(2))),
            _error(lambda: m.ldexp(m.ones(2), m.ones(2, m.uint64))),
            _error(lambda: m.ldexp(m.ones(2), 1.5))]


@BOTH
def test_error_texts_of_at_divmod_and_ldexp_are_numpys(backend, eager_size):
    """fuzz54's left classes: `np.add.at(a, i, v)` with v of another shape said the scatter's
    'shape mismatch: ...' (NumPy: 'array is not broadcastable to correct shape'), `divmod` of
    complex values named floor_divide, `ldexp` with a float exponent said 'ldexp: the exponent
    must be an integer array'. Each is NumPy's exception now (type and text)."""
    want, got = _run(_error_texts, backend, eager_size)
    for w, g in zip(want, got):
        assert g is not None and g[1] == w[1]
        assert issubclass(g[0], TypeError) == issubclass(w[0], TypeError)
        assert issubclass(g[0], ValueError) == issubclass(w[0], ValueError)


def _copies_of_broadcasts(m):
    out = []
    for src, shape in ((m.arange(4.0), (3, 4)), (m.arange(3.0)[:, None], (3, 4)),
                       (m.arange(4.0), (3, 2, 4)), (m.arange(6.0).reshape(2, 3).T, (5, 3, 2))):
        b = m.broadcast_to(src, shape)
        for copy in (lambda b: m.copy(b), lambda b: b.astype(m.float32),
                     lambda b: m.array(b, order="K"), lambda b: b.copy()):
            c = copy(b)
            r = c.reshape(-1)  # a view of a C-contiguous copy, else a copy
            r[1] = 99
            flags = np.asarray(c).flags
            out.append((np.asarray(c), flags.c_contiguous, flags.f_contiguous))
    return out


@BOTH
def test_a_k_order_copy_of_a_broadcast_is_laid_out_as_numpys(backend, eager_size):
    """fuzz54's left class: `np.copy(np.broadcast_to(row, (3, 4)))` (order 'K') is
    Fortran-ordered in NumPy (the broadcast axis's stride 0 sorts innermost), so its
    `reshape(-1)` is a copy and `r[1] = 99` leaves it; here the copy was C-ordered and the
    write changed it. Also `astype` (order 'K')."""
    want, got = _run(_copies_of_broadcasts, backend, eager_size)
    for (w, wc, wf), (g, gc, gf) in zip(want, got):
        np.testing.assert_array_equal(g, w)
        assert (gc, gf) == (wc, wf)


def _numpy_scalars_into_int_elements(m):
    seen = []
    for k in range(6):
        a = m.zeros(5, m.int8)
        a[0] = 100
        a[2] = 100
        f = m.linspace(0, 1, 3)
        try:
            if k == 0:
                a[1] += a[:3].sum()  # int64 200 into int8: NumPy's OverflowError
            elif k == 1:
                a[1] = a[:3].sum() - 200  # fits: 0
            elif k == 2:
                a[1] = f.mean() * 5  # float64 2.5: int() truncates
            elif k == 3:
                with np.errstate(all="ignore"):
                    a[1] = (f / 0).max()  # inf: OverflowError
            elif k == 4:
                a[1:2] += a[:3].sum()  # a slice: NumPy's array cast wraps
            else:
                b = m.zeros(3, m.uint8)
                b[0] = b[1:].sum() - 1  # uint64's wrap, then C's into uint8
                a = b
            seen.append(np.asarray(a).tolist())
        except (OverflowError, ValueError) as exc:
            seen.append((type(exc), str(exc)))
    return seen


@BOTH
def test_a_numpy_scalar_result_into_an_int_element_packs_as_numpy(backend, eager_size):
    """fuzz55's seed 2236: `a[k] += a[:k].sum()` of an int8 a, whose sum (NumPy's int64 scalar)
    is out of int8's range: NumPy's setitem stores a scalar item by item (OverflowError 'Python
    integer 200 out of bounds for int8'); lazyarray cast it as an array, wrapping silently."""
    want, got = _run(_numpy_scalars_into_int_elements, backend, eager_size)
    assert got == want


def _int_power_of_a_view(m):
    seen = []
    for k in range(3):
        c = (m.arange(24) - 12).reshape(2, 3, 4).astype(m.int32)
        try:
            if k == 0:
                for row in c:
                    row **= row[::-1]
            elif k == 1:
                c[0] **= c[1, ::-1]  # non-negative exponents: computed
            else:
                c ** c[:, ::-1]
            seen.append(np.asarray(c).tolist())
        except ValueError as exc:
            seen.append(str(exc))
    return seen


@pytest.mark.parametrize("eager_size", [4096])
def test_an_int_power_with_a_view_of_a_computed_exponent_checks_its_signs(backend, eager_size):
    """fuzz55's seed 2681: `for row in c: row **= row[::-1]` of an int32 c with negative entries
    computed 0s where NumPy raises 'Integers to negative integer powers are not allowed.': the
    exponent, a view of a computed buffer, has known values (NumPy's view of them), checked as a
    leaf's are. (A pending exponent's are not: docs/semantics.md, "power"; so eager_size=0 is
    not run here.)"""
    want, got = _run(_int_power_of_a_view, backend, eager_size)
    assert got == want


def test_round_of_a_bool_array_with_decimals_raises_numpys_error():
    """fuzz55's seed 2495: `np.round(bool_array, 1)` is NumPy's UFuncTypeError ("Cannot cast ufunc
    'multiply' output from dtype('float64') to dtype('bool') ..."); lazyarray raised a TypeError
    of its own text."""
    for decimals in (1, -1):
        with pytest.raises(TypeError) as want:
            np.round(np.ones(3, bool), decimals)
        with pytest.raises(TypeError) as got:
            la.round(la.ones(3, bool), decimals)
        assert type(got.value) is type(want.value) and str(got.value) == str(want.value)


def _flat_single_items(m):
    seen = []
    for dtype, key, value in (("float64", 0, 1j), ("float64", 0, "a"), ("float64", -1, [1, 2]),
                              ("int8", 0, 300), ("int8", 1, float("nan")),
                              ("float64", 0, "2.5"), ("float64", slice(None), 1j),
                              ("int8", slice(None), 300), ("int8", 2, 5)):
        a = m.zeros(4, dtype)
        try:
            a.flat[key] = value
            seen.append(np.asarray(a).tolist())
        except (TypeError, ValueError, OverflowError) as exc:
            seen.append((type(exc), str(exc)))
    return seen


@BOTH
def test_flat_single_item_errors_are_numpys(backend, eager_size):
    """fuzz55's seed 2255: `row.flat[0] = 1j` into floats is NumPy's ValueError 'Error setting
    single item of array.' (its flatiter's one-element setitem), not indexing's TypeError; and
    `a.flat[-1] = [1, 2]` raises it too, where lazyarray wrote 1."""
    want, got = _run(_flat_single_items, backend, eager_size)
    assert got == want
