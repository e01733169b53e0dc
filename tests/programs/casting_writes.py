"""Writes that cast, as NumPy code relies on: float values stored into int arrays truncate toward
zero (`A[i] = 2.7`, masks, slices), bools store as 0/1, ints into bool arrays as truthiness,
float64 into float32 rounds, casting='unsafe' ufunc outputs and np.copyto, and astype chains."""

import numpy

SIZES = {"small": dict(N=10), "bench": dict(N=400000)}


def inputs(rng, N):
    counts = rng.integers(-5, 5, N)
    f = rng.standard_normal(N) * 3.0
    flags = rng.random(N) < 0.5
    f32 = numpy.zeros(N, dtype=numpy.float32)
    return counts, f, flags, f32


def kernel(np, counts, f, flags, f32):
    counts[0] = 2.7
    counts[1] = -2.7
    counts[f > 2.0] = f[f > 2.0]
    counts[-3:] = f[:3] * 10
    counts[2] = True
    flags[:3] = [0, 2, -1]
    flags[3:5] = f[3:5]
    f32[:] = f / 3.0
    f32[::2] += np.pi
    np.add(counts, 1.5, out=counts, casting="unsafe")
    np.copyto(counts[:4], f[:4] * 100, casting="unsafe")
    halves = (f * 2).astype(np.int32).astype(np.float32) / 2
    as_bool = f.astype(bool)
    u = (counts.astype(np.int64) % 256).astype(np.uint8)
    back = u.astype(np.int8)
    return halves, as_bool, u, back, counts.dtype == np.int64
