"""Float `power`: libm's `pow`/`powf`, plus the divide-by-zero flag NumPy reports for 0 ** -inf.

libm returns +inf for (±0) ** -inf without the flag (C99 F.10.4.4 leaves it optional); NumPy's
SIMD power loops raise it, so `la.power(0.0, -inf)` warns as `np.power` does (a select: the
division runs in every lane, the flag fires only where the exponent is -inf at a zero base).

Tried and left (issue 29, second round): float32 as exp(y log|x|) in float64 with the own
vectorized log and exp kernel and C99's special cases by selects. It is correct (≤ 0.51 ulp on
the test's pairs, NumPy's values and flags at every special pair) and vectorizes, but a C harness
on 2^21 floats, one thread, measured 18-20 ms against 12 ms for libm's scalar `powf` (the float64
log + exp alone: 9-12 ms; NumPy's float32 SIMD loop: 1.4 ms). A win needs float32 arithmetic
(16 lanes) with a double-float log, and float64 a double-double log: not done.
"""

from __future__ import annotations

import numpy as np



def _fpow(dt: np.dtype, t: str):
    f32 = np.dtype(dt) == np.float32
    pow_fn, zero = ("powf", "la_fpe_zero_f32") if f32 else ("pow", "la_fpe_zero_f64")
    body = (f"{{\n    int zinf = (a == 0) & (b == -INFINITY);\n"
            f"    {t} dz = ({t})1 / (zinf ? {zero} : ({t})1);   /* +inf, divide by zero */\n"
            f"    return zinf ? dz : {pow_fn}(a, b);\n}}")
    return "a, b", body, ()


GENERATORS = {"fpow": _fpow}
