"""Idioms of a seventh corpus of published NumPy programs (probe57: numpy-100 exercises 50-100,
the Python Data Science Handbook, CS231n, nnfs, ML-From-Scratch, Rosetta Code, image and
signal processing by hand) that lazyarray answered differently from NumPy, each against NumPy,
on every backend, at the default and on the general path (eager_size=0, the path a GPU takes)."""

import numpy as np
import pytest

import lazyarray as la

EAGER_SIZES = [0, 4096]


def _same_bits(got, want) -> None:
    """Same dtype, shape and bits (NaN and signed zeros included)."""
    got = np.asarray(got)
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    assert got.tobytes() == np.asarray(want).tobytes(), (got, want)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_dot_past_two_dims_is_numpys_loop(backend, eager_size):
    """`np.dot(rgb, [0.299, 0.587, 0.114])` (the gray conversion of every image tutorial) and
    np.dot or np.inner of any operand past 2-D: NumPy takes one BLAS dot per output element (a
    row of a by a column of b), not a matrix product; lazyarray's matmul (gemv) differed in the
    last bits on 65 of 320 pixels, at every setting. Its 'dot' overflow report is NumPy's."""
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, size=(16, 20, 3), dtype=np.uint8)
    f32 = np.float32
    cases = [(img, [0.2989, 0.5870, 0.1140]),
             (rng.normal(size=(4, 30, 40)), rng.normal(size=(40, 5))),
             (rng.normal(size=(3, 40)), rng.normal(size=(2, 40, 6))),
             (rng.normal(size=(2, 3, 20)).astype(f32), rng.normal(size=(4, 20, 3)).astype(f32)),
             (rng.normal(size=(5, 2, 20)) + 1j, rng.normal(size=20)),
             (rng.integers(0, 9, (3, 4, 5)), rng.integers(0, 9, (5, 2)))]
    with la.config(eager_size=eager_size):
        for a, b in cases:
            _same_bits(la.dot(la.asarray(a), b if isinstance(b, list) else la.asarray(b)),
                       np.dot(a, b))
        for sa, sb in [((4, 5, 40), (6, 40)), ((3, 40), (2, 5, 40)), ((4, 5, 40), (40,)),
                       ((40,), (3, 4, 40))]:  # np.inner past 2-D: b's rows for its columns
            a, b = rng.normal(size=sa), rng.normal(size=sb)
            _same_bits(la.inner(la.asarray(a), la.asarray(b)), np.inner(a, b))
        big = np.full((2, 2, 2), 1e300)
        with pytest.warns(RuntimeWarning, match="overflow encountered in dot"):
            np.asarray(la.dot(la.asarray(big), la.asarray(big[0, 0])))
        with pytest.warns(RuntimeWarning, match="overflow encountered in dot"):
            np.asarray(la.inner(la.asarray(big), la.asarray(big[0])))


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_einsum_of_two_operands_is_numpys_loop(backend, eager_size):
    """`np.einsum('i,i', A, B)` (numpy-100 #97) and every unoptimized einsum of two or more
    operands (`'ij,jk,ik->i'`: Mahalanobis distances) sum NumPy's way (its sum-of-products loop), past the at-once size and on the general path: a
    matmul or pairwise sum differed in the last bits, half precision's float32 composition
    too, and a product that sums nothing kept -0.0 where NumPy's loop adds it to +0.0."""
    rng = np.random.default_rng(1)
    cases = [("i,i", (10,), (10,)), ("ij,jk->ik", (20, 30), (30, 7)),
             ("ij,ij->i", (9, 50), (9, 50)),
             ("...j,j->...", (2, 3, 40), (40,)), ("bij,bjk->bik", (3, 4, 20), (3, 20, 2)),
             ("ij,kj", (6, 33), (4, 33)), ("ii,i->", (6, 6), (6,)), ("ij,j->ij", (3, 4), (4,)),
             ("...i,...i->...", (1, 3, 17), (4, 1, 17))]
    with la.config(eager_size=eager_size):
        for sub, sa, sb in cases:
            for dt in (np.float64, np.float32, np.complex128, np.float16):
                a = (rng.normal(size=sa) * 3).astype(dt)
                b = (rng.normal(size=sb) * 3).astype(dt)
                _same_bits(la.einsum(sub, la.asarray(a), la.asarray(b)), np.einsum(sub, a, b))
                _same_bits(la.einsum(sub, la.asarray(a) * 1, la.asarray(b) + 0),
                           np.einsum(sub, a, b))  # (pending operands)
        D, S = rng.normal(size=(50, 3)), rng.normal(size=(3, 3))  # three operands: Mahalanobis
        for sub, ops in [("ij,jk,ik->i", (D, S, D)), ("ij,jk,kl->il", (S, S, S)),
                         ("i,i,i->", tuple(D.T))]:
            _same_bits(la.einsum(sub, *[la.asarray(x) * 1 for x in ops]), np.einsum(sub, *ops))


def test_einsum_and_dot_past_two_dims_keep_their_derivatives(backend):
    """la.grad traces the composition, not NumPy's loop (which has no derivative rule)."""
    a = np.arange(24.0).reshape(2, 4, 3)
    w = np.array([1.0, -2.0, 0.5])
    g = la.grad(lambda x: la.dot(x, la.asarray(w)).sum())(la.asarray(a))
    np.testing.assert_array_equal(np.asarray(g), np.broadcast_to(w, a.shape))
    g = la.grad(lambda x: la.einsum("ijk,k->", x, la.asarray(w)))(la.asarray(a))
    np.testing.assert_array_equal(np.asarray(g), np.broadcast_to(w, a.shape))


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_tuple_inside_an_index_key_is_a_sequence_index(backend, eager_size):
    """`X[:, index_combs]` with a tuple of columns (ML-From-Scratch's polynomial_features; an
    empty tuple for the constant term) is NumPy's integer-array index, in reads and writes; it
    raised IndexError."""
    X = np.arange(12.0).reshape(4, 3)
    keys = [(slice(None), (0, 1)), (slice(None), ()), ((0, 2), slice(None)), ((0, 2), (1, 1)),
            (Ellipsis, (2, 0)), ((True, False, True, True),)]
    with la.config(eager_size=eager_size):
        L = la.asarray(X)
        for key in keys:
            _same_bits(L[key], X[key])
        _same_bits(la.prod(L[:, ()], axis=1), np.prod(X[:, ()], axis=1))
        Y, M = X.copy(), la.asarray(X)
        Y[:, (0, 2)] = -1
        M[:, (0, 2)] = -1
        Y[(1, 1, 3), (0, 0, 2)] += 5
        M[(1, 1, 3), (0, 0, 2)] += 5
        _same_bits(M, Y)
        with pytest.raises(IndexError):
            L[:, (0, slice(1))]
