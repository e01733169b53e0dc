"""The project's own `exp`, `expm1`, `tanh`, `log` and `log1p` (float32, float64), as C helpers.

Why not libm: gcc vectorizes a loop that calls `expf` only through glibc's libmvec, whose vector
`expf` and the scalar `expf` of the loop's tail (or of another loop shape recomputing the value)
differ in the last bit; the planner recomputes values across stages and relies on one bit pattern
per value (issue 9: `x - max(x)` was not 0 at the max). These are plain C, branch-free (selects
only), with no calls, so gcc vectorizes them under `omp simd` and the vector body, the scalar tail,
every stage and the CUDA dialect (same text, NVRTC `--fmad=false`) compute identical bits.

Formulas (no FMA anywhere: the C flags carry -ffp-contract=off):
- exp: n = round(x / ln2) by the 1.5*2^52 (float32: 1.5*2^23) shifter, r = x - n*ln2 (Cody-Waite
  split), exp(r) by a polynomial on |r| <= ln2/2 (float64: Taylor, degree 13; float32: minimax,
  degree 6, in float32 with fmaf), times 2^n built from bits in two factors, so subnormal results
  round once.
- tanh: float32 |x| < 0.75 by an odd polynomial, else 1 - 2/(exp(2|x|) + 1) with an inline exp
  for that range (one normal 2^n factor); float64 the same shape: |x| < atanh(1/2) an odd
  polynomial (mpmath Chebyshev fit, fma Horner), else 1 - 2/(exp(2|x|) + 1) by the exp kernel.
- expm1: 2 (2^(n-1) p + (2^(n-1) - 1/2)), p = expm1(r), r = x - n ln2 as a double-double.
- log1p: log(1 + x) plus the exact rounding error of 1 + x over (1 + x).
- float32 sin/cos use float64 arithmetic (c_trig.py); float32 log, expm1, log1p are in float32
  arithmetic in runtime/c/float32.py (issue 29, third round), which overrides them here.
- log (float64): x = 2^e * m with m in [sqrt(1/2), sqrt(2)), s = (m-1)/(m+1), log m = 2 atanh(s)
  by its odd series, plus e*ln2 (split); subnormal inputs are scaled by 2^54 first.
Measured bounds (tests/test_c_math.py, against float64/longdouble NumPy): docs/semantics.md.
"""

from __future__ import annotations

import math
import re

import numpy as np

LN2_HI = 6.93147180369123816490e-01  # fdlibm: 32 significant bits, n * LN2_HI exact for |n| < 2^21
LN2_LO = 1.90821492927058770002e-10
SPLIT27 = 134217729.0  # 2^27 + 1: Veltkamp split for exact (Dekker) products without FMA
SHIFTER = 6755399441055744.0  # 1.5 * 2^52: x + SHIFTER rounds x to an integer in the low bits


def _horner(var: str, coefs: list[float]) -> str:
    """c0 + var*(c1 + var*(...)) as C text."""
    text = repr(coefs[-1])
    for c in reversed(coefs[:-1]):
        text = f"{c!r} + {var} * ({text})"
    return text


def _taylor_exp(degree: int) -> list[float]:
    return [1.0 / math.factorial(k) for k in range(2, degree + 1)]  # from r^2/2!


def _exp_core_f64() -> str:
    """`la_exp_core(double x)`: exp for x already clamped to [-746, 710] (NaN passes through)."""
    q = _horner("r", _taylor_exp(13))
    return (
        "{\n"
        f"    double t = x * {1 / math.log(2)!r} + {SHIFTER!r};\n"
        f"    double n = t - {SHIFTER!r};\n"
        f"    double r = (x - n * {LN2_HI!r}) - n * {LN2_LO!r};\n"
        f"    double p = 1.0 + (r + r * r * ({q}));\n"
        "    uint64_t tb; memcpy(&tb, &t, sizeof tb);\n"
        "    uint64_t k = (tb + 2048u) & 4095u;            /* n + 2048, in 0..4095 */\n"
        "    uint64_t k1 = k >> 1, k2 = k - k1;             /* n = (k1 - 1024) + (k2 - 1024) */\n"
        "    uint64_t b1 = (k1 - 1024u + 1023u) << 52, b2 = (k2 - 1024u + 1023u) << 52;\n"
        "    double s1, s2; memcpy(&s1, &b1, sizeof s1); memcpy(&s2, &b2, sizeof s2);\n"
        "    return p * s1 * (s2 + la_fpe_zero_f64);  /* + zero: keeps the overflow's flag */\n"
        "}"
    )


def _exp_f64(dt: np.dtype, t: str):
    body = ("{\n    double c = a < -746.0 ? -746.0 : (a > 710.0 ? 710.0 : a);\n"
            "    return la_expcore_f64(c);\n}")
    return "a", body, ("la_expcore_f64",)


def _expcore(dt: np.dtype, t: str):
    if dt != np.float64:
        raise KeyError("la_expcore is float64 only")
    return "x", _exp_core_f64(), ()


# exp(r) = 1 + r + r^2 Q(r) on |r| <= ln2/2: minimax relative error (Lawson-weighted least squares
# on 20001 points against long-double exp, the coefficients rounded to float32 from the highest
# degree down, each rounding followed by a refit of the lower ones): 4.8e-9 (0.08 ulp), one degree
# below the Taylor polynomial (5.5e-9) and 3-5% off the LSTM kernel (docs/c_backend.md).
_EXP_F32_Q6 = [0.4999999403953552, 0.16666515171527863, 0.04166845604777336,
               0.00836941134184599, 0.0013813064433634281]


def _exp_f32(dt: np.dtype, t: str):
    """In float32 (16 lanes of 512 bits, not 8): Cody-Waite with a 9-bit ln2 head (n * head exact),
    a degree-6 minimax polynomial, 2^n in two normal factors: p * 2^(n + 64) * 2^-64 for n < 0,
    p * 2^(n - 1) * 2 otherwise. The first product is exact (normal), the second rounds once, so
    subnormal results round once and exp(88.7) overflows only where it should. (The factors came
    from n >> 1 and n - (n >> 1) before: the same bits over every float32, 9 → 7 vector
    instructions, measured in docs/c_backend.md.)"""
    q = _horner_fma("r", _EXP_F32_Q6)
    body = (
        "{\n"
        "    float x = a < -104.0f ? -104.0f : (a > 89.0f ? 89.0f : a);   /* NaN passes */\n"
        f"    float t = fmaf(x, {float(np.float32(1 / math.log(2)))!r}f, 12582912.0f);  /* 1.5*2^23 */\n"
        "    float n = t - 12582912.0f;\n"
        "    float r = fmaf(n, 2.12194440e-4f, fmaf(n, -0.693359375f, x));\n"
        f"    float p = 1.0f + fmaf(r * r, {q}, r);\n"
        "    uint32_t tb; memcpy(&tb, &t, sizeof tb);     /* n in the low bits, -150..128 */\n"
        "    int neg = n < 0.0f;\n"
        "    uint32_t sb = (tb << 23) + (neg ? 191u << 23 : 126u << 23);  /* 2^(n+64), 2^(n-1) */\n"
        "    float s; memcpy(&s, &sb, sizeof s);\n"
        "    /* exact, then one rounding; 2 + zero: gcc's folded 2.0f lost the overflow's flag */\n"
        "    return p * s * (neg ? 5.421010862427522e-20f : 2.0f + la_fpe_zero_f32);\n"
        "}"
    )
    return "a", body, ()


def _horner_fma(var: str, coefs: list[float]) -> str:
    """c0 + var*(c1 + ...) in float32 with explicit `fmaf`: one rounding per step, and the same
    bits in every loop shape and on CUDA (an explicit fma is exact by definition; what
    -ffp-contract=off forbids is the compiler choosing where to fuse)."""
    text = f"{coefs[-1]!r}f"
    for c in reversed(coefs[:-1]):
        text = f"fmaf({text}, {var}, {c!r}f)"
    return text


def _f32_literals(text: str) -> str:
    """Mark the decimal literals of a generated expression as float (`0.5` → `0.5f`)."""
    return re.sub(r"(?<![\w.])(\d+\.\d*(?:e-?\d+)?)", r"\1f", text)


def _exp(dt: np.dtype, t: str):
    return _exp_f32(dt, t) if dt == np.float32 else _exp_f64(dt, t)


def _tanh_series(n_terms: int) -> list[float]:
    """Odd Taylor coefficients of tanh: x * (1 + c1 x^2 + c2 x^4 + ...)."""
    # Bernoulli-based closed form: tanh x = sum 2^(2k)(2^(2k)-1) B_2k x^(2k-1) / (2k)!
    bern = [1.0, -0.5, 1 / 6, 0, -1 / 30, 0, 1 / 42, 0, -1 / 30, 0, 5 / 66, 0, -691 / 2730, 0,
            7 / 6, 0, -3617 / 510, 0, 43867 / 798]
    out = []
    for k in range(1, n_terms + 1):
        b = bern[2 * k]
        out.append(2 ** (2 * k) * (2 ** (2 * k) - 1) * b / math.factorial(2 * k))
    return out[1:]  # drop the leading 1 (x itself)


# tanh(x)/x - 1 = z P(z), z = x^2 <= 0.75^2: weighted least squares on Chebyshev nodes against
# long-double tanh (relative error 2.9e-9 with the coefficients rounded to float32).
_TANH_F32_P = [-0.3333331346511841, 0.13332660496234894, -0.05389011651277542,
               0.021443037316203117, -0.007643021177500486, 0.0017285066423937678]
def _tanh(dt: np.dtype, t: str):
    """float32 in float32: |x| < 0.75 x + x z P(z); else 1 - 2/(E + 1), E = exp(2|x|) with 2|x|
    clamped to 18.04 (tanh is 1 in float32 beyond 9.02); the sign copied.

    E is computed inline, not by `la_exp_f32`: its argument lies in [0, 18.04], so 2^n is one
    normal factor added to the exponent bits of exp(r) (no clamps, no two-factor scaling for
    subnormal results) and a degree-6 minimax polynomial suffices (an error in E reaches tanh
    scaled by 2E/(E+1)^2 <= 0.3). Both branches are computed (branch-free vector code): this cut
    the branch's dependence chain, which is what bounds the LSTM kernel (docs/c_backend.md).
    Measured over every float32: 1.07 ulp (docs/semantics.md)."""
    if dt != np.float32:
        return _tanh_f64(dt, t)
    body = (
        "{\n"
        "    float ax = fabsf(a);\n"
        "    float z = a * a;\n"
        f"    float poly = fmaf(ax, z * {_horner_fma('z', _TANH_F32_P)}, ax);\n"
        "    float y = ax > 9.02f ? 18.04f : ax + ax;       /* NaN passes */\n"
        f"    float t = fmaf(y, {float(np.float32(1 / math.log(2)))!r}f, 12582912.0f);\n"
        "    float n = t - 12582912.0f;                      /* t: the 1.5*2^23 shifter */\n"
        "    float r = fmaf(n, 2.12194440e-4f, fmaf(n, -0.693359375f, y));\n"
        f"    float p = 1.0f + fmaf(r * r, {_horner_fma('r', _EXP_F32_Q6)}, r);\n"
        "    uint32_t tb, pb; memcpy(&tb, &t, sizeof tb); memcpy(&pb, &p, sizeof pb);\n"
        "    pb += tb << 23;                                 /* p * 2^n, n in 0..26 */\n"
        "    float e; memcpy(&e, &pb, sizeof e);\n"
        "    float big = 1.0f - 2.0f / (e + 1.0f);\n"
        "    float res = ax < 0.75f ? poly : big;\n"
        "    res = copysignf(res, a);\n"
        "    return a != a ? a : res;\n"
        "}"
    )
    return "a", body, ()


def _log_series(n_terms: int) -> list[float]:
    return [1.0 / (2 * k + 1) for k in range(1, n_terms + 1)]  # atanh(s)/s = 1 + s^2/3 + ...


def _log(dt: np.dtype, t: str):
    """Exponent and mantissa from the bits (ints only), the series in float64 (float32:
    runtime/c/float32.py)."""
    q = _horner("w", _log_series(10))
    body = (
        "{\n"
        "    double sub = a * 18014398509481984.0;           /* subnormals: scale by 2^54 */\n"
        "    double v = a < 2.2250738585072014e-308 ? sub : a;\n"
        "    int64_t ebias = a < 2.2250738585072014e-308 ? 54 : 0;\n"
        "    uint64_t u; memcpy(&u, &v, sizeof u);\n"
        "    uint64_t hi = (u & 0x000fffffffffffffull) >= 0x0006a09e667f3bcdull;  /* m >= sqrt 2 */\n"
        "    int64_t e = (int64_t)((u >> 52) & 0x7ff) - 1023 + (int64_t)hi - ebias;\n"
        "    uint64_t mb = (u & 0x000fffffffffffffull) | (hi ? 0x3fe0000000000000ull : 0x3ff0000000000000ull);\n"
        "    double m; memcpy(&m, &mb, sizeof m);\n"
        "    double f = m - 1.0;\n"
        "    double s = f / (m + 1.0);\n"
        "    double w = s * s;\n"
        "    double de = (double)e;\n"
        f"    double r = de * {LN2_HI!r} + (2.0 * s + (de * {LN2_LO!r} + 2.0 * s * w * ({q})));\n"
        "    r = a == 0.0 ? -1.0 / (a + la_fpe_zero_f64) : r;  /* -inf, divide by zero */\n"
        "    r = a < 0.0 ? fabs(sqrt(a + la_fpe_zero_f64)) : r;  /* NAN, invalid */\n"
        "    r = a == INFINITY ? a : r;\n"
        "    return a != a ? a : r;\n"
        "}"
    )
    return "a", body, ()


def _expm1(dt: np.dtype, t: str):
    """2^n (1 + p) - 1 as 2 (2^(n-1) p + (2^(n-1) - 1/2)) with r = x - n ln2 as a double-double and
    p = expm1(r) (for |x| < ln2/2, n = 0 and r = x: no cancellation; below 2^-54 the result is x,
    -0.0 and subnormals kept: the halving lost their last bit); the halved
    power of two overflows only with the result (x up to 710); x < -40: -1. (A separate Taylor
    series for |x| <= 1 and a second exp for x > 709, both computed for every element, made it
    1.3-4.6x NumPy's time: issue 29.)"""
    q = _horner("r", _taylor_exp(13))
    body = (
        "{\n"
        "    double x = a < -40.0 ? -40.0 : (a > 710.0 ? 710.0 : a);\n"
        f"    double t = x * {1 / math.log(2)!r} + {SHIFTER!r};\n"
        f"    double n = t - {SHIFTER!r};\n"
        f"    double hi = x - n * {LN2_HI!r}, lo = n * {LN2_LO!r};\n"
        "    double r = hi - lo, c = (hi - r) - lo;         /* r + c = x - n ln2 */\n"
        f"    double p = r + r * r * ({q});\n"
        "    p = p + (c + c * p);                           /* expm1(r + c) */\n"
        "    uint64_t tb; memcpy(&tb, &t, sizeof tb);\n"
        "    uint64_t b = (tb + 1022u) << 52;               /* 2^(n-1), n in -58..1024 */\n"
        "    double s; memcpy(&s, &b, sizeof s);\n"
        "    double res = (2.0 + la_fpe_zero_f64) * (s * p + (s - 0.5));  /* + zero: a clamped\n"
        "       lane's value folds to a constant (x > 710), its overflow's flag with it */\n"
        "    res = a < -40.0 ? -1.0 : res;\n"
        "    return (a != a || fabs(a) < 5.551115123125783e-17) ? a : res;  /* |a| < 2^-54: a */\n"
        "}"
    )
    return "a", body, ()


def _log1p(dt: np.dtype, t: str):
    """u = 1 + x; log(u) plus the rounding error of u to first order (exact where it matters: for
    u near 1 the own log's mantissa m - 1 is exact). A second formula near 1, 2 atanh(x/(2 + x)),
    computed for every element, kept the error at 1.41 ulp (now 2.28) but cost 1.4x NumPy's
    time (issue 29)."""
    body = (
        "{\n"
        "    double u = 1.0 + a;\n"
        "    double c = a > 1.0 ? 1.0 - (u - a) : a - (u - 1.0);   /* (1 + a) - u, exactly */\n"
        "    double res = la_log_f64(u) + c / u;\n"
        "    res = a == -1.0 ? -INFINITY : res;\n"
        "    res = a == INFINITY ? a : res;\n"
        "    return (a != a || a == 0.0) ? a : res;\n"
        "}"
    )
    return "a", body, ("la_log_f64",)


# (tanh(x)/x - 1)/x^2 as a polynomial in z = x^2 on [0, atanh(1/2)^2]: Chebyshev fit (mpmath,
# 40 digits; relative error of tanh from the fit 7e-20).
_TANH_F64_P = [-0.3333333333333333, 0.13333333333333314, -0.05396825396822116, 0.02186948853411724, -0.008863235464372357, 0.0035921267901011518, -0.0014558193026988886, 0.0005899066398936489, -0.0002384783447510405, 9.456589574230639e-05, -3.374208289010631e-05, 7.887673410333495e-06]


def _tanh_f64(dt: np.dtype, t: str):
    """|x| < atanh(1/2): x + x z P(z) (fma Horner); above: 1 - 2/(E + 1), E = exp(2|x|) by the own
    exp kernel (1 selected beyond |x| = 22), where tanh >= 1/2 so E's error reaches
    the result at most halved; the sign copied. Both computed, one selected (branch-free): the
    earlier t/(t + 2), t = expm1(2|x|), with a Dekker-refined division, cost ~15x exp's time
    (three polynomials and two divisions per element; issue 29)."""
    small = _fma_horner64("z", _TANH_F64_P)
    body = (
        "{\n"
        "    double ax = fabs(a), z = a * a;\n"
        f"    double small = a + a * (z * ({small}));\n"
        "    double e = la_expcore_f64(2.0 * ax);   /* beyond 710 garbage, selected away: a clamp */\n"
        "    double big = ax > 22.0 ? 1.0 : 1.0 - 2.0 / (e + 1.0);   /* here stops gcc 12 */\n"
        "    big = copysign(big, a);\n"
        "    double res = ax < 0.5493061443340549 ? small : big;\n"
        "    return (a != a || a == 0.0) ? a : res;            /* NaN; -0.0 kept */\n"
        "}"
    )
    return "a", body, ("la_expcore_f64",)


def _fma_horner64(var: str, coefs: list[float]) -> str:
    """c0 + var*(c1 + ...) in double with explicit `fma` (exact by definition: the same bits in
    every loop shape and on CUDA)."""
    text = repr(coefs[-1])
    for c in reversed(coefs[:-1]):
        text = f"fma({text}, {var}, {c!r})"
    return text


GENERATORS = {"exp": _exp, "expcore": _expcore, "tanh": _tanh, "log": _log, "expm1": _expm1,
              "log1p": _log1p}
