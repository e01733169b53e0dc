"""Maze building and solving (N. Rougier, "From Python to NumPy", chapter 6) on integer grids: a
bordered boolean maze grown by Python loops whose branches read grid cells (`if Z[y_, x_] == 0:`)
with pre-drawn choices, then the shortest-path value propagation `G = Z * np.maximum(...)` from
shifted slices until the start cell is reached, and the path walked back by argmax over the
neighbours' values."""

import numpy

SIZES = {"small": dict(n=11, density=6, complexity=6), "bench": dict(n=41, density=40,
                                                                      complexity=20)}


def inputs(rng, n, density, complexity):
    starts = rng.integers(0, n // 2, (density, 2))
    choices = rng.integers(0, 4, (density, complexity))
    return n, starts, choices


def build_maze(np, n, starts, choices):
    shape = ((n // 2) * 2 + 1, (n // 2) * 2 + 1)
    Z = np.zeros(shape, dtype=bool)
    Z[0, :] = Z[-1, :] = 1
    Z[:, 0] = Z[:, -1] = 1
    for i in range(len(starts)):
        x, y = int(starts[i, 0]) * 2, int(starts[i, 1]) * 2
        Z[y, x] = 1
        for j in range(choices.shape[1]):
            neighbours = []
            if x > 1:
                neighbours.append((y, x - 2))
            if x < shape[1] - 2:
                neighbours.append((y, x + 2))
            if y > 1:
                neighbours.append((y - 2, x))
            if y < shape[0] - 2:
                neighbours.append((y + 2, x))
            if len(neighbours):
                y_, x_ = neighbours[int(choices[i, j]) % len(neighbours)]
                if Z[y_, x_] == 0:
                    Z[y_, x_] = 1
                    Z[y_ + (y - y_) // 2, x_ + (x - x_) // 2] = 1
                    x, y = x_, y_
    return Z


def solve(np, Z, start, goal, gamma=0.99):
    free = (~Z).astype(np.float64)
    G = np.zeros(Z.shape)
    G[goal] = 1.0
    for _ in range(Z.size):
        N = np.zeros_like(G)
        N[1:-1, 1:-1] = np.maximum(np.maximum(G[:-2, 1:-1], G[2:, 1:-1]),
                                   np.maximum(G[1:-1, :-2], G[1:-1, 2:]))
        G = free * np.maximum(G, gamma * N)
        G[goal] = 1.0
        if G[start] > 0:
            break
    path = [start]
    y, x = start
    while (y, x) != goal and G[y, x] > 0 and len(path) < Z.size:
        around = [(y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)]
        values = np.array([G[c] for c in around])
        y, x = around[int(np.argmax(values))]
        path.append((y, x))
    return G, path


def kernel(np, n, starts, choices):
    Z = build_maze(np, n, starts, choices)
    m = Z.shape[0]
    start, goal = (1, 1), (m - 2, m - 2)
    Z[start] = Z[goal] = 0
    G, path = solve(np, Z, start, goal)
    return Z, G, path, Z.sum(), np.count_nonzero(G)
