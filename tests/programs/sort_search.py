"""Sorting idioms: argsort ranks, a stable sort by key, np.searchsorted into sorted breakpoints,
np.diff gaps, np.unique's inverse and a sorted-merge of two arrays."""

import numpy

SIZES = {"small": dict(N=30, K=6), "bench": dict(N=200000, K=64)}


def inputs(rng, N, K):
    scores = rng.random(N)
    keys = rng.integers(0, K, N)
    breaks = numpy.sort(rng.random(K))
    return scores, keys, breaks


def kernel(np, scores, keys, breaks):
    order = np.argsort(scores)
    ranks = np.empty_like(order)
    ranks[order] = np.arange(len(scores))
    by_key = np.argsort(keys, kind="stable")
    sorted_keys = keys[by_key]
    group_starts = np.flatnonzero(np.diff(sorted_keys)) + 1
    bucket = np.searchsorted(breaks, scores)
    right = np.searchsorted(breaks, scores, side="right")
    gaps = np.diff(np.sort(scores))
    top3 = scores[order[-3:][::-1]]
    uniq, inverse = np.unique(keys, return_inverse=True)
    merged = np.sort(np.concatenate([scores[:5], breaks]))
    scores.sort()
    return ranks, sorted_keys, group_starts, bucket, right, gaps.max(), top3, uniq, inverse, merged
