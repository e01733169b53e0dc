"""A program run in two fresh interpreters, on the compiled tracing path and on the pure-Python
one (LAZYARRAY_PURE_PYTHON): the tests that compare the two paths read back its JSON line."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def run_both_paths(program: str) -> tuple[dict, dict]:
    """(compiled, python): the JSON the program printed under each path, its "tracing" field
    checked and removed, so the two can be compared whole."""
    runs = []
    for pure in (False, True):
        env = dict(os.environ, LAZYARRAY_PURE_PYTHON="1" if pure else "0")
        out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                             text=True, check=True)
        runs.append(json.loads(out.stdout))
    compiled, python = runs
    assert (compiled.pop("tracing"), python.pop("tracing")) == ("compiled", "python")
    return compiled, python
