"""Frame, index width and grid choices for CUDA launches: sizes only, no device."""

from __future__ import annotations

import numpy as np
import pytest
from lazyarray.graph import get_op
from lazyarray.graph.kernel_ir import AccRef, Kernel, Load, Reduce, Stage, Store
from lazyarray.runtime.cuda.launch import choose_frame, index_type, launch_shapes, row_block

pytestmark = pytest.mark.gpu  # benchmarks/gpu_suite.sh runs `-m gpu` first

F32 = np.dtype("float32")


def _sum_kernel(rows: int, cols: int, op: str = "sum") -> Kernel:
    dt = np.dtype("int64") if op == "argmax" else F32
    load = Load(0, (cols, 1), 0, F32)
    return Kernel(op, (rows, cols), 1, (
        Stage(True, (load,), (Reduce(get_op(op), 0, dt),)),
        Stage(False, (AccRef(0, 0, dt),), (), (Store(1, (1, 0), 0, 0),)),
    ))


def _elementwise(n: int, stride: int = 1) -> Kernel:
    return Kernel("neg", (n,), 1, (Stage(False, (Load(0, (stride,), 0, F32),), (),
                                         (Store(1, (1,), 0, 0),)),))


def test_elementwise_kernels_use_the_grid_stride_frame():
    k = _elementwise(1 << 26)
    assert choose_frame(k) == "elementwise"
    (shape,) = launch_shapes(k)
    assert shape.block == (256,) and shape.grid == (1 << 16,)


def test_index_width_follows_the_largest_reachable_offset():
    assert index_type(_elementwise(1 << 20)) == "int"
    assert index_type(_elementwise(1 << 31)) == "long long"
    assert index_type(_elementwise(1 << 20, stride=1 << 12)) == "long long"  # strided reach


def test_short_rows_get_one_block_each_and_a_narrow_block():
    k = _sum_kernel(8192, 40)
    assert choose_frame(k) == "rows"
    assert launch_shapes(k)[0].grid == (8192,) and launch_shapes(k)[0].block == (64,)
    assert row_block(1) == 32 and row_block(4096) == 256


def test_few_long_rows_reduce_in_two_stages_except_arg_reductions():
    assert choose_frame(_sum_kernel(1, 1 << 26)) == "two_stage"
    partial, final = launch_shapes(_sum_kernel(2, 1 << 26))
    assert partial.grid == (512, 2) and final.grid == (2,)
    assert choose_frame(_sum_kernel(1, 1 << 26, "argmax")) == "rows"
    assert choose_frame(_sum_kernel(4096, 1 << 16)) == "rows"
