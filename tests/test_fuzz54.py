"""Regressions found by fuzz54 (tests/fuzz_layouts.py's open seeds, then new fuzzers over NumPy
2's promotion, in-place ops on arguments, scalar results and edge values). Each runs the NumPy
program on NumPy and on lazyarray, on every backend, on plans (`eager_size=0`: what the cupy
backend always takes) and at the default (the at-once rule; sizes past it where the program is
about lazy values)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import lazyarray as la

BOTH = pytest.mark.parametrize("eager_size", [0, 4096])
BIG = 5000  # past the default at-once size: the values stay pending


def _texts(caught) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]


def _laxer_blocks(m):
    """Ops built before blocks and `seterr` calls that make the modes laxer, read inside or
    after them: NumPy reported each at its line, under the modes there."""
    seen = []
    x = m.asarray(np.arange(BIG, dtype=np.float64) - 2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        b = x * 1  # (pending: p and w below share it, siblings)
        p = b / 0
        with m.errstate(divide="ignore", invalid="ignore"):
            w = b + 1
        w = w + p
        seen.append(_texts(caught))
        q = x / 0
        with m.errstate(divide="ignore", invalid="ignore"):
            inside = float(q[0])  # an op built before the block, read inside it
        seen.append(_texts(caught))
        r = -x / 0
        old = m.seterr(all="ignore")
        try:
            total = float(r[1:].sum())
        finally:
            m.seterr(**old)
        seen.append(_texts(caught))
    return seen, [np.array(w), inside, total]


@BOTH
@pytest.mark.needs("fp_errors")
def test_an_op_built_before_a_laxer_block_reports_under_its_own_modes(backend, eager_size):
    """fuzz53's seeds 6 and 99: `p = B / 0` then `with np.errstate(divide='ignore'): w = B + 1`
    computed p with its sibling w (they share B's pending node) at the block's exit, under
    'ignore', silently; NumPy warned at p's line. Reads inside such a block (and after a laxer
    `seterr`) were silent too. Now every change of the modes computes the pending Arrays first,
    under the modes they were built in (lazyarray/fp_errors.py `_settle_before`)."""
    want = _laxer_blocks(np)
    with la.config(eager_size=eager_size):
        got = _laxer_blocks(la)
    assert got[0] == want[0]
    for w, g in zip(want[1], got[1]):
        np.testing.assert_array_equal(g, w)
