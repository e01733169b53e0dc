"""A parametrized sweep's C kernels compiled together (stop 54: the fast tier's CPU on a cold kernel
cache). A C plan's uncached kernels compile as one translation unit, and a unit costs ~0.1-0.15 s
of gcc however small it is: N instances that each evaluate their own case pay N compiles.

`compile_together` runs every case of a sweep up to its first compile, records the kernels that
compile would build instead of building them (and stops that case there), then builds all the
recorded kernels in one unit; rounds repeat for the cases whose evaluation goes on to another plan.
Each instance then evaluates its own case as it always did, now as on a warm kernel cache: the
same graph, passes, plan and kernels (the recorded sources are the ones its own evaluation asks
for), nothing shared with the other cases but the translation unit their functions were built in.
(`la.eval` of all the cases at once would compile one unit too, but its plan fuses across cases:
other kernels than a case alone gets.) A unit whose kernels call more heavy math helpers than
LIBRARY_BUDGET calls them out of line where a unit of fewer inlines them (runtime/c/
helper_library.py; the same bits, tests/test_inline_budget.py): the recorded kernels are packed
into units of at most that many calls, so each is compiled as it would be alone (a kernel past
the budget alone gets its own unit).

A test that calls it is marked `xdist_group` (its name): `--dist loadgroup` then runs all its
instances on one worker, which compiles the unit once (both workers compiled it at the same time
in the first full run, ~17 s of gcc twice).

`LAZYARRAY_TEST_COMPILE_ALONE=1` turns it off (each instance compiles its own kernels, as before):
a cold run each way gives the same kernels (`k-*.idx` in the cache directory) in fewer units."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import lazyarray as la
from lazyarray.runtime.select import resolve_backend

ROUNDS = 4  # plans evaluated one after another by one case (a cut, a host step between plans)


class _Recorded(BaseException):
    """Stops a case's evaluation at its compile (a BaseException: no fallback catches it)."""


def compile_together(done: dict, key: Hashable, builders: Iterable[Callable[[], Any]]) -> bool:
    """Once per `key` (the settings the caller runs under: backend, eager size, ...): compile, in
    one unit per round, the C kernels that evaluating each builder's value (an Array, or a tuple
    or list of them) asks for under the current settings. Errors are left to the instances: a
    case that raises is skipped here and raises again in its own test. Returns whether it ran
    the cases now (their plans, traces and counts are then in the caches)."""
    if key in done or os.environ.get("LAZYARRAY_TEST_COMPILE_ALONE"):
        return False
    done[key] = True
    if resolve_backend(la.get_settings().backend) != "c":
        return False
    from lazyarray.runtime.c import compiler as c_compiler

    builders = list(builders)
    for _ in range(ROUNDS):
        recorded: dict[str, str] = {}
        stopped = [b for b in builders if _record_compiles(b, recorded, c_compiler)]
        if not recorded:
            return True
        header = recorded.pop(None)
        tc = c_compiler.toolchain()
        for unit in _units(list(recorded.items())):
            c_compiler._compile(tc, c_compiler.kernel_dir(tc), unit, header)
        builders = stopped
    return True


def _units(kernels: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """(symbol, source) pairs packed into units that call at most LIBRARY_BUDGET heavy math
    helpers, so that each unit inlines them exactly where a unit of its kernel alone would; the
    kernels that call none all share one unit."""
    from lazyarray.runtime.c import inline_budget

    budget = inline_budget.LIBRARY_BUDGET
    plain: list = []
    packed: list[list] = []
    alone: list[list] = []
    calls_in_open = budget + 1  # the last packed unit's calls (none open yet)
    for kernel in kernels:
        calls = inline_budget.heavy_calls(kernel[1])
        if calls == 0:
            plain.append(kernel)
        elif calls > budget:
            alone.append([kernel])
        else:
            if calls_in_open + calls > budget:
                packed.append([])
                calls_in_open = 0
            packed[-1].append(kernel)
            calls_in_open += calls
    return [unit for unit in (plain, *packed, *alone) if unit]


def _record_compiles(build: Callable[[], Any], recorded: dict, c_compiler) -> bool:
    """Evaluate one case with the compiler replaced by a recorder: whether it stopped at a
    compile (its kernels then in `recorded`, symbol -> source; the unit's header maker at
    None)."""
    compile_kernels = c_compiler._compile

    def record(tc, directory, missing, header_source) -> None:
        recorded.update(missing)
        recorded[None] = header_source
        raise _Recorded

    c_compiler._compile = record
    try:
        with warnings.catch_warnings():  # (the errstate is the caller's, as its kernels')
            warnings.simplefilter("ignore")
            value = build()
            la.eval(*(value if isinstance(value, (tuple, list)) else (value,)))
    except _Recorded:
        return True
    except Exception:  # noqa: BLE001  (the case's own error: its instance reports it)
        return False
    finally:
        c_compiler._compile = compile_kernels
    return False
