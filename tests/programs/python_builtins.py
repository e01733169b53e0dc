"""Python builtins and protocols on arrays as scripts use them: sum(), max(), min(), sorted(),
list(), zip() and enumerate() over elements and rows, `in`, len(), int()/float()/round()/abs()
of elements, .tolist(), .item(k), and element comparisons chained in `if`/`while`."""

SIZES = {"small": dict(N=12), "bench": dict(N=3000)}


def inputs(rng, N):
    return rng.integers(-20, 20, N), rng.random((N // 3, 3))


def kernel(np, v, P):
    total = sum(v)
    biggest = max(v)
    smallest = min(abs(x) for x in v)
    ordered = sorted(v[:6])
    pairs = [int(a) * int(b) for a, b in zip(v[:-1], v[1:])]
    rows = [float(np.linalg.norm(row)) for row in P]
    best = max(range(len(P)), key=lambda i: P[i].sum())
    present = 3 in v
    i = 0
    while i < len(v) and v[i] < 15:
        i += 1
    as_list = v.tolist()
    r = round(float(P[0, 0]), 3)
    signs = [1 if x > 0 else (-1 if x < 0 else 0) for x in v]
    acc = 0
    for k, x in enumerate(v):
        if k % 2 and x % 2 == 0:
            acc += x
    return (total, biggest, smallest, ordered, pairs, rows, best, present, i, as_list, r, signs,
            acc, P.item(1), v.item(-1))
