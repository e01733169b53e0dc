"""The numpy backend (the fallback without a compiler) and the node-by-node reference peak at no
more memory than NumPy eager on a 20-op chain: temporaries die after their last reader (issue 10,
item 7; benchmarks/bench_memory.py measures the full-size figures)."""

import tracemalloc

import numpy as np
import pytest

import lazyarray as la

N = 2**18  # 1 MB of float32: large against every fixed cost, small for the suite


def chain(m, v):
    for _ in range(5):
        v = m.tanh(v * 1.5 + 0.25) - v * 0.5
    return v


def _peak(run) -> int:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        out = run()
        return tracemalloc.get_traced_memory()[1] - base, out
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("optimize", [True, False], ids=["fused", "node-by-node"])
def test_numpy_backend_peaks_no_higher_than_numpy_eager(optimize):
    x = np.random.default_rng(0).random(N, dtype=np.float32)
    with la.config(backend="numpy", optimize=optimize):
        np.asarray(chain(la, la.asarray(x[:64])))  # plan built outside the measurement
        eager, want = _peak(lambda: chain(np, x))
        lazy, got = _peak(lambda: np.asarray(chain(la, la.asarray(x, copy=False))))
    np.testing.assert_allclose(got, want, rtol=1e-5)
    assert lazy <= eager * 1.05, (lazy, eager)
