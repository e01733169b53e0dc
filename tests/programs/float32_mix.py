"""A float32 pipeline mixed with other scalars and arrays: Python floats stay weak, NumPy float64
scalars (a mean of a float64 array, np.pi as np.float64) promote, np.float32 scalars do not,
float32 reductions, int arrays times float32, in-place float32 updates with float64 operands."""

import numpy

SIZES = {"small": dict(N=24, M=6), "bench": dict(N=400000, M=64)}


def inputs(rng, N, M):
    x = rng.standard_normal(N).astype(numpy.float32)
    w = rng.standard_normal((M, N)).astype(numpy.float32)
    ref = rng.standard_normal(N)
    counts = rng.integers(0, 5, N).astype(numpy.int32)
    return x, w, ref, counts


def kernel(np, x, w, ref, counts):
    scaled = x * 0.5 + 1.0
    shift = ref.mean()
    shifted = x - shift
    by_np32 = x * np.float32(3.0)
    by_np64 = x * np.float64(3.0)
    angle = x * np.pi
    half = np.float32(0.5) * x + 2
    weighted = counts * x
    counts_f = counts / 2
    y = w @ x
    y_mean = y.mean()
    norm = np.sqrt((x * x).sum())
    x_std = x.std()
    tanh = np.tanh(x)
    x *= 2.0
    x += shift
    w[0] /= np.float64(4.0)
    w[1] = ref[:w.shape[1]]
    return (scaled, shift, shifted, by_np32, by_np64, angle, half, weighted, counts_f, y, y_mean,
            norm, x_std, tanh, float(norm) > 1.0)
