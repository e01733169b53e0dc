"""A small CNN forward pass (LeNet-5 shape): conv, ReLU, 2x2 max pooling, flatten, three dense
layers."""

import numpy

SIZES = {"small": dict(N=2, H=16, W=16), "bench": dict(N=4, H=28, W=28)}


def inputs(rng, N, H, W):
    f32 = numpy.float32
    H2 = ((H - 4) // 2 - 4) // 2
    W2 = ((W - 4) // 2 - 4) // 2
    return (rng.random((N, H, W, 1)).astype(f32),
            rng.random((5, 5, 1, 6)).astype(f32) - 0.5, rng.random(6).astype(f32) - 0.5,
            rng.random((5, 5, 6, 16)).astype(f32) - 0.5, rng.random(16).astype(f32) - 0.5,
            rng.random((H2 * W2 * 16, 120)).astype(f32) - 0.5, rng.random(120).astype(f32) - 0.5,
            rng.random((120, 84)).astype(f32) - 0.5, rng.random(84).astype(f32) - 0.5,
            rng.random((84, 10)).astype(f32) - 0.5, rng.random(10).astype(f32) - 0.5)


def conv2d(np, input, weights):
    K = weights.shape[0]
    N, H, W = input.shape[:3]
    H_out, W_out = H - K + 1, W - K + 1
    output = np.empty((N, H_out, W_out, weights.shape[3]), dtype=np.float32)
    for i in range(H_out):
        for j in range(W_out):
            output[:, i, j, :] = np.sum(
                input[:, i:i + K, j:j + K, :, np.newaxis] * weights[np.newaxis, :, :, :],
                axis=(1, 2, 3))
    return output


def relu(np, x):
    return np.maximum(x, 0)


def maxpool2d(np, x):
    output = np.empty([x.shape[0], x.shape[1] // 2, x.shape[2] // 2, x.shape[3]], dtype=x.dtype)
    for i in range(x.shape[1] // 2):
        for j in range(x.shape[2] // 2):
            output[:, i, j, :] = np.max(x[:, 2 * i:2 * i + 2, 2 * j:2 * j + 2, :], axis=(1, 2))
    return output


def kernel(np, input, conv1, conv1bias, conv2, conv2bias, fc1w, fc1b, fc2w, fc2b, fc3w, fc3b):
    x = relu(np, conv2d(np, input, conv1) + conv1bias)
    x = maxpool2d(np, x)
    x = relu(np, conv2d(np, x, conv2) + conv2bias)
    x = maxpool2d(np, x)
    x = np.reshape(x, (x.shape[0], -1))
    x = relu(np, x @ fc1w + fc1b)
    x = relu(np, x @ fc2w + fc2b)
    return x @ fc3w + fc3b
