"""Great-circle distances between point pairs (haversine), elementwise over arrays."""

SIZES = {"small": dict(N=50), "bench": dict(N=300000)}


def inputs(rng, N):
    return rng.random(N), rng.random(N), rng.random(N), rng.random(N)


def kernel(np, theta_1, phi_1, theta_2, phi_2):
    temp = (np.sin((theta_2 - theta_1) / 2) ** 2
            + np.cos(theta_1) * np.cos(theta_2) * np.sin((phi_2 - phi_1) / 2) ** 2)
    return 2 * np.arctan2(np.sqrt(temp), np.sqrt(1 - temp))
