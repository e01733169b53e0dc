"""Cleaning a data matrix with missing values (a data-science tutorial): NaN counts per column,
column means by np.nanmean filled in with np.where and np.take, rows dropped with
~np.isnan(X).any(axis=1), linear interpolation of gaps by np.interp, z-scores with nanstd,
np.nan_to_num and np.nanargmax."""

import numpy

SIZES = {"small": dict(N=30, D=4), "bench": dict(N=200000, D=16)}


def inputs(rng, N, D):
    X = rng.standard_normal((N, D)) * 3.0 + 10.0
    X[rng.random((N, D)) < 0.15] = numpy.nan
    series = numpy.sin(numpy.linspace(0, 6, N))
    series[rng.random(N) < 0.2] = numpy.nan
    series[0] = series[-1] = 0.0
    return X, series


def kernel(np, X, series):
    missing = np.isnan(X).sum(axis=0)
    col_mean = np.nanmean(X, axis=0)
    filled = np.where(np.isnan(X), col_mean, X)
    inds = np.where(np.isnan(X))
    X2 = X.copy()
    X2[inds] = np.take(col_mean, inds[1])
    complete = X[~np.isnan(X).any(axis=1)]
    z = (X - np.nanmean(X, axis=0)) / np.nanstd(X, axis=0)
    gaps = np.isnan(series)
    idx = np.arange(series.shape[0])
    series[gaps] = np.interp(idx[gaps], idx[~gaps], series[~gaps])
    med = np.nanmedian(X, axis=0)
    top = np.nanargmax(X, axis=0)
    X[np.isnan(X)] = 0.0
    return (missing, col_mean, filled, X2, complete, np.nan_to_num(z), med, top,
            np.nanpercentile(z, 90, axis=0))
