"""Price-series analysis as finance notebooks write it: log returns with np.diff, the running
maximum with np.maximum.accumulate, the maximum drawdown and its dates by argmax, a rolling mean
and volatility from sliding windows, cumulative returns with cumprod."""

import numpy

SIZES = {"small": dict(N=60, window=5), "bench": dict(N=400000, window=20)}


def inputs(rng, N, window):
    prices = 100.0 * numpy.exp(numpy.cumsum(rng.normal(0.0003, 0.01, N)))
    return prices, window


def kernel(np, prices, window):
    log_returns = np.diff(np.log(prices))
    simple = prices[1:] / prices[:-1] - 1
    growth = np.cumprod(1 + simple)
    running_max = np.maximum.accumulate(prices)
    drawdown = (prices - running_max) / running_max
    end = np.argmax(running_max - prices)
    start = np.argmax(prices[:end]) if end > 0 else 0
    windows = np.lib.stride_tricks.sliding_window_view(log_returns, window)
    rolling_mean = windows.mean(axis=-1)
    rolling_vol = windows.std(axis=-1, ddof=1) * np.sqrt(252)
    sharpe = log_returns.mean() / log_returns.std() * np.sqrt(252)
    up_days = np.count_nonzero(log_returns > 0)
    running_min = np.minimum.accumulate(prices[::-1])[::-1]
    return (log_returns, growth[-1], drawdown.min(), start, end, rolling_mean, rolling_vol, sharpe,
            up_days, running_min)
