"""What generated CUDA needs that NVRTC does not provide, and the block-level reduction helpers.

NVRTC has no standard headers: no <stdint.h>, no <math.h> macros (`INFINITY`, `NAN`), no limits. The
math *functions* (`expf`, `tanh`, `isnan`, `nearbyintf`, ...) are built in. This prelude defines the
rest, so the C family's helpers (`la_add_i32`, `la_cast_f32_i32`, ...) compile unchanged under the CUDA
qualifiers, and adds the reductions every reduction kernel calls:

    acc = la_block_reduce(acc, identity, combine, smem);   // every thread gets the block's result

The reduction order is fixed (each thread folds its strided elements in order, then a warp-shuffle
tree, then warp 0 folds the per-warp partials), so results are deterministic for a given launch shape.
Launch shapes depend only on sizes (runtime/cuda/launch.py), so equal inputs give equal bits.
"""

from __future__ import annotations

# Device-function qualifier that replaces C's `static inline` for every helper.
DEVICE_INLINE = "static __device__ __forceinline__"

TYPES = r"""
/* Generic templates may leave an operand unused (isnan of an integer is 0) or compare an unsigned
   value with 0 (the sign test of mixed-sign comparisons): both are intended. */
#pragma nv_diag_suppress 177
#pragma nv_diag_suppress 186
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
#define INT8_MIN (-128)
#define INT8_MAX 127
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define INT64_MIN (-9223372036854775807LL - 1)
#define INT64_MAX 9223372036854775807LL
#define UINT8_MAX 255
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295U
#define UINT64_MAX 18446744073709551615ULL
#define INFINITY __int_as_float(0x7f800000)
#define NAN __int_as_float(0x7fffffff)
"""

REDUCE = r"""
/* Shuffles exist for 32- and 64-bit types; narrower ones travel as int. */
template <typename T> __device__ __forceinline__ T la_shfl_down(T v, int d) {
  return __shfl_down_sync(0xffffffffu, v, d);
}
#define LA_SHFL_VIA_INT(T) \
  template <> __device__ __forceinline__ T la_shfl_down<T>(T v, int d) { \
    return (T)__shfl_down_sync(0xffffffffu, (int)v, d); }
LA_SHFL_VIA_INT(bool)
LA_SHFL_VIA_INT(signed char)
LA_SHFL_VIA_INT(unsigned char)
LA_SHFL_VIA_INT(short)
LA_SHFL_VIA_INT(unsigned short)

/* Arg-reductions fold (value, flat inner position) pairs; the kernel's combine breaks ties by the
   smaller position, so the tree's visiting order cannot change the answer. */
template <typename T> struct la_pair { T v; long long i; };
template <typename T> __device__ __forceinline__ la_pair<T> la_shfl_down(la_pair<T> p, int d) {
  la_pair<T> o;
  o.v = la_shfl_down(p.v, d);
  o.i = la_shfl_down(p.i, d);
  return o;
}

/* Fold a warp's 32 values into lane 0 in a fixed tree order. */
template <typename T, typename F>
__device__ __forceinline__ T la_warp_reduce(T v, F combine) {
  const int lane = threadIdx.x & 31;
  for (int d = 16; d > 0; d >>= 1) {
    T other = la_shfl_down(v, d);
    if (lane + d < 32) v = combine(v, other);
  }
  return v;
}

/* Block reduction (blockDim.x a multiple of 32, at most 1024); every thread returns the result.
   smem: 33 entries of T. Ends with a barrier, so smem is free again for the next reduction. */
template <typename T, typename F>
__device__ __forceinline__ T la_block_reduce(T v, T identity, F combine, T* smem) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  v = la_warp_reduce(v, combine);
  if (lane == 0) smem[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < nwarps ? smem[lane] : identity;
    v = la_warp_reduce(v, combine);
    if (lane == 0) smem[32] = v;
  }
  __syncthreads();
  v = smem[32];
  __syncthreads();
  return v;
}
"""


def cuda_prelude(helpers: str = "") -> str:
    """Types and macros, the C family's helpers (rendered with DEVICE_INLINE), the reductions."""
    return "\n".join(("/* lazyarray CUDA prelude */", TYPES, helpers, REDUCE))
