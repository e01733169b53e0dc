"""The project's own `log2` and `log10` (float32, float64), as C helpers like c_math.py's `log`:
the same exponent/mantissa split (subnormals scaled by 2^54) and atanh series for log m, then
log2 x = e + log m / ln 2 and log10 x = e log10(2) + log m / ln 10 with the constants as
double-double (e log10(2)'s head has 32 bits: exact for every exponent), so log2(2^k) = k exactly.
Branch-free (selects), no calls: gcc vectorizes them under `omp simd`, every loop shape and CUDA
compute the same bits (libm's scalar log10f cost 10x NumPy's SIMD loop: issue 29). float32:
runtime/c/float32.py. Measured bounds: docs/semantics.md.
"""

from __future__ import annotations

from .math import SHIFTER, _horner, _log_series

LN2, LN2_LO2 = 0.6931471805599453, 2.3190468138462996e-17  # ln 2 = LN2 + LN2_LO2 to ~107 bits

INVLN2 = (1.4426950408889634, 2.0355273740931033e-17)
INVLN10 = (0.4342944819032518, 1.098319650216765e-17)
LOG10_2 = (0.3010299956658855, -1.9043128467164274e-12)  # head: 32 significant bits


def _variant(name: str, dt, t: str):
    q = _horner("w", _log_series(10))
    kh, kl = INVLN2 if name == "logtwo" else INVLN10
    if name == "logtwo":
        combine = "double r = de + (s2 * {kh!r} + (s2 * {kl!r} + s2 * w * qq * {kh!r}));"
    else:
        combine = ("double r = de * {ch!r} + ((s2 * {kh!r} + (s2 * {kl!r} + s2 * w * qq * {kh!r}))"
                   " + de * {cl!r});")
    combine = combine.format(kh=kh, kl=kl, ch=LOG10_2[0], cl=LOG10_2[1])
    body = (
        "{\n"
        "    double sub = a * 18014398509481984.0;           /* subnormals: scale by 2^54 */\n"
        "    double v = a < 2.2250738585072014e-308 ? sub : a;\n"
        "    int64_t ebias = a < 2.2250738585072014e-308 ? 54 : 0;\n"
        "    uint64_t u; memcpy(&u, &v, sizeof u);\n"
        "    uint64_t hi = (u & 0x000fffffffffffffull) >= 0x0006a09e667f3bcdull;  /* m>=sqrt2 */\n"
        "    int64_t e = (int64_t)((u >> 52) & 0x7ff) - 1023 + (int64_t)hi - ebias;\n"
        "    uint64_t mb = (u & 0x000fffffffffffffull)\n"
        "                  | (hi ? 0x3fe0000000000000ull : 0x3ff0000000000000ull);\n"
        "    double m; memcpy(&m, &mb, sizeof m);\n"
        "    double s = (m - 1.0) / (m + 1.0), w = s * s, s2 = s + s;\n"
        f"    double qq = {q};\n"
        "    double de = (double)e;\n"
        f"    {combine}\n"
        "    r = a == 0.0 ? -1.0 / (a + la_fpe_zero_f64) : r;  /* -inf, divide by zero */\n"
        "    r = a < 0.0 ? fabs(sqrt(a + la_fpe_zero_f64)) : r;  /* NAN, invalid */\n"
        "    r = a == INFINITY ? a : r;\n"
        "    return a != a ? a : r;\n"
        "}"
    )
    return "a", body, ()


def _log2(dt, t: str):
    return _variant("logtwo", dt, t)


def _log10(dt, t: str):
    return _variant("logten", dt, t)


def _exp2(dt, t: str):
    """2^x = 2^n exp(r ln 2), n = round(x), r = x - n exact; r ln 2 as a double-double (fma),
    exp(rh) (1 + rl) by the own exp kernel, 2^n in two factors (the first product exact, the
    second rounds once: subnormal results round once)."""
    body = (
        "{\n"
        "    double x = a < -1100.0 ? -1100.0 : (a > 1100.0 ? 1100.0 : a);   /* NaN passes */\n"
        f"    double tt = x + {SHIFTER!r};\n"
        f"    double n = tt - {SHIFTER!r};\n"
        "    double r = x - n;                                /* exact, |r| <= 1/2 */\n"
        f"    double rh = r * {LN2!r}, rl = fma(r, {LN2!r}, -rh) + r * {LN2_LO2!r};\n"
        "    double p = la_expcore_f64(rh);\n"
        "    p = p + p * rl;\n"
        "    uint64_t tb; memcpy(&tb, &tt, sizeof tb);\n"
        "    uint64_t k = (tb + 2048u) & 4095u;            /* n + 2048, in 0..4095 */\n"
        "    uint64_t k1 = k >> 1, k2 = k - k1;\n"
        "    uint64_t b1 = (k1 - 1024u + 1023u) << 52, b2 = (k2 - 1024u + 1023u) << 52;\n"
        "    double s1, s2; memcpy(&s1, &b1, sizeof s1); memcpy(&s2, &b2, sizeof s2);\n"
        "    double res = p * s1 * s2;\n"
        "    return a != a ? a : res;\n"
        "}"
    )
    return "a", body, ("la_expcore_f64",)


GENERATORS = {"logtwo": _log2, "logten": _log10, "exptwo": _exp2}
