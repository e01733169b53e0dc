"""The fusion planner's per-kernel caps (passes/fuse.py): many same-shape results evaluated at
once (`la.eval(*outs)`) lower to several kernels, each within MAX_BUFFERS_PER_KERNEL, with
NumPy's values and dtypes on every backend; graphs under the cap keep one kernel."""

import numpy as np
import pytest
from lazyarray.graph import Graph
from lazyarray.passes import optimize
from lazyarray.passes.fuse import MAX_BUFFERS_PER_KERNEL

import lazyarray as la

_DTYPES = ("float32", "float64", "int32", "int64", "uint8", "int16")


def _mixed(xp, n: int) -> list:
    """`(x_k * 3 + y) / 7` over x_k of six dtypes and one float64 y per result: three buffers
    (two loads, one store) per result, as tests/test_dask.py's dtype sweep had."""
    out = []
    for k in range(n):
        x = xp.asarray((np.arange(7) % 5 + k).astype(_DTYPES[k % len(_DTYPES)]))
        y = xp.asarray(np.linspace(-1.0, 1.0, 7) + k)
        out.append((x * 3 + y) / 7)
    return out


def _masked_complex(xp, n: int) -> list:
    """`where(m_k, z_k * v, z_k)` on complex128 with bool masks (what `.at[mask].multiply(v)`
    lowers to: tests/test_at_values.py's complex128 sweep fused 60 such into one kernel)."""
    out = []
    for k in range(n):
        z = xp.asarray(np.array([3 + 1j, 1 - 2j, 2 + 0.5j]) + k)
        m = xp.asarray(np.array([True, False, k % 2 == 0]))
        out.append(xp.where(m, z * (0.5 + 1j * k), z))
    return out


def _buffers(kernel) -> int:
    return len(set(kernel.input_slots) | set(kernel.output_slots))


@pytest.mark.parametrize("build", [_mixed, _masked_complex], ids=["mixed", "masked_complex"])
def test_many_results_lower_to_kernels_within_the_buffer_cap(backend, build):
    """24 results of 3 buffers each (72) were one kernel (gcc's time grows much faster than a
    loop's load and store streams: 198 took cc1 minutes): now kernels of at most the cap, and
    the values and dtypes are NumPy's through the planned path (eager_size=0)."""
    program = optimize(Graph([a._node for a in build(la, 24)]))
    per_kernel = [_buffers(k) for k in program.kernels]
    assert max(per_kernel) <= MAX_BUFFERS_PER_KERNEL and len(per_kernel) >= 3, per_kernel
    with la.config(eager_size=0):
        got = build(la, 24)
        la.eval(*got)
    for g, want in zip(got, build(np, 24)):
        assert g.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(g), want)


def test_results_under_the_cap_share_one_kernel():
    """Ordinary multi-output programs are not split: 8 results over 24 buffers are one kernel."""
    program = optimize(Graph([a._node for a in _mixed(la, 8)]))
    assert len(program.kernels) == 1 and _buffers(program.kernels[0]) == 24


def test_a_full_kernel_leaves_a_reduction_of_its_root_to_a_kernel_of_its_own(backend):
    """`la.eval(e_0, ..., e_15, la.sum(e_15))`: the sum would be folded into the kernel that
    stores e_15 (stored from its inner stage); that kernel already holds the cap (16 results of
    two buffers), so the sum reads e_15's buffer in a kernel of its own, and the e's kernel stays
    a plain loop whose every dim threads may share (moved onto the sum's loop, it had no outer
    dim, and the sum still did not fit), with NumPy's values."""
    def build(xp):
        es = [xp.asarray(np.arange(7.0) + k) * 2.0 + 1.0 for k in range(16)]
        return [*es, xp.sum(es[-1]), xp.sum(es[-1] * es[0])]

    program = optimize(Graph([a._node for a in build(la)]))
    assert max(_buffers(k) for k in program.kernels) <= MAX_BUFFERS_PER_KERNEL
    stores_es = [k for k in program.kernels if len(k.output_slots) == 16]
    assert len(stores_es) == 1 and stores_es[0].n_outer == len(stores_es[0].space) == 1
    with la.config(eager_size=0):
        got = build(la)
        la.eval(*got)
    for g, want in zip(got, build(np)):
        assert g.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(g), want)
