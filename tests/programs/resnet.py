"""A ResNet-50 bottleneck block (npbench's resnet, inference): 1x1, 3x3 and 1x1 convolutions as
loops over output pixels with a broadcast product summed over three axes, batch norm, ReLU and the
residual add; float32 activations, a float64 padding buffer."""

import numpy

SIZES = {"small": dict(N=2, W=5, H=5, C1=8, C2=4), "bench": dict(N=4, W=14, H=14, C1=64, C2=16)}


def inputs(rng, N, W, H, C1, C2):
    input = rng.random((N, H, W, C1), dtype=numpy.float32)
    conv1 = rng.random((1, 1, C1, C2), dtype=numpy.float32)
    conv2 = rng.random((3, 3, C2, C2), dtype=numpy.float32)
    conv3 = rng.random((1, 1, C2, C1), dtype=numpy.float32)
    return input, conv1, conv2, conv3


def relu(np, x):
    return np.maximum(x, 0)


def conv2d(np, input, weights):
    K = weights.shape[0]  # Assuming square kernel
    N = input.shape[0]
    H_out = input.shape[1] - K + 1
    W_out = input.shape[2] - K + 1
    C_out = weights.shape[3]
    output = np.empty((N, H_out, W_out, C_out), dtype=np.float32)

    for i in range(H_out):
        for j in range(W_out):
            output[:, i, j, :] = np.sum(
                input[:, i:i + K, j:j + K, :, np.newaxis] *
                weights[np.newaxis, :, :, :],
                axis=(1, 2, 3),
            )

    return output


def batchnorm2d(np, x, eps=1e-5):
    mean = np.mean(x, axis=0, keepdims=True)
    std = np.std(x, axis=0, keepdims=True)
    return (x - mean) / np.sqrt(std + eps)


def kernel(np, input, conv1, conv2, conv3):
    # Pad output of first convolution for second convolution
    padded = np.zeros((input.shape[0], input.shape[1] + 2, input.shape[2] + 2,
                       conv1.shape[3]))

    padded[:, 1:-1, 1:-1, :] = conv2d(np, input, conv1)
    x = batchnorm2d(np, padded)
    x = relu(np, x)

    x = conv2d(np, x, conv2)
    x = batchnorm2d(np, x)
    x = relu(np, x)
    x = conv2d(np, x, conv3)
    x = batchnorm2d(np, x)
    return relu(np, x + input)
