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


# --- array-api-extra: every public function, on each dtype and on 0-d and empty inputs ----------
_RNG = np.random.default_rng(56)
_DTYPES = ("float64", "float32", "complex128", "int64", "int8", "uint8", "bool")


def _input(kind: str) -> np.ndarray:
    """'float64' (4, 5), 'float64/0d', 'float64/empty' (0, 5), 'float64/1d' (5,), 'float64/nan'
    (NaN and infinities in it)."""
    dtype, _, form = kind.partition("/")
    base = _RNG.standard_normal((4, 5)) * 3
    if dtype.startswith("complex"):
        base = base + 1j * _RNG.standard_normal((4, 5))
    if form == "nan":
        base[0, 1], base[1, 2], base[2, 3] = np.nan, np.inf, -np.inf
    v = base.astype(dtype)
    return {"": v, "0d": np.array(v[0, 0]), "empty": v[:0], "1d": v[0].copy(),
            "nan": v}[form]


def _sorted_ok(xp: Any, x: Any) -> Any:
    return x if x.dtype == xp.bool else x > 0


# name -> call(xp, x): the same code on NumPy arrays and on Arrays
_XPX: dict[str, Callable[[Any, Any], Any]] = {
    "sinc": lambda xp, x: xpx.sinc(x),
    "nan_to_num": lambda xp, x: xpx.nan_to_num(x, fill_value=-3.0),
    "isclose": lambda xp, x: xpx.isclose(x, x * 1.000001 if x.dtype != xp.bool else x),
    "isclose/equal_nan": lambda xp, x: xpx.isclose(x, x, equal_nan=True, rtol=0.1, atol=0.0),
    "isclose/scalar": lambda xp, x: xpx.isclose(x, 1),
    "nunique": lambda xp, x: xpx.nunique(x),
    "kron": lambda xp, x: xpx.kron(x, x),
    "kron/scalar": lambda xp, x: xpx.kron(x, 2),
    "atleast_nd": lambda xp, x: (xpx.atleast_nd(x, ndim=3), xpx.atleast_nd(x, ndim=0)),
    "expand_dims": lambda xp, x: xpx.expand_dims(x, axis=(0, -1)),
    "pad": lambda xp, x: (xpx.pad(x, 1), xpx.pad(x, ((1, 0),) * x.ndim if x.ndim else 1,
                                                 constant_values=1)),
    "cov": lambda xp, x: (xpx.cov(x), xpx.cov(x, axis=0, correction=0)),
    "create_diagonal": lambda xp, x: (xpx.create_diagonal(x), xpx.create_diagonal(x, offset=-2)),
    "partition": lambda xp, x: xpx.partition(x, 1),
    "partition/none": lambda xp, x: xpx.partition(x, 0, axis=None),
    "argpartition": lambda xp, x: xpx.argpartition(x, 1),
    "setdiff1d": lambda xp, x: xpx.setdiff1d(x, x[:1] if x.ndim else x),
    "setdiff1d/unique": lambda xp, x: xpx.setdiff1d(xp.reshape(x, (-1,)), x[1:2] if x.ndim else x,
                                                    assume_unique=True),
    "isin": lambda xp, x: (xpx.isin(x, x[1:2] if x.ndim else x),
                           xpx.isin(x, x[1:2] if x.ndim else x, invert=True)),
    "union1d": lambda xp, x: xpx.union1d(x, x[1:2] if x.ndim else x),
    "nanmax": lambda xp, x: xpx.nanmax(x),
    "nanmin": lambda xp, x: xpx.nanmin(x, axis=0 if x.ndim else None),
    "nanmean": lambda xp, x: (xpx.nanmean(x), xpx.nanmean(x, axis=-1 if x.ndim else None)),
    "nansum": lambda xp, x: (xpx.nansum(x), xpx.nansum(x, axis=(0,) if x.ndim else None)),
    "angle": lambda xp, x: (xpx.angle(x), xpx.angle(x, deg=True)),
    "deg2rad": lambda xp, x: (xpx.deg2rad(x), xpx.rad2deg(x)),
    "apply_where": lambda xp, x: xpx.apply_where(_sorted_ok(xp, x), x, lambda v: v * 2,
                                                 fill_value=0),
    "apply_where/f2": lambda xp, x: xpx.apply_where(_sorted_ok(xp, x), (x, x),
                                                    lambda v, w: v + w, lambda v, w: v - w),
    "searchsorted": lambda xp, x: (xpx.searchsorted(xp.sort(xp.reshape(x, (-1,))), x),
                                   xpx.searchsorted(xp.sort(xp.reshape(x, (-1,))), x,
                                                    side="right")),
    "at.set": lambda xp, x: xpx.at(x, 0 if x.ndim else ()).set(1),
    "at.add": lambda xp, x: xpx.at(x, (Ellipsis, 0)).add(1),
    "at.subtract": lambda xp, x: xpx.at(x)[..., :2].subtract(1),
    "at.multiply": lambda xp, x: xpx.at(x)[..., 1:].multiply(2),
    "at.divide": lambda xp, x: xpx.at(x)[..., 1:].divide(2),
    "at.power": lambda xp, x: xpx.at(x)[..., 1:].power(2),
    "at.min": lambda xp, x: xpx.at(x)[..., 1:].min(0),
    "at.max": lambda xp, x: xpx.at(x)[..., 1:].max(0),
    "at.mask": lambda xp, x: xpx.at(x, _sorted_ok(xp, x)).set(0),
    "at.mask_add": lambda xp, x: xpx.at(x, _sorted_ok(xp, x)).add(1),
    "at.copy": lambda xp, x: (xpx.at(x, ...).set(0, copy=True), x),
    "at.no_copy": lambda xp, x: xpx.at(x, ...).set(0, copy=False),
    "at.fancy": lambda xp, x: xpx.at(x, (xp.asarray([0, 0, 1]),)).add(1) if x.ndim and len(x)
    else x,
    "lazy_apply": lambda xp, x: xpx.lazy_apply(lambda v: np.cumsum(v), x, shape=(x.size,),
                                               dtype=x.dtype if x.dtype != xp.bool else xp.int64),
    "lazy_apply/as_numpy": lambda xp, x: xpx.lazy_apply(lambda v: v * 2, x, as_numpy=True),
    "one_hot": lambda xp, x: (xpx.one_hot(xp.astype(x, xp.int64) % 3, 3),
                              xpx.one_hot(xp.astype(x, xp.int64) % 4, 4, dtype=xp.float32,
                                          axis=0)),
    "unravel_index": lambda xp, x: xpx.unravel_index(xp.astype(x, xp.int64) % 6, (2, 3)),
}
# Where array-api-extra's NumPy path (NumPy's own function) answers otherwise than its generic
# path, which lazyarray takes as array_api_strict does (array_api_strict's answer is lazyarray's,
# or both raise the standard's TypeError): name -> (input kinds it concerns, why).
_XPX_NUMPY_PATH = {
    "nan_to_num": (("int64", "int8", "uint8"), "integers: `where(isnan(x), 0.0, x)` is float64"),
    "nanmax": (("complex128", "int64", "int8", "uint8", "float64/empty", "complex128/nan"),
               "the standard's max: no complex; integers warn in full_like(x, -inf); the empty "
               "text names 'maximum', NumPy's 'fmax'"),
    "nanmin": (("complex128", "int64", "int8", "uint8", "float64/empty", "complex128/nan"),
               "as nanmax"),
    "nanmean": (("float64/empty", "complex128/nan"), "no 'Mean of empty slice' warning; a "
                "complex NaN's division warns"),
    "isclose/equal_nan": (("complex128/nan",), "a complex NaN with a finite part"),
    "isclose": (("complex128/nan",), "complex infinities: `sign(a) == sign(b)` (NumPy 2's sign "
                "of inf+nanj is 1+0j) where NumPy's isclose says False"),
    "cov": (("float64/0d", "float64/empty", "float64/nan", "float32/nan", "complex128/nan"),
            "its warnings: 'in matmul' where np.cov's say 'in dot'; 0-d: a 0/0, not 1/0 * 0"),
    "apply_where": (("complex128", "complex128/nan"), "complex x > 0: the standard's TypeError"),
    "apply_where/f2": (("complex128", "complex128/nan"), "as apply_where"),
    "at.min": (("complex128", "complex128/nan"), "the standard's minimum: no complex"),
    "at.max": (("complex128", "complex128/nan"), "the standard's maximum: no complex"),
    "at.mask": (("complex128", "complex128/nan"), "as apply_where"),
    "at.mask_add": (("complex128", "complex128/nan"), "as apply_where"),
    "unravel_index": (("int8/1d",), "the indices' own dtype, NumPy's intp"),
}
_PARTITIONS = ("partition", "partition/none", "argpartition")
_KINDS = [*_DTYPES, "float64/0d", "float64/empty", "float64/nan", "float32/nan",
          "complex128/nan", "int64/1d", "int8/1d", "bool/1d"]


def _outcome(call: Callable[[Any, Any], Any], xp: Any, x: Any) -> tuple[Any, bool, list[str]]:
    before = np.array(np.asarray(x), copy=True)
    result, warned = _recorded(lambda: _evaluated(call(xp, x)))
    mutated = not np.array_equal(np.asarray(x), before, equal_nan=True)
    return result, mutated, warned


def _evaluated(result: Any) -> Any:
    if isinstance(result, (tuple, list)):
        return tuple(_evaluated(r) for r in result)
    if isinstance(result, la.Array):
        return ("Array", np.asarray(result))
    if isinstance(result, (np.ndarray, np.generic)):  # (lazyarray's stand-in for NumPy's
        return ("Array", np.asarray(result))           # scalar is a 0-d Array)
    return result


def _same(got: Any, want: Any, name: str, x: np.ndarray) -> None:
    if isinstance(want, tuple) and len(want) == 2 and want[0] == "Array":
        assert isinstance(got, tuple) and got[0] == "Array", f"{got!r} is not an Array"
        g, w = got[1], want[1]
        assert (g.dtype, g.shape) == (w.dtype, w.shape)
        if name in _PARTITIONS:  # (the order on either side of kth is not NumPy's contract)
            if name == "argpartition":
                g, w = np.take_along_axis(x, g, -1), np.take_along_axis(x, w, -1)
            axis = None if name == "partition/none" else -1
            np.testing.assert_array_equal(np.sort(g, axis=axis), np.sort(w, axis=axis))
            if g.size:  # (the element at kth is the sorted one: kth 0 of the flat array, or 1)
                kth = 0 if axis is None else 1
                np.testing.assert_array_equal(np.take(g, kth, axis=-1), np.take(w, kth, axis=-1))
            return
        tol = 1e-5 if g.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol) if g.dtype.kind in "fc" else \
            np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w)) if g.dtype.kind in "fc" else None
    elif isinstance(want, tuple) and not (len(want) == 2 and isinstance(want[0], type)):
        assert isinstance(got, tuple) and len(got) == len(want)
        for part_got, part_want in zip(got, want):
            _same(part_got, part_want, name, x)
    else:
        assert type(got) is type(want) and got == want


def _check_xpx(name: str, kind: str) -> None:
    known = _XPX_NUMPY_PATH.get(name)
    if known and (kind in known[0] or kind.partition("/")[0] in known[0]):
        pytest.skip(f"array-api-extra's NumPy path: {known[1]}")
    x = _input(kind)
    if name in _PARTITIONS and (x.dtype.kind == "c" or x.ndim == 0):
        pytest.skip("partition: real input of 1 dimension or more (NumPy's and the standard's)")
    want, want_mutated, want_warned = _outcome(_XPX[name], np, x.copy())
    got, got_mutated, got_warned = _outcome(_XPX[name], la, la.asarray(x))
    _same(got, want, name, x)
    assert (got_mutated, got_warned) == (want_mutated, want_warned)


@pytest.mark.parametrize("kind", ["float64", "int64", "bool", "float64/0d", "float64/nan"])
@pytest.mark.parametrize("name", list(_XPX))
def test_array_api_extra_matches_numpy(reference_backend, name, kind):
    _check_xpx(name, kind)


@pytest.mark.exhaustive
@pytest.mark.parametrize("eager_size", [None, 0], ids=["default", "general-path"])
@pytest.mark.parametrize("kind", _KINDS)
@pytest.mark.parametrize("name", list(_XPX))
def test_array_api_extra_matches_numpy_everywhere(backend, name, kind, eager_size):
    with la.config(**({} if eager_size is None else {"eager_size": eager_size})):
        _check_xpx(name, kind)


def test_array_api_extra_functions_without_array_inputs(reference_backend):
    """The creation helpers take the namespace: the same values and dtypes as NumPy's."""
    for call in (lambda xp: xpx.tril_indices(4, offset=1, xp=xp),
                 lambda xp: xpx.triu_indices(3, m=5, xp=xp),
                 lambda xp: xpx.diag_indices(3, ndim=3, xp=xp),
                 lambda xp: tuple(xpx.default_dtype(xp, kind) for kind in (
                     "real floating", "complex floating", "integral", "indexing")),
                 lambda xp: xpx.broadcast_shapes((2, 1), (1, 3), ())):
        want, got = call(np), call(la)
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            if isinstance(w, np.ndarray):
                assert isinstance(g, la.Array) and g.dtype == w.dtype
                np.testing.assert_array_equal(np.asarray(g), w)
            else:
                assert g == w
    with pytest.raises(ValueError):
        xpx.broadcast_shapes((2, 1), (3, 3), xp=la)
    x, w = _input("float64/1d"), np.array([1, 2, 1, 3, 1])
    got = xpx.cov(la.asarray(np.vstack([x, x ** 2])), fweights=la.asarray(w),
                  aweights=la.asarray(np.abs(x)))
    np.testing.assert_allclose(np.asarray(got), np.cov(np.vstack([x, x ** 2]), fweights=w,
                                                       aweights=np.abs(x)), rtol=1e-12)


# --- array-api-compat's helpers: what they answer for Arrays ---------------------------------------
def test_array_api_compat_helpers_answer_true_to_lazyarray(reference_backend):
    """Each answer is lazyarray's semantics: the namespace, a standard object, not a NumPy or
    other library's array, not "lazy" in compat's sense (`bool(x)` gives the value: it
    evaluates), writeable (`x[i] = v` rebinds the handle), its size and device, `to_device`."""
    x = la.asarray(np.arange(6.0).reshape(2, 3))
    for a in (x, x + 1, x[0], x.T, la.asarray(3.0), la.zeros((0, 3)), x[x > 2]):
        assert compat.array_namespace(a) is la and compat.get_namespace(a) is la
        assert compat.is_array_api_obj(a) and compat.is_writeable_array(a)
        assert not compat.is_lazy_array(a)
        assert not any(f(a) for f in (compat.is_numpy_array, compat.is_cupy_array,
                                      compat.is_torch_array, compat.is_dask_array,
                                      compat.is_jax_array, compat.is_ndonnx_array,
                                      compat.is_pydata_sparse_array))
        assert compat.size(a) == np.asarray(a).size and compat.device(a) == a.device == "cpu"
        moved = compat.to_device(a, "cpu")
        assert isinstance(moved, la.Array)
        np.testing.assert_array_equal(np.asarray(moved), np.asarray(a))
    assert compat.array_namespace(x, 3, None, 2.0, api_version="2024.12") is la
    with pytest.raises(TypeError, match="Multiple namespaces"):
        compat.array_namespace(x, np.ones(2))
    with pytest.raises(ValueError, match="2024.12"):
        compat.array_namespace(x, api_version="2025.12")


def test_at_of_a_read_only_array_raises_not_a_wrong_answer(reference_backend):
    """Left (array-api-compat's): `is_writeable_array` is True for every Array, as for every
    library compat does not know, so `xpx.at(x, i).set(v)` of a read-only Array (a broadcast
    view; `asarray` of a read-only NumPy array) writes into it, where NumPy's read-only array
    is copied first. lazyarray refuses the write with NumPy's error; x is left as it was, and
    `copy=True` gives NumPy's answer."""
    base = np.ones(1)
    x = la.broadcast_to(la.asarray(base), (3,))
    with pytest.raises(ValueError, match="read-only"):
        xpx.at(x, 0).set(5.0)
    np.testing.assert_array_equal(np.asarray(x), np.ones(3))
    np.testing.assert_array_equal(np.asarray(xpx.at(x, 0).set(5.0, copy=True)),
                                  xpx.at(np.broadcast_to(base, (3,)), 0).set(5.0))


# --- einops' array-API entry points (einops.array_api) and einops.einsum ------------------------------
def test_einops_array_api_and_einsum_match_numpy(reference_backend):
    """einops.array_api finds the namespace through `__array_namespace__` (array_api_strict
    fails there on einops' list shapes; lazyarray takes them as NumPy); einops.einsum goes
    through lazyarray's einops backend (lazyarray/_einops.py)."""
    einops = pytest.importorskip("einops")
    ea = pytest.importorskip("einops.array_api")
    a = np.arange(24.0).reshape(2, 3, 4)
    b = np.arange(12.0).reshape(4, 3)
    calls = [lambda m, x, y: ea.rearrange(x, "i j k -> k (j i)"),
             lambda m, x, y: ea.reduce(x, "i j k -> k", "max"),
             lambda m, x, y: ea.reduce(x, "i j k -> i", "mean"),
             lambda m, x, y: ea.reduce(x > 3, "i j k -> k", "any"),
             lambda m, x, y: ea.repeat(x, "i j k -> i j k r", r=2),
             lambda m, x, y: ea.unpack(*ea.pack([x, x[0]], "* k"), "* k"),
             lambda m, x, y: einops.einsum(x, y, "i j k, k j -> i"),
             lambda m, x, y: einops.einsum(x, x, "i j k, i j k -> i j"),
             lambda m, x, y: einops.reduce(x, "i j k -> k", lambda v, axis: m.sum(v, axis=axis))]
    for call in calls:
        want = call(np, a, b)
        got = call(la, la.asarray(a), la.asarray(b))
        for g, w in zip(*(r if isinstance(r, list) else [r] for r in (got, want))):
            assert isinstance(g, la.Array) and (g.dtype, g.shape) == (w.dtype, w.shape)
            np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12)


# --- marray: masked arrays over any Array-API namespace (marray.masked_namespace(la)) ----------------
def _set_items(x: Any) -> Any:
    x[0, 1] = 7.0
    x[2] = -1.0
    x[:, 3] = x[:, 4]
    return x


_MARRAY: dict[str, Callable[[Any, Any, Any], Any]] = {
    "arithmetic": lambda m, x, i: (x + x * 2 - 1, x / (x - x[0]), x ** 2),
    "matmul": lambda m, x, i: (x @ m.matrix_transpose(x), m.vecdot(x, x),
                               m.tensordot(x, x, axes=([1], [1]))),
    "reductions": lambda m, x, i: (m.sum(x), m.sum(x, axis=0), m.mean(x, axis=1),
                                   m.prod(x, axis=0), m.std(x, correction=1), m.var(x, axis=0),
                                   m.max(x, axis=1), m.min(x), m.any(x > 0, axis=0),
                                   m.all(x > -3, axis=1), m.count_nonzero(x > 0)),
    "arg": lambda m, x, i: (m.argmax(x, axis=0), m.argmin(x, axis=1)),
    "cumulative": lambda m, x, i: (m.cumulative_sum(x, axis=1), m.cumulative_prod(x, axis=0)),
    "sorting": lambda m, x, i: (m.sort(x, axis=1), m.argsort(x, axis=0),
                                m.searchsorted(m.sort(x[0]), x[1])),
    "elementwise": lambda m, x, i: (m.where(x > 0, x, -x), m.exp(x), m.log(m.abs(x)),
                                    m.sqrt(m.abs(x)), m.sin(x), m.round(x), m.clip(x, -1, 1),
                                    m.isnan(x / 0), m.isfinite(x)),
    "compare": lambda m, x, i: (x > 0.1, x == x, x != 1.0),
    "integers": lambda m, x, i: (i // 3, i % 3, i << 1, i & 3, -i, abs(i)),
    "indexing": lambda m, x, i: (x[1], x[:, ::2], x[..., -1], x[1:3, 2],
                                 m.take(x, m.asarray([0, 2]), axis=1), m.nonzero(x > 0)),
    "setitem": lambda m, x, i: _set_items(x),
    "manipulation": lambda m, x, i: (m.concat([x, x], axis=0), m.stack([x, x], axis=1),
                                     m.reshape(x, (5, 4)), m.permute_dims(x, (1, 0)),
                                     m.flip(x, axis=0), m.roll(x, 2), m.expand_dims(x, axis=0),
                                     m.squeeze(x[None], axis=0), m.broadcast_to(x[0], (3, 5)),
                                     m.tril(x), m.triu(x, k=1), m.diff(x, axis=1),
                                     *m.meshgrid(x[0], x[1])),
    "astype": lambda m, x, i: (m.astype(x, m.float32), m.astype(i, m.float64)),
    "creation": lambda m, x, i: (m.full((2, 3), 1.5), m.zeros_like(x), m.ones((2,)),
                                 m.arange(5), m.linspace(0, 1, 5), m.eye(3)),
}


def _masked(result: Any) -> list[Any]:
    parts, out = [result], []
    while parts:  # (nested tuples: nonzero's, meshgrid's)
        r = parts.pop(0)
        if isinstance(r, (tuple, list)):
            parts[:0] = r
            continue
        data, mask = np.asarray(r.data), np.asarray(r.mask)
        out.append((type(r.data), data.dtype, data.shape, mask,
                    np.where(mask, np.zeros((), data.dtype), data)))
    return out


@pytest.mark.parametrize("name", list(_MARRAY))
def test_marray_over_lazyarray_matches_marray_over_numpy(reference_backend, name):
    """marray (a masked-array namespace over any Array-API library) on lazyarray: the data
    (where not masked), masks, dtypes, shapes and warnings of the same calls over NumPy; the
    data stay Arrays. (`unique_values`: lazyarray's sorted values, docs/numpy_coverage.md.)"""
    marray = pytest.importorskip("marray")
    rng = np.random.default_rng(56)
    data, mask = rng.standard_normal((4, 5)), rng.random((4, 5)) > 0.7
    ints = rng.integers(-5, 5, (4, 5))
    outcomes = []
    for xp in (np, la):
        m = marray.masked_namespace(xp)
        x = m.asarray(xp.asarray(data.copy()), mask=xp.asarray(mask.copy()))
        i = m.asarray(xp.asarray(ints.copy()), mask=xp.asarray(mask.copy()))
        outcomes.append(_recorded(lambda: _masked(_MARRAY[name](m, x, i))))
    (want, want_warned), (got, got_warned) = outcomes
    assert got_warned == want_warned and len(got) == len(want)
    for (g_type, *g), (w_type, *w) in zip(got, want):
        assert g_type is (la.Array if w_type is np.ndarray else w_type)
        assert g[:2] == w[:2]
        np.testing.assert_array_equal(g[2], w[2])
        np.testing.assert_allclose(g[3], w[3], rtol=1e-12, atol=1e-12)
