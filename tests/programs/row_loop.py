"""Python control flow over array contents: `for row in A`, float(...) and .item() deciding
branches, an early break on a tolerance, a running best kept as Python numbers, a bisection on a
monotone function and row-wise normalisation written back into the argument."""

SIZES = {"small": dict(N=8, M=5), "bench": dict(N=400, M=300)}


def inputs(rng, N, M):
    return rng.random((N, M)) - 0.3, rng.random(M)


def kernel(np, A, target):
    best, best_i = float("inf"), -1
    kept = []
    for i, row in enumerate(A):
        dist = float(np.sqrt(((row - target) ** 2).sum()))
        if dist < best:
            best, best_i = dist, i
        if row.min().item() < 0:
            kept.append(row.clip(0, None))
        else:
            kept.append(row)
    for row in A:
        s = row.sum()
        if s > 0:
            row /= s
    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if (np.exp(mid * target) - 1.5).sum().item() > 0:
            hi = mid
        else:
            lo = mid
        if hi - lo < 1e-6:
            break
    total = 0.0
    for x in target:
        total += x
    return best, best_i, np.stack(kept), lo, total, A[best_i].argmax().item()
