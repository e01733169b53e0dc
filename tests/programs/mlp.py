"""A three-layer MLP forward pass with ReLU and a numerically stable softmax."""

import numpy

SIZES = {"small": dict(N=8, C_in=6, S0=16, S1=12, S2=4),
         "bench": dict(N=64, C_in=3, S0=3000, S1=256, S2=256)}


def inputs(rng, N, C_in, S0, S1, S2):
    f32 = numpy.float32
    return (rng.random((N, C_in)).astype(f32), rng.random((C_in, S0)).astype(f32),
            rng.random(S0).astype(f32), rng.random((S0, S1)).astype(f32) / S0,
            rng.random(S1).astype(f32), rng.random((S1, S2)).astype(f32) / S1,
            rng.random(S2).astype(f32))


def relu(np, x):
    return np.maximum(x, 0)


def softmax(np, x):
    tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_out = np.exp(x - tmp_max)
    tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    return tmp_out / tmp_sum


def kernel(np, input, w1, b1, w2, b2, w3, b3):
    x = relu(np, input @ w1 + b1)
    x = relu(np, x @ w2 + b2)
    return softmax(np, x @ w3 + b3)
