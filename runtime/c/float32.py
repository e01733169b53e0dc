"""float32 formulas in float32 arithmetic (issue 29, third round): log, log2, log10, log1p, expm1,
exp2, sinh, cosh, arcsinh, arccosh, arctanh, arctan, arcsin, arccos, arctan2, cbrt, erf, erfc.
`over` puts them in front of the float64 generators (c_prelude.py), which keep other dtypes.

Why: these ran their float64 formula and rounded once (correctly rounded, but 1.4-3.4x NumPy's
time): a float64 lane is half as many per vector, and the conversions cost on top. Here every
step is a float32 operation with explicit `fmaf` (one rounding, exact by definition: the same bits
in every loop shape and on CUDA; -ffp-contract=off forbids only the compiler's own fusing), no
call but `sqrtf`/`floorf` (correctly rounded), selects instead of branches, so gcc vectorizes
them 16 lanes wide on AVX-512 and the vector body equals the scalar tail bit for bit.

The polynomials are weighted least-squares fits (mpmath reference, 4000 Chebyshev nodes, relative
error of the final result), their coefficients rounded to float32 one at a time from the lowest
degree, each rounding followed by a refit of the higher ones; the fit's error is in the comment.
The special values are NumPy's; the flags come from the lane's own value (c_prelude.py, "Zeros the
compiler cannot see through"). Measured ulp bounds: docs/semantics.md.
"""

from __future__ import annotations

from .math import _EXP_F32_Q6, _horner_fma

ZERO = "la_fpe_zero_f32"
LN2 = (0.6931471824645996, -1.9046542121259336e-09)  # float32 head and tail
INVLN2 = (1.4426950216293335, 1.925963033500011e-08)
INVLN10 = (0.4342944920063019, -1.0103049952192578e-08)
LOG10_2 = (0.3010300099849701, -1.432098883924482e-08)
PIO2 = (1.5707963705062866, -4.371138828673793e-08)
PIO4 = (0.7853981852531433, -2.1855694143368964e-08)
PI = (3.1415927410125732, -8.742277657347586e-08)
PI3O4 = (2.356194496154785, -5.962440319251527e-09)
_SHIFT = "12582912.0f"  # 1.5 * 2^23: x + SHIFT rounds x to an integer in the low mantissa bits

# log1p(f) = f + f^2 Q(f) on [sqrt(1/2) - 1, sqrt(2) - 1]: fit error 4.6e-9
_LOG_Q = [-0.49999988079071045, 0.3333333730697632, -0.2500160038471222, 0.20001237094402313,
          -0.16608178615570068, 0.14195393025875092, -0.13263610005378723, 0.12827515602111816,
          -0.07479351758956909]
# 2^r = 1 + r Q(r) on [-1/2, 1/2]: fit error 3.6e-9
_EXP2_Q = [0.6931471824645996, 0.24022644758224487, 0.055503591895103455, 0.009618841111660004,
           0.0013391136890277267, 0.00015238006017170846]
# expm1(r) = r + r^2 Q(r) on [-0.36, 0.36]: fit error 5.8e-10
_EXPM1_Q = [0.5, 0.1666666567325592, 0.04166644811630249, 0.008333551697432995,
            0.0013937127077952027, 0.00019761931616812944]
# sinh(x) = x + x z P(z), z = x^2 in [0, 1]: fit error 3.6e-10
_SINH_P = [0.1666666716337204, 0.008333315141499043, 0.00019841665925923735,
           2.7899839096789947e-06]
# atan(w) = w + w z G(z), z = w^2 in [0, tan^2(pi/8)]: fit error 7.7e-10
_ATAN_G = [-0.3333331346511841, 0.1999838650226593, -0.14242158830165863, 0.10584811866283417,
           -0.060575682669878006]
# erf(x) = x + x Q(x^2), x^2 <= 1/4: fit error 8.6e-10
_ERF_Q = [0.12837916612625122, -0.37612631916999817, 0.11283636093139648, -0.026851054280996323,
          0.005153403151780367, -0.0007024447550065815]
# erfc(s) exp(s^2) on [0.5, 2) in t = s - 1.25: fit error 5.8e-9
_ERFC_A = [0.36782291531562805, -0.20882189273834229, 0.10679560899734497, -0.05021777004003525,
           0.02201095037162304, -0.00908625964075327, 0.003555386094376445,
           -0.0013079518685117364, 0.0004672460781875998, -0.00019297310791444033,
           6.397482502507046e-05]
# s erfc(s) exp(s^2) on [2, 10.5] in u = 1/s: fit error 4.0e-9
_ERFC_B = [0.5641949772834778, -0.0002218246372649446, -0.27825504541397095, -0.036424633115530014,
           0.6278699636459351, -0.6692628860473633, -0.03975118696689606, 0.5528711080551147,
           -0.3075774312019348]
# erf only: x + x Q1(x^2) for x^2 <= 1: fit error 1.5e-9
_ERF_Q1 = [0.12837916612625122, -0.3761262595653534, 0.1128358244895935, -0.026853643357753754,
           0.005187962669879198, -0.0008006793214008212, 7.842288323445246e-05]
# erf only: erfc(s) exp(s^2) on [1, 3.92] in t = s - 2.5, weighted for the absolute error of
# erf = 1 - exp(-s^2) F (which is all erf needs): 2.9e-9
_ERF_F = [0.21080754697322845, -0.07434060424566269, 0.024924203753471375, -0.008119052276015282,
          0.002288749208673835, -0.0007148224976845086, 0.00048742149374447763,
          0.00019935100863222033, 0.00010234311776002869]
# cbrt(M) on [1, 8]: the float64 formula's start (c_cbrt.py), relative error 3.5e-3
_CBRT_INIT = [0.6443281502877718, 0.42476134594656045, -0.07306069872525119,
              0.0077885241545703554, -0.0003310166445405638]


def _f(v: float) -> str:
    return f"{v!r}f"


def _block(lines: list[str], result: str) -> str:
    return "{\n" + "\n".join("    " + ln for ln in lines + [f"return {result};"]) + "\n}"


def log_parts(x: str, subnormal: bool = True) -> list[str]:
    """C lines: x = 2^e_ m_ (m_ in [sqrt(1/2), sqrt 2)), float `e_` and f_ = m_ - 1 (exact), for a
    positive finite x (other lanes compute garbage, selected away by the caller)."""
    lines = []
    if subnormal:  # subnormals: times 2^24 first
        lines += [f"float v_ = {x} < 1.17549435e-38f ? {x} * 16777216.0f : {x};",
                  f"int32_t eb_ = {x} < 1.17549435e-38f ? 24 : 0;"]
    else:
        lines += [f"float v_ = {x};"]
    lines += [
        "uint32_t u_; memcpy(&u_, &v_, sizeof u_);",
        "uint32_t hi_ = (u_ & 0x007fffffu) >= 0x003504f3u;   /* mantissa >= sqrt 2 */",
        "int32_t ei_ = (int32_t)((u_ >> 23) & 0xffu) - 127 + (int32_t)hi_"
        + (" - eb_;" if subnormal else ";"),
        "uint32_t mb_ = (u_ & 0x007fffffu) | (hi_ ? 0x3f000000u : 0x3f800000u);",
        "float m_; memcpy(&m_, &mb_, sizeof m_);",
        "float f_ = m_ - 1.0f, e_ = (float)ei_;",
    ]
    return lines


def log1p_poly(f: str) -> str:
    """log(1 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1] (C expression)."""
    return f"fmaf({f} * {f}, {_horner_fma(f, _LOG_Q)}, {f})"


def _log_specials(a: str, r: str) -> list[str]:
    """NumPy's log at 0 (-inf, divide by zero), below 0 (NaN, invalid), +inf and NaN."""
    return [f"{r} = {a} == 0.0f ? -1.0f / ({a} + {ZERO}) : {r};",
            f"{r} = {a} < 0.0f ? fabsf(sqrtf({a} + {ZERO})) : {r};",
            f"{r} = {a} == INFINITY ? {a} : {r};",
            f"{r} = {a} != {a} ? {a} : {r};"]


def log(kind: str) -> str:
    """log, log2 or log10 of float `a`: log m by the polynomial, then e ln2 + log m,
    e + log m / ln2, e log10(2) + log m / ln10 (constants as float32 head + tail, fmaf: one
    rounding for the sum; log2(2^k) = k exactly)."""
    lines = log_parts("a") + [f"float lm_ = {log1p_poly('f_')};"]
    if kind == "log":
        lines.append(f"float r = fmaf(e_, {_f(LN2[0])}, fmaf(e_, {_f(LN2[1])}, lm_));")
    elif kind == "log2":
        lines.append(f"float r = e_ + fmaf(lm_, {_f(INVLN2[0])}, lm_ * {_f(INVLN2[1])});")
    else:
        lines.append(f"float y_ = fmaf(lm_, {_f(INVLN10[0])}, lm_ * {_f(INVLN10[1])});")
        lines.append(f"float r = fmaf(e_, {_f(LOG10_2[0])}, fmaf(e_, {_f(LOG10_2[1])}, y_));")
    return _block(lines + _log_specials("a", "r"), "r")


def log1p_lines(w: str, out: str) -> list[str]:
    """C lines: float `out` = log1p(w), NumPy's special values (w >= -1; -0.0 kept). u = 1 + w
    rounds; its error c = (1 + w) - u is exact, and log1p(w) = e ln2 + log1p(f'), f' = f + c 2^-e:
    for u in [sqrt(1/2), sqrt 2) (e = 0) f' is w itself, no cancellation and no division."""
    return [
        f"float uu_ = 1.0f + {w};",
        f"float c_ = {w} > 1.0f ? 1.0f - (uu_ - {w}) : {w} - (uu_ - 1.0f);",
        *log_parts("uu_", subnormal=False),  # u >= 2^-24 or <= 0
        "int32_t ke_ = 127 - (ei_ > 100 ? 100 : ei_);",  # 2^-e; the correction is lost beyond
        "uint32_t kb_ = (uint32_t)ke_ << 23;",
        "float sc_; memcpy(&sc_, &kb_, sizeof sc_);",
        "float g_ = fmaf(c_, sc_, f_);",
        f"float {out} = fmaf(e_, {_f(LN2[0])}, fmaf(e_, {_f(LN2[1])}, {log1p_poly('g_')}));",
        f"{out} = uu_ == 0.0f ? -1.0f / (uu_ + {ZERO}) : {out};   /* w = -1: -inf, divide */",
        f"{out} = uu_ < 0.0f ? fabsf(sqrtf(uu_ + {ZERO})) : {out};   /* NaN, invalid */",
        f"{out} = {w} == INFINITY ? {w} : {out};",
        f"{out} = ({w} != {w} || {w} == 0.0f) ? {w} : {out};",
    ]


def log1p() -> str:
    return _block(log1p_lines("a", "r"), "r")


def _exp_reduce(x: str) -> list[str]:
    """C lines: n_ = round(x / ln2), r_ = x - n_ ln2 (Cody-Waite, 9-bit head: n ln2's head exact),
    tb_ the shifter's bits (n_ in the low bits) — as la_exp_f32 (c_math.py)."""
    return [f"float t_ = fmaf({x}, {_f(INVLN2[0])}, {_SHIFT});",
            f"float n_ = t_ - {_SHIFT};",
            f"float r_ = fmaf(n_, 2.12194440e-4f, fmaf(n_, -0.693359375f, {x}));",
            "uint32_t tb_; memcpy(&tb_, &t_, sizeof tb_);"]


def _pow2(bias: int, out: str) -> list[str]:
    """C lines: float `out` = 2^(n_ + bias - 127) from the shifter's bits (a normal number)."""
    return [f"uint32_t {out}b_ = (tb_ << 23) + ({bias}u << 23);",
            f"float {out}; memcpy(&{out}, &{out}b_, sizeof {out});"]


def expm1() -> str:
    """2^n (1 + p) - 1 = 2 (2^(n-1) p + (2^(n-1) - 1/2)) with p = expm1(r) (c_math.py's float64
    shape); for |x| < ln2/2, n = 0 and the result is p (r = x: no cancellation). x < -18: -1."""
    lines = ["float x = a < -18.0f ? -18.0f : (a > 89.0f ? 89.0f : a);   /* NaN passes */",
             *_exp_reduce("x"),
             f"float p = fmaf(r_ * r_, {_horner_fma('r_', _EXPM1_Q)}, r_);",
             *_pow2(126, "s"),                    # 2^(n-1), n in -26..128
             f"float r = fmaf(s, p, s - 0.5f) * (2.0f + {ZERO});   /* + zero: keeps overflow */",
             "r = a < -18.0f ? -1.0f : r;",
             "r = a == INFINITY ? a : r;",
             "r = (a != a || fabsf(a) < 2.98023224e-08f) ? a : r;   /* |a| < 2^-25: a, subnormals kept */"]
    return _block(lines, "r")


def exp2() -> str:
    """2^x = 2^n 2^r, n = round(x), r = x - n exact; 2^n in two normal factors as la_exp_f32:
    p 2^(n + 64) 2^-64 for n < 0, p 2^(n - 1) 2 otherwise (subnormal results round once)."""
    lines = ["float x = a < -151.0f ? -151.0f : (a > 128.4f ? 128.4f : a);   /* NaN passes */",
             f"float t_ = x + {_SHIFT};",
             f"float n_ = t_ - {_SHIFT};",
             "float r_ = x - n_;                                /* exact, |r| <= 1/2 */",
             f"float p = fmaf(r_, {_horner_fma('r_', _EXP2_Q)}, 1.0f);",
             "uint32_t tb_; memcpy(&tb_, &t_, sizeof tb_);",
             "int neg = n_ < 0.0f;",
             "uint32_t sb = (tb_ << 23) + (neg ? 191u << 23 : 126u << 23);",
             "float s; memcpy(&s, &sb, sizeof s);",
             f"float r = p * s * (neg ? 5.421010862427522e-20f : 2.0f + {ZERO});",
             "r = a == INFINITY ? a : r;",
             "r = a != a ? a : r;"]
    return _block(lines, "r")


def _exphalf(x: str, out: str) -> list[str]:
    """C lines: float `out` = exp(x)/2 for 0 <= x (NaN passes); x clamped to 89.5 (then inf, with
    the overflow flag): p 2^(n-2) exact, then times 2 (one rounding)."""
    return [f"float xh_ = {x} > 89.5f ? 89.5f : {x};",
            *_exp_reduce("xh_"),
            f"float ph_ = 1.0f + fmaf(r_ * r_, {_horner_fma('r_', _EXP_F32_Q6)}, r_);",
            *_pow2(125, "sh_"),                  # n in 0..129
            f"float {out} = ph_ * sh_ * (2.0f + {ZERO});"]


def sinh() -> str:
    """|x| < 1: x + x z P(z); else h - 1/(4h), h = exp(|x|)/2; the sign copied."""
    lines = ["float ax = fabsf(a), z = a * a;",
             f"float small = fmaf(a, z * ({_horner_fma('z', _SINH_P)}), a);",
             *_exphalf("ax", "h"),
             "float big = copysignf(h - 0.25f / h, a);",
             "float r = ax < 1.0f ? small : big;",
             "r = a != a ? a : r;"]
    return _block(lines, "r")


def cosh() -> str:
    lines = [*_exphalf("fabsf(a)", "h"), "float r = h + 0.25f / h;", "r = a != a ? a : r;"]
    return _block(lines, "r")


_HUGE = "1.1529215e18f"  # 2^60: x^2 finite below


def asinh() -> str:
    """log1p(|x| + x^2/(1 + sqrt(1 + x^2))); beyond 2^60 log1p(|x|) + ln 2; the sign copied."""
    lines = ["float ax = fabsf(a), z = ax * ax;",
             f"int huge = ax > {_HUGE};",
             "float w = huge ? ax : ax + z / (1.0f + sqrtf(1.0f + z));",
             *log1p_lines("w", "l"),
             f"float r = l + (huge ? {_f(LN2[0])} : 0.0f);",
             "r = copysignf(r, a);",
             "r = a != a ? a : r;"]
    return _block(lines, "r")


def acosh() -> str:
    """log1p(t + sqrt(t^2 + 2t)), t = x - 1; beyond 2^60 log1p(x) + ln 2; NaN below 1."""
    lines = ["float tt = a - 1.0f;",
             f"int huge = a > {_HUGE};",
             "float w = huge ? a : tt + sqrtf(fmaf(tt, tt, tt + tt));",
             *log1p_lines("w", "l"),
             f"float r = l + (huge ? {_f(LN2[0])} : 0.0f);",
             f"r = a < 1.0f ? fabsf(sqrtf(tt + {ZERO})) : r;   /* NaN, invalid */",
             "r = a != a ? a : r;"]
    return _block(lines, "r")


def atanh() -> str:
    """log1p(2|x|/(1 - |x|))/2 (for |x| < 1/2 as 2|x| + 2|x| |x|/(1 - |x|)); the sign copied."""
    lines = ["float ax = fabsf(a), d = 1.0f - ax, ax2 = ax + ax;",
             "float q = ax2 / d;                           /* 1: inf, beyond: negative, NaN */",
             "float w = ax < 0.5f ? fmaf(q, ax, ax2) : q;",
             *log1p_lines("w", "l"),
             "float r = copysignf(0.5f * l, a);",
             "r = a != a ? a : r;"]
    return _block(lines, "r")


def _atan_parts(ax: str, neg: str | None = None) -> list[str]:
    """C lines: atan(ax) = bh_ + (bl_ + p_) for float ax >= 0 (or +inf, NaN); with `neg` (a C
    condition) bh_ + bl_ is pi - (0, pi/4, pi/2) there (head and tail selected: the difference of
    two heads is not a float32) and p_ is negated."""
    def pick(i: int) -> str:
        base = f"r3_ ? {_f(PIO2[i])} : (r2_ ? {_f(PIO4[i])} : 0.0f)"
        if neg is None:
            return base
        return (f"{neg} ? (r3_ ? {_f(PIO2[i])} : (r2_ ? {_f(PI3O4[i])} : {_f(PI[i])})) "
                f": ({base})")
    lines = [f"int r3_ = {ax} > 2.4142136573791504f, r2_ = {ax} > 0.4142135679721832f;",
             f"float num_ = r3_ ? -1.0f : (r2_ ? {ax} - 1.0f : {ax});",
             f"float den_ = r3_ ? {ax} : (r2_ ? {ax} + 1.0f : 1.0f);",
             "float w_ = num_ / den_, z_ = w_ * w_;",
             f"float bh_ = {pick(0)};",
             f"float bl_ = {pick(1)};",
             f"float p_ = fmaf(w_, z_ * ({_horner_fma('z_', _ATAN_G)}), w_);"]
    if neg is not None:
        lines.append(f"p_ = {neg} ? -p_ : p_;")
    return lines


def arctan() -> str:
    lines = ["float ax = fabsf(a);", *_atan_parts("ax"), "float r = bh_ + (bl_ + p_);",
             "r = copysignf(r, a);", "r = a != a ? a : r;"]
    return _block(lines, "r")


def arcsin() -> str:
    """atan(x / sqrt((1 - x)(1 + x))): exact at ±1, NaN beyond (c_inverse.py's formula)."""
    lines = ["float ax = fabsf(a) / sqrtf((1.0f - a) * (1.0f + a));   /* inf at 1, NaN beyond */",
             *_atan_parts("ax"), "float r = bh_ + (bl_ + p_);",
             "r = copysignf(r, a);", "r = ax != ax ? ax + a : r;"]
    return _block(lines, "r")


def arccos() -> str:
    lines = ["float ax = sqrtf((1.0f - a) / (1.0f + a));          /* inf at -1, NaN beyond */",
             *_atan_parts("ax"), "float r = bh_ + (bl_ + p_);",
             "r = r + r;", "r = ax != ax ? ax + a : r;"]
    return _block(lines, "r")


def arctan2() -> str:
    """atan(|y|/|x|) moved to the quadrant; C99's values at every zero and infinity."""
    lines = ["float ax = fabsf(a) / fabsf(b);",
             "int neg = copysignf(1.0f, b) < 0.0f;     /* x < 0 or -0 (signbit stops gcc 12) */",
             *_atan_parts("ax", "neg"),
             "float r = bh_ + (bl_ + p_);",
             ("r = (fabsf(b) == INFINITY && fabsf(a) == INFINITY) ? "
              f"(neg ? {_f(PI3O4[0])} : {_f(PIO4[0])}) : r;"),
             f"r = a == 0.0f ? (neg ? {_f(PI[0])} : 0.0f) : r;       /* 0/0 */",
             "r = copysignf(r, a);",
             "r = (a != a || b != b) ? a + b : r;"]
    return _block(lines, "r")


def cbrt() -> str:
    """|x| = m 2^e (subnormals times 2^24), e = 3q + r, M = m 2^r in [1, 8): a degree-4 start
    (3.5e-3), one Halley step (cubic: ~1e-7), one Newton correction with the residual from an
    fmaf; times 2^q from the bits; the sign copied."""
    lines = ["float ax = fabsf(a);",
             "int sub = ax < 1.17549435e-38f;",
             "float v = sub ? ax * 16777216.0f : ax;",
             "uint32_t u; memcpy(&u, &v, sizeof u);",
             "float e = (float)(int32_t)((u >> 23) & 0xffu) - (sub ? 151.0f : 127.0f);",
             "float q = floorf((e + 0.5f) * 0.333333343f);",
             "float rr = e - 3.0f * q;                         /* 0, 1, 2: exact */",
             "uint32_t mb = (u & 0x007fffffu) | 0x3f800000u;",
             "float m; memcpy(&m, &mb, sizeof m);",
             "float M = rr == 0.0f ? m : (rr == 1.0f ? m + m : 4.0f * m);",
             f"float y = {_horner_fma('M', [float(f'{c:.9g}') for c in _CBRT_INIT])};",
             "float y3 = y * y * y;",
             "y = y * (y3 + (M + M)) / ((y3 + y3) + M);",
             "float y2 = y * y;",
             "y = y - fmaf(y2, y, -M) / (3.0f * y2);",
             "uint32_t sb = (uint32_t)((int32_t)q + 127) << 23;   /* 2^q, q in -50..42 */",
             "float s; memcpy(&s, &sb, sizeof s);",
             "float r = copysignf(y * s, a);",
             "r = (ax == 0.0f || ax == INFINITY) ? a : r;",
             "r = a != a ? a : r;"]
    return _block(lines, "r")


def _erfc_big(s: str) -> list[str]:
    """C lines: float `ec_` = erfc(s) for s >= 1/2 (s clamped to [1/2, 10.5], so that the lanes
    selected away raise no flag: a flag makes the evaluation re-run through NumPy; NaN passes):
    exp(-s^2) F(s), F by two fits selected per lane (both computed: branch-free), s^2 =
    h + l exactly (fmaf), exp(-s^2) = exp(-h)(1 - l); beyond 10.5 (erfc < 2^-150) 0. The
    exponential may be subnormal: F <= 0.62 only shrinks its rounding error."""
    return [f"float sc_ = {s} < 0.5f ? 0.5f : ({s} > 10.5f ? 10.5f : {s});   /* no flags */",
            f"float fa_ = {_horner_fma('(sc_ - 1.25f)', _ERFC_A)};",
            "float ub_ = 1.0f / sc_;",
            f"float fb_ = ({_horner_fma('ub_', _ERFC_B)}) / sc_;   /* u G(u): u's rounding out */",
            "float f_ = sc_ < 2.0f ? fa_ : fb_;",
            "float h_ = sc_ * sc_, l_ = fmaf(sc_, sc_, -h_);",
            "float ec_ = la_exp_f32(-h_) * fmaf(-l_, f_, f_);",
            f"ec_ = {s} > 10.5f ? 0.0f : ec_;"]


def erf() -> str:
    """|x| < 1: x + x Q1(x^2); beyond 1 - exp(-s^2) F(s), s = |x| clamped to 3.92 (erf is 1 in
    float32 there), F one fit for the absolute error erf needs (erfc <= 0.16 there: exp's error
    reaches erf at most 0.2x; no division, no second fit as erfc's relative error needs); the
    sign copied."""
    lines = ["float s = fabsf(a), z = a * a;",
             f"float small = fmaf(a, {_horner_fma('z', _ERF_Q1)}, a);",
             "float sc = s < 1.0f ? 1.0f : (s > 3.92f ? 3.92f : s);   /* NaN passes */",
             "float t = sc - 2.5f;",
             f"float f = {_horner_fma('t', _ERF_F)};",
             "float h = sc * sc, l = fmaf(sc, sc, -h);             /* s^2 = h + l exactly */",
             "float ec = la_exp_f32(-h) * fmaf(-l, f, f);",
             "float big = copysignf(s >= 3.92f ? 1.0f : 1.0f - ec, a);   /* erfc < 2^-25 */",
             "float r = s < 1.0f ? small : big;",
             "r = a != a ? a : r;"]
    return _block(lines, "r")


def erfc() -> str:
    """|x| < 1/2: (1 - x) - x Q(x^2); beyond erfc(|x|), 2 - erfc(|x|) for x < 0."""
    lines = ["float s = fabsf(a), z = a * a;",
             f"float small = (1.0f - a) - a * ({_horner_fma('z', _ERF_Q)});",
             *_erfc_big("s"),
             "float big = a < 0.0f ? 2.0f - ec_ : ec_;",
             "float r = s < 0.5f ? small : big;",
             "r = a != a ? a : r;"]
    return _block(lines, "r")


BODIES = {"log": lambda: log("log"), "logtwo": lambda: log("log2"),
          "logten": lambda: log("log10"), "log1p": log1p, "expm1": expm1, "exptwo": exp2,
          "sinh": sinh, "cosh": cosh, "asinh": asinh, "acosh": acosh, "atanh": atanh,
          "atan": arctan, "asin": arcsin, "acos": arccos, "atantwo": arctan2, "cbrt": cbrt,
          "erf": erf, "erfc": erfc}
DEPS = {"erf": ("la_exp_f32",), "erfc": ("la_exp_f32",)}


def over(generators: dict) -> dict:
    """The generators of `BODIES`' names, float32 sent here and other dtypes to `generators`."""
    def split(name: str):
        other = generators[name]

        def gen(dt, t: str):
            if str(dt) != "float32":
                return other(dt, t)
            return ("a, b" if name == "atantwo" else "a"), BODIES[name](), DEPS.get(name, ())
        return gen
    return {name: split(name) for name in BODIES}
