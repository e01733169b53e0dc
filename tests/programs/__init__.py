"""NumPy programs as people write them (issue 24's corpus; issue 25's benchmark).

Each module is plain NumPy code with one convention that lets the same source run on NumPy and on
lazyarray: the program is `kernel(np, *args)`, the array module its first argument (callers pass
`numpy` or `lazyarray`), where a script would say `import numpy as np`. A module also has

- `SIZES`: {"small": {...}, "bench": {...}} keyword sizes for `inputs` (small: the test suite;
  bench: NumPy takes ~5-50 ms, for benchmarks/bench_programs.py),
- `inputs(rng, **size)`: the arguments, made by NumPy from a generator seeded per program,
- optionally `NEEDS`: the branches whose features or fixes the program waits for (the harness
  skips it with "needs <branch>" until they are merged), and `RTOL`/`ATOL` where NumPy's own
  rounding calls for another tolerance than the harness's default for the dtype.

Arguments are mutated as NumPy code mutates them (`A += ...`, `A[i, j] = ...`, `row = A[i];
row[:] = ...`): the harness checks every argument afterwards against NumPy's.
"""

from __future__ import annotations

import importlib
import pkgutil
import zlib
from types import ModuleType
from typing import Any

import numpy

NAMES: tuple[str, ...] = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__)
                                      if not m.name.startswith("_")))


def load(name: str) -> ModuleType:
    """The program module `name` (one of NAMES)."""
    return importlib.import_module(f"{__name__}.{name}")


def make_inputs(name: str, size: str | dict[str, int] = "small") -> tuple[Any, ...]:
    """The program's arguments at `size` (a SIZES key, or the keyword sizes themselves), from a
    generator seeded by the program's name (the same inputs in every process and every run)."""
    module = load(name)
    rng = numpy.random.default_rng(zlib.crc32(name.encode()))
    return tuple(module.inputs(rng, **(module.SIZES[size] if isinstance(size, str) else size)))


def needs(name: str) -> tuple[str, ...]:
    """The branches the program waits for (empty once they are merged)."""
    return tuple(getattr(load(name), "NEEDS", ()))
