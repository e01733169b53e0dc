"""The differential fuzzer (tests/fuzz_numpy.py) as a test: random programs of elementwise ops,
reductions, indexing and updates, shape functions, sorting, matmul and casts over every dtype and
adversarial values, compared with NumPy op by op, then re-run fused, through la.jit and with a node
budget of 2 (cuts). The fast tier runs a few seeds per backend; the exhaustive tier a long sweep.
Longer runs: python -m tests.fuzz_numpy --seconds 600 --backend c."""

from __future__ import annotations

import pytest
from fuzz_numpy import fuzz_one

import lazyarray as la

FAST_SEEDS = range(0, 90, 3)  # seeds, not time: the same programs on every run


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


def test_random_programs_match_numpy(backend):
    with la.config(background_compiles=False):
        _fuzz(FAST_SEEDS, ("steps", "final") if backend == "c" else ("steps", "final", "jit",
                                                                        "cut"))


def test_random_programs_through_jit_and_cuts_on_c():
    with la.config(backend="c", background_compiles=False):
        _fuzz(range(1, 61, 10), ("steps", "jit", "cut"))


def test_random_programs_on_dask():
    pytest.importorskip("dask")
    with la.config(backend="dask", background_compiles=False):
        _fuzz(range(2, 42, 5), ("steps", "final"))


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
