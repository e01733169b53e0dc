"""Logistic regression by gradient descent in float32 (a course notebook): one-hot labels from
np.eye(K)[y], a softmax, cross-entropy losses collected with .item(), weight updates `W -= lr *
grad` with a Python float rate, accuracy as (pred == y).mean() and early stopping."""

import numpy

# The losses are float32 values (.item()) collected into a float64 array: float32's tolerance.
RTOL, ATOL = 2e-5, 1e-6

SIZES = {"small": dict(N=40, D=5, K=3, epochs=15), "bench": dict(N=20000, D=64, K=10, epochs=30)}


def inputs(rng, N, D, K, epochs):
    X = rng.standard_normal((N, D)).astype(numpy.float32)
    y = rng.integers(0, K, N)
    X[numpy.arange(N), y % D] += 2.0
    W = numpy.zeros((D, K), dtype=numpy.float32)
    b = numpy.zeros(K, dtype=numpy.float32)
    return X, y, W, b, epochs


def kernel(np, X, y, W, b, epochs, lr=0.5):
    K = W.shape[1]
    Y = np.eye(K, dtype=np.float32)[y]
    losses = []
    for epoch in range(epochs):
        logits = X @ W + b
        logits -= logits.max(axis=1, keepdims=True)
        P = np.exp(logits)
        P /= P.sum(axis=1, keepdims=True)
        loss = -np.mean(np.sum(Y * np.log(P + 1e-9), axis=1))
        losses.append(loss.item())
        grad = (P - Y) / X.shape[0]
        W -= lr * (X.T @ grad)
        b -= lr * grad.sum(axis=0)
        if epoch > 0 and abs(losses[-2] - losses[-1]) < 1e-4:
            break
    pred = np.argmax(X @ W + b, axis=1)
    return np.array(losses), (pred == y).mean(), P.dtype == np.float32
