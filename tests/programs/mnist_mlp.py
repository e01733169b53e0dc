"""The NumPy tutorial "Deep learning on MNIST" (numpy-tutorials, mnist.md), training loop as
published: per image a forward pass with relu as `(x >= 0) * x`, a dropout mask (drawn by NumPy
beforehand: the program is np.random-free) times 2, the squared-error loss summed into a Python
float, accuracy by `int(np.argmax(...) == np.argmax(...))`, the backward deltas with
relu2deriv, and `weights += learning_rate * np.outer(...)` on the arguments; then the test-set
evaluation batched over all images."""

import numpy

SIZES = {"small": dict(n=6, pixels=20, hidden=8, epochs=2),
         "bench": dict(n=60, pixels=196, hidden=64, epochs=2)}


def inputs(rng, n, pixels, hidden, epochs):
    images = rng.random((n, pixels))
    labels = numpy.eye(10)[rng.integers(0, 10, n)]
    weights_1 = 0.2 * rng.random((pixels, hidden)) - 0.1
    weights_2 = 0.2 * rng.random((hidden, 10)) - 0.1
    dropout = rng.integers(0, 2, size=(epochs, n, hidden))
    test_images = rng.random((2 * n, pixels))
    test_labels = numpy.eye(10)[rng.integers(0, 10, 2 * n)]
    return images, labels, weights_1, weights_2, dropout, test_images, test_labels


def relu(np, x):
    return (x >= 0) * x


def relu2deriv(output):
    return output >= 0


def kernel(np, training_images, training_labels, weights_1, weights_2, dropout, test_images,
           test_labels):
    learning_rate = 0.005
    store_training_loss = []
    store_training_accurate_pred = []
    store_test_loss = []
    for j in range(len(dropout)):
        training_loss = 0.0
        training_accurate_predictions = 0
        for i in range(len(training_images)):
            layer_0 = training_images[i]
            layer_1 = np.dot(layer_0, weights_1)
            layer_1 = relu(np, layer_1)
            dropout_mask = dropout[j, i]
            layer_1 *= dropout_mask * 2
            layer_2 = np.dot(layer_1, weights_2)
            training_loss += np.sum((training_labels[i] - layer_2) ** 2)
            training_accurate_predictions += int(
                np.argmax(layer_2) == np.argmax(training_labels[i]))
            layer_2_delta = training_labels[i] - layer_2
            layer_1_delta = np.dot(weights_2, layer_2_delta) * relu2deriv(layer_1)
            layer_1_delta *= dropout_mask
            weights_1 += learning_rate * np.outer(layer_0, layer_1_delta)
            weights_2 += learning_rate * np.outer(layer_1, layer_2_delta)
        store_training_loss.append(training_loss)
        store_training_accurate_pred.append(training_accurate_predictions)

        results = relu(np, test_images @ weights_1) @ weights_2
        test_loss = np.sum((test_labels - results) ** 2)
        test_accurate_predictions = np.sum(
            np.argmax(results, axis=1) == np.argmax(test_labels, axis=1))
        store_test_loss.append(float(test_loss))
    return (store_training_loss, store_training_accurate_pred, store_test_loss,
            test_accurate_predictions / len(test_images))
