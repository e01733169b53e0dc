"""Python ints beyond a dtype, or beyond int64/uint64, as operands and fill values of every function
that takes scalars: NumPy 2 either raises OverflowError or answers, and lazyarray must do the same
(docs/semantics.md, "Promotion"). The rules differ by where the int goes: an integer loop must hold
it; a bool slot (logical_and/or/xor, full(dtype=bool)) reads it as a C long; `where` as a C long
long or unsigned long long; ldexp's exponent as its loop's int32; round's decimals as a C int; two
Python ints compare exactly; an int alone is np.asarray's (2**63 is uint64)."""

import itertools
import warnings

import numpy as np
import pytest

import lazyarray as la

VALUES = (2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1, 300, -1, 2**31, 2**1100)
DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128")

CALLS = {
    "logical_and(x, s)": lambda m, x, s: m.logical_and(x, s),
    "logical_or(s, x)": lambda m, x, s: m.logical_or(s, x),
    "logical_xor(x, s)": lambda m, x, s: m.logical_xor(x, s),
    "where(c, s, x)": lambda m, x, s: m.where(x != x, s, x),
    "where(c, x, s)": lambda m, x, s: m.where(x != x, x, s),
    "where(c, s, 1)": lambda m, x, s: m.where(x != x, s, 1),
    "full_like(x, s)": lambda m, x, s: m.full_like(x, s),
    "full(2, s, x.dtype)": lambda m, x, s: m.full(2, s, dtype=x.dtype),
    "full(2, s)": lambda m, x, s: m.full(2, s),
    "x + s": lambda m, x, s: x + s,
    "s * x": lambda m, x, s: s * x,
    "maximum(x, s)": lambda m, x, s: m.maximum(x, s),
    "x == s": lambda m, x, s: x == s,
    "less(s, x)": lambda m, x, s: m.less(s, x),
    "equal(s, 1)": lambda m, x, s: m.equal(s, 1),
    "less(-1, s)": lambda m, x, s: m.less(-1, s),
    "negative(s)": lambda m, x, s: m.negative(s),
    "clip(x, s, None)": lambda m, x, s: m.clip(x, s, None),
    "clip(x, None, s)": lambda m, x, s: m.clip(x, None, s),
    "ldexp(x, s)": lambda m, x, s: m.ldexp(x, s),
    "round(x, s)": lambda m, x, s: m.round(x, s),
    "isclose(x, s)": lambda m, x, s: m.isclose(x, s),
    "isclose(s, x)": lambda m, x, s: m.isclose(s, x),
}


def _numpy(fn, x, s):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            out = fn(np, x, s)
        except Exception as exc:  # noqa: BLE001
            return None, exc
    if not isinstance(out, (np.ndarray, np.generic)):  # NumPy's object loop gave a Python int
        return np.asarray(out, dtype=object), None
    return np.asarray(out), None


def _documented_deviation(name, x, want, err) -> bool:
    if x.dtype.kind == "c" and name.split("(")[0] in ("maximum", "less", "clip"):
        return True  # ordering of complex numbers is refused
    if err is not None and type(err).__name__ == "UFuncTypeError":
        return True  # no loop: lazyarray raises its own TypeError (checked by other tests)
    return False


def _cases(dtypes):
    for name, dt, s in itertools.product(CALLS, dtypes, VALUES):
        x = np.array([0, 1, 3], dt)
        want, err = _numpy(CALLS[name], x, s)
        if not _documented_deviation(name, x, want, err):
            yield name, x, s, want, err


def _case_id(name, x, s):
    return f"{name} {x.dtype} {s if abs(s) < 2**70 else 'huge'}"


def test_raises_where_numpy_raises_and_builds_where_it_answers(reference_backend):
    """Every call x dtype x value: the same exception class as NumPy at the line that builds the
    op (OverflowError or TypeError; lazyarray refuses NumPy's object arrays with TypeError), or a
    result with NumPy's dtype and shape."""
    wrong = []
    for name, x, s, want, err in _cases(DTYPES):
        try:
            got = CALLS[name](la, la.asarray(x), s)
        except (OverflowError, TypeError) as exc:
            if err is None and not (want.dtype == object and isinstance(exc, TypeError)):
                wrong.append(f"{_case_id(name, x, s)}: raised {exc!r}, NumPy gives {want!r}")
            elif err is not None and not isinstance(exc, type(err)):
                wrong.append(f"{_case_id(name, x, s)}: {type(exc).__name__}, NumPy {err!r}")
            continue
        if err is not None:
            wrong.append(f"{_case_id(name, x, s)}: answered, NumPy raises {err!r}")
        elif (got.dtype, got.shape) != (want.dtype, want.shape):
            wrong.append(f"{_case_id(name, x, s)}: {got.dtype}{got.shape}, NumPy "
                         f"{want.dtype}{want.shape}")
    assert not wrong, "\n".join(wrong[:40])


@pytest.mark.parametrize("dtypes", [
    ("bool", "uint8", "float32"),
    pytest.param(("int8", "int64", "uint64", "complex128"), marks=pytest.mark.exhaustive)])
def test_values_match_numpy(backend, dtypes):
    """The answers themselves, on every backend: one graph of every answered case."""
    cases = [(name, x, s, want) for name, x, s, want, err in _cases(dtypes)
             if err is None and want.dtype != object]
    got = la.eval(*[CALLS[name](la, la.asarray(x), s) for name, x, s, _ in cases])
    for (name, x, s, want), g in zip(cases, got):
        if want.dtype.kind in "fc":
            np.testing.assert_allclose(np.asarray(g), want, rtol=1e-6,
                                       err_msg=_case_id(name, x, s))
        else:
            np.testing.assert_array_equal(np.asarray(g), want, err_msg=_case_id(name, x, s))


@pytest.mark.parametrize("s", [2**63, 2**64 - 1])
def test_an_int_beyond_int64_alone_is_uint64_as_numpy(reference_backend, s):
    """np.asarray(2**63) is uint64, so are np.full(2, 2**63), np.negative(2**63) and the test
    values of isin/searchsorted; 2**64 is NumPy's object dtype, which lazyarray refuses."""
    u = np.array([1, 2**63, 2**64 - 1], np.uint64)
    for fn in (lambda m: m.full(2, s), lambda m: m.negative(s), lambda m: m.isin(u, s),
               lambda m: m.searchsorted(u, s), lambda m: m.asarray(s)):
        want, got = fn(np), np.asarray(fn(la))
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    with pytest.raises(TypeError, match="object"):
        la.full(2, 2**64)
