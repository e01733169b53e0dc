"""What generated CUDA needs that NVRTC does not provide, and the block-level reduction helpers.

NVRTC has no standard headers: no <stdint.h>, no <math.h> macros (`INFINITY`, `NAN`), no limits. The
math *functions* (`expf`, `tanh`, `isnan`, `nearbyintf`, ...) are built in. This prelude defines the
rest, so the C family's helpers (`la_add_i32`, `la_cast_f32_i32`, ...) compile unchanged under the CUDA
qualifiers, and adds the reductions every reduction kernel calls:

    acc = la_block_reduce(acc, identity, combine, smem);   // every thread gets the block's result

The reduction order is fixed (each thread folds its strided elements in order, then a warp-shuffle
tree, then warp 0 folds the per-warp partials), so results are deterministic for a given launch shape.
Launch shapes depend only on sizes (runtime/cuda_launch.py), so equal inputs give equal bits.
"""

from __future__ import annotations

# Device-function qualifier that replaces C's `static inline` for every helper.
DEVICE_INLINE = "static __device__ __forceinline__"

TYPES = r"""
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

/* Arg-reductions fold (value, flat inner position) pairs. `better(a, b)` says whether candidate a
   beats b; ties go to the smaller position (first occurrence), so the result does not depend on
   the order the tree visits them. */
template <typename T> struct la_arg { T v; long long i; };
template <typename T, typename B>
__device__ __forceinline__ la_arg<T> la_arg_pick(la_arg<T> a, la_arg<T> b, B better) {
  if (better(a.v, b.v)) return a;
  if (better(b.v, a.v)) return b;
  return a.i <= b.i ? a : b;
}
template <typename T, typename B>
__device__ __forceinline__ la_arg<T> la_block_argreduce(la_arg<T> v, B better,
                                                               la_arg<T>* smem) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  for (int pass = 0; pass < 2; ++pass) {
    for (int d = 16; d > 0; d >>= 1) {
      la_arg<T> o;
      o.v = la_shfl_down(v.v, d);
      o.i = la_shfl_down(v.i, d);
      if (lane + d < 32 && o.i >= 0) v = v.i < 0 ? o : la_arg_pick(v, o, better);
    }
    if (pass == 0) {
      if (lane == 0) smem[warp] = v;
      __syncthreads();
      if (warp != 0) break;
      if (lane < nwarps) v = smem[lane]; else v.i = -1;
    }
  }
  if (threadIdx.x == 0) smem[32] = v;
  __syncthreads();
  v = smem[32];
  __syncthreads();
  return v;
}
"""


def cuda_prelude(helpers: str = "") -> str:
    """The full prelude: types and macros, the C family's helpers (rendered by the C printer with
    DEVICE_INLINE as their qualifier), then the reduction helpers."""
    return "\n".join(("/* lazyarray CUDA prelude */", TYPES, helpers, REDUCE))
