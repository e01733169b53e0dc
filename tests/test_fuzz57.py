"""Regressions found by fuzz57 (tests/fuzz_signatures.py, fuzz_scalars.py on seeds 500000+).
Each compares with NumPy computed here, on plans (`eager_size=0`) and at the default (the
at-once rule), on each backend (tests/conftest.py's `backend`)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import lazyarray as la

BOTH = pytest.mark.parametrize("eager_size", [0, 4096])


@pytest.fixture(autouse=True)
def _on_each_backend(backend):
    """Every test on every backend: on C the instances are the exhaustive tier's (conftest
    EXHAUSTIVE_ON_C_MODULES)."""
    yield backend


def _outcome(xp, fn, eager_size: int):
    """(repr, dtype) of `fn(xp)` (NumPy's scalar vs 0-d array shows in the repr), or the
    exception's type and text (without lazyarray's site line)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if xp is la:
                with la.config(eager_size=eager_size):
                    v = fn(xp)
                    return repr(v), np.asarray(v).dtype
            v = fn(xp)
            return repr(v), np.asarray(v).dtype
        except Exception as exc:  # noqa: BLE001
            return type(exc).__name__, str(exc).split("\n(at ")[0]


def _same(fn, eager_size: int) -> None:
    assert _outcome(la, fn, eager_size) == _outcome(np, fn, eager_size)


_C64 = (np.arange(12) * 1.5 + 1j).astype(np.complex64).reshape(2, 3, 2)
_C64[0, 0, 0] = np.nan
_F32 = np.array([[1.5, np.nan, -2.0], [0.25, 3.0, np.nan]], np.float32)


@BOTH
@pytest.mark.parametrize("call", [
    lambda xp: xp.nanvar(xp.asarray(_C64), mean=(0, 1)),
    lambda xp: xp.nanstd(xp.asarray(_C64), axis=0, mean=xp.asarray(_C64).mean(axis=0)),
    lambda xp: xp.nanvar([1.0, 2.0, 4.0], dtype="float32"),
    lambda xp: xp.nanstd([], dtype="float32", keepdims=True, correction=1.5),
    lambda xp: xp.nanvar(xp.asarray(_F32), axis=1, dtype="float64"),
    lambda xp: xp.nanvar(xp.asarray(_F32), axis=0, mean=np.float64(0.1)),
    lambda xp: xp.nanstd(xp.asarray(_F32.astype(np.float16)), dtype="float32"),
    lambda xp: xp.nanvar(xp.asarray(_C64), axis=(0, 2), dtype="complex128"),
], ids=["complex64-mean-tuple", "complex64-mean-array", "list-dtype-f4", "empty-dtype-f4",
        "f4-dtype-f8", "f4-mean-f8", "f2-dtype-f4", "c8-dtype-c16"])
def test_nanvar_deviations_in_input_dtype_sum_in_dtype(call, eager_size):
    """NumPy's nanvar subtracts the mean into the input's copy (`out=arr`, unsafe): a float64
    `mean=`/`dtype=` leaves the deviations in the input's dtype, and only the last sum is in
    `dtype=`. Here the deviations promoted and `dtype=` was only the mean's: nanvar(list,
    dtype=float32) was float64, nanvar(complex64, mean=(0, 1)) float64."""
    _same(call, eager_size)


_S = (np.float64(0.5), np.int64(-3), np.complex64(1 - 1j))


@BOTH
@pytest.mark.parametrize("call", [
    lambda xp, s: xp.squeeze(s),
    lambda xp, s: xp.squeeze(s, axis=0),
    lambda xp, s: xp.transpose(s),
    lambda xp, s: xp.permute_dims(s, ()),
    lambda xp, s: xp.reshape(s, ()),
    lambda xp, s: xp.moveaxis(s, [], []),
    lambda xp, s: xp.expand_dims(s, ()),  # (NumPy's 0-d array: asanyarray first)
    lambda xp, s: xp.broadcast_to(s, ()),
    lambda xp, s: xp.squeeze(xp.asarray(s)),
    lambda xp, s: xp.vecdot(xp.asarray([s, s]), xp.asarray([s, 2 * s])),
    lambda xp, s: xp.linalg.vecdot(xp.asarray([s, s]), xp.asarray([s, 2 * s])),
    lambda xp, s: xp.median(xp.asarray(s), axis=(), keepdims=True),
    lambda xp, s: xp.median(xp.asarray(s), axis=()),
    lambda xp, s: xp.piecewise(xp.asarray(s), [True], [1]),
    lambda xp, s: xp.piecewise(xp.asarray(s), [xp.asarray(s) != 0], [lambda t: t * 2]),
    lambda xp, s: xp.trim_zeros(s),
    lambda xp, s: xp.trim_zeros(True),
    lambda xp, s: xp.lexsort([s, s]),
], ids=["squeeze", "squeeze-axis", "transpose", "permute_dims", "reshape", "moveaxis",
        "expand_dims", "broadcast_to", "squeeze-0d-array", "vecdot", "linalg.vecdot",
        "median-keepdims", "median", "piecewise", "piecewise-fn", "trim_zeros", "trim_zeros-bool",
        "lexsort"])
@pytest.mark.parametrize("s", _S, ids=[type(s).__name__ for s in _S])
def test_zero_d_results_are_numpys_kind(call, s, eager_size):
    """A 0-d result is NumPy's scalar or NumPy's 0-d array as NumPy's is: squeeze, transpose,
    reshape and moveaxis call a NumPy scalar's own method (a scalar; a 0-d array here),
    vecdot of vectors is the gufunc's scalar (a 0-d array), median(0-d, axis=(),
    keepdims=True) and piecewise of a 0-d array are 0-d arrays (scalars here), trim_zeros of a
    0-d input is the input (a 0-d array), lexsort of scalar keys NumPy's intp scalar."""
    _same(lambda xp: call(xp, s), eager_size)


@BOTH
@pytest.mark.parametrize("dtype", ["uint8", "uint32", "uint64", "int8", "float32", "bool"])
@pytest.mark.parametrize("choice,default", [(1, 0), (-1, False), (300, 7), (1.5, 0), (1j, 0),
                                            (2, np.uint64(5)), (True, 3)])
def test_select_python_scalar_choice_casts_same_kind(dtype, choice, default, eager_size):
    """np.select burns each choice into the result by `copyto(..., where=cond)` (same_kind): a
    Python int choice is an int64 array there, so into an unsigned result NumPy raises
    TypeError (`select([B > 0, B == 0], [B, 1], False)` of a uint32 B); here it was cast."""
    b = np.array([1, 2, 0], dtype)
    _same(lambda xp: xp.select([xp.asarray(b) > 0, xp.asarray(b) == 0], [xp.asarray(b), choice],
                               default), eager_size)


_RUN_AS_MODULE = """
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y = np.sqrt(x)
    z = np.log(x - 1)
found = [(str(w.message), w.lineno) for w in caught]
"""


@BOTH
def test_warnings_of_a_module_run_with_python_m(tmp_path, eager_size):
    """A module run by `python -m pkg.mod` is `__main__` with pkg.mod's loader: the warnings a
    block's exit reports at the lines that built the ops (fp_errors._warn_at) passed its globals
    to warnings.warn_explicit, whose source lookup asked that loader for '__main__': ImportError
    instead of NumPy's warnings (fuzz_numpy run as `python -m tests.fuzz_numpy`, seed 500038)."""
    import importlib.machinery
    path = tmp_path / "mod.py"
    path.write_text(_RUN_AS_MODULE)
    found = []
    for xp in (np, la):
        env = {"__name__": "__main__", "np": xp, "x": xp.asarray([-1.0, 4.0] * 3000),
               "__loader__": importlib.machinery.SourceFileLoader("pkg.mod", str(path))}
        with la.config(eager_size=eager_size):
            exec(compile(_RUN_AS_MODULE, str(path), "exec"), env)
        found.append(env["found"])
    assert found[1] == found[0]


@BOTH
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.zeros(3, dtype=a), lambda xp, a: xp.full(2, 1, dtype=a),
    lambda xp, a: xp.asarray([1, 2], dtype=a), lambda xp, a: xp.zeros_like(a, dtype=a),
    lambda xp, a: xp.arange(3, dtype=a), lambda xp, a: xp.linspace(0, 1, 3, dtype=a),
    lambda xp, a: xp.eye(2, dtype=a), lambda xp, a: xp.identity(2, dtype=a),
    lambda xp, a: xp.tri(2, dtype=a), lambda xp, a: xp.indices((2,), dtype=a),
    lambda xp, a: xp.logspace(0, 1, 3, dtype=a), lambda xp, a: xp.fromiter([1], dtype=a),
    lambda xp, a: xp.frombuffer(b"\0" * 8, dtype=a),
    lambda xp, a: xp.sum(a, dtype=a), lambda xp, a: xp.cumsum(a, dtype=a),
    lambda xp, a: xp.add(a, a, dtype=a), lambda xp, a: xp.sqrt(a, dtype=a),
    lambda xp, a: xp.matmul(a, a, dtype=a), lambda xp, a: a.astype(a),
    lambda xp, a: a.view(a), lambda xp, a: xp.promote_types(a, "f8"),
    lambda xp, a: xp.issubdtype(a, np.floating), lambda xp, a: xp.can_cast("f4", a),
    lambda xp, a: xp.can_cast(a, "f8"), lambda xp, a: xp.result_type(a, "f8"),
    lambda xp, a: xp.zeros(2, dtype=np.float32(1)),  # (a NumPy scalar stands for its dtype)
])
def test_an_array_is_no_dtype(call, eager_size):
    """`np.zeros(3, dtype=x)` of an array: NumPy's TypeError 'Cannot construct a dtype from an
    array'. np.dtype refuses NumPy's array but reads any other object's `.dtype`: an Array as
    dtype= gave its dtype's result (and `arange`/`linspace`/`eye` tested its truth first)."""
    a = np.array([1.0, 2.0], np.float32)
    _same(lambda xp: call(xp, xp.asarray(a)), eager_size)


@BOTH
@pytest.mark.parametrize("call", [
    lambda a: a.std(correction=1), lambda a: a.var(axis=0, correction=0),
    lambda a: a.astype("float32", device="cpu"), lambda a: a.clip(a_min=0),
    lambda a: a.clip(0, a_max=1), lambda a: a.conj(out=a), lambda a: a.conjugate(out=a),
    lambda a: a.fill(value=1), lambda a: a.swapaxes(axis1=0, axis2=1),
    # what NumPy's methods take by keyword, whatever their text signatures say
    lambda a: a.take(indices=[0]), lambda a: a.repeat(repeats=2),
    lambda a: a.dot(b=a.T), lambda a: a.std(keepdims=True, where=a > 1),
    lambda a: a.clip(min=0, max=3), lambda a: a.astype(dtype="f4", copy=False),
])
def test_method_keywords_numpys_methods_refuse(call, eager_size):
    """ndarray's methods refuse some keywords the namespace functions take: `x.std(correction=)`
    (`_std()`'s TypeError), `x.astype(t, device=)`, `x.clip(a_min=)` (the ufunc's), `x.fill(
    value=)`, `x.swapaxes(axis1=...)`, `x.conj(out=)`. Array's methods are those functions: the
    keywords were taken."""
    b = np.arange(6.0).reshape(2, 3)
    _same(lambda xp: call(xp.asarray(b)), eager_size)


_VM = {"f4": np.array([[1.5, 2.25, -3.0], [4.0, 5.0, 6.0]], np.float32),
       "i8": np.array([[1, 2, 3], [4, 5, 6_000_000_000]]),
       "u8": np.array([[2**63, 1, 2], [3, 4, 5]], np.uint64),
       "b": np.array([[True, False, True], [False, False, True]]),
       "c8": np.array([[1 + 1j, 2, 3j], [4, 5, 6]], np.complex64)}


@BOTH
@pytest.mark.parametrize("name", ["var", "std", "nanstd"])
@pytest.mark.parametrize("kind,mean,dtype", [
    ("f4", np.array([[1], [2]]), None), ("f4", 1j, None), ("i8", 2, None), ("i8", 2, "f4"),
    ("u8", 2, None), ("b", 1j, None), ("c8", np.float32(1.5), "f4"), ("c8", 2, None)])
def test_var_with_mean_follows_numpys_steps(name, kind, mean, dtype, eager_size):
    """NumPy's var/std with `mean=`: `arr - mean` in the input's dtype promoted with the mean's,
    squared there (integer squares wrap, a complex mean of a real input gives complex), summed
    in dtype= (float64 for integers). The input was cast to float first: float32 less an int64
    mean was float32 (NumPy: float64), nanstd(2**63, mean=2) 9.2e18 (NumPy: 2.0), a bool input
    less 1j negative, a complex input with a real dtype= refused."""
    a = _VM[kind]
    _same(lambda xp: getattr(xp, name)(xp.asarray(a), axis=1, keepdims=True, mean=mean,
                                       dtype=dtype), eager_size)


@BOTH
@pytest.mark.parametrize("call", [
    lambda xp, x: xp.std(x[:1], mean=[1, 2]), lambda xp, x: x[:1].std(dtype="float16", mean=[1, 2]),
    lambda xp, x: xp.var(x.reshape(2, 1), axis=1, mean=np.zeros((2, 3))),
    lambda xp, x: xp.var(x.reshape(2, 1), axis=0, mean=np.zeros((3, 2, 3))),
    lambda xp, x: xp.var(x.reshape(2, 1), axis=-1, mean=np.zeros((3, 2, 3)), keepdims=True),
])
def test_var_with_a_broadcasting_mean(call, eager_size):
    """A `mean=` that broadcasts the input larger: NumPy sums the deviations over `axis` of
    their own shape (all of them for axis=None) and divides by the input's count; here only the
    input's axes were summed (`x1.std(mean=[1, 2])` was a (2,) array, NumPy's a scalar)."""
    x = np.array([1.5, 3.0], np.float16)
    _same(lambda xp: call(xp, xp.asarray(x)), eager_size)


@BOTH
@pytest.mark.parametrize("call", [
    lambda xp, f, i: xp.concatenate((1.5, f), axis=None),
    lambda xp, f, i: xp.concatenate((f, 2.5), axis=None),
    lambda xp, f, i: xp.concatenate((300, i), axis=None),  # (wraps into int8, as NumPy's)
    lambda xp, f, i: xp.concatenate((1j, f), axis=None),
    lambda xp, f, i: xp.concatenate((1.5, 2), axis=None),
    lambda xp, f, i: xp.concatenate(([1.5], f), axis=None),  # (a list is no weak scalar)
    lambda xp, f, i: xp.union1d(1.5, f), lambda xp, f, i: xp.union1d(1, i),
    lambda xp, f, i: xp.setxor1d(1.5, f), lambda xp, f, i: xp.setdiff1d(1.5, f),
])
def test_python_numbers_in_concatenate_are_weak(call, eager_size):
    """np.concatenate(..., axis=None) takes a Python number entry as weak (NEP 50), and so do
    union1d & co. (NumPy's, over it): `union1d(1.5, x32)` is float32. Here the number was an
    array of its default dtype first: float64, int64."""
    f, i = np.array([1, 2], np.float32), np.array([1, 2], np.int8)
    _same(lambda xp: call(xp, xp.asarray(f), xp.asarray(i)), eager_size)


@BOTH
@pytest.mark.parametrize("call", [
    lambda xp, a, o: xp.clip(a, 0, 1, out=(o["o"],)),
    lambda xp, a, o: a.clip(0, 1, out=(o["o"],)),
    lambda xp, a, o: xp.fft.fft(a, out=(o["oc"],)),
    lambda xp, a, o: xp.quantile(a, 0.5, axis=1, out=(o["o2"],)),  # (NumPy returns the tuple)
    lambda xp, a, o: xp.percentile(a, 50, axis=1, out=(o["o2"],)),
    lambda xp, a, o: xp.nanmax(a, axis=1, out=(o["o2"],)),
    lambda xp, a, o: xp.matmul(a, a.T, out=(o["o22"],)),
    lambda xp, a, o: xp.clip(a, 0, 1, out=(o["o2"],)),  # (NumPy's broadcast error)
    lambda xp, a, o: xp.clip(a, 0, 1, out=[o["o"]]),  # (NumPy's TypeError texts)
    lambda xp, a, o: xp.take(a, [0], out=(o["o1"],)),
])
def test_one_tuple_out_as_numpy_takes_it(call, eager_size):
    """`out=(y,)`: NumPy's ufunc-based functions take a 1-tuple of an array (clip, the FFTs,
    quantile's lerp, nanmax, matmul; quantile returns the tuple itself). lazyarray's `out=`
    rules (outputs.into) refused any tuple; fft handed it to NumPy ('output array is
    read-only'); take raised AttributeError."""
    def run(xp):
        o = {"o": xp.zeros((2, 3)), "oc": xp.zeros((2, 3), complex), "o2": xp.zeros(2),
             "o22": xp.zeros((2, 2)), "o1": xp.zeros(1)}
        r = call(xp, xp.asarray(np.arange(6.0).reshape(2, 3)), o)
        return type(r).__name__ == "tuple", np.asarray(r[0] if type(r) is tuple else r)
    _same(run, eager_size)


@BOTH
@pytest.mark.parametrize("obj,ndmax", [([[1, 2], [3, 4]], 1), ([[1, 2], [3, 4]], 2),
                                       ([[1, 2], [3, 4]], 0), ("array", 1), (5, 0),
                                       ([1.5, 2], 64), ([1, 2], 65), ([1, 2], -1)])
def test_array_ndmax(obj, ndmax, eager_size):
    """NumPy 2.4's `np.array(..., ndmax=n)`: a nested sequence read with at most n levels
    (NumPy's ValueError beyond), an array as it is, n checked; a TypeError here."""
    _same(lambda xp: xp.array(xp.ones((2, 3)) if obj == "array" else obj, ndmax=ndmax),
          eager_size)


def _warned(xp, fn, eager_size: int):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with la.config(eager_size=eager_size):
            value = np.asarray(fn(xp))
    return repr(value), sorted({f"{w.category.__name__}: {w.message}" for w in caught})


@BOTH
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.sum(a, dtype=np.int8), lambda xp, a: a.sum(axis=0, dtype=np.int64),
    lambda xp, a: xp.prod(a, dtype=np.int64), lambda xp, a: xp.mean(a, dtype=np.int64),
    lambda xp, a: xp.nansum(a, dtype=np.uint8), lambda xp, a: xp.add.reduce(a, dtype=np.int64),
    lambda xp, a: xp.sum(a, where=a > 0, dtype=np.int64),
    lambda xp, a: xp.cumsum(a, dtype=np.int32),  # (a scan's: 'cast', as NumPy's)
])
def test_reduction_cast_flags_name_reduce(call, eager_size):
    """A reduction's float operand cast into `dtype=` happens in NumPy's buffered reduce:
    `a.sum(axis=0, dtype=np.int64)` of a NaN warns 'invalid value encountered in reduce'; here
    it said 'in cast' (fuzz_programs seeds 500163, 510423, 510684)."""
    a = np.array([[np.inf, 1.0, np.nan], [2.0, 3.0, 4.0]])
    assert _warned(la, lambda xp: call(xp, xp.asarray(a)), eager_size) == \
        _warned(np, lambda xp: call(xp, a), eager_size)


@BOTH
@pytest.mark.parametrize("call", [
    lambda xp: xp.isposinf(xp.asarray(np.array([1 + 1j, np.inf]))),
    lambda xp: xp.isneginf(xp.asarray(np.array([-np.inf], np.complex64))),
    lambda xp: xp.poly([]), lambda xp: xp.poly([1, 2]),
    lambda xp: xp.cov(xp.asarray(np.arange(6.0).reshape(2, 3)), dtype="int64"),
    lambda xp: xp.corrcoef(3, dtype="uint8"), lambda xp: xp.cov([[1, 2, 4]], dtype=bool),
    lambda xp: xp.cov(xp.asarray(np.arange(6.0).reshape(2, 3)), dtype="float32"),
])
def test_numpy_host_routines_refusals_and_kinds(call, eager_size):
    """isposinf/isneginf of complex values: NumPy's TypeError (the complex order answered
    here); np.poly([]) is NumPy's Python float 1.0 (a 0-d array here); cov/corrcoef with an
    integer or bool dtype=: NumPy's casting error of its in-place `X -= avg` (float64 here)."""
    _same(call, eager_size)


@BOTH
@pytest.mark.parametrize("a,b,n", [((3,), (3,), 2), ((2, 2), (3,), 2), ((3,), (3, 3), 2),
                                   ((3, 3), (3, 3), 3), ((3,), (3,), -1), ((), (3,), 2),
                                   ((2, 3), (3, 2), 1), ((2, 3), (3, 2), 0)])
def test_tensordot_axes_count_as_numpy(a, b, n, eager_size):
    """tensordot(a, b, n): NumPy pairs a's axis -n + k with b's k in turn, an IndexError for a
    pair past either's axes, 'shape-mismatch' at the first unequal pair, no pairs for a
    negative n (an outer product). Here an n past either ndim or negative was a ValueError."""
    _same(lambda xp: xp.tensordot(xp.ones(a), xp.ones(b), n), eager_size)


@BOTH
@pytest.mark.parametrize("call", [
    lambda xp: xp.array(np.ones(3), dtype="f4", copy=False),
    lambda xp: xp.array(np.complex64(1 - 1j), dtype="uint8", copy=False),
    lambda xp: xp.array([1, 2], copy=False), lambda xp: xp.array(3.0, copy=False),
    lambda xp: xp.array(np.ones(3), copy=False),
])
def test_array_copy_false_needs_no_copy(call, eager_size):
    """NumPy 2's `np.array(x, copy=False)` is its asarray(copy=False): a ValueError where a copy
    is needed (a list, a scalar, another dtype). Only an Array's was checked here; a NumPy
    array, list or scalar was copied silently."""
    _same(call, eager_size)


@BOTH
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.isposinf(np.inf, out=xp.zeros(3, bool)),
    lambda xp, a: xp.clip(a[0], 0, 1, out=xp.zeros((2, 3))),
    lambda xp, a: xp.nanmedian(a[:1], out=xp.zeros((1, 3))),
    lambda xp, a: xp.quantile(a, 0.5, axis=1, out=xp.zeros((3, 2))),
    lambda xp, a: xp.matmul(a[0], a[1], out=xp.zeros(5)),
    lambda xp, a: xp.sum(a, axis=1, out=xp.zeros((3, 2))),  # (NumPy's error stays)
    lambda xp, a: xp.median(a, axis=1, out=xp.zeros((1, 2))),
])
def test_out_a_result_broadcasts_into(call, eager_size):
    """An `out=` of another shape NumPy takes (its ufunc-based functions broadcast the result
    into it: `np.isposinf(inf, out=o)`, `np.clip(x, 0, 1, out=larger)`): NumPy's values; here
    'output parameter has the wrong shape'. Where NumPy refuses, its error."""
    a = np.arange(6.0).reshape(2, 3)
    _same(lambda xp: np.asarray(call(xp, xp.asarray(a))), eager_size)


@BOTH
@pytest.mark.parametrize("name", ["cumsum", "cumprod", "nancumsum", "nancumprod"])
def test_scan_into_a_zero_d_out_raises_not_crashes(name, eager_size):
    """NumPy 2.4's accumulate crashes the interpreter on a 0-d out (`x.cumsum(out=np.zeros(()))`,
    a segmentation fault: fuzz_signatures seed 509150+), so NumPy cannot be the reference here;
    lazyarray's `out=` rules asked NumPy the same call on stand-ins and crashed with it. Now a
    ValueError (NumPy's text for an accumulation's out of the wrong size)."""
    x = la.asarray(np.arange(24.0).reshape(2, 3, 4)[..., ::2])
    with la.config(eager_size=eager_size), pytest.raises(
            ValueError, match="wrong size for the accumulation"):
        getattr(la, name)(x.T, out=la.zeros(()))


@BOTH
@pytest.mark.parametrize("call", [
    lambda xp, a12, a5: xp.choose(xp.asarray(np.zeros(8, int)), [a5, 1.5]),
    lambda xp, a12, a5: xp.select([a12 > 0], [a5]),
    lambda xp, a12, a5: xp.select([a12 > 0, a5 > 0], [1, 2]),
    lambda xp, a12, a5: xp.select([a12[:3] > 0], [1], a5[:4]),
])
def test_choose_select_broadcast_texts(call, eager_size):
    """np.choose/np.select of shapes that do not broadcast: NumPy's broadcast_arrays text
    ('shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg
    0 ...'), its args in NumPy's order; here the where chain's 'operands could not be
    broadcast together' (fuzz_scalars seeds 500032, 500084, 500185)."""
    _same(lambda xp: call(xp, xp.asarray(np.ones(12)), xp.asarray(np.ones(5))), eager_size)
