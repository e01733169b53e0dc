"""Voronoi regions on a grid by the argmin of squared distances to the seeds (a "From Python to
NumPy" style exercise): grid points from np.meshgrid stacked with np.c_, distances by
broadcasting, labels reshaped to the image, areas by np.bincount(minlength=), region boundaries
by comparing shifted label slices, and each seed moved to its region's centroid (Lloyd's step)
with np.bincount(weights=) written into the argument."""

import numpy

SIZES = {"small": dict(n=16, k=5), "bench": dict(n=160, k=24)}


def inputs(rng, n, k):
    return rng.random((k, 2)), n


def kernel(np, seeds, n):
    X, Y = np.meshgrid(np.linspace(0, 1, n), np.linspace(0, 1, n))
    P = np.c_[X.ravel(), Y.ravel()]
    D = ((P[:, np.newaxis, :] - seeds[np.newaxis, :, :]) ** 2).sum(axis=-1)
    labels = D.argmin(axis=1).reshape(n, n)
    nearest = np.sqrt(D.min(axis=1)).reshape(n, n)
    k = len(seeds)
    areas = np.bincount(labels.ravel(), minlength=k) / labels.size
    edges = np.zeros((n, n), dtype=bool)
    edges[1:, :] |= labels[1:, :] != labels[:-1, :]
    edges[:, 1:] |= labels[:, 1:] != labels[:, :-1]
    counts = np.bincount(labels.ravel(), minlength=k)
    cx = np.bincount(labels.ravel(), weights=P[:, 0], minlength=k)
    cy = np.bincount(labels.ravel(), weights=P[:, 1], minlength=k)
    filled = counts > 0
    seeds[filled, 0] = cx[filled] / counts[filled]
    seeds[filled, 1] = cy[filled] / counts[filled]
    return labels, areas, edges.sum(), nearest.max(), int(areas.argmax())
