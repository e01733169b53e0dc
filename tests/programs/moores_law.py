"""The NumPy tutorial "Determining Moore's Law with real data in NumPy": transistor counts fitted
log-linearly, by np.polyfit and by np.linalg.lstsq on [year, 1] columns from np.vstack(...).T,
the doubling time from the slope, predictions by np.polyval and np.exp, the residual and R^2,
the yearly rate printed with an f-string format spec, and a per-year mean over np.unique."""

import numpy

SIZES = {"small": dict(N=30), "bench": dict(N=100000)}


def inputs(rng, N):
    year = numpy.sort(rng.integers(1971, 2020, N)).astype(numpy.float64)
    transistor_count = numpy.exp(0.34 * (year - 1971) + 7.8 + rng.normal(0, 0.8, N))
    return year, transistor_count


def kernel(np, year, transistor_count):
    yi = np.log(transistor_count)
    B, A = np.polyfit(year, yi, 1)
    Z = np.vstack([year, np.ones(len(year))]).T
    (slope, intercept), residuals, rank, sv = np.linalg.lstsq(Z, yi, rcond=None)
    doubling = np.log(2) / slope
    yhat = np.polyval([B, A], year)
    r2 = 1 - np.sum((yi - yhat) ** 2) / np.sum((yi - yi.mean()) ** 2)
    transistor_count_predicted = np.exp(B * year + A)
    rate = f"Rate of semiconductors added on a chip every 2 years: {np.exp(2 * B):.2f}"
    years, inverse = np.unique(year, return_inverse=True)
    per_year = np.bincount(inverse, weights=yi) / np.bincount(inverse)
    transistor_count2017 = transistor_count[year == 2017]
    return (B, A, slope, intercept, residuals, rank, sv, doubling, r2, transistor_count_predicted,
            rate, years, per_year, transistor_count2017.max(initial=0.0))
