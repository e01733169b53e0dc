"""Elementary cellular automaton (Wolfram's rule 30/110) on a uint8 row: neighbourhood codes by
np.roll and shifts, the rule's bit looked up with `(rule >> code) & 1`, the history stored row by
row; bits packed with np.packbits and run lengths from np.diff of np.flatnonzero."""

import numpy

SIZES = {"small": dict(N=24, steps=10), "bench": dict(N=4000, steps=400)}


def inputs(rng, N, steps):
    row = numpy.zeros(N, dtype=numpy.uint8)
    row[N // 2] = 1
    return row, steps, 30


def kernel(np, row, steps, rule):
    history = np.zeros((steps, row.shape[0]), dtype=np.uint8)
    history[0] = row
    for t in range(1, steps):
        prev = history[t - 1]
        code = (np.roll(prev, 1) << 2) | (prev << 1) | np.roll(prev, -1)
        history[t] = (rule >> code) & 1
    packed = np.packbits(history, axis=1)
    changes = np.flatnonzero(np.diff(history[-1].astype(np.int8)))
    runs = np.diff(changes)
    return history, packed, runs, history.sum(axis=1), history.dtype == np.uint8
