"""An inlining budget per translation unit: compile time stays bounded whatever the graph.

gcc's compile time follows the number of inlined calls to the project's own math (c_math.py,
c_trig.py: `la_exp`, `la_tanh`, `la_log`, ... ~20-30 ms of compiler CPU each), not the op count.
Past `INLINE_BUDGET` such calls in one translation unit's kernels, each heavy helper the kernels
call gets one out-of-line wrapper (`noinline`, `#pragma omp declare simd`) that inlines the helper
once, and a macro sends the kernels' calls to it: gcc compiles the helper once per unit as a scalar
function plus the vector clones the loops use, and an `omp simd` loop calls a clone for a whole
vector, so the loop still vectorizes. The helper itself is unchanged — the clones run the same
formula lane by lane (-ffp-contract=off; an explicit fmaf is exact) — so values are bit-identical
to the inlined helpers in every loop shape (issue 9; tests/test_inline_budget.py). The wrapper,
not the helper, is out of line: a helper calling another out-of-line helper (tanh calls exp)
would leave its clone a scalar loop over the lanes (measured 5x slower).
Once the cache directory's shared helper library is built (c_helper_library.py), a unit past
`LIBRARY_BUDGET` calls declares the wrappers instead and calls the library's: no wrapper compiled.
Measurements and the rule: docs/caching.md, "what bounds compile time".
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager

INLINE_BUDGET = 8  # heavy-helper calls in a unit's kernels that are still inlined
# ... when the directory's shared helper library is built (c_helper_library.py): past this many,
# the unit declares the library's wrappers instead of compiling its own (7 inlined calls of 7
# functions: 355 -> 196 ms of compiler CPU). 5 keeps the LSTM nonlinearity's 5 calls inlined.
LIBRARY_BUDGET = 5
# The project's heavy math helpers (c_math.py, c_trig.py, and issue 29's c_erf.py, c_inverse.py,
# c_hyper.py, c_cbrt.py, c_log.py): each costs ~20-30 ms of compiler CPU; and two binary ones,
# float power and arctan2 (c_pow.py's float32 power: ~90 ms; 10 inlined calls cost 1 s).
HEAVY = ("exp", "expm1", "tanh", "log", "log1p", "sin", "cos", "erf", "erfc", "atan", "asin",
         "acos", "sinh", "cosh", "asinh", "acosh", "atanh", "cbrt", "logtwo", "logten", "exptwo",
         "tan", "fpow", "atantwo",
         # The cheap-reduction variants a chunk's vector loop calls (printer.split_far_trig): an
         # inlined one beside out-of-line clones left that loop scalar (a pairwise sum of
         # `exp`, `sin` and `**` ~5x slower), so past the budget they go out of line too.
         "sinnear", "cosnear", "tannear",
         # logaddexp's helper (c_prelude.py) inlines la_exp and la_log in its body, which the
         # count of calls in kernel code never saw: 20 mixed-dtype logaddexps in one unit ran cc1
         # 14 s (benchmarks/bench_many_outputs.py; test_dask's 112 in one unit: >11 min).
         # (logaddexp2's helper calls libm's exp2 and log1p: nothing of ours inlined.)
         "logaddexp")
BINARY = frozenset({"fpow", "atantwo", "logaddexp"})  # their wrappers take (a, b)
_CALL = re.compile(r"\bla_((?:" + "|".join(HEAVY) + r")_f(32|64))\(")


def signature(name: str, t: str) -> tuple[str, str]:
    """The wrapper of heavy helper `name` (`exp_f32`): its C parameters and call arguments."""
    if name.rsplit("_", 1)[0] in BINARY:
        return f"{t} a, {t} b", "a, b"
    return f"{t} a", "a"
# Two clone widths: the loop's natural one (16 floats / 8 doubles on AVX-512) and 8, the width of
# the printer's 8-lane reduction loops; a static function keeps only the clones its loops call.
OUT_OF_LINE = ("#pragma omp declare simd notinbranch\n"
               "#pragma omp declare simd notinbranch simdlen(8)\n"
               "static __attribute__((noinline))")


def heavy_calls(code: str) -> int:
    """Calls to the project's heavy math helpers in kernel source `code`."""
    return len(_CALL.findall(code))


_linking = threading.local()  # .library: the unit being rendered may call the helper library


@contextmanager
def helper_library(available: bool) -> Iterator[None]:
    """Units rendered inside (this thread) call the shared helper library's wrappers."""
    was = getattr(_linking, "library", False)
    _linking.library = available
    try:
        yield
    finally:
        _linking.library = was


def wrappers(code: str, budget: int | None = None) -> str:
    """C text that goes after the helpers and before the kernels in `code`: empty within the
    budget (default INLINE_BUDGET, or LIBRARY_BUDGET inside `helper_library(True)`), else the
    out-of-line wrappers (declarations of the library's, inside `helper_library(True)`) and the
    macros naming them."""
    calls = _CALL.findall(code)
    library = getattr(_linking, "library", False)
    if budget is None:
        budget = LIBRARY_BUDGET if library else INLINE_BUDGET
    if len(calls) <= budget:
        return ""
    out = []
    for name, bits in sorted(set(calls)):
        t = "float" if bits == "32" else "double"
        params, args = signature(name, t)
        body = ";" if library else f" {{ return la_{name}({args}); }}"
        out.append(f"{exported() if library else OUT_OF_LINE} {t} la_{name}_ool({params}){body}\n"
                   f"#define la_{name}({args}) la_{name}_ool({args})")
    return "\n".join(out)


def exported() -> str:
    """The wrappers' qualifiers in the shared helper library (and declarations of them)."""
    return OUT_OF_LINE.replace("static ", "")
