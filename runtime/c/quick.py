"""Quick compiles: stand-in kernels for a plan the NumPy executor cannot run while -O3 compiles.

A plan whose NumPy run would differ in bits (our own exp/sin/..., float max/min folds, complex
values) or cost more than a compile (INTERPRET_MAX_WORK) used to wait in the foreground for its
-O3 compile: 0.4-0.8 s of compiler CPU for a unit with inlined transcendentals (stop 45 made every
helper `always_inline`), 1.4-2.2 s of wall time at load 6-10, several times per program. The same
unit at QUICK_LEVEL costs ~10x less compiler CPU, and computes the same bits: the C source fixes
every fold order (explicit 8-lane accumulators, runtime/c/fold.py), `-ffp-contract=off` forbids
fused multiply-adds and no flag allows reassociation, so the optimizer can only change speed
(tests/test_c_quick.py compares both builds bit for bit). So `CBackend.compile_without_waiting`
compiles such a plan's missing kernels here, queues the -O3 build on the background compiler, and
runs the quick kernels until it arrives (`TieredPlan(stand_in=...)`), or until its stand-in runs
have cost STAND_IN_PATIENCE_S (runtime/c/tiered.py): then it waits for the -O3 build.

Quick libraries are never indexed or reused by another process: they live in a private temporary
directory of this process inside the kernel cache (where libraries are known to load; /tmp may be
noexec), removed at exit, each under a unique name, so `dlopen` never confuses two of them. If a
quick build cannot be written or loaded, the plan waits for its -O3 build as before.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

from ...graph.kernel_ir import Apply, Kernel, Program
from .. import compile_stats
from . import compiler as c_compiler, helper_library as c_helper_library, team as c_team

# A quick plan whose estimated run costs more than this (in `quick_cost` units, ~1.2 ns each at
# -O0: quadrature's first plan, 400,001 elements with exp, sin and a float power, is 126M units
# and 0.14-0.15 s a run, 0.066 s at -O1) waits for its -O3 build instead: the optimised kernels
# run such a plan 5-10x faster than the unoptimised ones, which would cost more than the compile
# they avoid (0.4-0.8 s of compiler CPU).
QUICK_MAX_COST = 2**28
# A call of our own math (not "numpy_bits": exp, sin, arctan2, ...) unoptimised: ~100 element-ops.
HEAVY_COST = 100

# -O0 keeps always_inline (the helpers' code is still inlined, unoptimised): 0.04-0.07 s of
# compiler CPU for the root-finding units that take 0.37-0.63 s at -O3 (-O1: 0.25-0.35 s).
QUICK_LEVEL = "-O0"

_lock = threading.Lock()
_functions: dict[str, Any] = {}  # symbol -> quick C function
_libraries: list[Any] = []  # the loaded quick libraries (kept alive with their functions)
_directory: list[tuple[Path, int]] = []  # (directory, the process that made it)


def quick_cost(program: Program) -> int:
    """One run's cost on quick builds: element-ops, our own math functions weighted HEAVY_COST."""
    return sum(k.elements * sum(HEAVY_COST if isinstance(e, Apply)
                                and "numpy_bits" not in e.op.properties else 1
                                for st in k.stages for e in st.exprs)
               for k in program.kernels)


def quick_kernels(kernels: list[tuple[str, str]], header_source) -> list | None:
    """C functions for (symbol, source) pairs: the -O3 build where this process has it already,
    else a quick build (one compile of those not built quickly before). None where the quick
    library could not be written or loaded (the caller compiles at -O3 and waits)."""
    with _lock:
        missing = [(s, src) for s, src in dict(kernels).items()
                   if s not in _functions and c_compiler.loaded_function(s) is None]
    if missing:
        try:
            _compile(missing, header_source)
        except OSError:  # a full or read-only cache directory, a library that does not load
            return None
    with _lock:
        return [c_compiler.loaded_function(s) or _functions[s] for s, _ in kernels]


def _compile(missing: list[tuple[str, str]], header_source) -> None:
    if compile_stats.forbid_compiles:
        raise compile_stats.CompileForbidden(
            f"compiles are forbidden (forbid_compiles) but kernels "
            f"{', '.join(s for s, _ in missing)} are not cached")
    tc = c_compiler.toolchain()
    cache = c_compiler.kernel_dir(tc)
    source = c_helper_library.render_unit(header_source, [src for _, src in missing], cache, tc)
    if c_compiler.SERIAL_REGION_FLAG in tc.flags:
        source += c_compiler.SERIAL_REGION
    directory = _private_directory(cache)
    fd, src_name = tempfile.mkstemp(dir=directory, prefix="quick-", suffix=".c")
    with os.fdopen(fd, "w") as f:
        f.write(source)
    lib_path = Path(src_name).with_suffix(".so")
    flags = [QUICK_LEVEL if flag == "-O3" else flag for flag in tc.flags]
    # The team library (built once per cache directory, ~0.1 s of compiler CPU) must load before
    # the first kernel library: it builds alongside this compile, not after it.
    team = threading.Thread(target=c_team.load, args=(cache, tc.command), daemon=True)
    team.start()
    result = subprocess.run([*tc.command, *flags, "-o", str(lib_path), src_name, "-lm"],
                            capture_output=True, text=True, check=False, env=dict(os.environ))
    team.join()
    if result.returncode != 0:
        raise c_compiler.CompileError(
            f"compiling generated kernels failed (a lazyarray bug; source: {src_name}):\n"
            f"{result.stderr[-4000:]}")
    os.unlink(src_name)
    lib = c_compiler.open_library(lib_path, cache)
    compile_stats.count("quick_units")
    compile_stats.count("quick_kernels", len(missing))
    with _lock:
        _libraries.append(lib)
        for symbol, _ in missing:
            _functions[symbol] = c_compiler.bind(lib, symbol)


def _private_directory(cache: Path) -> Path:
    with _lock:
        if (not _directory or _directory[0][1] != os.getpid()  # a forked child makes its own
                or _directory[0][0].parent != cache):  # another cache directory (tests)
            _remove_directory()
            _directory[:] = [(Path(tempfile.mkdtemp(prefix=".quick-", dir=cache)), os.getpid())]
        return _directory[0][0]


def _remove_directory() -> None:
    """At exit, this process's directory (never the parent's, in a forked child)."""
    if _directory and _directory[0][1] == os.getpid():
        shutil.rmtree(_directory[0][0], ignore_errors=True)


def _after_fork_in_child() -> None:
    global _lock
    _lock = threading.Lock()


atexit.register(_remove_directory)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
