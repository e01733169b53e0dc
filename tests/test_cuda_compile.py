"""Generated CUDA compiles with NVRTC — the compiler cupy.RawKernel uses — without a GPU.

NVRTC comes from the `nvrtc` extra (`pip install -e '.[test,nvrtc]'`, as CI does). Kernels here are the
CUDA frames around hand-written stage bodies in the shape the C printer renders them; every kernel the
differential corpus produces is compiled by the corpus test once the printer renders kernel IR.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from lazyarray.runtime import nvrtc
from lazyarray.runtime.cuda_frames import (
    KernelParts,
    ReduceParts,
    StageParts,
    render_elementwise,
    render_rows,
    render_two_stage,
    two_stage_eligible,
)
from lazyarray.runtime.cuda_prelude import cuda_prelude

_REASON = nvrtc.unavailable_reason()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=f"NVRTC unavailable: {_REASON}")

_C = {"float32": "float", "float64": "double", "int32": "int32_t", "int64": "int64_t",
      "int8": "int8_t", "uint16": "uint16_t", "bool": "bool"}
_MAX = ("__device__ __forceinline__ float la_max_f32(float a, float b) "
        "{ return (a != a || a > b) ? a : b; }\n")


def _params(tin: str, tout: str) -> str:
    return (f"const {tin}* __restrict__ x, {tout}* __restrict__ y, "
            "const long long* __restrict__ meta")


def _row_parts(name: str, stages: tuple[StageParts, ...], tin="float", tout="float") -> KernelParts:
    return KernelParts(name, _params(tin, tout), "meta[0]", "meta[1]", "const la_idx i0 = o;",
                       "const la_idx i1 = j;", stages)


_LOAD = "const {t} e0 = x[i0 * meta[2] + i1 * meta[3]];"


def softmax_parts() -> KernelParts:
    load = _LOAD.format(t="float")
    return _row_parts("softmax", (
        StageParts(True, load, (ReduceParts("acc0_0", "float", "-INFINITY", "e0",
                                            "{acc} = la_max_f32({acc}, {0})"),)),
        StageParts(True, load + " const float e1 = expf(e0 - acc0_0);",
                   (ReduceParts("acc1_0", "float", "0.0f", "e1", "{acc} = {acc} + {0}"),)),
        StageParts(True, load + " y[i0 * meta[4] + i1 * meta[5]] = expf(e0 - acc0_0) / acc1_0;"),
    ))


def sum_parts(dtype: str) -> KernelParts:
    t = _C[dtype]
    return _row_parts(f"sum_{dtype}", (
        StageParts(True, _LOAD.format(t=t), (ReduceParts("acc0_0", t, "0", "e0",
                                                         "{acc} = {acc} + {0}"),)),
        StageParts(False, "y[i0 * meta[4]] = acc0_0;"),
    ), t, t)


def argmax_parts() -> KernelParts:
    return _row_parts("argmax_f64", (
        StageParts(True, _LOAD.format(t="double"), (ReduceParts(
            "acc0_0", "double", "0.0", "e0", "", better="a > b || (a != a && b == b)"),)),
        StageParts(False, "y[i0 * meta[4]] = acc0_0.i;"),
    ), "double", "int64_t")


def sigmoid_parts() -> KernelParts:
    return KernelParts("sigmoid", _params("float", "float"), "meta[0]", "1",
                       "const la_idx i0 = o;", "",
                       (StageParts(False, "const float e0 = x[i0 * meta[2]];\n"
                                          "y[i0] = 1.0f / (1.0f + expf(-e0));"),))


def _module() -> str:
    kernels = [render_rows(softmax_parts()), render_rows(argmax_parts()),
               render_elementwise(sigmoid_parts(), "int"),
               render_elementwise(replace(sigmoid_parts(), name="sigmoid64"), "long long")]
    for dtype in ("float32", "float64", "int64", "int8", "uint16", "bool"):
        kernels.append(render_rows(sum_parts(dtype)))
    kernels.append(render_two_stage(replace(sum_parts("float32"), name="sum2")))
    return cuda_prelude(_MAX) + "\n".join(kernels)


_ENTRIES = ("softmax", "argmax_f64", "sigmoid", "sigmoid64", "sum_float32", "sum_float64",
            "sum_int64", "sum_int8", "sum_uint16", "sum_bool", "sum2_partial", "sum2_final")


@pytest.fixture(scope="module")
def compiled() -> nvrtc.CompiledModule:
    return nvrtc.compile_cuda(_module(), name="frames.cu")


def test_every_frame_compiles_to_a_cubin_for_hopper(compiled):
    assert compiled.kind == "cubin" and compiled.image[:4] == b"\x7fELF"
    assert sorted(compiled.resources) == sorted(_ENTRIES)


def test_frames_compile_without_warnings(compiled):
    assert "warning" not in compiled.log, compiled.log


def test_simple_kernels_do_not_spill(compiled):
    for name, res in compiled.resources.items():
        assert not res.spills and res.stack_bytes == 0, (name, res)
        assert 0 < res.registers <= 64, (name, res)


def test_sixty_four_bit_indices_cost_registers_only_where_used(compiled):
    r = compiled.resources
    assert r["sigmoid"].registers <= r["sigmoid64"].registers


def test_two_stage_applies_only_to_reduce_then_store_kernels():
    assert two_stage_eligible(sum_parts("float32"))
    assert not two_stage_eligible(softmax_parts())
    assert not two_stage_eligible(argmax_parts())


def test_compile_error_carries_the_log_and_numbered_source():
    src = 'extern "C" __global__ void k(float* y) { y[0] = -INFINITY; }'  # no prelude: undefined
    with pytest.raises(nvrtc.CompileError) as info:
        nvrtc.compile_cuda(src)
    message = str(info.value)
    assert "INFINITY" in info.value.log and "1  extern" in message


def test_prelude_defines_what_nvrtc_lacks():
    src = cuda_prelude() + ('extern "C" __global__ void k(double* y, int64_t* z, uint8_t* w) '
                            "{ y[0] = -INFINITY + NAN; z[0] = INT64_MIN; w[0] = UINT8_MAX; }")
    assert "k" in nvrtc.compile_cuda(src).resources


def test_ptx_target_returns_text():
    out = nvrtc.compile_cuda(cuda_prelude() + render_elementwise(sigmoid_parts()),
                             arch="compute_90")
    assert out.kind == "ptx" and b".entry sigmoid" in out.image


def test_parse_resources_reads_spills():
    log = ("ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
           "ptxas info    : Function properties for k\n"
           "ptxas         .     24 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
           "ptxas info    : Used 255 registers, used 0 barriers\n")
    res = nvrtc.parse_resources(log)["k"]
    assert (res.registers, res.stack_bytes, res.spill_stores, res.spill_loads) == (255, 24, 8, 12)
    assert res.spills


def test_nvrtc_version_is_12_or_newer():
    assert nvrtc.version() >= (12, 0)
