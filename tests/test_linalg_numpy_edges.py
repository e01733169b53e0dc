"""numpy.linalg on edge inputs (empty matrices, stacks, N-d chains) against NumPy: values,
dtypes, warnings and error texts, on every backend, at the default and on the general path
(eager_size=0, the path a GPU takes). Found by a stop-54 sweep of 40 functions over 20 inputs."""

import warnings

import numpy as np
import pytest

import lazyarray as la

EMPTY = {"empty": np.zeros((0, 0)), "rows": np.zeros((0, 3)), "cols": np.zeros((3, 0)),
         "stack": np.zeros((2, 0, 0))}


def _outcome(m, f, host):
    """What NumPy or lazyarray answers: ('ok', value as ndarray, warnings) or ('err', type, text)."""
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        try:
            out = f(m, host if m is np else la.asarray(host))
            return "ok", np.asarray(out), sorted({str(w.message) for w in got})
        except Exception as exc:  # noqa: BLE001 (the error is the outcome compared)
            return "err", type(exc).__name__, str(exc).splitlines()[0]


def _same(want, got):
    assert got[0] == want[0], (want, got)
    if want[0] == "err":
        assert got[1:] == want[1:]
        return
    assert got[1].dtype == want[1].dtype and got[1].shape == want[1].shape
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12)
    assert got[2] == want[2]


CALLS = {
    "norm 1": lambda m, a: m.linalg.norm(a, 1),
    "norm 2": lambda m, a: m.linalg.norm(a, 2),
    "norm inf": lambda m, a: m.linalg.norm(a, np.inf),
    "norm -1": lambda m, a: m.linalg.norm(a, -1),
    "norm nuc": lambda m, a: m.linalg.norm(a, "nuc"),
    "matrix_norm inf": lambda m, a: m.linalg.matrix_norm(a, ord=np.inf),
    "matrix_norm 2": lambda m, a: m.linalg.matrix_norm(a, ord=2),
    "matrix_rank": lambda m, a: m.linalg.matrix_rank(a),
    "lstsq": lambda m, a: m.linalg.lstsq(a, m.ones(a.shape[-2]), rcond=None)[0],
}


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_empty_matrices_as_numpys(backend, eager_size):
    """NumPy's matrix norms 1, inf and 2 take the largest with initial=0, and matrix_rank's and
    lstsq's cut-off too: an empty matrix's is 0. lazyarray raised 'zero-size array to
    reduction operation maximum which has no identity'."""
    with la.config(eager_size=eager_size):
        for name, f in CALLS.items():
            for kind, host in EMPTY.items():
                _same(_outcome(np, f, host), _outcome(la, f, host))


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_error_texts_as_numpys(backend, eager_size):
    """NumPy's texts: 'Improper number of dimensions to norm.' for a 3-d norm of ord 1, and
    '3-dimensional array given. Array must be two-dimensional' for lstsq of a stack."""
    stack = np.ones((2, 3, 3))
    with la.config(eager_size=eager_size):
        for f in (lambda m, a: m.linalg.norm(a, 1), lambda m, a: m.linalg.norm(a, "nuc"),
                  lambda m, a: m.linalg.lstsq(a, m.ones(3), rcond=None)):
            _same(_outcome(np, f, stack), _outcome(la, f, stack))


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_multi_dot_is_numpys_chain_of_dots(backend, eager_size):
    """NumPy's multi_dot calls dot: two N-d arrays take dot's rule (a (2, 3, 4) by a (5, 4, 2)
    is (2, 3, 5, 2)), where lazyarray's `@` stacked them as matmul (a silent difference where
    the shapes also fit matmul: (2, 3, 4) by (2, 4, 5)); an invalid value reports 'dot'."""
    rng = np.random.default_rng(54)
    pairs = [(rng.random((2, 3, 4)), rng.random((5, 4, 2))),
             (rng.random((2, 3, 4)), rng.random((2, 4, 5)))]
    chain = [rng.random((3, 4)), rng.random((4, 5)), rng.random((5, 2)), rng.random((2, 6))]
    bad = np.array([[np.inf, 1.0], [0.0, 1.0]])
    with la.config(eager_size=eager_size):
        for a, b in pairs:
            want = np.linalg.multi_dot([a, b])
            got = np.asarray(la.linalg.multi_dot([la.asarray(a), la.asarray(b)]))
            assert got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-12)
        np.testing.assert_allclose(np.asarray(la.linalg.multi_dot([la.asarray(c) for c in chain])),
                                   np.linalg.multi_dot(chain), rtol=1e-12)
        f = lambda m, a: m.linalg.multi_dot([a, a.T, a])  # noqa: E731
        _same(_outcome(np, f, bad), _outcome(la, f, bad))
