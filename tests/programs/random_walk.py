"""Many random walks at once (Python for Data Analysis, "Simulating Many Random Walks at Once"):
np.where steps, cumsum, extremes, a boolean row mask and argmax for first crossing times."""

SIZES = {"small": dict(nwalks=20, nsteps=60, threshold=6),
         "bench": dict(nwalks=5000, nsteps=1000, threshold=30)}


def inputs(rng, nwalks, nsteps, threshold):
    return rng.integers(0, 2, size=(nwalks, nsteps)), threshold


def kernel(np, draws, threshold):
    steps = np.where(draws > 0, 1, -1)
    walks = steps.cumsum(1)
    walk_max, walk_min = walks.max(), walks.min()
    hits = (np.abs(walks) >= threshold).any(1)
    crossing_times = (np.abs(walks[hits]) >= threshold).argmax(1)
    first = walks[0]
    first_time = (np.abs(first) >= threshold // 2).argmax()
    return (walk_max, walk_min, hits.sum(), crossing_times, crossing_times.mean(),
            first_time, first[:first_time].std())
