"""scikit-learn and SciPy, the two largest Array-API consumers, on lazyarray Arrays: each call's
results against the same call on NumPy arrays (type, dtype, shape, values within scikit-learn's
own tolerance). They run in a fresh interpreter (tests/consumer_programs.py): SciPy reads
SCIPY_ARRAY_API once, at its first import, and other modules here import it without."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Found, not imported: the calls run in the subprocess, and importing scikit-learn here cost ~1 s
# of CPU in every xdist worker's collection.
for _name in ("sklearn", "scipy"):
    if importlib.util.find_spec(_name) is None:
        pytest.skip(f"could not import {_name!r}", allow_module_level=True)

_PROGRAM = Path(__file__).with_name("consumer_programs.py")


def _run(group: str, backend: str | None = None) -> dict[str, str]:
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    if backend is not None:
        env["LAZYARRAY_BACKEND"] = backend
    out = subprocess.run([sys.executable, "-W", "ignore", str(_PROGRAM), group], env=env,
                         capture_output=True, text=True, check=True, timeout=600)
    return json.loads(out.stdout)


def _failures(results: dict[str, str]) -> dict[str, str]:
    return {case: outcome for case, outcome in results.items() if outcome != "ok"}


def test_consumers_agree_with_numpy():
    """A few calls of each kind (fit/transform, metrics, pairwise, SciPy special/stats/fft); on
    the numpy backend, which compiles nothing (the front end, the consumers see, is the same)."""
    results = _run("fast", "numpy")
    assert len(results) >= 34 and _failures(results) == {}


@pytest.mark.exhaustive
def test_every_listed_consumer_function_agrees_with_numpy():
    """Every estimator and function of scikit-learn's and SciPy's Array-API lists that this file
    covers (docs/semantics.md, "Array-API consumers"), float64 and float32, on the default
    backend (C where a compiler is found)."""
    results = _run("all")
    assert len(results) >= 440 and _failures(results) == {}
