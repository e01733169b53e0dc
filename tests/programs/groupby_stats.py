"""Data-analysis idioms without pandas: group sums and means by np.unique(return_inverse=True)
and np.bincount(weights=), a moving average by differences of np.cumsum, a sort by two keys with
np.lexsort, binning by np.digitize, a 2-D histogram, NaN-aware statistics (nanmedian,
nanpercentile, nanmin), np.clip of outliers and np.round(..., 2) of the summary."""

import numpy

SIZES = {"small": dict(N=40, G=4, w=5), "bench": dict(N=40000, G=50, w=30)}


def inputs(rng, N, G, w):
    keys = rng.integers(0, G, N)
    dates = rng.integers(0, 30, N)
    values = rng.normal(100, 15, N)
    values[rng.random(N) < 0.1] = numpy.nan
    x = rng.random(N)
    y = rng.random(N)
    return keys, dates, values, x, y, w


def moving_average(np, a, n):
    ret = np.cumsum(a, dtype=float)
    ret[n:] = ret[n:] - ret[:-n]
    return ret[n - 1:] / n


def kernel(np, keys, dates, values, x, y, w):
    groups, inverse = np.unique(keys, return_inverse=True)
    valid = ~np.isnan(values)
    sums = np.bincount(inverse[valid], weights=values[valid], minlength=len(groups))
    counts = np.bincount(inverse[valid], minlength=len(groups))
    means = sums / np.maximum(counts, 1)
    filled = np.where(valid, values, means[inverse])
    ma = moving_average(np, filled, w)
    order = np.lexsort((filled, dates, keys))
    bins = np.linspace(0, 1, 5)
    which = np.digitize(x, bins)
    which_right = np.digitize(x, bins, right=True)
    H, xedges, yedges = np.histogram2d(x, y, bins=4)
    H2, _, _ = np.histogram2d(x, y, bins=[3, 5], range=[[0, 1], [0, 0.5]])
    stats = (np.nanmedian(values), np.nanpercentile(values, [5, 95]), np.nanmin(values),
             np.nanmax(values), np.nanmean(values), np.nanstd(values, ddof=1))
    lo, hi = np.nanpercentile(values, [1, 99])
    clipped = np.clip(filled, lo, hi)
    summary = np.round(np.array([clipped.mean(), clipped.std(), clipped.min(), clipped.max()]), 2)
    per_key_max = np.full(len(groups), -np.inf)
    np.maximum.at(per_key_max, inverse, filled)
    values[~valid] = means[inverse[~valid]]  # impute in place
    return (groups, sums, counts, means, ma, order, which, which_right, H, xedges, yedges, H2,
            stats, clipped, summary, per_key_max, np.round(means, decimals=1))
