"""Regressions found by fuzz56 (tests/fuzz_signatures.py: every public name called the many
ways users do, keywords drawn by NumPy's parameter names). Each compares with NumPy, on plans
(`eager_size=0`: what the cupy backend always takes) and at the default (the at-once rule)."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

import lazyarray as la

BOTH = pytest.mark.parametrize("eager_size", [0, 4096])


@pytest.fixture(autouse=True)
def _on_each_backend(backend):
    """Every test on every backend (tests/conftest.py's `backend`): on C the instances are the
    exhaustive tier's (conftest EXHAUSTIVE_ON_C_MODULES: ~135 units of compiles)."""
    yield backend
_P = inspect.Parameter


def _get(module, name: str):
    for part in name.split("."):
        module = getattr(module, part)
    return module


def _common_functions() -> list[str]:
    """The functions (not ufuncs, not *args ones) both namespaces export."""
    names = [n for n in dir(np) if not n.startswith("_") and hasattr(la, n)]
    names += [f"{m}.{n}" for m in ("linalg", "fft") for n in dir(getattr(np, m))
              if not n.startswith("_") and hasattr(getattr(la, m), n)]
    out = []
    for n in names:
        f = _get(np, n)
        if callable(f) and not isinstance(f, (type, np.ufunc)):
            try:
                inspect.signature(f)
            except (TypeError, ValueError):
                continue
            out.append(n)
    return out


def _keyword_names(f, count: int = 2) -> list[tuple[int, str]]:
    """The leading parameters a caller may pass by NumPy's name (positional-or-keyword)."""
    params = list(inspect.signature(f).parameters.values())[:count]
    return [(k, p.name) for k, p in enumerate(params) if p.kind is _P.POSITIONAL_OR_KEYWORD]


# la.linalg.tensordot is la.tensordot (NumPy's a, b; linalg's x1, x2 are positional-only);
# clip's second parameter is the standard's `min` (NumPy's `a_min=` is taken as a keyword)
SAME_BY_POSITION = ("linalg.tensordot", "clip")


def test_leading_parameters_have_numpys_names():
    """`np.sum(a=x)`, `np.searchsorted(a, v=x)`, `np.linalg.inv(a=m)`, `np.eye(3, M=4)`: the
    names were the Array API's (x, x1, x2, n_rows), a TypeError for NumPy's keyword calls."""
    wrong = []
    for name in _common_functions():
        ours = list(inspect.signature(_get(la, name)).parameters.values())
        for k, pname in _keyword_names(_get(np, name)):
            if name in SAME_BY_POSITION or k >= len(ours) or ours[k].kind in (
                    _P.VAR_POSITIONAL, _P.VAR_KEYWORD):
                continue
            if ours[k].name != pname or ours[k].kind is _P.POSITIONAL_ONLY:
                if _numpy_takes_keyword(_get(np, name), pname):
                    wrong.append(f"{name}: {pname} (ours {ours[k]})")
    assert not wrong, wrong


def _numpy_takes_keyword(f, pname: str) -> bool:
    """Whether NumPy's `f` takes `pname` by keyword: some C functions' signatures say so where
    the call refuses it (np.unique_values(x=a): positional-only)."""
    try:
        f(**{pname: np.eye(2)})
    except TypeError as exc:
        return "positional-only" not in str(exc) and "unexpected keyword" not in str(exc)
    except Exception:  # noqa: BLE001  (other errors: the keyword was taken)
        return True
    return True


CALLS = [
    ("sum", (), {"a": [[1.0, 2.0], [3.0, 4.0]], "axis": 0}),
    ("mean", (), {"a": [1.0, 2.0, 4.0]}),
    ("searchsorted", ([1, 3, 5],), {"v": [2, 6]}),
    ("isin", (), {"element": [1, 2, 3], "test_elements": [2]}),
    ("eye", (3,), {"M": 4, "k": 1}),
    ("sort", (), {"a": [3, 1, 2]}),
    ("tensordot", (), {"a": np.ones((2, 3)), "b": np.ones((3, 2)), "axes": 1}),
    ("linalg.inv", (), {"a": [[2.0, 1.0], [1.0, 3.0]]}),
    ("linalg.solve", (), {"a": [[2.0, 1.0], [1.0, 3.0]], "b": [1.0, 2.0]}),
    ("fft.fft", (), {"a": [1.0, 2.0, 0.0, -1.0]}),
    ("swapaxes", (), {"a": np.ones((2, 3)), "axis1": 0, "axis2": 1}),
    ("take_along_axis", (), {"arr": np.array([[3, 1, 2]]), "indices": np.array([[1, 0, 2]]),
                         "axis": 1}),
    ("tile", (), {"A": [1, 2], "reps": 2}),
    ("broadcast_to", (), {"array": [1, 2], "shape": (2, 2)}),
]


@BOTH
@pytest.mark.parametrize("name,args,kwargs", CALLS, ids=[c[0] for c in CALLS])
def test_numpy_keyword_calls(name, args, kwargs, eager_size):
    want = _get(np, name)(*args, **kwargs)
    with la.config(eager_size=eager_size):
        got = np.asarray(_get(la, name)(*args, **kwargs))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12)


def _outcome(xp, text: str, eager_size: int):
    """The value (or the exception's type and text) and the warnings' texts of `text`."""
    env = {"np": xp, "numpy": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if xp is la:
                with la.config(eager_size=eager_size):
                    v = eval(text, env)
                    got = (repr(v), np.asarray(v).dtype)
            else:
                v = eval(text, env)
                got = (repr(v), np.asarray(v).dtype)
        except Exception as exc:  # noqa: BLE001
            got = (type(exc).__name__, str(exc).split("\n(at ")[0])
    return got, sorted({str(w.message) for w in caught})


def _check(text: str, eager_size: int) -> None:
    assert _outcome(la, text, eager_size) == _outcome(np, text, eager_size), text


@BOTH
@pytest.mark.parametrize("text", [
    "np.abs(True, dtype='int8')", "np.negative(True, dtype='int8')",
    "np.add(True, 2, dtype='float32')", "np.add(True, numpy.ones(2, 'int8'), dtype='int16')"])
def test_python_bool_operand_with_dtype(text, eager_size):
    """`np.abs(True, dtype='int8')`: a Python bool operand of a ufunc given dtype= raised an
    AttributeError ('bool' object has no attribute 'dtype')."""
    _check(text, eager_size)


INITIALS = ("numpy.inf", "float('nan')", "1e300", "1000.5", "-1.5", "2.0**63", "2.0**64",
            "numpy.float64(numpy.inf)", "numpy.float32(-2.5)", "numpy.float16(300)", "3.7")


@BOTH
@pytest.mark.parametrize("fn", ["sum", "prod", "max", "min", "nansum", "nanmax"])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "uint32", "uint64", "bool"])
def test_float_initial_of_integer_reductions(fn, dtype, eager_size):
    """`np.sum(ints, initial=np.inf)` is NumPy's OverflowError (a NaN its ValueError, 1000.5
    into int8 the int's out-of-bounds error): the cast gave INT_MIN and a RuntimeWarning, or
    wrapped."""
    for v in INITIALS:
        for kw in ("", ", axis=0", ", where=[True, False]"):
            _check(f"np.{fn}(numpy.array([1, 2], '{dtype}'), initial={v}{kw})", eager_size)


@BOTH
@pytest.mark.parametrize("text", [
    "np.max(numpy.array(2.0), axis=(0, 0), initial=3)", "np.min(2.0, axis=1, where=True, "
    "initial=3)", "np.max(numpy.array(2.0), axis=0, initial=3)", "np.max(numpy.array(2.0), "
    "axis=-1, initial=3)", "np.max(numpy.array(2.0), axis=(), initial=3)",
    "np.nanmax(float('inf'), axis=1, initial=numpy.inf)"])
def test_initial_of_a_0d_extreme_checks_the_axis(text, eager_size):
    """`np.max(2.0, axis=1, initial=3)`: NumPy's AxisError; the axis was not checked."""
    _check(text, eager_size)


@BOTH
@pytest.mark.parametrize("text", [
    "np.full((), 2**63, 'uint32')", "np.full((), 2**64, 'uint64')", "np.full((), 2**63, 'uint16')",
    "np.add(numpy.zeros(2, 'uint32'), 2**63)"])
def test_python_int_past_int64_into_uint32(text, eager_size):
    """NumPy converts a Python int for uint32 through a C unsigned long: past int64 it is the
    out-of-bounds error, not 'too large to convert to C long'."""
    _check(text, eager_size)


NAN_ROWS = "numpy.array([[1., numpy.nan], [numpy.nan, numpy.nan], [3., -numpy.inf]])"


@BOTH
@pytest.mark.parametrize("text", [
    f"np.nanmax({NAN_ROWS}, axis=1, initial=numpy.nan)",
    f"np.nanmin({NAN_ROWS}, axis=1, initial=numpy.nan)",
    f"np.nanmax({NAN_ROWS}, axis=0, initial=numpy.nan, where=[[True, False]])",
    f"np.nanmax({NAN_ROWS}[:, :0], axis=1, initial=numpy.nan)",
    f"np.nanmax({NAN_ROWS}, initial=numpy.float32('nan'))",
    f"np.nanmax({NAN_ROWS}, axis=1, initial=5.)",
    "np.nanmax([1., 2.], initial=numpy.nan)", "np.nanmax(numpy.array([1, 2]), initial=numpy.nan)"])
def test_nan_initial_of_nanmax_takes_no_part(text, eager_size):
    """`np.nanmax(a, axis=1, initial=np.nan)` is fmax.reduce's: each row's nanmax (NaN and the
    All-NaN warning for an all-NaN or empty row); every result was NaN."""
    _check(text, eager_size)


def _program_outcome(xp, text: str, eager_size: int):
    env = {"np": xp, "numpy": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with la.config(eager_size=eager_size) if xp is la else warnings.catch_warnings():
                exec(text, env)
                got = (type(env["r"]).__name__, [np.asarray(v).tolist() for v in env["r"]])
        except Exception as exc:  # noqa: BLE001
            got = (type(exc).__name__, str(exc).split("\n(at ")[0])
    return got, sorted({str(w.message) for w in caught})


BROADCAST = ("a = np.asarray(numpy.arange(3.)); b = np.asarray(numpy.ones((2, 3)))"
             "{}; x, y = np.broadcast_arrays(a, b); ")


@BOTH
@pytest.mark.parametrize("text", [
    BROADCAST.format("") + "y[0, 0] = 5; r = (x, y, a, b)",
    BROADCAST.format("") + "y += 1; r = (x, y, a, b)",
    BROADCAST.format("") + "a[0] = 9; b[1, 1] = 7; y[0, 2] = 3; r = (x, y, a, b)",
    BROADCAST.format("[:, ::-1]") + "y[0, 0] = 5; r = (x, y, a, b)",
    "r = np.broadcast_arrays()", "a = np.asarray(numpy.arange(3.)); r = np.broadcast_arrays(a, "
    "subok=True)"])
def test_broadcast_arrays_writes_and_arguments(text, eager_size):
    """A result of broadcast_arrays whose shape is its input's is NumPy's writable view of it
    (`y[0, 0] = 5` writes b; it raised 'read-only'); no arrays give NumPy's empty tuple (an
    IndexError); `subok=` is NumPy's keyword (a TypeError)."""
    assert _program_outcome(la, text, eager_size) == _program_outcome(np, text, eager_size)


NONE_INPUTS = ("numpy.array([1, 2])", "numpy.array([1., numpy.nan, 3.])", "numpy.array([])",
               "numpy.ones((2, 0))", "numpy.array([[1., 5.], [numpy.nan, 2.]])",
               "numpy.array(3.)", "(1, 2, 3)", "numpy.array([True, False])")


@BOTH
@pytest.mark.parametrize("fn", ["sum", "prod", "max", "min", "nansum", "nanmax"])
def test_initial_none_is_no_initial(fn, eager_size):
    """`np.sum(a, initial=None)`: NumPy's reduction from each slice's first element (no
    identity: an empty slice and `where=` are its ValueErrors); a float sum was NaN (None filled
    as NaN) and an integer one a TypeError."""
    for a in NONE_INPUTS:
        for kw in ("", ", axis=0", ", keepdims=True", ", where=True"):
            _check(f"np.{fn}({a}, initial=None{kw})", eager_size)
    _check(f"np.{fn}(numpy.array([[1., 5.], [3., 2.]]), initial=None, where=[[True, False]])",
           eager_size)


@BOTH
@pytest.mark.parametrize("text", [
    "np.squeeze(2, axis=numpy.int64(0))", "np.squeeze(numpy.array(2), axis=0)",
    "np.squeeze(numpy.array(2), axis=-1)", "np.squeeze(numpy.array(2), axis=1)",
    "np.squeeze(numpy.array(2), axis=(0,))"])
def test_squeeze_of_a_0d_array_takes_axis_0(text, eager_size):
    """`np.squeeze(np.array(2), axis=0)`: NumPy takes axis 0 or -1 of a 0-d array (AxisError)."""
    _check(text, eager_size)


@BOTH
@pytest.mark.parametrize("text", [
    "np.histogramdd([1, 2, 3])", "np.histogramdd((1.5, 2, 3), bins=3)", "np.histogramdd([])",
    "np.histogramdd(numpy.array(1.))", "np.histogramdd([[1, 2], [3, 4]])"])
def test_histogramdd_of_a_sequence_of_scalars(text, eager_size):
    """`np.histogramdd([1, 2, 3])` is three points in 1-D (NumPy's atleast_2d(sample).T): it
    was one point in 3-D, a silently different histogram."""
    _check(text, eager_size)


@BOTH
@pytest.mark.parametrize("text", [
    "np.linalg.pinv(numpy.zeros((0, 2), 'int16'))", "np.linalg.pinv(numpy.zeros((3, 2, 0), "
    "'int8'))", "np.linalg.pinv(numpy.zeros((0, 3), 'float16'))"])
def test_pinv_of_empty_keeps_the_dtype(text, eager_size):
    """NumPy's pinv of an empty matrix is an empty array of the input's dtype (it was float64)."""
    _check(text, eager_size)


@pytest.mark.parametrize("name,args", [("svd", ()), ("svdvals", ()), ("pinv", ()),
                                       ("matrix_rank", ()), ("cond", ()), ("lstsq", ("B",))])
def test_svd_family_raises_at_a_try_blocks_line(name, args):
    """NaN input: NumPy's LinAlgError('SVD did not converge') at the call, where a try block
    catches it; on plans (the GPU's path) it surfaced at a later read, as inv's did before
    lazyarray/_linalg_calls._checked."""
    a = np.array([[np.nan, 1.0], [2.0, 3.0]])
    with pytest.raises(np.linalg.LinAlgError) as want:
        getattr(np.linalg, name)(a, *[a for _ in args])
    got = None
    with la.config(eager_size=0):
        x = la.asarray(a)
        try:
            getattr(la.linalg, name)(x, *[x for _ in args])
        except np.linalg.LinAlgError as exc:
            got = exc
    assert got is not None and str(got).split("\n")[0] == str(want.value)


@BOTH
@pytest.mark.parametrize("text", [
    "np.around([-1, 0, 1], decimals=1, out=np.asarray(numpy.zeros(3, 'int64')))",
    "np.around(numpy.array([1.25, 2.5]), 1, np.asarray(numpy.zeros(2, 'float32')))",
    "np.around(numpy.array([1.25, 2.5]), 1, out=np.asarray(numpy.zeros(2, 'int8')))",
    "np.around(numpy.array([1.25, 2.5]), out=np.asarray(numpy.zeros(3)))"])
def test_around_writes_out(text, eager_size):
    """`np.around(x, 1, out=y)` is round's (NumPy's same function): it was refused here."""
    _check(text, eager_size)


@BOTH
@pytest.mark.parametrize("text", [
    "np.partition(numpy.ones(3), 1, order='K')", "np.argpartition(numpy.ones(3), 1, order=[])",
    "np.asarray(numpy.ones(3)).argpartition(1, order='x')",
    "np.partition(numpy.ones(3), 1, kind=None)", "np.argpartition(numpy.ones(3), 1, kind=3)",
    "np.partition(numpy.ones(3), 1, kind='bogus', order=1)",
    "np.partition(numpy.array(3.), 0, axis=(0,))",
    "np.frexp(numpy.ones(3), out=np.asarray(numpy.ones(3)))",
    "np.modf(numpy.ones(3), out=[np.asarray(numpy.ones(3))] * 2)",
    "np.frexp(numpy.ones(3), out=(np.asarray(numpy.ones(3)),))",
    "np.sin(numpy.ones(3), out=(np.asarray(numpy.ones(3)),) * 2)"])
def test_partition_and_out_tuple_errors(text, eager_size):
    """NumPy's errors, type and text: partition's `order=` of an array without fields (it was
    ignored: a silent result), a kind that is no str (TypeError, not ValueError), a tuple axis of
    a 0-d array (TypeError, not AxisError); a two-output ufunc's out= that is no tuple
    (TypeError, not ValueError) and the out tuple's length text."""
    _check(text, eager_size)


@BOTH
@pytest.mark.parametrize("text", ["np.sort(numpy.array(3.), axis=(0,))",
                                  "np.argsort(numpy.array(3.), axis=())"])
def test_sort_of_0d_with_a_tuple_axis(text, eager_size):
    """NumPy's TypeError (a tuple is no integer axis); it was an AxisError here."""
    assert _outcome(la, text, eager_size)[0][0] == _outcome(np, text, eager_size)[0][0]


@pytest.mark.parametrize("name,kwargs", [("unique_values", {"x": [1, 2]}),
                                         ("unique_counts", {"x": [1, 2]}),
                                         ("reshape", {"a": [1, 2], "shape": (2, 1)})])
def test_numpy_positional_only_parameters(name, kwargs):
    """NumPy's positional-only parameters (its C functions' signatures hide the `/`): a keyword
    call is its TypeError, not a result."""
    with pytest.raises(TypeError, match="positional-only"):
        getattr(np, name)(**kwargs)
    with pytest.raises(TypeError, match="positional-only"):
        getattr(la, name)(**kwargs)


INFS = "numpy.array([1., numpy.inf, -numpy.inf, numpy.nan])"


@BOTH
@pytest.mark.parametrize("text", [
    f"np.isposinf({INFS}, out=np.asarray(numpy.zeros(4, 'int8')))",
    f"np.isneginf({INFS}, np.asarray(numpy.zeros(4, bool)))",
    f"np.isposinf({INFS}, out=np.asarray(numpy.zeros(3, bool)))",
    "np.fft.fftn(1)", "np.fft.ifftn(numpy.array(2.5))", "np.fft.fftn(numpy.ones(3), axes=())",
    "np.fft.ifftn(numpy.ones((2, 2)), axes=[])", "np.fft.fftn(numpy.array(1, 'float16'))"])
def test_isposinf_out_and_fftn_over_no_axes(text, eager_size):
    """`np.isposinf(x, out=y)` is NumPy's (a TypeError here); `np.fft.fftn` over no axes (a 0-d
    input, axes=()) is the input itself in its dtype (it was cast to complex)."""
    _check(text, eager_size)


@BOTH
@pytest.mark.parametrize("text", [
    "np.linalg.cross(numpy.arange(12.).reshape(3, 4), [1, 0, 1], axis=0)",
    "np.linalg.cross(numpy.arange(18.).reshape(3, 2, 3), numpy.arange(3.) - 1, axis=0)",
    "np.linalg.cross(numpy.arange(24.).reshape(2, 3, 4), numpy.arange(12.).reshape(3, 4) ** 2, "
    "axis=-2)", "np.linalg.cross(numpy.ones((3, 4)), numpy.ones(3))",
    "np.linalg.cross(numpy.ones((3,)), numpy.ones((2, 3)), axis=0)"])
def test_linalg_cross_moves_the_axis_first(text, eager_size):
    """NumPy's linalg.cross is np.cross(x1, x2, axis=axis): each input's vectors' axis moved
    last, then the rest broadcast (`cross(A (3, 4), v (3,), axis=0)` was a broadcast error
    here), and its size check's text."""
    _check(text, eager_size)


@BOTH
@pytest.mark.parametrize("text", [
    "np.asanyarray([1, 2], copy=None)", "np.asanyarray([1, 2], copy=False)",
    "np.asanyarray(numpy.ones(2), device='cpu')", "np.broadcast_to([1, 2], (2, 2), subok=True)"])
def test_numpy_keywords_of_asanyarray_and_broadcast_to(text, eager_size):
    """NumPy's `copy=`/`device=` of asanyarray and `subok=` of broadcast_to (TypeErrors here)."""
    _check(text, eager_size)


@BOTH
@pytest.mark.parametrize("text", [
    "np.average(numpy.ones(3), returned=True)", "np.average([1, 2.5, 3j], returned=True)",
    "np.average(numpy.ones((2, 3)), axis=0, returned=True)"])
def test_average_returned_count_is_numpys_scalar(text, eager_size):
    """`np.average(a, returned=True)`'s count is NumPy's scalar where the average is one (a 0-d
    array here)."""
    _check(text, eager_size)


INPLACE_CAST = [
    "a = np.asarray(numpy.arange(5)); a[1:] /= 0", "a = np.asarray(numpy.arange(5)); b = a[1:]; "
    "b /= 0", "a = np.asarray(numpy.arange(5, dtype=numpy.int8)); a[1:] /= np.asarray("
    "numpy.zeros(4))", "a = np.asarray(numpy.ones(5, bool)); a[1:] /= 0",
    "a = np.asarray(numpy.arange(5)); a[1:] %= 0.0", "a = np.asarray(numpy.arange(5)); "
    "t = a[1]; t /= 0; a = t", "a = np.asarray(numpy.arange(5.)); a[1:] /= 0",
    "a = np.asarray(numpy.arange(5)); a[1:] /= [1, 2, 3, 4]"]


@BOTH
@pytest.mark.parametrize("text", INPLACE_CAST)
def test_inplace_cast_error_before_computing(text, eager_size):
    """`int_array[1:] /= 0`: NumPy raises its UFuncTypeError before it computes, so no 'divide
    by zero' RuntimeWarning first (the view's quotient was computed at once; fuzz55's left
    class). An element (`t = a[1]; t /= 0`) is NumPy's scalar: `t = t / 0`."""
    outcome = []
    for xp in (np, la):
        env = {"np": xp, "numpy": np}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                with la.config(eager_size=eager_size):
                    exec(text, env)
                    got = repr(np.asarray(env["a"]))
            except Exception as exc:  # noqa: BLE001
                got = (type(exc).__name__, str(exc).split("\n(at ")[0])
        outcome.append((got, sorted({str(w.message) for w in caught})))
    assert outcome[0] == outcome[1]


@BOTH
@pytest.mark.parametrize("text", [
    "np.negative(numpy.array(5, 'uint64'), out=np.asarray(numpy.zeros(2, 'int8')))",
    "np.negative(numpy.array(5, 'uint64'), out=np.asarray(numpy.zeros((2, 0), 'int8')))",
    "np.add(numpy.array(2**63, 'uint64'), 0, out=np.asarray(numpy.zeros(1, 'int64')))",
    "np.add(numpy.array(200, 'uint8'), 100, out=np.asarray(numpy.zeros(3, 'int8')), "
    "casting='unsafe')"])
def test_0d_ufunc_result_into_out_is_an_array_cast(text, eager_size):
    """A ufunc's 0-d result written into a wider out= of another integer dtype is NumPy's loop
    cast (wraps): it was packed as a scalar, `np.negative(uint64(5), out=int8s)` an
    OverflowError."""
    _check(text, eager_size)


ONES = "np.asarray(numpy.ones((2, 3)))"


@BOTH
@pytest.mark.parametrize("text", [
    f"{ONES}.flatten([0])", f"{ONES}.flatten(numpy.int64(0))", f"np.ravel({ONES}, order=1)",
    f"{ONES}.astype(float, order=1)", f"np.add({ONES}, 1, order=1)", "np.zeros(3, order=1)",
    f"{ONES}.flatten(None)", f"np.zeros(2, like={ONES})", "np.zeros(2, like=numpy.ones(1))",
    "np.ones(2, like=[1])", "np.arange(3, like=1)", f"np.asarray([1, 2], like={ONES})",
    "np.array([1, 2], like=3)", f"np.eye(2, like={ONES})", "np.identity(2, like=1)",
    "np.empty(2, like=1)", f"np.ascontiguousarray({ONES}, like=1)", "np.full(2, 1.5, like=1)"])
def test_order_type_and_like_keyword(text, eager_size):
    """An `order=` that is no str is NumPy's TypeError ('order must be str, not int'; a
    ValueError here, from the one shared check); `like=` is NumPy's keyword of the creation
    functions (a TypeError of their own here, also through NumPy's dispatch
    `np.zeros(2, like=an_Array)`), an object without `__array_function__` its TypeError."""
    _check(text, eager_size)


def test_numpy_dispatches_like_to_lazyarray():
    """`np.zeros(3, like=x)` with x an Array: NumPy hands the call to lazyarray (its
    `__array_function__`), which refused `like=`."""
    x = la.asarray(np.ones(2))
    got = np.zeros(3, like=x)
    assert isinstance(got, la.Array) and np.asarray(got).tolist() == [0.0] * 3


@BOTH
@pytest.mark.parametrize("text", [
    f"np.transpose({ONES}, axes=1)", "np.transpose(np.asarray(numpy.arange(3)), 0)",
    "np.transpose(np.asarray(numpy.arange(3)), numpy.int64(-1))", f"{ONES}.transpose(1)",
    "np.einsum()", "np.einsum(out=np.asarray(numpy.zeros(())))"])
def test_transpose_int_axes_and_empty_einsum(text, eager_size):
    """`np.transpose(a, 0)` reads one int as a 1-tuple (a TypeError here: not iterable; NumPy's
    "axes don't match array" for a 2-D one); `np.einsum()` is NumPy's ValueError."""
    _check(text, eager_size)


M23 = "numpy.arange(6.).reshape(2, 3)"


@BOTH
@pytest.mark.parametrize("text", [
    f"np.vecdot({M23}, {M23}, out=np.asarray(numpy.zeros(2)))",
    f"np.vecdot({M23}, {M23}, np.asarray(numpy.zeros(2, 'float32')))",
    f"np.vecdot({M23}, {M23}, out=np.asarray(numpy.zeros(2, 'int8')))",
    f"np.vecdot({M23}, {M23}, axis=0, out=np.asarray(numpy.zeros(3)))",
    f"np.matvec({M23}, numpy.ones(3), out=np.asarray(numpy.zeros(2)))",
    f"np.vecmat(numpy.ones(2), {M23}, np.asarray(numpy.zeros(3)))"])
def test_vecdot_matvec_vecmat_out(text, eager_size):
    """NumPy's vecdot/matvec/vecmat are ufuncs: `out=` (also positional, third) is written with
    their casting rule; it was a TypeError here (vecdot's third positional was `axis`)."""
    _check(text, eager_size)


@BOTH
@pytest.mark.parametrize("text", [
    "np.choose(numpy.array([0, 1], 'uint64'), [[1, 2], [3, 4]])",
    "np.choose(numpy.array([0., 1.], 'float32'), [[1, 2], [3, 4]])",
    "np.choose(numpy.array([0, 1], 'uint32'), [[1, 2], [3, 4]])"])
def test_choose_index_dtype_is_cast_safe(text, eager_size):
    """np.choose casts its indices to intp under 'safe': uint64 is NumPy's TypeError (it was
    taken), and the text names the dtype (it said float64 for a float32)."""
    _check(text, eager_size)


@pytest.mark.parametrize("fn", ["fftfreq", "rfftfreq"])
def test_fftfreq_device_is_checked(fn):
    """`np.fft.fftfreq(8, device='x')` is NumPy's ValueError (an unknown device; it was
    ignored); 'cpu' is the host."""
    with pytest.raises(ValueError):
        getattr(np.fft, fn)(8, device="x")
    with pytest.raises(ValueError):
        getattr(la.fft, fn)(8, device="x")
    np.testing.assert_array_equal(getattr(la.fft, fn)(8, 2, "cpu"), getattr(np.fft, fn)(8, 2))


@BOTH
@pytest.mark.parametrize("text", ["np.matrix_transpose(numpy.ones(3))",
                                  "np.linalg.matrix_transpose(numpy.array(1.))",
                                  "np.asarray(numpy.ones(3)).mT"])
def test_matrix_transpose_texts(text, eager_size):
    """NumPy's texts for a matrix transpose of fewer than 2 dimensions (the function's and the
    `mT` property's differ)."""
    _check(text, eager_size)


@BOTH
@pytest.mark.parametrize("text", [
    "np.logical_xor((1, 2, 3), [1.5, -2.0, 3.], where=np.asarray(numpy.ones((2, 0), bool)))",
    "np.fmod(numpy.ones((1, 4)), numpy.ones((1, 4)), where=numpy.ones(5, bool))",
    "np.copysign(3, numpy.ones((2, 3, 2)), where=numpy.ones((3, 4), bool), dtype=float, "
    "out=np.asarray(numpy.zeros((2, 3, 2))))",
    "np.arccosh([1, 2, 3], out=(np.asarray(numpy.zeros((3, 4), 'float32')),), "
    "where=numpy.ones((3, 4), bool))",
    "np.add(numpy.ones((2, 3)), 1, where=[True, False, True], out=np.asarray(numpy.zeros((2, "
    "3))))"])
def test_where_broadcast_error_lists_numpys_shapes(text, eager_size):
    """A where= mask that does not broadcast: NumPy's text lists the inputs', the outputs' and
    then the mask's shapes (the mask's select listed it first, with its fill's `()`). (NumPy's
    where-without-out UserWarning is not given here: the masked-out values are zeros.)"""
    assert _outcome(la, text, eager_size)[0] == _outcome(np, text, eager_size)[0]
