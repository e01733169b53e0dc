"""The differential fuzzer (tests/fuzz_numpy.py) as a test: random programs of elementwise ops,
reductions, indexing and updates, shape functions, sorting, matmul and casts over every dtype and
adversarial values, compared with NumPy op by op, then re-run fused, through la.jit and with a node
budget of 2 (cuts). The fast tier runs a few seeds per backend; the exhaustive tier a long sweep.
Longer runs: python -m tests.fuzz_numpy --seconds 600 --backend c."""

from __future__ import annotations

import pytest
from fuzz_numpy import fuzz_one

import lazyarray as la

# Seeds, not time: the same programs on every run. The fast tier takes every 6th seed; the
# exhaustive tier the ones between (the fast tier's budget, stop 22).
FAST_SEEDS = range(0, 90, 6)


def _fuzz(seeds, modes) -> None:
    failures = []
    for seed in seeds:
        try:
            _, deviations = fuzz_one(seed, modes=modes)
        except AssertionError as e:
            failures.append(f"seed {seed}: {e}")
            continue
        for expr, np_err, la_err, _ in deviations:
            failures.append(f"seed {seed}: `{expr}`: NumPy {np_err!r}, lazyarray {la_err!r}")
    assert not failures, "\n\n".join(failures[:3])


@pytest.mark.parametrize("part", [0] + [pytest.param(k, marks=pytest.mark.exhaustive_on("c"))
                                         for k in (1, 2, 3)])
def test_random_programs_match_numpy(backend, part):
    """A quarter of the fast seeds each (a seed compiles ~2 units on C): on C the fast tier runs
    the first quarter, the exhaustive tier the others (stop 56: halves before)."""
    with la.config(background_compiles=False):
        _fuzz(FAST_SEEDS[part::4], ("steps", "final") if backend == "c" else (
            "steps", "final", "jit", "cut"))


@pytest.mark.exhaustive
def test_random_programs_match_numpy_between_the_fast_seeds(backend):
    with la.config(background_compiles=False):
        _fuzz(range(3, 90, 6), ("steps", "final") if backend == "c" else ("steps", "final", "jit",
                                                                            "cut"))


@pytest.mark.parametrize("seeds", [range(1, 61, 40), pytest.param(range(21, 61, 40),
                                                                  marks=pytest.mark.exhaustive),
                                   pytest.param(range(11, 61, 20), marks=pytest.mark.exhaustive)])
def test_random_programs_through_jit_and_cuts_on_c(seeds):
    with la.config(backend="c", background_compiles=False):
        _fuzz(seeds, ("steps", "jit", "cut"))


@pytest.mark.parametrize("seeds", [  # each seed compiles ~10 units: 2 in the fast tier
    range(2, 42, 20), pytest.param(range(12, 42, 20), marks=pytest.mark.exhaustive),
    pytest.param(range(7, 42, 10), marks=pytest.mark.exhaustive)])
def test_random_programs_on_dask(seeds):
    pytest.importorskip("dask")
    with la.config(backend="dask", background_compiles=False):
        _fuzz(seeds, ("steps", "final"))


@pytest.mark.exhaustive
@pytest.mark.parametrize("block", range(2))
def test_random_programs_sweep(backend, block):
    with la.config(background_compiles=False):
        _fuzz(range(1000 + 60 * block, 1060 + 60 * block), ("steps", "final", "jit", "cut"))


@pytest.mark.exhaustive
def test_random_programs_sweep_on_dask():
    pytest.importorskip("dask")
    with la.config(backend="dask", background_compiles=False):
        _fuzz(range(5000, 5040), ("steps", "final"))
