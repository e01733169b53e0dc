"""A program run in two fresh interpreters, on the compiled tracing path and on the pure-Python
one (LAZYARRAY_PURE_PYTHON): the tests that compare the two paths read back its JSON line. And the
modules a fresh `import lazyarray` brings in, read once by the tests about optional imports."""

from __future__ import annotations

import functools
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


_IMPORTS = """
import json, sys
import lazyarray as la
after_import = sorted(sys.modules)
import numpy as np
la.config(backend="auto")
assert float(la.sum(la.array(np.ones(3)) * 2)) == 6.0
print(json.dumps({"import": after_import, "evaluation": sorted(sys.modules)}))
"""


@functools.lru_cache(maxsize=None)
def modules_imported() -> dict[str, frozenset[str]]:
    """The modules a fresh interpreter holds right after `import lazyarray` ("import") and after
    a first evaluation on the auto backend ("evaluation"). One interpreter (per test worker) for
    the tests that check which optional dependencies lazyarray pulls in (cupy, dask, networkx,
    einops): each started its own, ~0.7 s of CPU apiece."""
    out = subprocess.run([sys.executable, "-c", _IMPORTS], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0, out.stderr
    return {k: frozenset(v) for k, v in json.loads(out.stdout.strip().splitlines()[-1]).items()}
