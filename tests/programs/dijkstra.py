"""Dijkstra's shortest paths on a dense weight matrix (an algorithms course, vectorised inner
step): np.inf distances, the next vertex by argmin over np.where(visited, inf, dist), the
relaxation dist = np.minimum(dist, dist[u] + W[u]) and predecessors by a mask."""

import numpy

SIZES = {"small": dict(N=10), "bench": dict(N=1500)}


def inputs(rng, N):
    W = rng.random((N, N)) * 10.0
    W[rng.random((N, N)) < 0.5] = numpy.inf
    numpy.fill_diagonal(W, 0.0)
    return W, 0


def kernel(np, W, source):
    n = W.shape[0]
    dist = np.full(n, np.inf)
    dist[source] = 0.0
    pred = np.full(n, -1)
    visited = np.zeros(n, dtype=bool)
    for _ in range(n):
        u = np.argmin(np.where(visited, np.inf, dist))
        if np.isinf(dist[u]):
            break
        visited[u] = True
        cand = dist[u] + W[u]
        better = cand < dist
        dist = np.minimum(dist, cand)
        pred[better] = u
    return dist, pred, visited.sum()
