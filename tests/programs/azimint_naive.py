"""Azimuthal integration, naive (npbench's azimint_naive): per radial bin a boolean mask, the
masked values and their mean, bin edges computed from a 0-d maximum."""

SIZES = {"small": dict(N=400, npt=8), "bench": dict(N=40000, npt=100)}


def inputs(rng, N, npt):
    return rng.random(N), rng.random(N), npt


def kernel(np, data, radius, npt):
    rmax = radius.max()
    res = np.zeros(npt, dtype=np.float64)
    for i in range(npt):
        r1 = rmax * i / npt
        r2 = rmax * (i + 1) / npt
        mask_r12 = np.logical_and((r1 <= radius), (radius < r2))
        values_r12 = data[mask_r12]
        res[i] = values_r12.mean()
    return res
