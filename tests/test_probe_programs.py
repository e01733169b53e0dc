"""Differences found by running published-style NumPy programs with `import lazyarray as np`
(probe45; the programs are in the lead's notes): each test is one class of difference, checked
against NumPy's own answer (type, repr, dtype, shape, value)."""

import warnings

import numpy as np
import pytest

import lazyarray as la


def test_host_computed_scalars_stay_numpy_scalars():
    """NumPy's scalar from work done on the host (`unravel_index` of one index, a long
    non-associative `ufunc.reduce`) prints as that scalar and is 0-d; 0-d stayed 1-d before."""
    d = np.arange(12.0).reshape(3, 4)
    got = la.unravel_index(la.argmax(la.asarray(d)), d.shape)
    assert repr(got) == repr(np.unravel_index(np.argmax(d), d.shape))
    assert repr(la.ravel_multi_index((1, 2), (3, 4))) == repr(np.ravel_multi_index((1, 2), (3, 4)))
    x = np.arange(1, 300, dtype=np.int64)
    r = la.subtract.reduce(la.asarray(x))
    assert r.shape == () and repr(r) == repr(np.subtract.reduce(x))
    i, _ = la.unravel_index(7, (3, 4))
    i += 1  # NumPy's scalar: rebinds
    assert repr(i) == "np.int64(2)"
    assert repr(la.unravel_index([1, 5], (3, 4))) == repr(np.unravel_index([1, 5], (3, 4)))


def test_polynomial_package_is_numpys_on_evaluated_arrays():
    """`np.polynomial` in a program (Polynomial.fit, polyval of the package) gives NumPy's
    objects and values; it raised AttributeError before."""
    xs = np.linspace(-1, 1, 9)
    x = la.asarray(xs)
    fit = la.polynomial.Polynomial.fit(x, 2 - 3 * x + 0.5 * x ** 2, 2)
    want = np.polynomial.Polynomial.fit(xs, 2 - 3 * xs + 0.5 * xs ** 2, 2)
    assert repr(fit) == repr(want)
    assert repr(la.polynomial.polynomial.polyval(2.0, [1, 2, 3])) == "np.float64(17.0)"


def _warning_texts(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]


def test_scalar_math_errors_are_named_as_numpys_scalar_ops():
    """A 0-d op on NumPy's scalars (a mean of an empty array, `x.sum() / 0`, an element times a
    huge number) warns with NumPy's scalar-math text ("... in scalar divide"); a 0-d *array*'s
    op keeps the ufunc's ("... in divide"). Each named the ufunc before (a float power until
    stop 47: its reference is not the plain ufunc's). Also on the general path (eager_size=0:
    cupy's, where an element is a pending view)."""
    def run(m):
        x = m.asarray(np.array([1.0, 2.0])) if m is la else np.array([1.0, 2.0])
        e = m.asarray(np.array([])) if m is la else np.array([])
        z = m.asarray(np.array(0.0)) if m is la else np.array(0.0)
        out = [m.mean(e), x.sum() / 0, x[1] * 1e308 * 10, z / 0, x / 0, x[0] - x[0] / 0.0,
               x[1] ** 2000, x[1] ** 2000.0, (z + 3) ** 2000, x.astype(np.complex128)[1] ** 2000]
        return [complex(np.asarray(v).ravel()[0]) for v in out]
    for backend, eager_size in [("numpy", 4096), ("c", 4096), ("numpy", 0), ("c", 0)]:
        with la.config(backend=backend, eager_size=eager_size):
            assert sorted(_warning_texts(lambda: run(la))) == sorted(_warning_texts(lambda: run(np)))


def _solve_or_lstsq(m, A, b):
    try:
        x = m.linalg.solve(A, b)
    except np.linalg.LinAlgError:
        x = m.linalg.lstsq(A, b, rcond=None)[0]
    return x


def _is_positive_definite(m, M):
    try:
        m.linalg.cholesky(M)
        return True
    except np.linalg.LinAlgError:
        return False


def _inv_message(m, A):
    try:
        m.linalg.inv(A)
    except np.linalg.LinAlgError as exc:
        return str(exc)
    return None


def _inv_outside_try(A):
    return la.linalg.inv(A)


def test_linalg_errors_come_at_the_line_inside_a_try_block():
    """NumPy raises LinAlgError at the call, so `try: solve(...) except LinAlgError:` takes its
    fallback; lazyarray raised at evaluation, outside the handler (or never, for a result that
    was not read). Outside try/with blocks the op stays lazy, its error at evaluation."""
    A, b = np.ones((2, 2)), np.ones(2)
    for eager_size in (4096, 0):
        with la.config(eager_size=eager_size):
            LA, LB = la.asarray(A), la.asarray(b)
            np.testing.assert_allclose(np.asarray(_solve_or_lstsq(la, LA, LB)),
                                       _solve_or_lstsq(np, A, b))
            assert [_is_positive_definite(la, la.asarray(M)) for M in (np.eye(2), -np.eye(2))] \
                == [True, False]
            assert _inv_message(la, LA) == _inv_message(np, A) == "Singular matrix"
            lazy = _inv_outside_try(LA)  # lazy, raising when read
            if eager_size == 0:
                assert lazy._node.inputs
            with pytest.raises(np.linalg.LinAlgError, match="built at"):
                np.asarray(lazy)


def _index_errors(m, a, idx):
    caught = []
    try:
        a[idx]
    except IndexError as exc:
        caught.append(str(exc))
    try:
        m.take(a, idx)
    except IndexError as exc:
        caught.append(str(exc))
    try:
        a[idx] = 5
    except IndexError as exc:
        caught.append(str(exc))
    return caught


def _gather_outside_try(a, idx):
    return a[idx]


def test_index_errors_come_at_the_line_inside_a_try_block():
    """`try: a[idx] except IndexError:` with an index Array out of bounds: NumPy raises at the
    line; a lazy gather (eager_size=0, or an array past the at-once size) raised at evaluation,
    outside the handler, or never for an unread result (a write kept its scatter pending)."""
    host = np.arange(10000.0)
    want = _index_errors(np, host.copy(), np.array([1, 5, 12000]))
    assert len(want) == 3
    for eager_size in (4096, 0):
        with la.config(eager_size=eager_size):
            a, idx = la.asarray(host), la.asarray(np.array([1, 5, 12000]))
            assert _index_errors(la, a, idx) == want
    with la.config(eager_size=0):
        lazy = _gather_outside_try(la.asarray(host), la.asarray(np.array([1, 5, 12000])))
        assert lazy._node.inputs  # no try: pending, raising when read
        with pytest.raises(IndexError, match="built at"):
            np.asarray(lazy)


def test_byteswap_as_numpys():
    """ndarray.byteswap (bit-twiddling scripts): NumPy's values; in place through a view too.
    It was an AttributeError."""
    x = np.array([1, 256, -2], dtype=np.int16)
    a = la.asarray(x)
    assert np.asarray(a.byteswap()).tolist() == x.byteswap().tolist()
    b = la.asarray(np.arange(4, dtype=np.int32))
    view = b[1:3]
    assert view.byteswap(inplace=True) is view
    want = np.arange(4, dtype=np.int32)
    want[1:3].byteswap(inplace=True)
    assert np.asarray(b).tolist() == want.tolist()
    f = np.array([1.5, -2.0])
    assert np.asarray(la.asarray(f).byteswap()).tobytes() == f.byteswap().tobytes()


def _message(m, call):
    try:
        call(m)
    except Exception as exc:  # noqa: BLE001  (the message is what is compared)
        return str(exc).partition(" (at ")[0]
    return None


def test_shape_error_messages_are_numpys_text():
    """Programs print caught errors: broadcasting, reshape, concatenate and linalg's shape
    errors say what NumPy's say (before the note naming the line)."""
    calls = [lambda m: m.ones(3) + m.ones(4),
             lambda m: m.ones((2, 3)) * m.ones((4, 1, 5)),
             lambda m: m.arange(6).reshape(4, 2),
             lambda m: m.arange(6).reshape(4, -1),
             lambda m: m.arange(6).reshape(5),
             lambda m: m.concatenate([m.ones((2, 2)), m.ones((3, 3))]),
             lambda m: m.concatenate([m.ones((2, 2)), m.ones(3)]),
             lambda m: m.linalg.inv(m.ones((2, 3))),
             lambda m: m.linalg.det(m.ones(3))]
    for call in calls:
        assert _message(la, call).rstrip() == _message(np, call).rstrip()
