"""2-D convolution (NHWC, valid) plus bias, as a loop over the output pixels with tensordot-style
sums."""

import numpy

SIZES = {"small": dict(N=2, H=8, W=8, C_in=3, C_out=4, K=3),
         "bench": dict(N=4, H=32, W=32, C_in=8, C_out=16, K=3)}


def inputs(rng, N, H, W, C_in, C_out, K):
    return (rng.random((N, H, W, C_in)).astype(numpy.float32),
            rng.random((K, K, C_in, C_out)).astype(numpy.float32),
            rng.random(C_out).astype(numpy.float32))


def conv2d(np, input, weights):
    K = weights.shape[0]
    N = input.shape[0]
    H_out = input.shape[1] - K + 1
    W_out = input.shape[2] - K + 1
    C_out = weights.shape[3]
    output = np.empty((N, H_out, W_out, C_out), dtype=np.float32)
    for i in range(H_out):
        for j in range(W_out):
            output[:, i, j, :] = np.sum(
                input[:, i:i + K, j:j + K, :, np.newaxis] * weights[np.newaxis, :, :, :],
                axis=(1, 2, 3))
    return output


def kernel(np, input, weights, bias):
    return conv2d(np, input, weights) + bias
