"""np.einsum as physics and ML code writes it: batched matmul, traces, outer products, bilinear
forms, an attention score, diagonal extraction and a contraction over three operands."""

SIZES = {"small": dict(B=3, N=5, D=4), "bench": dict(B=64, N=128, D=64)}


def inputs(rng, B, N, D):
    return (rng.standard_normal((B, N, D)), rng.standard_normal((B, N, D)),
            rng.standard_normal((D, D)), rng.standard_normal(D))


def kernel(np, Q, K, W, v):
    scores = np.einsum("bid,bjd->bij", Q, K) / np.sqrt(Q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    out = np.einsum("bij,bjd->bid", weights, K)
    traces = np.einsum("bii->b", scores)
    outer = np.einsum("i,j->ij", v, v)
    bilinear = np.einsum("bnd,de,bne->bn", Q, W, K)
    diag = np.einsum("ii->i", W)
    total = np.einsum("ij,ij", W, outer)
    proj = np.einsum("...d,de->...e", Q, W)
    return out, traces, outer, bilinear, diag, total, proj.sum(axis=1)
