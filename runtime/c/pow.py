"""Float `power`: float32 by the project's own branch-free formula (vectorized), float64 by libm's
`pow`; both raise NumPy's divide-by-zero flag at 0 ** -inf.

float32 (issue 29, third round): |x|^y = 2^(y log2|x|) in float64, which is exact enough for a
float32 result: log2|x| = e + s P(s^2) from the float's own exponent and mantissa (m in
[sqrt(1/2), sqrt 2), s = (m - 1)/(m + 1) with 1/(m + 1) from a float division refined by one
Newton step in double, P a fit of the atanh series times 2/ln 2: relative error 4.3e-12), the
product y log2|x| rounds once (|t| <= 150 where the result is a finite float32: absolute error
< 1e-9, a relative error of the result < 1e-9, far below float32's 6e-8), 2^t = 2^n 2^r with
n = round(t) and a degree-8 polynomial (9.2e-13), clamped to [-160, 130] so 2^n is a normal double; the one
rounding that matters is the final conversion to float32 (which raises overflow/underflow where
the float32 result does). Measured ≤ 0.5 ulp + 1e-6: docs/semantics.md. C99 Annex F's special
cases by selects: y = 0 or x = 1 give 1 (NaN included), (-1) ** ±inf = 1, a negative finite x
with a non-integer y is NaN (invalid, raised by that lane's own sqrt), ±0 ** y < 0 is ±inf
(divide by zero), an odd integer y keeps x's sign. (The second round's float32 attempt, the own
float64 log and exp kernels, was slower than libm's scalar powf; this one's log needs no
exponent-range handling and a third of the polynomial terms, and vectorizes 8 doubles wide.)

libm returns +inf for (±0) ** -inf without the flag (C99 F.10.4.4 leaves it optional); NumPy's
SIMD power loops raise it, so `la.power(0.0, -inf)` warns as `np.power` does (a select: the
division runs in every lane, the flag fires only where the exponent is -inf at a zero base).
float64 would need log2 as a double-double (|y log2 x| up to 1075 needs ~70 bits): not done.
"""

from __future__ import annotations

import numpy as np

from .math import SHIFTER, _fma_horner64

# log2(m) = s P(s^2), s^2 <= 0.0295 (the atanh series times 2/ln 2): least squares on 4000
# Chebyshev nodes against mpmath, relative error 4.3e-12 (the Taylor series needs 8 terms for it)
_LOG2_P = [2.885390081790134, 0.9617966732558159, 0.5770836053274234, 0.41167129977544814,
           0.34075951124282483]
# 2^r - 1 = r Q(r), |r| <= 1/2: the same fit, relative error 9.2e-13 (Taylor: 11 terms)
_EXP2_Q = [0.6931471805465899, 0.2402265069773658, 0.055504109390986864, 0.009618128695291423,
           0.0013333452257161603, 0.00015403775222559924, 1.5309692787848375e-05,
           1.31888186087348e-06]


def _fpow32() -> str:
    return (
        "{\n"
        "    float ax = fabsf(a);\n"
        "    float v = ax < 1.17549435e-38f ? ax * 16777216.0f : ax;   /* subnormals: 2^24 */\n"
        "    int32_t eb = ax < 1.17549435e-38f ? 24 : 0;\n"
        "    uint32_t u; memcpy(&u, &v, sizeof u);\n"
        "    uint32_t hi = (u & 0x007fffffu) >= 0x003504f3u;   /* mantissa >= sqrt 2 */\n"
        "    int32_t e = (int32_t)((u >> 23) & 0xffu) - 127 + (int32_t)hi - eb;\n"
        "    uint32_t mb = (u & 0x007fffffu) | (hi ? 0x3f000000u : 0x3f800000u);\n"
        "    float mf; memcpy(&mf, &mb, sizeof mf);\n"
        "    double m = (double)mf;\n"
        "    int pole = (ax == 0.0f) & (b < 0.0f);              /* 0 ** negative: +-inf */\n"
        "    /* 1/(m + 1) in float (16 lanes; a double division costs ~2x the rest), refined in\n"
        "       double by one Newton step (relative error ~1e-14); at a pole 1/0: the divide flag */\n"
        "    float rf = 1.0f / ((pole ? 0.0f : mf + 1.0f) + la_fpe_zero_f32);\n"
        "    double rd = (double)rf, nm = m - 1.0, s0 = nm * rd;\n"
        "    double s = s0 + rd * (nm - s0 * (m + 1.0)), w = s * s;\n"
        f"    double l2 = (double)e + s * ({_fma_horner64('w', _LOG2_P)});\n"
        "    l2 = ax == 0.0f ? -INFINITY : (ax == INFINITY ? INFINITY : l2);\n"
        "    l2 = ax != ax ? (double)ax : l2;\n"
        "    double t = (double)b * l2;                         /* NaN: 0 * inf, NaN inputs */\n"
        "    double tc = t < -160.0 ? -160.0 : (t > 130.0 ? 130.0 : t);   /* NaN passes */\n"
        f"    double tt = tc + {SHIFTER!r};\n"
        f"    double n = tt - {SHIFTER!r};\n"
        "    double r = tc - n;                                 /* exact, |r| <= 1/2 */\n"
        f"    double p = 1.0 + r * ({_fma_horner64('r', _EXP2_Q)});\n"
        "    uint64_t tb; memcpy(&tb, &tt, sizeof tb);\n"
        "    uint64_t sb = (tb + 1023u) << 52;                  /* 2^n, n in -160..130 */\n"
        "    double sc; memcpy(&sc, &sb, sizeof sc);\n"
        "    float res = (float)(p * (sc + la_fpe_zero_f64));   /* the one rounding; + zero: */\n"
        "    /* gcc folds a clamped lane's p * sc to a constant and its float overflow, flag lost */\n"
        "    float yc = b < -16777216.0f ? -16777216.0f : (b > 16777216.0f ? 16777216.0f : b);\n"
        "    yc = b != b ? 0.0f : yc;                           /* beyond 2^24: even integers */\n"
        "    float frac = yc - floorf(yc);                      /* 0 for integer y */\n"
        "    float half = 0.5f * yc;\n"
        "    int odd = (frac == 0.0f) && (half != floorf(half));   /* (& here stops gcc 12) */\n"
        "    int negx = copysignf(1.0f, a) < 0.0f;             /* x < 0 or -0 */\n"
        "    res = (negx & odd) ? -res : res;\n"
        "    int nonint = (a < 0.0f) & (a > -INFINITY) & (frac != 0.0f);\n"
        "    /* -frac where x < 0 (never underflows), from the lane's own values: the flag */\n"
        "    res = nonint ? fabsf(sqrtf(copysignf(frac, a) + la_fpe_zero_f32)) : res;   /* invalid */\n"
        "    res = pole ? ((negx & odd) ? -rf : rf) : res;\n"
        "    res = (b == 0.0f) | (a == 1.0f) ? 1.0f : res;\n"
        "    res = (a == -1.0f) & (fabsf(b) == INFINITY) ? 1.0f : res;\n"
        "    return res;\n"
        "}"
    )


def _fpow(dt: np.dtype, t: str):
    if np.dtype(dt) == np.float32:
        return "a, b", _fpow32(), ()
    body = ("{\n    int zinf = (a == 0) & (b == -INFINITY);\n"
            "    double dz = 1.0 / (zinf ? la_fpe_zero_f64 : 1.0);   /* +inf, divide by zero */\n"
            "    return zinf ? dz : pow(a, b);\n}")
    return "a, b", body, ()


GENERATORS = {"fpow": _fpow}
