"""When the c backend uses threads: by work (elements weighted by ops per element), not size alone."""

import numpy as np
import pytest
from lazyarray.graph import Graph
from lazyarray.passes import optimize
from lazyarray.runtime import c_backend

import lazyarray as la

pytestmark = pytest.mark.skipif(c_backend.CBackend.unavailable_reason() is not None,
                                reason="no C compiler")


def _kernel(*arrays):
    (kernel,) = optimize(Graph([a._node for a in arrays])).kernels
    return kernel


def test_compute_heavy_kernels_go_parallel_on_fewer_elements():
    B, H = 256, 1024  # 2**18 elements: below the plain threshold
    gates, c = la.zeros((B, 4 * H), dtype=la.float32), la.ones((B, H), dtype=la.float32)
    i, f, g, o = (gates[:, k * H:(k + 1) * H] for k in range(4))
    new_c = la.nn.sigmoid(f) * c + la.nn.sigmoid(i) * la.tanh(g)
    lstm = _kernel(new_c, la.nn.sigmoid(o) * la.tanh(new_c))
    add = _kernel(la.array(np.ones((B, H), np.float32)) + 1.0)
    n = B * H
    assert n < c_backend.PARALLEL_THRESHOLD
    assert c_backend.parallel_work(lstm, n) >= c_backend.PARALLEL_THRESHOLD
    assert c_backend.parallel_work(add, n) < c_backend.PARALLEL_THRESHOLD
    assert c_backend.parallel_work(add, c_backend.PARALLEL_THRESHOLD) >= c_backend.PARALLEL_THRESHOLD
