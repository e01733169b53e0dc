"""Float `power` by the project's own branch-free formulas (vectorized; float64 since stop 44, was
libm's scalar `pow`); both raise NumPy's divide-by-zero flag at 0 ** -inf.

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
SIMD power loops raise it, so `la.power(0.0, -inf)` warns as `np.power` does.

float64 (stop 44): exp(y ln|x|) with ln|x| and the product as double-doubles (see `_fpow64`):
≤ 0.75 ulp measured (NumPy's SVML loop: 0.75), correctly rounded on ~98.5% of pairs.

Both: y's special cases are integer arithmetic on y's bits (no select on a loop-invariant y:
gcc 12 then vectorizes nothing), and every flag is raised by arithmetic on the lane's own
values, never through a select (gcc computes both sides of a select, and hoists a side that
depends on y alone out of the loop: 1/0 or sqrt(-frac) fired once per call for every x).
"""

from __future__ import annotations

import math

import numpy as np

from .math import LN2_HI, LN2_LO, SHIFTER, _fma_horner64, _horner, _taylor_exp

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
        "    /* y's cases from its bits, no select on y (see _fpow64: a scalar y is invariant) */\n"
        "    uint32_t ub; memcpy(&ub, &b, sizeof ub);\n"
        "    uint32_t babs = ub & 0x7fffffffu, bzero = 1u - ((babs | (0u - babs)) >> 31);\n"
        "    uint32_t binf = 1u - (((babs ^ 0x7f800000u) | (0u - (babs ^ 0x7f800000u))) >> 31);\n"
        "    uint32_t bspec = (((ub >> 23) & 0xffu) + 1u) >> 8;   /* 1: inf, NaN */\n"
        "    uint32_t keep = bspec - 1u;\n"
        "    uint32_t mz = 0u - bzero, mi = 0u - binf;\n"
        "    float bnf = (float)((ub >> 31) & (1u - bzero) & (1u - bspec + binf));   /* y < 0 */\n"
        "    /* flags come from arithmetic on this lane's own bits, never through a select: gcc\n"
        "       computes both sides of a select (and hoists an invariant side out of the loop) */\n"
        "    uint32_t ua; memcpy(&ua, &a, sizeof ua);\n"
        "    uint32_t aabs = ua & 0x7fffffffu, azero = 1u - ((aabs | (0u - aabs)) >> 31);\n"
        "    uint32_t anegfin = (ua >> 31) & (1u - ((((ua >> 23) & 0xffu) + 1u) >> 8))\n"
        "                       & (1u - azero);                 /* x < 0, finite */\n"
        "    float pole = (float)azero * bnf;                   /* 0 ** negative: +-inf */\n"
        "    /* 1/(m + 1) in float (16 lanes; a double division costs ~2x the rest), refined in\n"
        "       double by one Newton step (relative error ~1e-14); at a pole 1/0: the divide flag */\n"
        "    float rf = 1.0f / ((1.0f - pole) * (mf + 1.0f) + la_fpe_zero_f32);\n"
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
        "    int32_t dy = (int32_t)babs - 0x4b800000;           /* |y| <= 2^24 (even beyond) */\n"
        "    uint32_t yb = ((uint32_t)(0x4b800000 + (dy & (dy >> 31))) | (ub & 0x80000000u))\n"
        "                  & keep;\n"
        "    float yc; memcpy(&yc, &yb, sizeof yc);             /* inf, NaN: 0 */\n"
        "    float frac = yc - floorf(yc);                      /* 0 for integer y */\n"
        "    float half = 0.5f * yc;\n"
        "    /* -1 for an odd integer y, else 1 */\n"
        "    float oddf = 1.0f - 4.0f * (half - floorf(half)) * (1.0f - ceilf(frac));\n"
        "    res = pole != 0.0f ? rf : res;\n"
        "    res = copysignf(1.0f, a) < 0.0f ? res * oddf : res;   /* x < 0 or -0 */\n"
        "    float nf = (float)anegfin * frac;                  /* x < 0 finite, y no integer */\n"
        "    /* -frac where x < 0 (never underflows), from the lane's own values: the flag */\n"
        "    res = nf != 0.0f ? fabsf(sqrtf(-nf + la_fpe_zero_f32)) : res;   /* invalid */\n"
        "    res = a == 1.0f ? 1.0f : res;\n"
        "    float one = a == -1.0f ? 1.0f : res;               /* (-1) ** +-inf */\n"
        "    uint32_t rb, ob; memcpy(&rb, &res, sizeof rb); memcpy(&ob, &one, sizeof ob);\n"
        "    rb = (rb & ~mi) | (ob & mi);\n"
        "    rb = (rb & ~mz) | (0x3f800000u & mz);              /* y = 0: 1 */\n"
        "    memcpy(&res, &rb, sizeof res);\n"
        "    return res;\n"
        "}"
    )


def _estrin64(var: str, coefs: list[float]) -> str:
    """c0 + var*(c1 + ...) by Estrin's scheme with explicit `fma`: pairs, then pairs of pairs
    over var^2, var^4, ...: a dependency chain of ~log2(n) fmas instead of n (float64 power's
    loop: 7.6 -> 6.7 ns an element with both polynomials so)."""
    terms = [repr(c) for c in coefs]
    power = var
    while len(terms) > 1:
        pairs = [f"fma({terms[k + 1]}, {power}, {terms[k]})" for k in range(0, len(terms) - 1, 2)]
        terms = pairs + ([terms[-1]] if len(terms) % 2 else [])
        power = f"({power} * {power})"
    return terms[0]


# ln m = 2s + (2/3) s^3 + s^5 P(s^2): the atanh series' tail from s^5 (Taylor; s^2 <= 0.0295, 12
# terms leave 2^-66 of ln m), and 2/3 as a double-double
_LN_TAIL = [2.0 / (2 * k + 1) for k in range(2, 14)]
_TWO_THIRDS = (0.6666666666666666, 3.700743415417188e-17)
_HUGE_Y_BITS = 0x43F0000000000000  # 2^64: |y ln x| beyond the range for every x != 1


def _fpow64() -> str:
    """|x|^y = exp(y ln|x|) with ln|x| as a double-double (~2^-62 relative) and the product
    y ln|x| as one: exp's argument is then off by <= |t| 2^-62, and exp's reduction carries the
    low part (r = t - n ln2 as a double-double, exp(rh) (1 + rl)). Special values by selects
    on sanitized lanes: the main path never sees 0, inf or NaN, so it raises no flag of its own.
    y's cases are integer arithmetic on its bits, never a select on y: y is often a scalar
    argument, loop-invariant, and gcc 12 vectorizes no loop with an if-converted select on
    invariants (`y < -c ? -c : y`: "relevant stmt not supported", a scalar loop 10x slower);
    `fmax` does not vectorize without -ffinite-math-only. Integers become doubles through `int`:
    AVX2 has no vector conversion from int64 (AVX-512's), and gcc left the loop scalar there."""
    q = _estrin64("r", _taylor_exp(13))
    c3h, c3l = _TWO_THIRDS
    return (
        "{\n"
        "    double ax = fabs(a);\n"
        "    double xs = ax == 0.0 ? 2.0 : ax;                  /* 0, inf, NaN: a stand-in */\n"
        "    xs = xs == INFINITY ? 2.0 : xs;\n"
        "    xs = xs != xs ? 2.0 : xs;\n"
        "    uint64_t ub; memcpy(&ub, &b, sizeof ub);\n"
        "    uint64_t bneg = ub >> 63, babs = ub & 0x7fffffffffffffffull;\n"
        "    uint64_t bspec = (((ub >> 52) & 0x7ffu) + 1u) >> 11;   /* 1: inf or NaN */\n"
        "    uint64_t binf = 1u - (((babs ^ 0x7ff0000000000000ull)\n"
        "                           | (0u - (babs ^ 0x7ff0000000000000ull))) >> 63);\n"
        "    uint64_t bzero = 1u - ((babs | (0u - babs)) >> 63);\n"
        "    uint64_t bnan = bspec - binf, keep = bspec - 1u;   /* keep: all ones, y finite */\n"
        f"    int64_t dy = (int64_t)babs - (int64_t){_HUGE_Y_BITS}ll;   /* |y| <= 2^64 */\n"
        f"    uint64_t yb = ((uint64_t)({_HUGE_Y_BITS}ll + (dy & (dy >> 63))) | (ub & ~babs))\n"
        "                  & keep;\n"
        "    uint64_t ysb = yb | (0x3ff0000000000000ull & ~keep);   /* inf, NaN: 1 */\n"
        "    double ys, yo; memcpy(&ys, &ysb, sizeof ys); memcpy(&yo, &yb, sizeof yo);\n"
        "    double v = xs < 2.2250738585072014e-308 ? xs * 18014398509481984.0 : xs;  /* 2^54 */\n"
        "    int64_t eb = xs < 2.2250738585072014e-308 ? 54 : 0;\n"
        "    uint64_t u; memcpy(&u, &v, sizeof u);\n"
        "    uint64_t hi = (u & 0x000fffffffffffffull) >= 0x0006a09e667f3bcdull;  /* m>=sqrt2 */\n"
        "    int64_t e = (int64_t)((u >> 52) & 0x7ff) - 1023 + (int64_t)hi - eb;\n"
        "    uint64_t mb = (u & 0x000fffffffffffffull)\n"
        "                  | (hi ? 0x3fe0000000000000ull : 0x3ff0000000000000ull);\n"
        "    double m; memcpy(&m, &mb, sizeof m);\n"
        "    double num = m - 1.0;                              /* exact */\n"
        "    double den = m + 1.0, denl = m - (den - 1.0);      /* m + 1 = den + denl, exact */\n"
        "    /* 0 ** negative: +-inf and the divide flag, from this lane's own division */\n"
        "    /* flags come from arithmetic on this lane's own bits, never through a select: gcc\n"
        "       computes both sides of a select (and hoists an invariant side out of the loop) */\n"
        "    uint64_t ua; memcpy(&ua, &a, sizeof ua);\n"
        "    uint64_t aabs = ua & 0x7fffffffffffffffull;\n"
        "    uint64_t azero = 1u - ((aabs | (0u - aabs)) >> 63);\n"
        "    uint64_t anegfin = (ua >> 63) & (1u - ((((ua >> 52) & 0x7ffu) + 1u) >> 11))\n"
        "                       & (1u - azero);                 /* x < 0, finite */\n"
        "    double bnf = (double)(int)(bneg & (1u - bzero) & (1u - bnan));   /* 1: y < 0 */\n"
        "    double zf = (double)(int)azero;                    /* 1: x = +-0 */\n"
        "    double q0 = 1.0 / ((1.0 - zf) * den + zf * (1.0 - bnf));   /* 0 ** y < 0: 1/0 */\n"
        "    double rcp = ax == 0.0 ? 1.0 : q0;\n"
        "    double sh = num * rcp;                     /* s = (m - 1)/(m + 1) = sh + sl */\n"
        "    double sl = (fma(-sh, den, num) - sh * denl) * rcp;\n"
        "    double wh = sh * sh, wl = fma(sh, sh, -wh) + 2.0 * sh * sl;\n"
        "    double s3h = sh * wh, s3l = fma(sh, wh, -s3h) + (sh * wl + sl * wh);\n"
        f"    double t3h = {c3h!r} * s3h;\n"
        f"    double t3l = fma({c3h!r}, s3h, -t3h) + ({c3h!r} * s3l + {c3l!r} * s3h);\n"
        f"    double t5 = s3h * wh * ({_estrin64('wh', _LN_TAIL)});\n"
        "    double de = (double)(int)e;   /* int: AVX2 converts no int64 */\n"
        f"    double eh = de * {LN2_HI!r}, el = de * {LN2_LO!r};   /* eh exact */\n"
        "    double s2 = 2.0 * sh;\n"
        "    double a1 = eh + s2, z1 = a1 - eh;                 /* two-sums */\n"
        "    double a1l = (eh - (a1 - z1)) + (s2 - z1);\n"
        "    double a2 = a1 + t3h, z2 = a2 - a1;\n"
        "    double a2l = (a1 - (a2 - z2)) + (t3h - z2);\n"
        "    double lo = ((a1l + a2l) + (el + 2.0 * sl)) + (t3l + t5);\n"
        "    double lh = a2 + lo, ll = (a2 - lh) + lo;          /* ln|x| = lh + ll */\n"
        "    double th = ys * lh, tl = fma(ys, lh, -th) + ys * ll;\n"
        "    double tc = th < -746.0 ? -746.0 : (th > 710.0 ? 710.0 : th);\n"
        f"    double tt = tc * {1 / math.log(2)!r} + {SHIFTER!r};\n"
        f"    double n = tt - {SHIFTER!r};\n"
        f"    double rh = tc - n * {LN2_HI!r};                   /* exact */\n"
        f"    double c = (th == tc ? tl : 0.0) - n * {LN2_LO!r};\n"
        "    double r = rh + c, zr = r - rh;\n"
        "    double rl = (rh - (r - zr)) + (c - zr);\n"
        "    double ph = 1.0 + r, pl = (1.0 - ph) + r;          /* 1 + r = ph + pl, exact */\n"
        f"    double p = ph + (pl + (r * r * ({q}) + (rl + rl * r)));   /* exp(r) (1 + rl) */\n"
        "    uint64_t tb; memcpy(&tb, &tt, sizeof tb);\n"
        "    uint64_t k = (tb + 2048u) & 4095u;                 /* n + 2048, in 0..4095 */\n"
        "    uint64_t k1 = k >> 1, k2 = k - k1;\n"
        "    uint64_t b1 = (k1 - 1024u + 1023u) << 52, b2 = (k2 - 1024u + 1023u) << 52;\n"
        "    double f1, f2; memcpy(&f1, &b1, sizeof f1); memcpy(&f2, &b2, sizeof f2);\n"
        "    double res = p * f1 * (f2 + la_fpe_zero_f64);   /* one rounding; + zero: the flag */\n"
        "    double frac = yo - floor(yo);                      /* 0 for integer y */\n"
        "    double half = 0.5 * yo;                            /* -1 for an odd y, else 1: */\n"
        "    double oddf = 1.0 - 4.0 * (half - floor(half)) * (1.0 - ceil(frac));\n"
        "    uint64_t upb = 0x7ff0000000000000ull & (0u - (1u - bneg));   /* y > 0: inf */\n"
        "    uint64_t downb = 0x7ff0000000000000ull & (0u - bneg);\n"
        "    double up, down; memcpy(&up, &upb, sizeof up); memcpy(&down, &downb, sizeof down);\n"
        "    double edge = ax > 1.0 ? up : down;                /* x = 0, inf or y = +-inf */\n"
        "    edge = ax == 0.0 ? q0 * bnf : edge;             /* the division's inf: its flag */\n"
        "    res = xs == ax ? res : edge;\n"
        "    uint64_t rb; memcpy(&rb, &res, sizeof rb);\n"
        "    uint64_t edb; memcpy(&edb, &edge, sizeof edb);\n"
        "    uint64_t mi = 0u - binf, mz = 0u - bzero, mn = 0u - bnan;   /* y's cases: masks */\n"
        "    rb = (rb & ~mi) | (edb & mi);\n"
        "    memcpy(&res, &rb, sizeof res);\n"
        "    res = copysign(1.0, a) < 0.0 ? res * oddf : res;   /* x < 0 or -0, odd y: - */\n"
        "    double nf = (double)(int)anegfin * frac;           /* x < 0 finite, y no integer */\n"
        "    res = nf != 0.0 ? sqrt(-nf + la_fpe_zero_f64) : res;   /* NaN and invalid */\n"
        "    res = a != a ? a : res;\n"
        "    double one = a == -1.0 ? 1.0 : res;                /* (-1) ** +-inf */\n"
        "    uint64_t ob; memcpy(&ob, &one, sizeof ob);\n"
        "    memcpy(&rb, &res, sizeof rb);\n"
        "    rb = (rb & ~mi) | (ob & mi);\n"
        "    rb = (rb & ~mn) | (ub & mn);                       /* y NaN */\n"
        "    rb = (rb & ~mz) | (0x3ff0000000000000ull & mz);    /* y = 0: 1 */\n"
        "    memcpy(&res, &rb, sizeof res);\n"
        "    res = a == 1.0 ? 1.0 : res;\n"
        "    return res;\n"
        "}"
    )


def _fpow(dt: np.dtype, t: str):
    if np.dtype(dt) == np.float32:
        return "a, b", _fpow32(), ()
    return "a, b", _fpow64(), ()


GENERATORS = {"fpow": _fpow}
