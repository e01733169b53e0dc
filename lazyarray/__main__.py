"""`python -m lazyarray`: the demo (placeholder until the full demo lands)."""

import numpy as np

import lazyarray as la

x = la.array(np.random.default_rng(0).random((64, 128), dtype=np.float32))
w = la.array(np.random.default_rng(1).random((128, 32), dtype=np.float32))
y = la.tanh(x @ w + la.zeros(32, dtype=la.float32))
print(y)
