"""Idioms of published NumPy programs (probe48: NumPy's quickstart and user guide, Project-Euler
style integer code; probe49: image processing, automata, Monte Carlo, printing, text I/O, dtype
conversions; probe50: Rougier's 100 exercises and From Python to NumPy, the Python Data Science
Handbook's chapter 2, numpy.org's tutorials, the SciPy lecture notes; probe51: NumPy's
reference examples, SciPy Cookbook and Numerical Recipes ports) that lazyarray answered
differently from NumPy, each against NumPy."""

import pickle
import warnings

import numpy as np
import pytest

import lazyarray as la


def test_a_range_indexes_as_numpys_integer_array(reference_backend):
    """NumPy takes a `range` (a non-tuple sequence) as an integer index array: the quickstart's
    `data[ind, range(data.shape[1])]`. lazyarray raised 'only integers, slices ...'."""
    host = np.sin(np.arange(20.0)).reshape(5, 4)
    ind = host.argmax(axis=0)
    x = la.asarray(host)
    for key in (range(3), (ind, range(4)), (1, range(1, 4, 2)), (range(4, -1, -2), slice(1, None)),
                range(0), (Ellipsis, range(2))):
        got, want = x[key], host[key]
        assert got.shape == want.shape and got.dtype == want.dtype, key
        np.testing.assert_array_equal(np.asarray(got), want)
    ours, theirs = la.asarray(host), host.copy()
    ours[range(2)] = -1.0
    theirs[range(2)] = -1.0
    ours[4, range(0, 4, 3)] += 10
    theirs[4, range(0, 4, 3)] += 10
    np.testing.assert_array_equal(np.asarray(ours), theirs)
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 5"):
        x[range(6)]


def test_errstate_and_seterr_govern_numpys_own_scalars():
    """`la.int64` is NumPy's type: `np.int64(2**62) * 4` under `with np.errstate(over='raise')`
    is NumPy's scalar arithmetic, which warned where NumPy raises; `np.float64(3) / 0` under
    errstate(divide='ignore') warned where NumPy is silent."""
    before = np.geterr()
    with la.errstate(over="raise"):
        with pytest.raises(FloatingPointError, match="overflow encountered in scalar multiply"):
            la.int64(2 ** 62) * 4
    with la.errstate(divide="ignore"):
        with np.testing.assert_no_warnings():
            assert la.float64(3.0) / 0 == np.inf
    assert np.geterr() == before
    old = la.seterr(divide="raise")
    try:
        with pytest.raises(FloatingPointError, match="divide by zero"):
            np.float64(1.0) / 0
    finally:
        la.seterr(**old)
    assert np.geterr() == before


def test_several_boolean_masks_are_numpys_nonzero_index_arrays(reference_backend):
    """NumPy's quickstart indexes `a[b1, b2]` with two masks: each becomes its nonzero()'s integer
    arrays, broadcast together (a read and a write). lazyarray refused any second mask."""
    host = np.arange(24).reshape(2, 3, 4)
    b1, b2 = np.array([False, True]), np.array([True, False, True])
    b3 = np.array([1, 0, 0, 1], bool)
    x = la.asarray(host)
    for key in ((b1, b2), (b1, b2, b3[::-1]), (b1, ..., b3), (slice(None), b2, [0, 3]),
                (b1, la.asarray(b2)), (b1, np.zeros(3, bool))):
        got, want = x[key], host[key]
        assert got.shape == want.shape and got.dtype == want.dtype, key
        np.testing.assert_array_equal(np.asarray(got), want)
    ours, theirs = la.asarray(host), host.copy()
    ours[b1, b2] = -5
    theirs[b1, b2] = -5
    ours[:, b2, b3] += 100
    theirs[:, b2, b3] += 100
    np.testing.assert_array_equal(np.asarray(ours), theirs)
    with pytest.raises(IndexError, match="along axis 2; size of axis is 4 but size of "
                       "corresponding boolean axis is 3"):
        x[b1, b2, b2]


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_python_scalar_written_by_computed_index_arrays_builds_no_node(backend):
    """A sudoku solver's `used[S[r]] = True` (a bool into a bool buffer by a row of a computed
    array): NumPy's `data[key] = value` at once, as a float into float64 was (eager.
    write_indexed); it took the general path's scatter, 62 us a write (NumPy 0.3). Values NumPy
    stores without a warning: a bool, an int in range, an int's truth, a float into float32."""
    from lazyarray.graph.node import built_count
    grid = np.random.default_rng(3).integers(0, 10, (9, 9))
    for dtype, value in ((bool, True), (bool, 0), (np.int8, -7), (np.uint16, 300),
                         (np.float32, 0.1), (np.float32, 2), (np.int64, True)):
        want, S = np.zeros(10, dtype), la.asarray(grid)
        used = la.zeros(10, dtype)
        used[0] = 1  # (a buffer of its own)
        want[0] = 1
        for r in range(9):
            row = S[r]
            nodes = built_count()
            used[row] = value
            want[grid[r]] = value
            assert built_count() == nodes, (dtype, value)
        got = np.asarray(used)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    out = la.zeros(4, np.int8)
    out[0] = 1
    with pytest.raises(OverflowError):  # NumPy's error, at the line (the general path)
        out[la.asarray(np.array([1, 2]))] = 300


def test_polyfit_cov_and_average_of_zero_weights_are_numpys(reference_backend):
    """`np.polyfit(x, y, 1, cov=True)` (curve-fitting tutorials) raised NotImplementedError;
    `np.average(a, weights=w)` with weights summing to 0 gave NaN and a warning where NumPy
    raises ZeroDivisionError."""
    x = np.linspace(0, 1, 11)
    y = 1 + 2 * x - 3 * x ** 2 + 0.01 * np.cos(17 * x)
    y2 = np.stack([y, 2 * y], axis=1)
    for args, kwargs in (((x, y, 1), {"cov": True}), ((x, y, 2), {"cov": "unscaled"}),
                         ((x, y2, 1), {"cov": True}), ((x, y, 2), {"cov": True, "w": x + 1})):
        got, want = la.polyfit(*args, **kwargs), np.polyfit(*args, **kwargs)
        for g, e in zip(got, want):
            assert g.shape == e.shape and g.dtype == e.dtype
            np.testing.assert_allclose(np.asarray(g), e, rtol=1e-12, atol=1e-15)
    with pytest.raises(ValueError, match="must exceed order to scale the covariance"):
        la.polyfit(x[:3], y[:3], 2, cov=True)
    data = np.arange(6.0).reshape(3, 2)
    for kwargs in ({"weights": [0, 0, 0], "axis": 0}, {"weights": [1, -1], "axis": 1},
                   {"weights": la.asarray([[1.0, -1.0], [0, 0], [0, 0]])}):
        with pytest.raises(ZeroDivisionError, match="Weights sum to zero, can't be normalized"):
            la.average(la.asarray(data), **kwargs)
    got = la.average(la.asarray(data), weights=[1, 2, 3], axis=0, returned=True)
    for g, e in zip(got, np.average(data, weights=[1, 2, 3], axis=0, returned=True)):
        np.testing.assert_array_equal(np.asarray(g), e)


def test_generalized_ufuncs_describe_themselves_as_numpys():
    """The user guide's `np.matmul.nin, .nout, .signature` (AttributeError: matmul, vecdot,
    matvec and vecmat are functions here, having no reduce/outer)."""
    for name in ("matmul", "vecdot", "matvec", "vecmat"):
        ours, theirs = getattr(la, name), getattr(np, name)
        for attr in ("nin", "nout", "nargs", "ntypes", "types", "identity", "signature"):
            assert getattr(ours, attr) == getattr(theirs, attr), (name, attr)


def test_can_cast_rules_and_unsupported_loops_speak_numpys_text():
    """The user guide's `np.can_cast(np.float64, np.float32, 'same_kind')` (a TypeError: the
    Array API signature took two arguments), and NumPy's resolver text for a loop it has not
    (`-bool_array`: lazyarray said 'negative is not supported for input types (bool)')."""
    for rule in ("no", "equiv", "safe", "same_kind", "unsafe"):
        for a, b in ((np.float64, np.float32), (np.int8, np.uint8), (np.int32, np.int64)):
            assert la.can_cast(a, b, rule) == np.can_cast(a, b, rule), (a, b, rule)
            assert la.can_cast(la.zeros(1, a), b, casting=rule) == np.can_cast(np.zeros(1, a), b,
                                                                                casting=rule)
    with pytest.raises(ValueError, match="casting must be one of"):
        la.can_cast(la.float64, la.float32, "bogus")
    flags, reals = np.array([True, False]), np.array([1.5])
    for fn in (lambda m, b, f: -b, lambda m, b, f: b - b, lambda m, b, f: m.subtract(True, b),
               lambda m, b, f: f & f, lambda m, b, f: ~f, lambda m, b, f: f << 1):
        with pytest.raises(TypeError) as theirs:
            fn(np, flags, reals)
        with pytest.raises(TypeError) as ours:
            fn(la, la.asarray(flags), la.asarray(reals))
        assert str(ours.value) == str(theirs.value)


def test_a_comparison_with_a_string_is_numpys_elementwise_answer(reference_backend):
    """`labels == 'cat'` of a numeric array is NumPy 2's all-False array (`!=` all True); the
    reflected method's NotImplemented left Python to answer one bool, False: silently another
    type. A 0-d operand's answer is NumPy's scalar; a NumPy scalar compared with None, Python's
    bool (as NumPy leaves it to Python)."""
    host = np.arange(6.0).reshape(2, 3)
    for other in ("cat", b"x", "", np.str_("a")):
        for ours, theirs in ((la.asarray(host) == other, host == other),
                             (la.asarray(host) != other, host != other),
                             (other == la.asarray(host), other == host)):
            assert type(ours) is la.Array and ours.dtype == theirs.dtype
            np.testing.assert_array_equal(np.asarray(ours), theirs)
    x, ref = la.arange(3), np.arange(3)
    for ours, theirs in ((x[1] == "a", ref[1] == "a"), (x[1] == None, ref[1] == None),  # noqa: E711
                         (x[1] != None, ref[1] != None),  # noqa: E711
                         (la.asarray(3) == "a", np.asarray(3) == "a"),
                         (la.asarray(3) == None, np.asarray(3) == None)):  # noqa: E711
        assert repr(ours) == repr(theirs)


def test_an_nd_transform_given_s_without_axes_warns_numpys_deprecation():
    """`np.fft.irfftn(np.fft.rfftn(vol), vol.shape)` warns NumPy 2's DeprecationWarning (s
    without axes) at the user's line; lazyarray was silent. fft2's default axes do not warn."""
    vol = np.arange(24.0).reshape(2, 3, 4)
    for fn, s in (("fftn", (2, 4)), ("ifftn", (3,)), ("rfftn", (3, 4)), ("irfftn", vol.shape)):
        with pytest.warns(DeprecationWarning, match="`axes` should not be `None` if `s`") as got:
            ours = getattr(la.fft, fn)(la.asarray(vol), s)
        assert got[0].filename == __file__
        with pytest.warns(DeprecationWarning):
            theirs = getattr(np.fft, fn)(vol, s)
        assert ours.shape == theirs.shape
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        la.fft.fft2(la.asarray(vol), s=(2, 2))
        la.fft.fftn(la.asarray(vol), s=(2,), axes=(0,))


def test_an_operator_with_a_string_raises_numpys_error(reference_backend):
    """`np.arange(3) + 'a'` is NumPy's UFuncTypeError ("ufunc 'add' did not contain a loop
    ..."); lazyarray left the operator to Python ("unsupported operand type(s) for +")."""
    host, ours = np.arange(3), la.arange(3)
    for fn in (lambda a: a + "a", lambda a: "a" + a, lambda a: a - "x", lambda a: a * "x",
               lambda a: a / b"x", lambda a: a < "a", lambda a: "a" <= a, lambda a: a ** "2",
               lambda a: a // "x", lambda a: a & "1", lambda a: a @ "x"):
        with pytest.raises(TypeError) as theirs:
            fn(host)
        with pytest.raises(TypeError) as got:
            fn(ours)
        assert type(got.value) is type(theirs.value) and str(got.value) == str(theirs.value)
    count = la.bincount(la.asarray([1, 1, 2]))[1]  # NumPy's scalar: Python repeats the string
    assert "*" * count == count * "*" == "**" and f"{'#' * la.arange(4).sum()}" == "#" * 6


def test_take_by_host_indices_out_of_bounds_raises_at_the_line_on_every_path():
    """`np.take(np.arange(3), [5])` raised NumPy's IndexError at the call only on the at-once
    path; with it off (eager_size=0, the CuPy path) the error came when the result was read."""
    with la.config(eager_size=0):
        for indices in ([5], np.array([0, -4]), (1, 3)):
            with pytest.raises(IndexError, match="out of bounds for axis 0 with size 3"):
                la.take(la.arange(3), indices)
        with pytest.raises(IndexError, match="index 2 is out of bounds for axis 1 with size 2"):
            la.take(la.ones((2, 2)), [0, 2], axis=1)
        np.testing.assert_array_equal(np.asarray(la.take(la.arange(3), [2, -3])), [2, 0])


def test_a_ufunc_of_two_python_numbers_reports_as_numpys_ufunc(backend):
    """`np.divide(1, 0)` (tutorials on floating-point errors): NumPy makes both numbers 0-d
    arrays, so its warning says 'divide by zero encountered in divide'; lazyarray's report named
    NumPy's scalar math ('... in scalar divide'), which only an operator on NumPy's scalars runs
    (`x.sum() / 0` still says so; `np.divide(x.sum(), 0)`, NumPy's 'divide', still does too)."""
    calls = (lambda m: m.divide(1, 0), lambda m: m.true_divide(0.0, 0),
             lambda m: m.power(10.0, 400), lambda m: m.floor_divide(1, 0),
             lambda m: m.multiply(1e200, 1e200), lambda m: m.arange(3.0).sum() / 0)
    for call in calls:
        with warnings.catch_warnings(record=True) as theirs:
            warnings.simplefilter("always")
            want = call(np)
        with warnings.catch_warnings(record=True) as ours:
            warnings.simplefilter("always")
            got = str(call(la))
        assert got == str(want)
        assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]


def test_names_numpy_2_removed_raise_numpys_attribute_error():
    """Programs written for NumPy 1 (`np.float_`, `np.NaN`, `np.float`, `np.product`'s
    neighbours) stop with NumPy 2's text saying what to use; lazyarray's said only "has no
    attribute". `np.row_stack` (deprecated, still in NumPy 2.4) is vstack with NumPy's warning."""
    for name in ("float_", "NaN", "Inf", "alltrue", "complex_", "mat", "round_", "infty",
                 "find_common_type", "float", "int", "object", "str", "bytes", "product"):
        with warnings.catch_warnings(record=True) as theirs:
            warnings.simplefilter("always")
            with pytest.raises(AttributeError) as want:
                getattr(np, name)
        with warnings.catch_warnings(record=True) as ours:
            warnings.simplefilter("always")
            with pytest.raises(AttributeError) as got:
                getattr(la, name)
        assert str(got.value) == str(want.value).replace("'numpy'", "'lazyarray'"), name
        assert [(w.category, str(w.message)) for w in ours] == [
            (w.category, str(w.message)) for w in theirs], name
    with pytest.warns(DeprecationWarning, match="`row_stack` alias is deprecated") as got:
        stacked = la.row_stack([la.arange(2), [5, 6]])
    assert got[0].filename == __file__
    with pytest.warns(DeprecationWarning):
        np.testing.assert_array_equal(np.asarray(stacked), np.row_stack([np.arange(2), [5, 6]]))


def test_a_python_int_out_of_a_dtypes_range_raises_what_prints_as_numpys_overflow_error():
    """`u8 += 300` ("except OverflowError as e: print(type(e).__name__, e)", and a traceback's
    last line): lazyarray's class printed as `lazyarray._bind.WeakIntOverflow`."""
    import traceback
    for fn in (lambda m: m.arange(3, dtype=m.uint8) + 300,
               lambda m: m.full(2, -1, dtype=m.uint16)):
        with pytest.raises(OverflowError) as want:
            fn(np)
        with pytest.raises(OverflowError) as got:
            fn(la)
        assert type(got.value).__name__ == type(want.value).__name__
        assert (traceback.format_exception_only(got.value)[0]  # (then lazyarray's site note)
                == traceback.format_exception_only(want.value)[0])
        again = pickle.loads(pickle.dumps(got.value))  # (a worker's error travels pickled)
        assert type(again) is OverflowError and again.args == want.value.args


def test_numpys_scalar_methods_answer_on_a_scalar_result(reference_backend):
    """`np.sqrt(n).is_integer()` (a perfect-square test in Project-Euler-style code),
    `x.mean().as_integer_ratio()`, `A[i, j].hex()`, `x.sum().bit_count()`: NumPy's scalars have
    them, so a 0-d result standing for one must; an array still has none (hasattr False)."""
    host = np.arange(6.0).reshape(2, 3)
    calls = (lambda m, a: m.sqrt(16).is_integer(), lambda m, a: m.sqrt(15).is_integer(),
             lambda m, a: a.sum().is_integer(), lambda m, a: a.mean().as_integer_ratio(),
             lambda m, a: (a[1, 2] / 4).hex(), lambda m, a: a.astype(m.int64).sum().bit_count(),
             lambda m, a: hasattr(a, "is_integer"), lambda m, a: hasattr(a[0], "hex"),
             lambda m, a: hasattr(m.asarray(np.array(2.0)), "is_integer"))
    for call in calls:
        assert call(la, la.asarray(host)) == call(np, host)
    with pytest.raises(AttributeError, match="'numpy.float64' object has no attribute 'bit_co"):
        la.asarray(host)[0, 1].bit_count()


def test_a_format_spec_on_an_array_raises_numpys_type_error(reference_backend):
    """`f"{weights:.2f}"` of an array is NumPy's TypeError (a tutorial's mistake that a program
    catches or dies on); lazyarray formatted the array's text with the spec (ValueError for 'f',
    padding for '>10'). A 0-d value formats as its scalar, an empty spec as str()."""
    host = np.array([1.5, 2.25], np.float32)
    for spec in (".2f", ">10", "e", "5"):
        with pytest.raises(TypeError) as want:
            format(host, spec)
        with pytest.raises(TypeError) as got:
            format(la.asarray(host), spec)
        assert str(got.value) == str(want.value)
    x = la.asarray(host)
    assert f"{x}|{x[1]:.3f}|{x.sum():e}|{x[0]}" == f"{host}|{host[1]:.3f}|{host.sum():e}|{host[0]}"


def test_numpys_random_functions_warn_at_the_users_line():
    """`np.random.random_integers(1, 3, 2)` (older simulations) warns NumPy's
    DeprecationWarning at the caller's line; lazyarray's came from its own random_numpy.py. A
    covariance that is not positive semi-definite warns there too (a Generator's method)."""
    for call in (lambda m: m.random.random_integers(1, 3, 2),
                 lambda m: m.random.default_rng(0).multivariate_normal([0, 0], [[1, 2], [2, 1]])):
        with pytest.warns(Warning) as theirs:
            call(np)
        with pytest.warns(Warning) as ours:
            call(la)
        assert [(w.category, str(w.message)) for w in ours] == [
            (w.category, str(w.message)) for w in theirs]
        assert [w.filename for w in ours] == [__file__] * len(theirs)


def test_meshgrid_and_linspaces_step_print_as_numpys(reference_backend):
    """`print(np.meshgrid(x, y, sparse=True))` and `print(np.linspace(0, 1, 5, retstep=True))`:
    NumPy 2 prints a tuple, and the step as its scalar `np.float64(0.25)`; lazyarray printed a
    list and `array(0.25)`."""
    for fn in (lambda m: m.meshgrid([1, 2], [3], sparse=True),
               lambda m: m.meshgrid(m.arange(2), m.arange(3.0), indexing="ij"),
               lambda m: m.broadcast_arrays(m.arange(2), m.ones((2, 1))),
               lambda m: m.linspace(0, 1, 5, retstep=True),
               lambda m: m.linspace(2, 3, 1, endpoint=False, retstep=True),
               lambda m: m.linspace([0, 1], 2, 3, retstep=True)):
        assert repr(fn(la)) == repr(fn(np))


def test_trim_zeros_of_a_list_is_numpys_list():
    """`np.trim_zeros([0, 0, 1, 0], 'f')` is a list in NumPy ("list/tuple in means list/tuple
    out"), printed `[1, 0]`; lazyarray gave an Array (`[1 0]`)."""
    for filt, trim in (([0, 0, 1, 0], "f"), ((0, 2, 0), "fb"), ([0, 0], "b"), ([1.5, 0], "b")):
        got, want = la.trim_zeros(filt, trim), np.trim_zeros(filt, trim)
        assert type(got) is type(want) and got == want
    with pytest.raises(ValueError, match="unexpected character"):
        la.trim_zeros([0, 1], "x")


def _is_positive_definite(m, a):
    """A published helper: cholesky raises for a matrix that is not positive definite."""
    m.linalg.cholesky(a)
    return True


def test_a_linalg_error_reaches_a_handler_around_the_users_own_function(reference_backend):
    """`try: ok = is_pd(A) except LinAlgError: ok = False`, with the cholesky inside `is_pd` (or a
    lambda): NumPy raises inside the call; lazyarray raised only where the calling line itself
    sat in the try, so the error came later, at evaluation, outside the handler."""
    bad = np.array([[1.0, 2.0], [2.0, 1.0]])
    for m, a in ((np, bad), (la, la.asarray(bad))):
        try:
            _is_positive_definite(m, a)
            caught = None
        except np.linalg.LinAlgError as exc:
            caught = str(exc)
        assert caught == "Matrix is not positive definite", m
        for call in (lambda: m.linalg.inv(a * 0), lambda: m.linalg.solve(a * 0, a[0])):
            with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
                try:
                    call()
                except np.linalg.LinAlgError:
                    raise
    assert _is_positive_definite(la, la.eye(2)) is True


_CROSS_2 = [([1, 2], [3, 4]), ([1, 2], [3, 4, 5]), ([1.0, -2.0, 3.0], [0.0, 4.0]),
            (np.array([[1, 2], [3, 4]], np.int8), np.array([5, 100], np.int8)),
            (np.array([0.0, -0.0]), np.array([0.0, 0.5, 1.0])), ([[1, 2]], [[3, 4, 5]])]


@pytest.mark.parametrize("a,b", _CROSS_2)
def test_cross_of_2_vectors_is_numpys_with_its_deprecation(reference_backend, a, b):
    """numpy.org's static-equilibrium tutorial crosses 2-vectors: NumPy 2 deprecates them but
    answers (the z part for two, NumPy's formulas with a zero third component for one, the signs
    of zeros kept); lazyarray raised ValueError."""
    with pytest.warns(DeprecationWarning, match="Arrays of 2-dimensional vectors are deprecat"):
        want = np.cross(a, b)
    with pytest.warns(DeprecationWarning, match="Arrays of 2-dimensional vectors are deprecat"):
        got = np.asarray(la.cross(la.asarray(a), la.asarray(b)))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_info_prints_numpys_documentation_of_the_counterpart():
    """Rougier's exercise 5, `np.info(np.add)`: NumPy's docstring for a lazyarray function, ufunc,
    linalg/fft/random function (an AttributeError before)."""
    import io

    for ours, theirs in ((la.add, np.add), (la.sum, np.sum), (la.linalg.svd, np.linalg.svd),
                         (la.fft.rfft, np.fft.rfft), (la.random.rand, np.random.rand),
                         ("add", "add")):
        got, want = io.StringIO(), io.StringIO()
        la.info(ours, output=got)
        np.info(theirs, output=want)
        assert got.getvalue() == want.getvalue() and want.getvalue(), ours


def _resize_sequence(m):
    """The SciPy lecture notes' resize example, with what NumPy's reference count lets through."""
    a = m.arange(4)
    a.resize((8,))
    first = np.asarray(a).copy()
    a.resize(2, 3)  # one name: allowed
    held = [m.ones(2)]
    held[0].resize(3)  # a list's element: one reference, allowed
    b = a  # noqa: F841  (a second name: NumPy refuses a new size, allows the same size)
    a.resize(3, 2)
    try:
        a.resize((4,))
    except ValueError as exc:
        return first, np.asarray(a), np.asarray(held[0]), str(exc).split("\n(at ")[0]
    return first, np.asarray(a), np.asarray(held[0]), None


def test_resize_refuses_an_array_another_name_holds_as_numpy():
    """`b = a; a.resize((4,))` raises NumPy's ValueError (its reference check); lazyarray resized
    silently. NumPy's text (2.4) for it and for an array a view reads."""
    want, got = _resize_sequence(np), _resize_sequence(la)
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g, w)
    assert want[3] is not None
    c = la.arange(4)
    v = c[1:]  # noqa: F841
    with pytest.raises(ValueError, match="to get a new resized copy or\n set refcheck=False"):
        c.resize(8)


@pytest.mark.parametrize("invert", [False, True])
def test_isin_of_a_set_is_numpys_all_false(reference_backend, invert):
    """NumPy's isin documentation: `np.isin(element, set(test_elements))` takes the set as one
    0-d object, equal to no element (all False; all True inverted). lazyarray raised TypeError."""
    element = 2 * np.arange(4).reshape((2, 2))
    for test in ({1, 2, 4, 8}, frozenset([0])):
        want = np.isin(element, test, invert=invert)
        got = np.asarray(la.isin(la.asarray(element), test, invert=invert))
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("scalars", [(3.0, -2), (3,), (True,), (True, 2), (1j, 2), (2.5, True)])
def test_result_type_of_python_scalars_alone_is_numpys(scalars):
    """numpy.result_type's own example `np.result_type(3.0, -2)` is float64: Python scalars alone
    take their default dtypes. lazyarray raised 'at least one array or dtype is required'."""
    assert la.result_type(*scalars) == np.result_type(*scalars)


def test_result_type_of_nothing_raises_numpys_error():
    """No argument at all is NumPy's ValueError, with its text."""
    with pytest.raises(ValueError) as theirs:
        np.result_type()
    with pytest.raises(ValueError, match=f"^{theirs.value}$"):
        la.result_type()


def _errstate_block_warnings(xp, x):
    """numpy.errstate's docstring idiom: 'divide' ignored, 0/0's 'invalid' still warns. The
    warnings recorded, with their lines counted from this function's first line."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with xp.errstate(divide="ignore"):
            r = xp.asarray(x) / 0.0
            s = xp.log(xp.asarray(x)) * 2
        np.asarray(r), np.asarray(s)
    first = _errstate_block_warnings.__code__.co_firstlineno
    return [(str(w.message), w.lineno - first) for w in caught]


@pytest.mark.needs("fp_errors")
@pytest.mark.parametrize("eager_size", [0, 4096])
def test_an_errstate_blocks_exit_warns_at_the_line_that_built_the_op(backend, eager_size):
    """The block's exit computes the ops built inside it: their warnings name the ops' lines,
    as NumPy's do. They named the `with` line, where the exit runs."""
    x = np.array([0.0, 1.0, -1.0])
    with la.config(eager_size=eager_size):
        assert _errstate_block_warnings(la, x) == _errstate_block_warnings(np, x)
