"""The project's own `sinh`, `cosh`, `arcsinh`, `arccosh`, `arctanh` (float32, float64), as C
helpers built on c_math.py's exp and log1p: branch-free (selects), no libm call but `sqrt`, so gcc
vectorizes them under `omp simd` and every loop shape (and CUDA) computes the same bits (libm's
scalar sinhf etc. cost 4-30x NumPy's SIMD loops: issue 29).

- sinh: |x| < 1 the odd Taylor series (to x^19/19!); else h - 1/(4h) with h = exp(|x|)/2
  (`la_exphalf_f64`: exp's last power-of-two factor halved, so h is finite up to |x| = 710.47 and
  overflows to inf exactly where sinh does); the sign copied.
- cosh: h + 1/(4h) everywhere (no cancellation).
- arcsinh: log1p(|x| + x^2/(1 + sqrt(1 + x^2))) (exactly log(|x| + sqrt(x^2 + 1)), without the
  cancellation near 0); beyond 2^500, where x^2 overflows, log1p(|x|) + ln 2.
- arccosh: log1p(t + sqrt(t^2 + 2t)), t = x - 1; beyond 2^500 log1p(x) + ln 2; NaN below 1.
- arctanh: log1p(2|x|/(1 - |x|))/2 (for |x| < 1/2 as 2|x| + 2x^2/(1 - |x|)); the sign copied.
- float32: the same formulas in float32 arithmetic, runtime/c/float32.py (which overrides these
  generators for float32).
Measured bounds: docs/semantics.md.
"""

from __future__ import annotations

import math

from .math import LN2_HI, LN2_LO, SHIFTER, _horner

_BIG = 3.273390607896142e150  # 2^500: x^2 still finite below


def _exphalf(dt, t: str):
    """exp(x)/2 for 0 <= x (NaN passes), the argument clamped to 712 (then inf)."""
    if str(dt) != "float64":
        raise KeyError("la_exphalf is float64 only")
    q = _horner("r", [1.0 / math.factorial(k) for k in range(2, 14)])
    body = (
        "{\n"
        "    double x = a > 712.0 ? 712.0 : a;\n"
        f"    double tt = x * {1 / math.log(2)!r} + {SHIFTER!r};\n"
        f"    double n = tt - {SHIFTER!r};\n"
        f"    double r = (x - n * {LN2_HI!r}) - n * {LN2_LO!r};\n"
        f"    double p = 1.0 + (r + r * r * ({q}));\n"
        "    uint64_t tb; memcpy(&tb, &tt, sizeof tb);\n"
        "    uint64_t k = (tb + 2048u) & 4095u;            /* n + 2048 */\n"
        "    uint64_t k1 = k >> 1, k2 = k - k1;\n"
        "    uint64_t b1 = (k1 - 1024u + 1023u) << 52, b2 = (k2 - 1024u + 1022u) << 52;  /* /2 */\n"
        "    double s1, s2; memcpy(&s1, &b1, sizeof s1); memcpy(&s2, &b2, sizeof s2);\n"
        "    return p * s1 * (s2 + la_fpe_zero_f64);  /* + zero: keeps a clamped lane's overflow */\n"
        "}"
    )
    return "a", body, ()


def _sinh(dt, t: str):
    q = _horner("z", [1.0 / math.factorial(2 * k + 1) for k in range(1, 10)])
    body = (
        "{\n"
        "    double ax = fabs(a), z = a * a;\n"
        f"    double small = a + a * (z * ({q}));\n"
        "    double h = la_exphalf_f64(ax);\n"
        "    double big = copysign(h - 0.25 / h, a);\n"
        "    double res = ax < 1.0 ? small : big;\n"
        "    return a != a ? a : res;\n"
        "}"
    )
    return "a", body, ("la_exphalf_f64",)


def _cosh(dt, t: str):
    body = ("{\n    double h = la_exphalf_f64(fabs(a));\n    double res = h + 0.25 / h;\n"
            "    return a != a ? a : res;\n}")
    return "a", body, ("la_exphalf_f64",)


def _asinh(dt, t: str):
    body = (
        "{\n"
        "    double ax = fabs(a), z = ax * ax;\n"
        f"    int huge = ax > {_BIG!r};\n"
        "    double w = huge ? ax : ax + z / (1.0 + sqrt(1.0 + z));\n"
        f"    double res = la_log1p_f64(w) + (huge ? {math.log(2)!r} : 0.0);\n"
        "    res = copysign(res, a);\n"
        "    return a != a ? a : res;\n"
        "}"
    )
    return "a", body, ("la_log1p_f64",)


def _acosh(dt, t: str):
    body = (
        "{\n"
        "    double x = a, tt = x - 1.0;\n"
        f"    int huge = x > {_BIG!r};\n"
        "    double w = huge ? x : tt + sqrt(tt * tt + (tt + tt));   /* NaN below 1 */\n"
        f"    double res = la_log1p_f64(w) + (huge ? {math.log(2)!r} : 0.0);\n"
        "    res = x < 1.0 ? NAN : res;\n"
        "    return a != a ? a : res;\n"
        "}"
    )
    return "a", body, ("la_log1p_f64",)


def _atanh(dt, t: str):
    body = (
        "{\n"
        "    double ax = fabs(a), d = 1.0 - ax, ax2 = ax + ax;\n"
        "    double w = ax < 0.5 ? ax2 + ax2 * ax / d : ax2 / d;   /* 1: inf, beyond: NaN */\n"
        "    double res = 0.5 * la_log1p_f64(w);\n"
        "    res = copysign(res, a);\n"
        "    return a != a ? a : res;\n"
        "}"
    )
    return "a", body, ("la_log1p_f64",)


GENERATORS = {"exphalf": _exphalf, "sinh": _sinh, "cosh": _cosh, "asinh": _asinh,
              "acosh": _acosh, "atanh": _atanh}
