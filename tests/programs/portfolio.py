"""Portfolio statistics in float32 as finance tutorials write them: an equal-weight portfolio
`w = np.full(n, 1 / n, dtype=np.float32)` and its returns `R @ w`, annualised mean and volatility
with np.sqrt(252), the covariance by np.cov(rowvar=False), portfolio risk `np.sqrt(w @ cov @ w)`,
minimum-variance weights from np.linalg.solve(cov, ones) normalised, the cumulative wealth by
np.cumprod(1 + r), Sharpe ratios per asset, and the weights rebalanced in place."""

import numpy

SIZES = {"small": dict(T=30, n=5), "bench": dict(T=1000, n=150)}


def inputs(rng, T, n):
    returns = (0.0003 + 0.01 * rng.standard_normal((T, n))).astype(numpy.float32)
    weights = numpy.full(n, 1.0 / n, dtype=numpy.float32)
    return returns, weights


def kernel(np, returns, weights):
    T, n = returns.shape
    w = np.full(n, 1 / n, dtype=np.float32)
    port = returns @ w
    port_given = returns @ weights
    ann_mean = port.mean() * 252
    ann_vol = port.std(ddof=1) * np.sqrt(252)
    cov = np.cov(returns, rowvar=False)
    risk = np.sqrt(w @ cov @ w)
    ones = np.ones(n)
    mv = np.linalg.solve(cov, ones)
    mv /= mv.sum()
    mv_returns = returns @ mv
    wealth = np.cumprod(1 + port)
    sharpe = returns.mean(axis=0) / returns.std(axis=0) * np.sqrt(252)
    best = int(np.argmax(sharpe))
    weights *= 1 + returns[-1]
    weights /= weights.sum()
    return (port, port_given, ann_mean, ann_vol, cov, risk, mv, mv_returns, wealth[-1], sharpe,
            best, float(wealth.max()))
