"""The heavy math helpers' out-of-line wrappers, compiled once per cache directory.

Past the inlining budget (c_inline_budget.py) a translation unit compiles one `static` wrapper per
heavy helper it calls (`la_exp_f32_ool`, with its `omp declare simd` clones): ~35-100 ms of
compiler CPU each, most of a unit that mixes many functions (a random 100-node graph of 25 math
functions: 4-6 wrappers, 400-790 ms with them, 160-250 ms without them; load 5). This library
holds all 14 wrappers, exported, with every clone gcc emits for an exported `declare simd`
function (~1.5 s of compiler CPU when written; 6.5 s at stop 50 for its 101 KB of C, load 12;
once per directory, on a background thread at the compile worker's niceness, started by the first
unit with more than `LIBRARY_BUDGET` heavy calls). Once
it is loaded (RTLD_GLOBAL, before any kernel library of the directory), a unit past
`LIBRARY_BUDGET` (5, lower than the inlining budget: out of line is free now) *declares* the
wrappers (same pragmas, no body) instead of defining them, and the dynamic linker binds its calls,
vector clones included (`_ZGVeN16v_la_exp_f32_ool`), to the library.

Same formula, same flags: the clones compute what the static wrappers compute, bit for bit
(tests/test_inline_budget.py). A kernel library that needs the helpers fails to load without
them (the directory's helper library deleted by hand): that is a disk-cache miss, compiled again.

On disk: `helpers-<source hash>-<sha256[:16]>.so` and its index entry `helpers-<source hash>.idx`
(name and sha256); the library is loaded only when its bytes match the entry
(runtime/cache_security.py), else one warning, the units keep their static wrappers, and the
library is built again.
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import hashlib
import os
import re
import subprocess
import tempfile
import threading
from pathlib import Path

from . import inline_budget as c_inline_budget
from .. import cache_security, compile_stats
from .prelude import FPE_VALUES, render_helpers
from .priority import lower_priority as _lower_priority

EXIT_WAIT_S = 30.0

_lock = threading.Lock()
_loaded: dict[str, ctypes.CDLL] = {}  # directory -> its helper library, loaded
_building: dict[str, threading.Thread] = {}


def source() -> str:
    """The library's C: the helpers, then every wrapper exported."""
    heavy = c_inline_budget.HEAVY
    calls = " ".join(f"la_{name}_f{bits}(x)" for name in heavy for bits in ("32", "64"))
    wrappers = []
    for bits, t in (("32", "float"), ("64", "double")):
        for name in heavy:
            params, args = c_inline_budget.signature(f"{name}_f{bits}", t)
            wrappers.append(f"{c_inline_budget.exported()} {t} la_{name}_f{bits}_ool({params}) "
                            f"{{ return la_{name}_f{bits}({args}); }}")
    return "\n\n".join(["#include <stdint.h>\n#include <string.h>\n#include <math.h>", FPE_VALUES,
                        render_helpers(calls, "static inline", "_Bool"), *wrappers]) + "\n"


@functools.cache
def stem() -> str:
    """`helpers-<hash of the source>`: the library's index entry is `<stem>.idx`. Once per
    process: rendering the source costs ~20 ms, and every kernel library's load asks until the
    library is built (12 times, 0.24 s, in root_finding's cold call)."""
    return f"helpers-{hashlib.sha256(source().encode()).hexdigest()[:16]}"


def index_path(directory: Path) -> Path:
    return directory / f"{stem()}.idx"


def load(directory: Path) -> bool:
    """Load the directory's helper library if it was built and its bytes match its index entry
    (once per process); True if loaded."""
    key = str(directory)
    if key in _loaded:
        return True
    record = cache_security.read_record(index_path(directory),
                                        re.compile(re.escape(stem()) + r"-[0-9a-f]{16}\.so"))
    if record is None:
        return False
    with _lock:
        if key not in _loaded:
            try:
                if not cache_security.verified(*record):
                    return False
                _loaded[key] = ctypes.CDLL(str(record[0]), mode=ctypes.RTLD_GLOBAL)
            except OSError:
                return False
    return True


def render_unit(header_source, functions: list[str], directory: Path, tc) -> str:
    """The translation unit of `functions`, calling the directory's helper library where it is
    loaded; where it is not and the unit would use it, the library's build is started."""
    available = load(directory)
    if not available and c_inline_budget.heavy_calls("\n".join(functions)) > \
            c_inline_budget.LIBRARY_BUDGET:
        start_build(directory, tc)
    with c_inline_budget.helper_library(available):
        return header_source(functions)


def start_build(directory: Path, tc) -> None:
    """Build the library on a background thread (niced: the caller's loop keeps its core)."""
    if compile_stats.forbid_compiles:
        return
    with _lock:
        if str(directory) in _building:
            return
        worker = _building[str(directory)] = threading.Thread(
            target=_build, args=(directory, tc), name="lazyarray-helpers", daemon=True)
    worker.start()


def _build(directory: Path, tc) -> None:
    _lower_priority()
    build(directory, tc)


def build(directory: Path, tc) -> bool:
    """Compile the library into `directory` (atomically) and load it; False if that failed
    (the units then keep their static wrappers)."""
    if not load(directory):
        try:
            fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-helpers-", suffix=".c")
        except OSError:  # an unwritable cache: the units keep their own wrappers
            return False
        os.close(fd)
        src = Path(tmp)
        out = src.with_suffix(".so")
        try:
            src.write_text(source())
            flags = [f for f in tc.flags if not f.startswith("-Wl,")]
            result = subprocess.run([*tc.command, *flags, "-o", str(out), str(src), "-lm"],
                                    capture_output=True, text=True, check=False,
                                    env=dict(os.environ), timeout=300)
            if result.returncode != 0:
                return False
            path, digest = cache_security.store_object(out, directory, stem())
            cache_security.write_record(index_path(directory), path, digest)
        except (OSError, subprocess.SubprocessError):
            return False
        finally:
            for leftover in (src, out):
                try:
                    leftover.unlink()
                except OSError:
                    pass
    return load(directory)


def wait(timeout: float | None = None) -> None:
    """Wait for helper builds in flight (tests; interpreter exit)."""
    for worker in list(_building.values()):
        worker.join(timeout)


def _after_fork_in_child() -> None:
    global _lock
    _lock = threading.Lock()
    _building.clear()  # a build the parent was running is not running here


atexit.register(wait, EXIT_WAIT_S)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
