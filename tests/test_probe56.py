"""Idioms of a sixth corpus of published NumPy programs (probe56: Project Euler and Advent of
Code solutions, QuantEcon lectures, image filters and dithering by hand, physics integrators,
hashing on uint64, DSP, Array API style code) that lazyarray answered differently from NumPy,
each against NumPy, on every backend, at the default and on the general path (eager_size=0,
the path a GPU takes)."""

import warnings

import numpy as np
import pytest

import lazyarray as la

EAGER_SIZES = [0, 4096]


def _same_bits(got, want) -> None:
    """Same dtype and the same bits (NaN and signed zeros included)."""
    got = np.asarray(got)
    assert got.dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want, strict=False)
    assert got.tobytes() == np.asarray(want).tobytes(), (got, want)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_vdot_of_floats_is_blas_dot_as_numpy(backend, eager_size):
    """`np.vdot(psi, psi)` (a quantum state's norm, a complex CG's `r^H r`) summed the products
    in lazyarray's own order: the imaginary part of `vdot(z, z)` came out ~1e-16 where NumPy's
    (BLAS's zdotc) is exactly 0, and real dot products differed in their last bits, at every
    setting. NumPy's float and complex vdot is its dtype's dot (BLAS's), as lazyarray's dot."""
    rng = np.random.default_rng(0)
    z = rng.normal(size=(40, 40)) + 1j * rng.normal(size=(40, 40))
    v = rng.normal(size=1000)
    cases = [(z, z), (z[0], z[1]), (z.T, z), (z.astype(np.complex64), z.astype(np.complex64)),
             (v, v), (v.astype(np.float32), v.astype(np.float32)), (v.astype(np.float32), v),
             (z[0], v[:40]), (v[:40], z[0])]
    with la.config(eager_size=eager_size):
        for a, b in cases:
            _same_bits(la.vdot(la.asarray(a), la.asarray(b)), np.vdot(a, b))
        assert la.vdot(la.asarray(z), la.asarray(z)).imag == 0.0


def test_vdot_of_a_reversed_vector_at_once_is_numpys(backend):
    """At the default, `np.vdot(x[::-1], y)` of computed vectors is np.vdot's own call, whose
    plain loop sums a vector of negative stride (np.dot copies it for BLAS: other last bits)."""
    rng = np.random.default_rng(1)
    v = rng.normal(size=1000)
    z = rng.normal(size=(40, 40)) + 1j * rng.normal(size=(40, 40))
    V, Z = la.asarray(v), la.asarray(z)
    _same_bits(la.vdot(V[::-1], V), np.vdot(v[::-1], v))
    _same_bits(la.vdot(Z[::-1, 0], Z[:, 1]), np.vdot(z[::-1, 0], z[:, 1]))


def _same_error(call) -> None:
    """`call(np)` and `call(la)` raise the same type with the same text (lazyarray's text may
    name the user's line after it)."""
    with pytest.raises(Exception) as want:
        call(np)
    with pytest.raises(type(want.value)) as got:
        call(la)
    assert str(got.value).split("\n(at ")[0] == str(want.value)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_shape_and_argument_errors_have_numpys_text(backend, eager_size):
    """Tutorials print these errors: `np.inner` of mismatched last axes said 'shape-mismatch for
    sum' (NumPy: np.dot's 'shapes (3,4) and (5,4) not aligned: ...', b's last two axes
    swapped); lstsq's 'Incompatible dimensions', take_along_axis/put_along_axis with axis=None
    and 2-D indices, float indices; a float or str axis (`x.sum(axis=1.0)`, `np.argmax(x,
    axis='1')`, `np.cumsum(x, axis=(0,))`) had lazyarray's own texts."""
    m34, m45 = np.ones((3, 4)), np.ones((4, 5))
    calls = [
        lambda m: m.inner(m.asarray(m34), m.asarray(m45)),
        lambda m: m.inner(m.asarray(m34), m.asarray(np.ones(5))),
        lambda m: m.inner(m.asarray(m34), m.asarray(np.ones((2, 5, 3)))),
        lambda m: m.inner(m.asarray(np.ones((2, 3, 4))), m.asarray(m45)),
        lambda m: m.linalg.lstsq(m.asarray(m45), m.asarray(np.ones(3))),
        lambda m: m.linalg.lstsq(m.asarray(m45), m.asarray(np.ones((3, 2)))),
        lambda m: m.take_along_axis(m.asarray(m34), m.asarray(np.array([[0]])), axis=None),
        lambda m: m.take_along_axis(m.asarray(m34), m.asarray(np.array([[0.5]])), axis=0),
        lambda m: m.put_along_axis(m.asarray(m34.copy()), m.asarray(np.array([[0]])), 1.0,
                                   axis=None),
    ]
    for name in ("sum", "max", "prod", "any", "argmax", "cumsum", "argsort", "count_nonzero",
                 "squeeze"):
        for axis in (1.0, "1", (1.0,), [0, 1.5], np.float64(1), (0, "1")):
            calls.append(lambda m, name=name, axis=axis: getattr(m, name)(
                m.asarray(np.ones((3, 1))), axis=axis))
    with la.config(eager_size=eager_size):
        for call in calls:
            _same_error(call)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_fill_takes_one_scalar_as_numpy(backend, eager_size):
    """`a.fill([1, 2])` on a (2, 2) array filled each row with the sequence (an assignment's
    broadcast: another answer where NumPy raises), `a.fill([1])` and `a.fill(np.array([3]))`
    filled with the one element; NumPy's fill takes one scalar (a 0-d array too) and raises
    'setting an array element with a sequence.' for anything else."""
    values = [[1, 2], [1], (1,), np.array([3]), np.array([[1]]), np.array(4.5), 2.5,
              np.float32(1.5), True, 7]
    with la.config(eager_size=eager_size):
        for value in values:
            for shape in ((2, 2), (3,)):
                outcomes = []
                for m in (np, la):
                    a = m.zeros(shape)
                    try:
                        a.fill(la.asarray(value) if m is la and isinstance(value, np.ndarray)
                               else value)
                        outcomes.append(np.asarray(a).tolist())
                    except ValueError as error:
                        outcomes.append(str(error).split("\n(at ")[0])
                assert outcomes[1] == outcomes[0], (value, shape)
        a = la.zeros((2, 3))
        a[1].fill(5)  # a view's fill writes through, as NumPy's
        np.testing.assert_array_equal(np.asarray(a), [[0, 0, 0], [5, 5, 5]])


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_shape_assignment_refuses_what_numpy_refuses(backend, eager_size):
    """`x = x.T; x.shape = (6,)` reshaped the handle where NumPy raises `AttributeError:
    Incompatible shape for in-place modification. Use .reshape() ...` (no view of a transposed
    or strided array's memory has that shape); `x.shape = 1.5` leaked an internal text; a NumPy
    scalar's shape is not writable. Decided on NumPy's strides (`x.strides`)."""
    makes = [lambda m: m.arange(6).reshape(2, 3).T,
             lambda m: m.arange(24).reshape(2, 3, 4)[:, ::2],
             lambda m: m.arange(6)[::-1], lambda m: m.arange(6).reshape(2, 3)[:, 1:],
             lambda m: m.arange(6) * 2, lambda m: m.arange(6).reshape(2, 3),
             lambda m: m.asarray(np.asfortranarray(np.ones((2, 3)))),
             lambda m: m.arange(3.0).sum(), lambda m: m.arange(12).reshape(3, 4)[::2]]
    shapes = [(6,), (3, 2), (1, 6), (3, 1, 2), -1, (2, -1), (4, 2), (2, 1, 3), (), 1.5]
    with la.config(eager_size=eager_size):
        for make in makes:
            for shape in shapes:
                outcomes = []
                for m in (np, la):
                    a = make(m)
                    try:
                        a.shape = shape
                        outcomes.append((a.shape, np.asarray(a).tolist()))
                    except (AttributeError, TypeError, ValueError) as error:
                        outcomes.append((type(error), str(error).split("\n(at ")[0]))
                assert outcomes[1] == outcomes[0], shape


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_reshape_to_a_float_shape_has_numpys_text(backend, eager_size):
    """`x.reshape(n / 2, 2)` (Python 2 code run on 3, a common error in published programs)
    said 'invalid shape (3.0, 2): ...' and `x.reshape(1.5)` leaked an internal text
    ('refuse_traced() argument after * must be an iterable'); NumPy's texts now."""
    calls = [lambda m: m.arange(6).reshape(1.5), lambda m: m.arange(6).reshape(3.0, 2),
             lambda m: m.arange(6).reshape((2, 3.0)), lambda m: m.reshape(m.arange(6), 1.5),
             lambda m: m.arange(6).reshape([2, "3"]), lambda m: m.arange(6).reshape(True, 6),
             lambda m: m.broadcast_to(m.arange(3), (2, 3.0)),
             lambda m: m.arange(6).reshape(np.float64(6))]
    with la.config(eager_size=eager_size):
        for call in calls:
            _same_error(call)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_initial_none_is_no_initial_value_as_numpy(backend, eager_size):
    """`np.max(x, initial=None)` (a wrapper forwarding its `initial=None` default) was nan: None
    was taken as a value (float(None)); NumPy reduces without an initial value and without the
    identity, so an empty axis or `where=` raises its ValueError and anything else is as if
    `initial` were not given."""
    x, e = np.array([[1.0, 2.0], [4.0, np.nan]]), np.zeros((3, 0))
    calls = [lambda m: m.max(m.asarray(x[0]), initial=None),
             lambda m: m.min(m.asarray(np.array([3, 1])), initial=None),
             lambda m: m.sum(m.asarray(x), axis=0, initial=None),
             lambda m: m.prod(m.asarray(np.array([3, 2], np.int8)), initial=None),
             lambda m: m.asarray(x).max(axis=1, initial=None),
             lambda m: m.nanmax(m.asarray(x), axis=1, initial=None),
             lambda m: m.nanmin(m.asarray(np.array([np.nan, np.nan])), initial=None),
             lambda m: m.sum(m.asarray(np.zeros((0, 3))), axis=1, initial=None),
             lambda m: m.sum(m.asarray(e), axis=1, initial=None),
             lambda m: m.prod(m.asarray(e), initial=None),
             lambda m: m.max(m.asarray(e), axis=1, initial=None),
             lambda m: m.sum(m.asarray(x[0]), where=m.asarray(np.array([True, False])),
                             initial=None)]
    with la.config(eager_size=eager_size), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (nanmin's all-NaN slice)
        for call in calls:
            try:
                want = call(np)
            except ValueError:
                _same_error(call)
                continue
            got = call(la)
            assert np.asarray(got).dtype == np.asarray(want).dtype
            np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_matmul_takes_numpys_dtype_and_casting_keywords(backend, eager_size):
    """`np.matmul(a, b, dtype=np.float32)` (ufunc keywords) raised lazyarray's 'unexpected
    keyword argument'; NumPy computes in that dtype, the operands cast as its loop casts them
    (its UFuncTypeError where `casting` refuses). `np.broadcast_to(x, s, subok=False)` too."""
    i, f = np.arange(6).reshape(2, 3), np.linspace(0, 1, 6).reshape(3, 2)
    calls = [lambda m: m.matmul(m.asarray(i), m.asarray(f), dtype=np.float32),
             lambda m: m.matmul(m.asarray(f.T), m.asarray(f), dtype=np.int64, casting="unsafe"),
             lambda m: m.matmul(m.asarray(i), m.asarray(i.T), dtype=np.int8),
             lambda m: m.matmul(m.asarray(i), m.asarray(f), dtype=np.complex64),
             lambda m: m.matmul(m.asarray(i[0]), m.asarray(i[0]), dtype=float),
             lambda m: m.broadcast_to(m.asarray(i[0]), (2, 3), subok=False)]
    with la.config(eager_size=eager_size):
        for call in calls:
            got, want = call(la), call(np)
            assert np.asarray(got).dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want)
        for casting_call in (lambda m: m.matmul(m.asarray(f.T), m.asarray(f), dtype=np.int64),
                             lambda m: m.matmul(m.asarray(i), m.asarray(f), casting="safe"),
                             lambda m: m.matmul(m.asarray(i), m.asarray(i.T), casting="no")):
            try:
                want = casting_call(np)
            except TypeError:
                _same_error(casting_call)
            else:
                np.testing.assert_array_equal(np.asarray(casting_call(la)), want)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_take_takes_mode_positionally_as_numpy(backend, eager_size):
    """`np.take(a, i, 0, None, 'clip')` and `a.take(i, 0, None, 'wrap')`: NumPy's mode is a
    positional parameter (lazyarray's was keyword-only: a TypeError)."""
    a = np.arange(12).reshape(3, 4)
    with la.config(eager_size=eager_size):
        for mode in ("clip", "wrap"):
            np.testing.assert_array_equal(
                np.asarray(la.take(la.asarray(a), [0, 5], 0, None, mode)),
                np.take(a, [0, 5], 0, None, mode))
            np.testing.assert_array_equal(np.asarray(la.asarray(a).take([-1, 7], 1, None, mode)),
                                          a.take([-1, 7], 1, None, mode))
