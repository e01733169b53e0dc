"""Descriptive statistics from a histogram and from counts: np.histogram, bin centres, the
weighted mean and mode, np.unique(return_counts=True), np.bincount, percentiles and a z-score
filter with `~`."""

import numpy

SIZES = {"small": dict(N=300, bins=12), "bench": dict(N=300000, bins=100)}


def inputs(rng, N, bins):
    x = rng.normal(5.0, 2.0, N)
    labels = rng.integers(0, 7, N)
    return x, labels, bins


def kernel(np, x, labels, bins):
    counts, edges = np.histogram(x, bins=bins)
    centres = 0.5 * (edges[1:] + edges[:-1])
    hist_mean = np.sum(counts * centres) / np.sum(counts)
    hist_var = np.sum(counts * (centres - hist_mean) ** 2) / (counts.sum() - 1)
    mode = centres[np.argmax(counts)]
    values, value_counts = np.unique(np.round(x), return_counts=True)
    most_common = values[value_counts.argmax()]
    per_label = np.bincount(labels)
    label_means = np.bincount(labels, weights=x) / per_label
    q1, median, q3 = np.percentile(x, [25, 50, 75])
    z = (x - x.mean()) / x.std()
    outliers = np.abs(z) > 2
    trimmed = x[~outliers]
    return (counts, hist_mean, hist_var, mode, values, value_counts, most_common, per_label,
            label_means, q3 - q1, median, outliers.sum(), trimmed.mean())
