"""la.einsum against np.einsum: explicit, implicit, ellipsis and sublist subscripts, diagonals,
broadcasting of size-1 axes, every dtype kind (integer sums wrap as NumPy's), errors, and random
subscripts drawn by hypothesis."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazyarray as la
from sites import assert_site

rng = np.random.default_rng(0)


def _r(*shape, dtype=np.float64):
    return (rng.standard_normal(shape) * 3).astype(dtype)


CASES = [
    ("ij,jk->ik", [_r(3, 4), _r(4, 5)]), ("ij,jk", [_r(3, 4), _r(4, 5)]), ("ii->i", [_r(3, 3)]),
    ("ii", [_r(3, 3)]), ("ij->ji", [_r(2, 3)]), ("ij->", [_r(2, 3)]), ("ij->j", [_r(2, 3)]),
    ("i,i", [_r(4), _r(4)]), ("i,j->ij", [_r(3), _r(4)]),
    ("bij,bjk->bik", [_r(2, 3, 4), _r(2, 4, 5)]),
    ("...ij,...jk->...ik", [_r(2, 1, 3, 4), _r(5, 4, 2)]), ("...ij->...ji", [_r(2, 3, 4)]),
    ("ij,ij->ij", [_r(2, 1), _r(2, 3)]), ("ij,jk,kl->il", [_r(2, 3), _r(3, 4), _r(4, 5)]),
    ("iij->ij", [_r(3, 3, 2)]), ("abc,cd,db->a", [_r(2, 3, 4), _r(4, 5), _r(5, 3)]),
    ("i...,i...->...", [_r(3, 2), _r(3, 2)]), ("Ba,aC", [_r(2, 3), _r(3, 4)]),
    ("zb,Bc", [_r(2, 3), _r(3, 4)]), (",i->i", [np.float64(2.0), _r(3)]),
    ("ij,jk->ik", [_r(3, 4, dtype=np.int8), _r(4, 5, dtype=np.int8)]),
    ("i->", [np.array([100, 100, 100], np.int8)]),
    ("i,i->", [np.array([True, False]), np.array([True, True])]),
    ("ij,jk->ik", [np.array([[True, False], [False, False]]), np.array([[True], [True]])]),
    ("ij,jk->ik", [_r(3, 0), _r(0, 5)]),
    ("ij,kj->ik", [_r(3, 4, dtype=np.complex64), _r(5, 4, dtype=np.float32)]),
    ("ijk,ikl->jl", [_r(2, 3, 4), _r(2, 4, 5)]),
    ("ii->", [np.arange(9, dtype=np.uint8).reshape(3, 3) * 40]),
    ("ij,jk->ik", [_r(3, 1), _r(4, 5)]),
    ("ij,jk->ik", [_r(3, 4, dtype=np.float32), _r(4, 5, dtype=np.float32)]),
]


def _check(got, want, name):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, got.shape)
    rtol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-6, err_msg=name)


def test_einsum_matches_numpy(backend):
    lazy = [la.einsum(s, *[la.asarray(o) for o in ops]) for s, ops in CASES]
    la.eval(*lazy)
    for (s, ops), got in zip(CASES, lazy):
        _check(got, np.einsum(s, *ops), s)


def test_sublists_dtype_and_optimize(reference_backend):
    a, b = _r(3, 4), _r(4, 5)
    A, B = la.asarray(a), la.asarray(b)  # noqa: N806
    _check(la.einsum(A, [0, 1], B, [1, 2], [0, 2]), np.einsum(a, [0, 1], b, [1, 2], [0, 2]), "sub")
    _check(la.einsum(A, [Ellipsis, 1], B, [1, 2]), np.einsum(a, [Ellipsis, 1], b, [1, 2]), "...")
    i = np.arange(6).reshape(2, 3)
    _check(la.einsum("ij->i", la.asarray(i), dtype=np.float64),
           np.einsum("ij->i", i, dtype=np.float64), "dtype")
    _check(la.einsum("ij,jk", A, B, optimize=True), np.einsum("ij,jk", a, b, optimize=True), "opt")


@pytest.mark.parametrize("subscripts, shapes", [
    ("ij,jk->ik", [(2, 3), (4, 5)]),  # sizes differ
    ("ij,jk->ik", [(2, 3)]),  # operand count
    ("i1,j->ij", [(2, 3), (3,)]),  # not a letter
    ("ij->ik", [(2, 3)]),  # output label in no operand
    ("ij->ii", [(2, 3)]),  # repeated output label
    ("ijk->ij", [(2, 3)]),  # too many subscripts
    ("i->i", [(2, 3)]),  # too few, no ellipsis
    ("...i->i", [(2, 3)]),  # ellipsis axes missing from the output
    ("ii->i", [(2, 1)]),  # a diagonal does not broadcast
])
def test_einsum_errors_match_numpy(reference_backend, subscripts, shapes):
    ops = [np.ones(s) for s in shapes]
    with pytest.raises(ValueError):
        np.einsum(subscripts, *ops)
    with pytest.raises(ValueError) as info:
        la.einsum(subscripts, *[la.asarray(o) for o in ops])
    assert_site(info, "test_einsum.py")


def test_einsum_casting_is_refused_as_numpy(reference_backend):
    x = np.arange(3)
    with pytest.raises(TypeError):
        np.einsum("i->", x, dtype=np.int8)
    with pytest.raises(TypeError, match="cast"):  # (NumPy's text at once, or lazyarray's)
        la.einsum("i->", la.asarray(x), dtype=np.int8)
    _check(la.einsum("i->", la.asarray(x), dtype=np.int8, casting="same_kind"),
           np.einsum("i->", x, dtype=np.int8, casting="same_kind"), "same_kind")
    # one operand, nothing summed: NumPy returns a view and ignores dtype
    _check(la.einsum("ij->ji", la.asarray(x[None]), dtype=np.int8),
           np.einsum("ij->ji", x[None], dtype=np.int8), "view")


def test_einsum_writes_out_as_numpy(reference_backend):
    """`out=` (refused before): the result written into out, which is returned, with NumPy's
    casting and shape errors; the sublist form too."""
    a = np.arange(6.0).reshape(2, 3)
    out, want = la.zeros((3, 2)), np.zeros((3, 2))
    assert la.einsum("ij->ji", la.asarray(a), out=out) is out
    np.einsum("ij->ji", a, out=want)
    _check(out, want, "out")
    host = np.zeros(2)  # a NumPy out is written too
    assert la.einsum(la.asarray(a), [0, 1], [0], out=host) is host
    np.testing.assert_array_equal(host, a.sum(axis=1))
    with pytest.raises(TypeError):  # float64 into float32 is not 'safe'
        np.einsum("ij->ji", a, out=np.zeros((3, 2), np.float32))
    with pytest.raises(TypeError):
        la.einsum("ij->ji", la.asarray(a), out=la.zeros((3, 2), la.float32))
    with pytest.raises(ValueError):
        la.einsum("ij->ji", la.asarray(a), out=la.zeros((2, 3)))


def test_einsum_is_differentiable():
    a, b = _r(3, 4), _r(4, 5)
    g = la.grad(lambda x: la.sum(la.einsum("ij,jk->ik", x, la.asarray(b)) ** 2))(la.asarray(a))
    np.testing.assert_allclose(np.asarray(g), 2 * (a @ b) @ b.T, rtol=1e-12)


@st.composite
def _programs(draw):
    letters = "abcde"
    sizes = {c: draw(st.integers(1, 3)) for c in letters}
    terms = []
    for _ in range(draw(st.integers(1, 3))):
        term = draw(st.lists(st.sampled_from(letters), max_size=4))
        terms.append("".join(term))
    used = sorted(set("".join(terms)))
    if draw(st.booleans()):
        out = "".join(draw(st.permutations(used))[:draw(st.integers(0, len(used)))])
        subscripts = ",".join(terms) + "->" + out
    else:
        subscripts = ",".join(terms)
    ones = draw(st.sets(st.sampled_from(letters), max_size=2))  # labels broadcast from size 1
    ops = []
    for k, t in enumerate(terms):
        shape = tuple(1 if (c in ones and k % 2) else sizes[c] for c in t)
        ops.append(np.random.default_rng(k).integers(-3, 4, shape).astype(np.float64))
    return subscripts, ops


@settings(max_examples=40, deadline=None)
@given(_programs())
def test_random_subscripts_match_numpy(program):
    subscripts, ops = program
    with la.config(backend="numpy"):
        _check_random(subscripts, ops)


def _check_random(subscripts, ops):
    try:
        want = np.einsum(subscripts, *ops)
    except ValueError:
        with pytest.raises(ValueError):
            la.einsum(subscripts, *[la.asarray(o) for o in ops])
        return
    _check(la.einsum(subscripts, *[la.asarray(o) for o in ops]), np.asarray(want), subscripts)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("subscripts,shape", [("i->", (10,)), ("i", (37,)), ("ij->i", (20, 5)),
                                              ("ij->", (20, 5)), ("ii", (9, 9))])
def test_a_one_operand_sum_has_numpys_einsum_bits(reference_backend, subscripts, shape, dtype):
    """NumPy sums one operand in its einsum loop's order (SIMD lanes), not np.sum's pairwise one:
    Rougier's exercise 97 `np.einsum('i->', A)` of 10 floats printed ...288, la ...287."""
    gen = np.random.default_rng(97)
    for _ in range(20):
        host = gen.uniform(0, 1, shape).astype(dtype)
        got, want = la.einsum(subscripts, la.asarray(host)), np.einsum(subscripts, host)
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("eager_size", [None, 0])
def test_one_operand_sums_past_the_at_once_size_have_numpys_bits(backend, eager_size):
    """Past the at-once size (and on the general path a GPU takes) a one-operand einsum was a
    composition of diagonal and la.sum, summed pairwise: row sums of a (200, 300) matrix were a
    last bit off NumPy's einsum loop on 157 of 200 rows. It is one library call now
    (graph/ops_einsum.py), on a computed operand and on a pending one."""
    gen = np.random.default_rng(52)
    cases = [("ij->i", (200, 300), np.float64), ("ij->", (200, 300), np.float32),
             ("ii", (300, 300), np.float64), ("...j->...", (40, 300), np.float64),
             ("ij->i", (100, 90), np.complex128), ("i j -> i", (100, 100), np.float64)]
    config = {} if eager_size is None else {"eager_size": eager_size}
    for subscripts, shape, dtype in cases:
        host = gen.standard_normal(shape).astype(dtype)
        if dtype == np.complex128:
            host = host + 1j * gen.standard_normal(shape)
        want = np.einsum(subscripts, host)
        with la.config(**config):
            for got in (la.einsum(subscripts, la.asarray(host)),
                        la.einsum(subscripts, la.asarray(host) * 1)):
                got = np.asarray(got)
                assert got.dtype == want.dtype, subscripts
                np.testing.assert_array_equal(got, want, err_msg=subscripts)
