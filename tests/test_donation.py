"""Functional but in place (issue 25): an update (`x[i] = v`, `.at[...]`, `x[i] += v`, all of which
lower to `scatter`) writes into its base's buffer when nothing else can read the base, and a plan
may write its results into a dead input's buffer (donation, lazyarray/donation.py). Values always
against NumPy on every backend; that no copy is made, structurally: the memory plan's storages and
`la.cache_info()`'s copy and donation counters (docs/caching.md, "Donation")."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from numpy_oracle import assert_matches

import lazyarray as la
from lazyarray.graph import Graph
from lazyarray.passes import optimize
from lazyarray.passes.plan_memory import plan_memory


@pytest.fixture
def roomy():
    """One graph per evaluation (no node-budget cut in the middle of a test's chain)."""
    la.clear_caches()
    with la.config(max_graph_nodes=10_000):
        yield
    la.clear_caches()


def _writes(xp, A):
    """A chain of updates of every kind, each reading the value the one before wrote."""
    for i in range(3):
        A[i] = A[i] * 2 + 1.0
    A[3, 1] += 5
    A[1:3, 2] = xp.asarray([7.0, 8.0])
    A[:, 0] -= A[:, 1]
    return A


def _program(A):
    return optimize(Graph([A._node]))


# --- (a) inside a plan ------------------------------------------------------------------------------


def test_a_chain_of_scatters_lives_in_the_output_buffer():
    A = _writes(la, la.array(np.zeros((4, 4))))
    p = _program(A)
    scatters = [s for s in p.library_calls if s.op.name == "scatter"]
    assert len(scatters) == 6
    out = p.outputs[0]
    # every scatter's result is planned in the output's buffer: the first copies its base (the
    # input) there, the others update it where it is
    assert {p.buffers[s.output].storage for s in scatters} == {p.buffers[out].storage}
    assert all(p.aliases()[s.output] == out for s in scatters if s.output != out)


def test_a_chain_copies_its_base_once(backend, roomy):
    base = np.random.default_rng(0).random((4, 4))
    want = _writes(np, base.copy())
    keep = la.array(base)
    A = la.array(base)
    _writes(la, A)
    la.eval(A)
    info = la.cache_info()
    assert (info.base_copies, info.base_copy_bytes, info.in_place_updates) == (1, base.nbytes, 5)
    assert_matches(A, want)
    assert_matches(keep, base)


def test_an_intermediate_still_read_later_is_copied_not_overwritten(backend, roomy):
    """`B = A + 0` reads A's value before the writes: the chain must not update that buffer."""
    def program(xp, A):
        A = A * 1.0  # an intermediate base
        B = A + 0.5
        A[0, 0] = 9.0
        A[1, 1] = B[0, 0] + A[0, 0]
        C = A * 2.0  # reads the intermediate after the first two writes
        A[2, 2] = 4.0
        return A, B, C

    base = np.arange(16.0).reshape(4, 4)
    want = program(np, base.copy())
    got = program(la, la.array(base))
    la.eval(*got)
    for g, w in zip(got, want):
        assert_matches(g, w)


def test_an_at_update_of_an_intermediate_runs_in_place(backend, roomy):
    x = la.array(np.arange(6.0))
    y = (x * 2).at[1].add(10.0).at[2].multiply(3.0).at[0].set(-1.0)
    want = (np.arange(6.0) * 2)
    want[1] += 10.0
    want[2] *= 3.0
    want[0] = -1.0
    la.eval(y)
    info = la.cache_info()
    assert info.in_place_updates == 3 and info.base_copies == 0  # `x * 2` written in the output
    assert_matches(y, want)
    assert_matches(x, np.arange(6.0))


def test_an_update_whose_index_is_out_of_bounds_raises_and_writes_nothing(backend, roomy):
    base = np.arange(5.0)
    x = la.array(base)
    y = x * 1.0
    y = y.at[la.asarray(np.array([7]))].set(1.0)
    with pytest.raises(IndexError):
        la.eval(y)
    assert_matches(x, base)
