"""la.random: Philox known answers, the same bits on every backend, fusion, no recompiles for new
keys, and the distributions (moments and Kolmogorov-Smirnov with fixed seeds)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from lazyarray.graph import Node, get_op
from lazyarray.graph.ops_random import philox4x32, philox_bits
from lazyarray.runtime.cuda import nvrtc

import lazyarray as la

RANDOM_TESTS = ("flat_index", "philox")  # registry ops covered here (tests/test_ops_elementwise.py)

# Random123's kat_vectors for philox4x32_10: (counter, key, expected output words).
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF, 0xFFFFFFFF), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


def test_philox_known_answer_vectors():
    for ctr, key, want in KAT:
        got = philox4x32(*ctr, *key)
        assert tuple(int(w) for w in got) == want


def test_philox_op_matches_the_reference_on_every_backend(backend):
    """The op's C/NumPy code at counters with the top word 0 (as the op uses them), including the
    KAT's zero vector and 64-bit positions."""
    u64 = np.dtype(np.uint64)
    i = np.array([0, 1, 2**32 - 1, 2**32, 2**64 - 1, 12345678901234], np.uint64)
    s = np.array([0, 0, 7, 0xFFFFFFFF, 3, 1], np.uint64)
    k0 = np.array([0, 5, 0xFFFFFFFF, 1, 2, 0xA4093822], np.uint64)
    k1 = np.array([0, 6, 0xFFFFFFFF, 9, 2, 0x299F31D0], np.uint64)
    node = Node(get_op("philox"), tuple(la.array(v)._node for v in (i, s, k0, k1)), (), i.shape, u64)
    got = np.asarray(la.Array(node))
    np.testing.assert_array_equal(got, philox_bits(i, s, k0, k1))
    assert int(got[0]) == (0xE169C58D << 32) | 0x6627E8D5  # KAT vector 1, words 0 and 1


def _expected_unit(key, n):
    """Philox bits and the uniforms they make (docs/linalg_random.md), computed here in NumPy."""
    k0, k1 = (int(w) for w in np.asarray(key))
    b = philox_bits(np.arange(n, dtype=np.uint64), 0, k0, k1)
    w0, w1 = b & np.uint64(0xFFFFFFFF), b >> np.uint64(32)
    f32 = (w0 >> np.uint64(8)).astype(np.float32) * np.float32(2.0**-24)
    f64 = (w1 >> np.uint64(5)).astype(np.float64) * 2.0**-27 + (w0 >> np.uint64(6)) * 2.0**-53
    return b, f32, f64


def test_same_bits_on_every_backend(backend):
    """uniform/randint/bernoulli are exact integer arithmetic: bit-identical to an independent
    NumPy computation; normal goes through libm and agrees to a few ulp."""
    k = la.random.key(2024)
    shape = (3, 5, 7)
    n = math.prod(shape)
    u32 = la.random.uniform(k, shape, la.float32)
    u64 = la.random.uniform(k, shape)
    ints = la.random.randint(k, shape, -5, 17)
    bern = la.random.bernoulli(k, 0.3, shape)
    z32 = la.random.normal(k, shape, la.float32)
    x = la.array(np.arange(n, dtype=np.float32).reshape(shape))
    dropped = x * (la.random.uniform(k, shape) > 0.5)
    la.eval(u32, u64, ints, bern, z32, dropped)
    b, f32, f64 = _expected_unit(k, n)
    np.testing.assert_array_equal(np.asarray(u32).ravel(), f32)
    np.testing.assert_array_equal(np.asarray(u64).ravel(), f64)
    np.testing.assert_array_equal(np.asarray(ints).ravel(), (b % np.uint64(22)).astype(np.int64) - 5)
    np.testing.assert_array_equal(np.asarray(bern).ravel(), f64 < 0.3)
    np.testing.assert_array_equal(np.asarray(dropped).ravel(), np.where(f64 > 0.5, np.arange(n), 0))
    hi = ((b >> np.uint64(32)) >> np.uint64(8)).astype(np.float32) * np.float32(2.0**-24)
    want = np.sqrt(-2.0 * np.log1p(-f32.astype(np.float64))) * np.cos(2 * np.pi * hi)
    np.testing.assert_allclose(np.asarray(z32).ravel(), want, rtol=2e-5, atol=2e-6)


def test_a_draw_does_not_depend_on_its_slice_or_fusion(reference_backend):
    """Element i is a function of (key, i): a slice of a draw equals the same elements drawn whole."""
    k = la.random.key(5)
    whole = np.asarray(la.random.uniform(k, (6, 8)))
    part = np.asarray(la.random.uniform(k, (6, 8))[2:4, ::3] * 1.0)
    np.testing.assert_array_equal(part, whole[2:4, ::3])


def test_dropout_is_one_kernel_reading_x_once(reference_backend):
    x = la.array(np.ones((64, 32), np.float32))
    k = la.random.key(0)
    report = la.explain(x * (la.random.uniform(k, x.shape) > 0.25))
    assert report.num_kernels == 1 and report.num_library_calls == 0
    (kernel,) = report.kernels
    assert len(kernel.inputs) == 2  # x and the key (2 words), nothing else


def test_new_keys_in_a_loop_reuse_the_plan(backend, fresh_caches):
    x = la.array(np.ones((16, 16), np.float32))
    k = la.random.key(1)
    seen = []
    for step in range(6):
        k, sub = la.random.split(k)
        y = x * (la.random.uniform(sub, x.shape) > 0.5) + la.random.normal(sub, x.shape,
                                                                           la.float32)
        seen.append(np.asarray(y).copy())
        if step == 1:  # step 0 built y's plan; step 1 the one that reads a row of split's keys
            first = la.cache_info()
    last = la.cache_info()
    assert last.plans_built == first.plans_built and last.kernels_compiled == first.kernels_compiled
    assert last.plan_hits >= first.plan_hits + 4
    assert all(not np.array_equal(seen[0], s) for s in seen[1:])


def test_split_and_fold_in_give_independent_keys(reference_backend):
    k = la.random.key(7)
    keys = np.asarray(la.random.split(k, 4))
    assert keys.shape == (4, 2) and keys.dtype == np.uint32
    assert len({tuple(r) for r in keys}) == 4
    np.testing.assert_array_equal(np.asarray(la.random.split(k, 4)), keys)  # deterministic
    folded = [tuple(np.asarray(la.random.fold_in(k, i))) for i in range(4)]
    assert len(set(folded) | {tuple(r) for r in keys}) == 8
    n = 20000
    draws = [np.asarray(la.random.uniform(keys[i], (n,))) for i in range(4)]
    draws.append(np.asarray(la.random.uniform(la.random.fold_in(k, 0), (n,))))
    corr = np.corrcoef(np.stack(draws))
    off = corr[~np.eye(len(draws), dtype=bool)]
    assert np.abs(off).max() < 5 / math.sqrt(n)  # independent: |r| ~ 1/sqrt(n)


def _ks(sample, cdf) -> float:
    """The Kolmogorov-Smirnov statistic of a sample against a CDF (no scipy needed)."""
    x = np.sort(sample)
    f = cdf(x)
    n = len(x)
    return max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))


def _normal_cdf(x):
    return 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_distributions(reference_backend, dtype):
    n = 40000
    crit = 1.95 / math.sqrt(n)  # KS critical value at alpha = 0.001
    k = la.random.key(11)
    ks = np.asarray(la.random.split(k, 4))
    u = np.asarray(la.random.uniform(ks[0], (n,), dtype, -2.0, 3.0)).astype(np.float64)
    z = np.asarray(la.random.normal(ks[1], (n,), dtype)).astype(np.float64)
    t = np.asarray(la.random.truncated_normal(ks[2], -0.5, 1.5, (n,), dtype)).astype(np.float64)
    r = np.asarray(la.random.randint(ks[3], (n,), 3, 9))
    assert u.dtype == np.float64 and -2.0 <= u.min() and u.max() < 3.0
    assert abs(u.mean() - 0.5) < 0.05 and abs(u.var() - 25 / 12) < 0.05
    assert _ks(u, lambda x: (x + 2.0) / 5.0) < crit
    assert abs(z.mean()) < 0.02 and abs(z.std() - 1) < 0.02
    assert _ks(z, _normal_cdf) < crit
    lo, hi = _normal_cdf(np.array([-0.5, 1.5]))
    assert -0.5 <= t.min() and t.max() <= 1.5
    assert _ks(t, lambda x: (_normal_cdf(x) - lo) / (hi - lo)) < crit
    assert set(np.unique(r)) == set(range(3, 9))
    counts = np.bincount(r - 3) / n
    assert np.abs(counts - 1 / 6).max() < 0.01


def test_ks_agrees_with_scipy(reference_backend):
    stats = pytest.importorskip("scipy.stats")
    z = np.asarray(la.random.normal(la.random.key(3), (5000,)))
    assert abs(stats.kstest(z, "norm").statistic - _ks(z, _normal_cdf)) < 1e-9
    assert stats.kstest(z, "norm").pvalue > 0.001


def test_quantile_function(reference_backend):
    """truncated_normal's in-kernel inverse normal CDF against known quantiles (scipy.special.ndtri
    values): Acklam's approximation is good to 1.15e-9 relative."""
    from lazyarray.random_keys import _ndtri

    known = {0.975: 1.959963984540054, 0.001: -3.090232306167813, 1e-10: -6.361340902404056,
             0.3: -0.5244005127080409, 0.9: 1.2815515655446004, 0.501: 0.0025066308995717666,
             1 - 1e-7: 5.199337582290661}
    p = np.array(list(known))
    np.testing.assert_allclose(np.asarray(_ndtri(la.array(p))), list(known.values()), rtol=1.2e-9)


def test_permutation_choice_bernoulli(reference_backend):
    k = la.random.key(9)
    perm = np.asarray(la.random.permutation(k, 50))
    assert sorted(perm) == list(range(50)) and not np.array_equal(perm, np.arange(50))
    x = np.arange(12.0).reshape(6, 2)
    shuffled = np.asarray(la.random.permutation(k, la.array(x)))
    np.testing.assert_array_equal(shuffled, x[np.asarray(la.random.permutation(k, 6))])
    with pytest.raises(ValueError, match="larger sample"):
        la.random.choice(k, 5, (3, 4), replace=False)
    uniq = np.asarray(la.random.choice(k, 10, (10,), replace=False))
    assert sorted(uniq) == list(range(10))
    weighted = np.asarray(la.random.choice(k, 3, (30000,), p=[0.2, 0.0, 0.8]))
    freq = np.bincount(weighted, minlength=3) / 30000
    assert freq[1] == 0 and abs(freq[0] - 0.2) < 0.015
    rows = np.asarray(la.random.choice(k, la.array(x), (4,)))
    assert rows.shape == (4, 2) and all(r.tolist() in x.tolist() for r in rows)
    b = np.asarray(la.random.bernoulli(k, la.array(np.array([0.0, 1.0, 0.5])), (1000, 3)))
    assert not b[:, 0].any() and b[:, 1].all() and 0.4 < b[:, 2].mean() < 0.6


def test_default_rng_is_reproducible(reference_backend):
    def draws(seed):
        rng = la.random.default_rng(seed)
        return [np.asarray(a) for a in (rng.random((3,)), rng.normal(1.0, 2.0, (3,)),
                                         rng.integers(10, size=(4,)), rng.uniform(-1, 1, (2,)),
                                         rng.standard_normal(2), rng.permutation(5),
                                         rng.choice(4, size=3))]

    a, b, c = draws(1), draws(1), draws(2)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[0], c[0])
    assert not np.array_equal(a[0], a[3])
    assert a[2].min() >= 0 and a[2].max() < 10


def test_bad_keys_and_arguments_are_named(reference_backend):
    with pytest.raises(TypeError, match="uint32 array of shape"):
        la.random.split(np.zeros(2, np.int64))
    # not a key: NumPy's uniform(low, high) (np.random.uniform([0, 0], (3,)) draws two numbers)
    assert la.random.uniform(np.zeros(2, np.int64), (3,)).shape == (2,)
    with pytest.raises(ValueError, match="one key expected"):
        la.random.uniform(la.random.split(la.random.key(0), 3), (3,))
    with pytest.raises(TypeError, match="floating dtype"):
        la.random.normal(la.random.key(0), (3,), la.int32)
    with pytest.raises(ValueError, match="maxval"):
        la.random.randint(la.random.key(0), (3,), 5, 5)


@pytest.mark.skipif(nvrtc.unavailable_reason() is not None, reason="NVRTC unavailable")
@pytest.mark.gpu
def test_random_kernels_compile_for_cuda():
    from lazyarray.graph import Graph
    from lazyarray.passes import optimize
    from lazyarray.runtime.cuda.printer import render_cuda_program

    k = la.random.key(0)
    x = la.array(np.ones((8, 8), np.float32))
    outs = [x * (la.random.uniform(k, x.shape, la.float32) > 0.5), la.random.normal(k, (5,)),
            la.random.randint(k, (4, 4), 0, 10, la.int32)]
    module = render_cuda_program(optimize(Graph([o._node for o in outs])))
    assert "la_philox_u64" in module.source
    assert nvrtc.compile_cuda(module.source).resources


def test_permutation_is_the_order_of_the_bits_on_every_backend(backend):
    """permutation = argsort of the Philox bits (a library call on a fused draw), the same order
    everywhere; choice with p inverts the CDF lazily (cumulative_sum, searchsorted)."""
    k = la.random.key(21)
    perm = la.random.permutation(k, 40)
    picks = la.random.choice(k, 4, (500,), p=la.array(np.array([0.1, 0.2, 0.3, 0.4])))
    la.eval(perm, picks)
    bits, _, f64 = _expected_unit(k, 500)
    np.testing.assert_array_equal(np.asarray(perm), np.argsort(bits[:40], kind="stable"))
    cdf = np.cumsum([0.1, 0.2, 0.3, 0.4])
    want = np.minimum(np.searchsorted(cdf, f64 * cdf[-1], side="right"), 3)
    np.testing.assert_array_equal(np.asarray(picks), want)
    assert la.explain(la.random.permutation(k, 40)).num_library_calls == 1


@settings(max_examples=10, deadline=None)
@given(shape=array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5),
       seed=st.integers(0, 2**64 - 1))
def test_any_shape_draws_the_flat_sequence(shape, seed):
    """For any shape and seed, a draw is the flat Philox sequence in row-major order."""
    with la.config(backend="numpy"):
        k = la.random.key(seed)
        got = np.asarray(la.random.uniform(k, shape))
    n = math.prod(shape)
    np.testing.assert_array_equal(got.ravel(), _expected_unit(k, n)[2])
    assert got.shape == shape


def test_a_new_shape_compiles_nothing(backend, fresh_caches):
    """The position's strides are kernel arguments: a dropout over another batch size builds a
    plan but reuses the compiled kernel (GUIDE: kernels generic over sizes)."""
    k = la.random.key(4)
    outs = []
    for rows in (8, 13, 29):
        x = la.array(np.ones((rows, 16), np.float32))
        outs.append(np.asarray(x * (la.random.uniform(k, x.shape, la.float32) > 0.5)))
        if rows == 8:
            first = la.cache_info().kernels_compiled
    assert la.cache_info().kernels_compiled == first
    _, f32, _ = _expected_unit(k, 29 * 16)
    np.testing.assert_array_equal(outs[2].ravel(), (f32 > 0.5).astype(np.float32))
    np.testing.assert_array_equal(outs[0].ravel(), (f32[:8 * 16] > 0.5).astype(np.float32))
