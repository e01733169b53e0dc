"""The same kernel at another position of a program, or in another plan, compiles once: the C
backend prints and keys each kernel in its own numbering of buffers and scalars
(runtime/c/canonical.py), and the plan hands each kernel a pointer to its own scalars."""

import c_programs as P
import numpy as np
import pytest

import lazyarray as la
from lazyarray.runtime.c import backend as c_backend
from lazyarray.runtime.c.backend import CBackend, scalar_blocks
from lazyarray.runtime.c.canonical import canonical_kernel

needs_c = pytest.mark.skipif(CBackend.unavailable_reason() is not None,
                             reason="no working C compiler")


def _kernels_loaded():
    """Kernels that were not already in this process: compiled or read from the disk cache."""
    info = la.cache_info()
    return info.kernels_compiled + info.kernel_disk_hits


def test_power_iteration_compiles_each_kernel_once(backend, fresh_caches):
    """Eight steps of `v = a @ v; v = v / norm(v)` in one plan: two kernels a step, at 16
    positions; they used to differ by buffer slot numbers and compiled 16 times over."""
    a0 = np.random.default_rng(0).standard_normal((16, 16)).astype(np.float32)
    want = np.ones(16, np.float32)
    for _ in range(8):
        want = a0 @ want
        want = want / np.linalg.norm(want)
    with la.config(max_graph_nodes=10_000):
        a, v = la.array(a0), la.ones(16, dtype=la.float32)
        for _ in range(8):
            v = a @ v
            v = v / la.linalg.norm(v)
        got = np.asarray(v)
    assert la.cache_info().plans_built == 1
    if backend == "c":
        assert _kernels_loaded() <= 4, la.cache_info()
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_a_jitted_scatter_loop_is_two_kernels(backend, fresh_caches):
    """`x = x.at[i].set(x[i - 1] + 1)` for 120 positions: the offset of x[i - 1] travels at run
    time and each kernel reads its own scalar, so 120 kernels are two (offset 0 and not)."""
    @la.jit
    def fill(x):
        for i in range(1, 120):
            x = x.at[i].set(x[i - 1] + 1)
        return x

    with la.config(max_graph_nodes=10_000):
        got = np.asarray(fill(la.zeros(120, dtype=la.float32)))
    if backend == "c":
        assert _kernels_loaded() <= 3, la.cache_info()
    np.testing.assert_array_equal(got, np.arange(120, dtype=np.float32))


def test_renumbered_kernels_at_two_positions_are_one():
    first = P.scattered_scalars(8)[0].kernels[1]
    shifted = P._shift_kernel(first, 7, 4)  # the same kernel 7 slots and 4 scalars further on
    assert canonical_kernel(first, frozenset()) == canonical_kernel(shifted, frozenset())
    kernel, shared = canonical_kernel(shifted, frozenset({8}))
    assert [s.slot for s in kernel.stages[0].stores] == [1] and shared == frozenset({0})


def test_each_kernel_reads_its_own_scalars():
    # consecutive scalars are read in place; a scattered set gets a copy appended
    assert scalar_blocks(3, [(1,), (0, 2)]) == ([0, 1, 2, 0, 2], [1, 3])
    assert scalar_blocks(4, [(0, 1), (), (2, 3)]) == (None, [0, 0, 2])


@needs_c
def test_a_kernel_reading_scattered_scalars_gets_them_in_order(tmp_path, monkeypatch):
    monkeypatch.setattr(c_backend.c_compiler, "cache_dir_override", str(tmp_path))
    prog, arrays, scalars, expected = P.scattered_scalars(33)
    plan = CBackend().compile(prog)
    assert plan.scalar_order is not None and plan.scalar_offsets == [1, 3]
    for values in (scalars, [2.0, -1.0, 0.25]):
        want = values[2] + arrays[0] * values[1] * values[0]
        np.testing.assert_array_equal(plan.run(arrays, values)[0], want)
        np.testing.assert_array_equal(plan.run_steps(arrays, values)[0], want)
