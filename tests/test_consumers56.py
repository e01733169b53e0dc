"""Array-API consumers on lazyarray beyond scikit-learn's and SciPy's calls (stop 56):
array-api-extra's public functions, array-api-compat's helpers and einops' array-API entry
points, each call against the same call on NumPy arrays (type, dtype, shape, values, mutation
of the inputs, warnings, exceptions). scikit-learn and SciPy themselves run in
tests/consumer_programs.py (a fresh interpreter: SciPy reads SCIPY_ARRAY_API once)."""

from __future__ import annotations

import operator
import warnings
from typing import Any, Callable

import numpy as np
import pytest

import lazyarray as la

xpx = pytest.importorskip("array_api_extra")
compat = pytest.importorskip("array_api_compat")


def _recorded(call: Callable[[], Any]) -> tuple[Any, list[str]]:
    """`call()`'s outcome (its result evaluated, or its exception's type and text) and the texts
    of the RuntimeWarnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = call()
            if isinstance(result, la.Array):
                result = np.asarray(result)
        except Exception as exc:  # noqa: BLE001  (compared with NumPy's)
            result = (type(exc), str(exc).split("\n(at ")[0])
    return result, sorted(str(w.message) for w in caught if w.category is RuntimeWarning)


# --- `x op= y`'s casting error is NumPy's operator's (array-api-extra's at(...).power) -------------
@pytest.mark.parametrize("exponent", [2, 3, 2.0, np.int64(2)], ids=repr)
@pytest.mark.parametrize("dtype", ["bool", "int8"])
def test_inplace_power_casting_error_is_numpys_operator(reference_backend, exponent, dtype):
    """`b **= 2` of bools is NumPy's square loop (its error names 'square' and int8), where
    `np.power(b, 2, out=b)` names 'power' and int64: the error is the operator's."""
    outcomes = []
    for make in (np.array, la.asarray):
        x = make([1, 0, 1], dtype=dtype)
        outcomes.append(_recorded(lambda: operator.ipow(x, exponent)))
    (want, _), (got, _) = outcomes
    if isinstance(want, tuple):
        assert got == want
    else:
        np.testing.assert_array_equal(np.asarray(got), want)


def test_at_power_of_bools_raises_numpys_error(reference_backend):
    x = np.array([True, False, True])
    want = _recorded(lambda: xpx.at(x.copy())[1:].power(2))
    assert _recorded(lambda: xpx.at(la.asarray(x))[1:].power(2)) == want


# --- "boolean indexing": array-api-extra's apply_where masks as it does for NumPy ------------------
_DOMAIN = np.array([2.0, 0.0, -1.0, np.inf, -np.inf, np.nan, 0.5])


def _apply_where_calls(xp: Any, x: Any) -> dict[str, Callable[[], Any]]:
    return {"log": lambda: xpx.apply_where(x > 0, x, xp.log, fill_value=-1.0),
            "sqrt/negative": lambda: xpx.apply_where(x >= 0, x, xp.sqrt, lambda v: -v),
            "divide": lambda: xpx.apply_where(x != 0, (x, x), lambda a, b: 1 / a + b,
                                              fill_value=0.0),
            "isclose": lambda: xpx.isclose(x, x * 2),
            "isclose/equal_nan": lambda: xpx.isclose(x, xp.flip(x), equal_nan=True)}


@pytest.mark.parametrize("name", list(_apply_where_calls(np, _DOMAIN)))
def test_apply_where_is_silent_where_numpys_is(reference_backend, name):
    """The lanes `cond` leaves out are not computed (NumPy's masked path): no warning there, and
    no FloatingPointError under errstate(all='raise'). With `capabilities()["boolean
    indexing"]` False, array-api-extra took `where(cond, f(x), fill)`, and SciPy's
    `special.rel_entr(x, y)` warned 'divide by zero encountered in log' (stop 56)."""
    want, want_warned = _recorded(_apply_where_calls(np, _DOMAIN.copy())[name])
    got, got_warned = _recorded(_apply_where_calls(la, la.asarray(_DOMAIN))[name])
    np.testing.assert_array_equal(got, want)
    assert got_warned == want_warned
    with np.errstate(all="raise"), la.errstate(all="raise"):
        want, _ = _recorded(_apply_where_calls(np, _DOMAIN.copy())[name])
        got, _ = _recorded(_apply_where_calls(la, la.asarray(_DOMAIN))[name])
    np.testing.assert_array_equal(got, want)


def test_boolean_indexing_is_false_while_jit_traces(reference_backend):
    """la.jit cannot read a mask's values while it traces (as JAX): the flag is False there, so
    array-api-extra takes its `where` path, and the traced function runs on new values."""
    assert la.__array_namespace_info__().capabilities()["boolean indexing"] is True
    seen = []

    @la.jit
    def f(x):
        seen.append(la.__array_namespace_info__().capabilities()["boolean indexing"])
        return xpx.apply_where(x > 0, x, lambda v: v * 2.0, fill_value=-1.0)

    for values in ([1.0, -2.0, 3.0], [-1.0, 2.0, 0.0]):
        v = np.array(values)
        np.testing.assert_array_equal(np.asarray(f(la.asarray(v))), np.where(v > 0, v * 2, -1))
    assert seen == [False]
