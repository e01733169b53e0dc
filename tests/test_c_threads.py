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


def test_a_team_of_one_runs_the_region_directly_with_the_same_bits():
    """With nt == 1 a kernel's parallel region runs its body directly (c_compiler.SERIAL_REGION,
    linked with --wrap where the linker has it): elementwise and reduction kernels, on one thread
    and on two, give the bits of the same kernel's ordinary team (nt == 2 goes through libgomp)."""
    import sys

    from lazyarray.runtime import c_compiler

    tc = c_compiler.toolchain()
    if tc.openmp and sys.platform.startswith("linux"):
        assert c_compiler.SERIAL_REGION_FLAG in tc.flags
    rng = np.random.default_rng(3)
    x = la.array(rng.standard_normal((64, 257)).astype(np.float32))
    for make in (lambda: la.tanh(x) * 2.0 + x, lambda: la.sum(la.exp(x), axis=1),
                 lambda: la.max(x * x, axis=0), lambda: la.nn.softmax(x, axis=-1)):
        compiled = c_backend.CBackend().compile(optimize(Graph([make()._node])))
        got = {}
        for threads in (1, 2):
            for call in compiled.calls:
                call.nt = threads
            plan = c_backend.CPlan(compiled.program, compiled.calls)
            got[threads] = plan.run([x._node.data], [2.0] * len(plan.program.scalars))[0]
        np.testing.assert_array_equal(got[1], got[2])
