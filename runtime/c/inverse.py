"""The project's own `arctan`, `arcsin`, `arccos` and `arctan2` (float32, float64), as C helpers.

Branch-free (selects only), no libm call but `sqrt` and `fma` (both correctly rounded, so the same
bits in every loop shape and on CUDA), so gcc vectorizes them under `omp simd` (libm's scalar
`atanf` etc. cost 8-16x NumPy's SIMD loops: issue 29).

atan |x| in three ranges (the classic reduction): [0, tan pi/8] directly, up to tan 3pi/8 as
pi/4 + atan((x - 1)/(x + 1)), beyond as pi/2 + atan(-1/x): one division of a selected numerator
and denominator, then w + w z G(z), z = w^2 <= tan^2(pi/8), with pi/4 and pi/2 as double-double.
G is a Chebyshev fit (mpmath, 40 digits) of (atan(sqrt z)/sqrt z - 1)/z: degree 11 for float64
(relative error of the fit 2e-19); float32 runs the same formulas in float32 arithmetic with a
degree-4 G (runtime/c/float32.py, which overrides these generators for float32).
arcsin x = atan(x / sqrt((1 - x)(1 + x))), arccos x = 2 atan(sqrt((1 - x)/(1 + x))) (both exact
at ±1 and NaN beyond), arctan2(y, x) = atan(|y|/|x|) moved to the quadrant, with C99's values for
every zero and infinity (atan2(±0, -0) = ±pi, atan2(±inf, -inf) = ±3pi/4, ...).
Measured bounds: docs/semantics.md.
"""

from __future__ import annotations

TAN_PI_8 = 0.41421356237309503
TAN_3PI_8 = 2.414213562373095
PIO4_HI, PIO4_LO = 0.7853981633974483, 3.061616997868383e-17
PIO2_HI, PIO2_LO = 1.5707963267948966, 6.123233995736766e-17
PI_HI, PI_LO = 3.141592653589793, 1.2246467991473532e-16
_G64 = [-0.3333333333333333, 0.19999999999999804, -0.14285714285659828, 0.11111111105155447,
        -0.09090908753500877, 0.07692296375032143, -0.06666424885738255, 0.05878928997834775,
        -0.05230454270650244, 0.04551593220626549, -0.034570561981427744, 0.016285756855221028]


def _fma_horner(var: str, coefs: list[float]) -> str:
    text = repr(coefs[-1])
    for c in reversed(coefs[:-1]):
        text = f"fma({text}, {var}, {c!r})"
    return text


def _atan_lines(ax: str, out: str, coefs: list[float]) -> list[str]:
    """C statements: double `out` = atan(ax) for a double ax >= 0 (or NaN, +inf)."""
    return [
        f"int r3_ = {ax} > {TAN_3PI_8!r}, r2_ = {ax} > {TAN_PI_8!r};",
        f"double num_ = r3_ ? -1.0 : (r2_ ? {ax} - 1.0 : {ax});",
        f"double den_ = r3_ ? {ax} : (r2_ ? {ax} + 1.0 : 1.0);",
        "double w_ = num_ / den_, z_ = w_ * w_;",
        f"double bh_ = r3_ ? {PIO2_HI!r} : (r2_ ? {PIO4_HI!r} : 0.0);",
        f"double bl_ = r3_ ? {PIO2_LO!r} : (r2_ ? {PIO4_LO!r} : 0.0);",
        f"double p_ = w_ + w_ * (z_ * ({_fma_horner('z_', coefs)}));",
        f"double {out} = bh_ + (bl_ + p_);",
    ]


def _atan_parts(ax: str, coefs: list[float]) -> list[str]:
    """`_atan_lines` without the sum: atan(ax) = bh_ + bl_ + p_ (bh_ + bl_: 0, pi/4 or pi/2)."""
    return _atan_lines(ax, "unused_", coefs)[:-1]


def _body(dt, lines: list[str], result: str) -> str:
    return "{\n" + "\n".join("    " + ln for ln in lines + [f"return {result};"]) + "\n}"


def _arctan(dt, t: str):
    lines = ["double x = (double)a, ax = fabs(x);", *_atan_lines("ax", "r", _G64),
             "r = copysign(r, x);", "r = x != x ? x : r;"]
    return "a", _body(dt, lines, "r"), ()


def _arcsin(dt, t: str):
    lines = ["double x = (double)a;",
             "double ax = fabs(x) / sqrt((1.0 - x) * (1.0 + x));   /* inf at 1, NaN beyond */",
             *_atan_lines("ax", "r", _G64),
             "r = copysign(r, x);", "r = ax != ax ? ax + x : r;"]
    return "a", _body(dt, lines, "r"), ()


def _arccos(dt, t: str):
    lines = ["double x = (double)a;",
             "double ax = sqrt((1.0 - x) / (1.0 + x));            /* inf at -1, NaN beyond */",
             *_atan_lines("ax", "r", _G64),
             "r = r + r;", "r = ax != ax ? ax + x : r;"]
    return "a", _body(dt, lines, "r"), ()


def _arctan2(dt, t: str):
    lines = ["double y = (double)a, x = (double)b;",
             "double ax = fabs(y) / fabs(x);",
             *_atan_parts("ax", _G64),
             "int neg = copysign(1.0, x) < 0.0;     /* x < 0 or -0 (signbit stops gcc 12) */",
             f"double hi = neg ? {PI_HI!r} - bh_ : bh_;           /* exact */",
             f"double lo = neg ? ({PI_LO!r} - bl_) - p_ : bl_ + p_;",
             "double r = hi + lo;",
             f"r = (fabs(x) == INFINITY && fabs(y) == INFINITY) ? (neg ? {2.356194490192345!r} : "
             f"{PIO4_HI!r}) : r;",
             f"r = y == 0.0 ? (neg ? {PI_HI!r} : 0.0) : r;       /* 0/0 */",
             "r = copysign(r, y);",
             "r = (x != x || y != y) ? x + y : r;"]
    return "a, b", _body(dt, lines, "r"), ()


GENERATORS = {"atan": _arctan, "asin": _arcsin, "acos": _arccos, "atantwo": _arctan2}
