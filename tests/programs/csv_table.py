"""A CSV-like float table handled row by row and by column (a data-cleaning script without
pandas): `for row in table:` skipping rows with np.isnan(row).any(), accumulating into
preallocated totals with `+=`, counting with int(...), column statistics with masks, values
rounded with np.round(..., 1), a Python-float threshold against a float32 column, the cleaned
table written back into the argument through `table[mask] = ...`, and .item() of summaries."""

import numpy

SIZES = {"small": dict(R=12, C=4), "bench": dict(R=3000, C=6)}


def inputs(rng, R, C):
    table = rng.normal(50, 10, (R, C))
    table[rng.random((R, C)) < 0.08] = numpy.nan
    weights = rng.random(R).astype(numpy.float32)
    return table, weights


def kernel(np, table, weights):
    totals = np.zeros(table.shape[1])
    complete = 0
    for row in table:
        if np.isnan(row).any():
            continue
        totals += row
        complete += 1
    means = totals / max(complete, 1)
    missing = int(np.isnan(table).sum())
    col_missing = np.isnan(table).sum(axis=0)
    col_means = np.array([np.mean(col[~np.isnan(col)]) for col in table.T])
    heavy = weights > 0.5
    heavy_rows = table[heavy]
    w = weights / weights.sum()
    weighted = np.nansum(table * w[:, None], axis=0)
    nan_rows = np.isnan(table).any(axis=1)
    table[np.isnan(table)] = np.take(col_means, np.nonzero(np.isnan(table))[1])
    rounded = np.round(table, 1)
    first_big = -1
    for i, row in enumerate(rounded):
        if row.max().item() > 75.0:
            first_big = i
            break
    weights[heavy] *= 2
    return (means, complete, missing, col_missing, col_means, heavy_rows, weighted, nan_rows,
            rounded, first_big, w.dtype.name, float(rounded.std()))
