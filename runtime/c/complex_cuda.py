"""The CUDA dialect's complex transcendental functions: C99 Annex G's special values on the real
libm functions, as NVRTC has no <complex.h> (runtime/c/complex.py renders them).

Each function follows a published algorithm, written here for our struct and both precisions
(constants per precision in `_CONSTANTS`), as CuPy/Thrust compile FreeBSD msun's ports:

- exp: Annex G's cexp table; exp(re / 2) taken twice where exp(re) alone would overflow.
- log: log(hypot) scaled by 2 near overflow, and log1p((m - 1)(m + 1) + s^2) / 2 near |z| = 1.
- sqrt: Kahan's cancellation-free form (msun s_csqrt.c), scaled at both ends of the range.
- sinh, cosh, tanh: msun s_csinh.c, s_ccosh.c; tanh is Kahan's (s_ctanh.c), e^{-2|re|} past 22.
- sin, cos, tan: Annex G's identities sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz).
- asinh, acos (and asin, acosh from them): Hull, Fairgrieve and Tang, "Implementing the complex
  arcsine and arccosine functions using exception handling" (ACM TOMS 23, 1997), the layout of
  msun's catrig.c: `hull` is the shared core on (|re|, |im|), log(2z) past 1/eps.
- atanh (and atan): Kahan's formulas as in msun's catrig.c, with Re(1/z) past 1/eps.
- `mulg`: Annex G's multiplication (C11 G.5.1: infinities recovered from nan results), which
  power's general path exp(b log a) needs to give glibc's (and so NumPy's) cpow special values.

In the texts, R and T are the real and complex C types, F( the libm suffix, @S the dtype suffix
and @NAME a constant of `_CONSTANTS`; `render` substitutes them.
"""

from __future__ import annotations

import re

import numpy as np


def _constants(real) -> dict[str, str]:
    info = np.finfo(real)
    eps, f = float(info.eps), "f" if real == np.float32 else ""
    values = {
        "EPS": eps, "RECIP_EPS": 1 / eps, "EPS2_128": eps * eps / 128, "EPS_128": eps / 128,
        "TWO_RECIP_EPS": 2 / eps, "FOUR_RECIP_EPS2": 4 / eps / eps,
        "SQRT6EPS4": float(np.sqrt(6 * eps)) / 4, "SQRT3EPS2": float(np.sqrt(3 * eps)) / 2,
        # 4 sqrt(min normal) and sqrt(min normal), rounded up/down to powers of two (msun's)
        "FOUR_SQRT_MIN": 2.0 ** -509 if f == "" else 2.0 ** -61,
        "SQRT_MIN": 2.0 ** -511 if f == "" else 2.0 ** -63,
        # exp(x) overflows past EXP_BIG; sinh/cosh/tanh are e^|x|/2 (to an ulp) past HYP_CUT
        "EXP_BIG": 709.0 if f == "" else 88.0, "HYP_CUT": 22.0 if f == "" else 9.0,
        # e^x overflows past EXP_CLAMP even times the smallest subnormal sin(y)
        "EXP_CLAMP": 1500.0 if f == "" else 200.0,
        "INV_LN2": 1.4426950408889634,
        # ln 2 = LN2_HI + LN2_LO, LN2_HI with trailing zero bits (k LN2_HI is exact; fdlibm's)
        "LN2_HI": 6.93147180369123816490e-01 if f == "" else 6.9314575195e-01,
        "LN2_LO": 1.90821492927058770002e-10 if f == "" else 1.4286067653e-06,
        "MAX_4": float(info.max) / 4, "MAX_2": float(info.max) / 2,
        # sqrt's and log's small-input scaling: 2^(2k) up, 2^-k down
        "TINY": 2.0 ** -1020 if f == "" else 2.0 ** -124,
        "UP": 2.0 ** 108 if f == "" else 2.0 ** 48, "DOWN": 2.0 ** -54 if f == "" else 2.0 ** -24,
    }
    text = {k: f"(R){v!r}{f}" for k, v in values.items()}
    text["LOG_UP"] = f"(R){float(np.log(values['UP']))!r}{f}"
    text["LN2"] = f"(R)0.693147180559945309417232121458176568{f}"
    text["PIO2"] = f"(R)1.570796326794896619231321691639751442{f}"
    return text


_CONSTANTS = {"c64": _constants(np.float32), "c128": _constants(np.float64)}
_REAL = {"c64": ("float", "f"), "c128": ("double", "")}

_FORMULAS = {
    "exp": """const R x = a.re, y = a.im;
    if (y == 0) return la_make_@S(expF(x), y);
    if (!isfinite(y)) {
        if (isinf(x)) return x > 0 ? la_make_@S(x, y - y) : la_make_@S((R)0, copysignF((R)0, y));
        return la_make_@S(y - y, y - y);
    }
    if (isnan(x)) return la_make_@S(x, x);
    if (x > @EXP_BIG) return la_expk_@S(a, la_make_@S((R)0, (R)0));
    const R e = expF(x);
    return la_make_@S(e * cosF(y), e * sinF(y));""",
    "log": """const R ax = fabsF(a.re), ay = fabsF(a.im), t = atan2F(a.im, a.re);
    if (isnan(ax) || isnan(ay)) return la_make_@S(logF(hypotF(ax, ay)), t);
    const R big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
    if (big > @MAX_2) return la_make_@S(logF(hypotF(ax / 2, ay / 2)) + @LN2, t);
    if (big < @TINY)  /* hypot would round to a subnormal */
        return la_make_@S(logF(hypotF(ax * @UP, ay * @UP)) - @LOG_UP, t);
    if (big >= (R)0.5 && big <= 2)  /* near |z| = 1: no cancellation in log */
        return la_make_@S(log1pF((big - 1) * (big + 1) + small * small) / 2, t);
    return la_make_@S(logF(hypotF(ax, ay)), t);""",
    "sqrt": """const R x = a.re, y = a.im;
    if (x == 0 && y == 0) return la_make_@S((R)0, y);
    if (isinf(y)) return la_make_@S((R)INFINITY, y);
    if (isnan(x)) return la_make_@S(x, x);
    if (isinf(x)) return x > 0 ? la_make_@S(x, isnan(y) ? y : copysignF((R)0, y))
                               : la_make_@S(fabsF(y - y), copysignF(x, y));
    if (isnan(y)) return la_make_@S(y, y);
    R ax = fabsF(x), ay = fabsF(y), scale = 1;
    if (ax >= @MAX_4 || ay >= @MAX_4) { ax /= 4; ay /= 4; scale = 2; }
    else if (ax < @TINY && ay < @TINY) { ax *= @UP; ay *= @UP; scale = @DOWN; }
    const R t = sqrtF((ax + hypotF(ax, ay)) / 2), u = ay / (2 * t);
    if (x >= 0) return la_make_@S(t * scale, copysignF(u * scale, y));
    return la_make_@S(u * scale, copysignF(t * scale, y));""",
    "sinh": """const R x = a.re, y = a.im;
    if (isfinite(x) && isfinite(y)) {
        if (y == 0) return la_make_@S(sinhF(x), y);
        if (fabsF(x) < @HYP_CUT) return la_make_@S(sinhF(x) * cosF(y), coshF(x) * sinF(y));
        const T w = la_expk_@S(la_make_@S(fabsF(x), y), la_make_@S((R)-1, (R)0));
        return la_make_@S(copysignF((R)1, x) * w.re, w.im);
    }
    if (x == 0) return la_make_@S(x, y - y);
    if (y == 0) return la_make_@S(x, y);
    if (isnan(x)) return la_make_@S(x, x);
    if (isinf(x)) return isfinite(y) ? la_make_@S(x * cosF(y), (R)INFINITY * sinF(y))
                                     : la_make_@S(x * x, y - y);
    return la_make_@S(y - y, y - y);""",
    "cosh": """const R x = a.re, y = a.im;
    if (isfinite(x) && isfinite(y)) {
        if (y == 0) return la_make_@S(coshF(x), x * y);
        if (fabsF(x) < @HYP_CUT) return la_make_@S(coshF(x) * cosF(y), sinhF(x) * sinF(y));
        const T w = la_expk_@S(la_make_@S(fabsF(x), y), la_make_@S((R)-1, (R)0));
        return la_make_@S(w.re, copysignF((R)1, x) * w.im);
    }
    if (x == 0) return la_make_@S(y - y, (R)0);
    if (y == 0) return la_make_@S(x * x, isnan(x) ? y : copysignF((R)0, x) * y);
    if (isnan(x)) return la_make_@S(x, x);
    if (isinf(x)) return isfinite(y) ? la_make_@S((R)INFINITY * cosF(y), x * sinF(y))
                                     : la_make_@S(x * x, x * (y - y));
    return la_make_@S(y - y, x * (y - y));""",
    "tanh": """const R x = a.re, y = a.im;
    if (isnan(x)) return la_make_@S(x, y == 0 ? y : x);
    if (isinf(x))
        return la_make_@S(copysignF((R)1, x), copysignF((R)0, isinf(y) ? y : sinF(y) * cosF(y)));
    if (!isfinite(y)) return la_make_@S(x == 0 ? x : y - y, y - y);
    if (fabsF(x) >= @HYP_CUT) {  /* tanh = sign(x) + 4 sin(y) cos(y) e^{-2|x|} to an ulp */
        const R e = expF(-fabsF(x));
        return la_make_@S(copysignF((R)1, x), 4 * sinF(y) * cosF(y) * e * e);
    }
    const R t = tanF(y), beta = 1 + t * t, s = sinhF(x), rho = sqrtF(1 + s * s);
    const R den = 1 + beta * s * s;
    return la_make_@S(beta * rho * s / den, t / den);""",
    # e^x (cos y + i sin y) 2^b.re for x = a.re > 0 past exp's overflow: e^x = 2^k e^r with
    # r = x - k ln 2 in (0, 2 ln 2) (Cody and Waite's two-part ln 2) and 2^k applied by ldexp
    # before the one rounding multiplication by e^r (exact even for a subnormal sin(y), and it
    # overflows only where the result does; where e^x overflows, e^x sin(y) may not); x is
    # clamped where every result overflows
    "expk": """const R x = a.re < @EXP_CLAMP ? a.re : @EXP_CLAMP;
    const int k = (int)(x * @INV_LN2) - 1, n = k + (int)b.re;  /* r > 0: e^r > 1 */
    const R e = expF((x - (R)k * @LN2_HI) - (R)k * @LN2_LO);
    return la_make_@S(ldexpF(cosF(a.im), n) * e, ldexpF(sinF(a.im), n) * e);""",
    "sin": """if (isinf(a.im) && !isfinite(a.re)) return la_make_@S(a.re - a.re, (R)INFINITY);
    const T w = la_sinh_@S(la_make_@S(-a.im, a.re));
    return la_make_@S(w.im, -w.re);""",
    "cos": "return la_cosh_@S(la_make_@S(-a.im, a.re));",
    "tan": """const T w = la_tanh_@S(la_make_@S(-a.im, a.re));
    return la_make_@S(w.im, -w.re);""",
    # Hull et al.'s core for finite x = a.re >= 0, y = a.im >= 0, not both tiny, below 1/eps:
    # re = Re asinh(x + iy) = log(A + sqrt(A^2 - 1)) with A = (|z + i| + |z - i|) / 2, and the
    # angle Im asinh = asin(y / A) (b.re == 0) or acos(y / A) (b.re != 0; the cosine's sign is
    # b.im's), taken as atan2 of (num, den) = (y, sqrt(A^2 - y^2)) scaled where that underflows
    "hull": """const R x = a.re, y = a.im, d = y - 1;
    const R rp = hypotF(x, y + 1), rm = hypotF(x, d);
    const R fp = x * x / (rp + y + 1) / 2;  /* (|z + i| - (y + 1)) / 2 */
    R A = (rp + rm) / 2, re, num = y, den;
    if (A < 1) A = 1;
    if (A < 10) {
        if (y == 1 && x < @EPS2_128) re = sqrtF(x);
        else if (x >= @EPS * fabsF(d)) {  /* A - 1 = fp + (|z - i| - (1 - y)) / 2 */
            const R fm = d > 0 ? (rm + d) / 2 : d == 0 ? x / 2 : x * x / (rm - d) / 2;
            re = log1pF(fp + fm + sqrtF((fp + fm) * (A + 1)));
        }
        else if (y < 1) re = x / sqrtF((1 - y) * (1 + y));
        else re = log1pF(d + sqrtF(d * (y + 1)));
    }
    else re = logF(A + sqrtF(A * A - 1));
    if (y < @FOUR_SQRT_MIN) { num = y * @TWO_RECIP_EPS; den = A * @TWO_RECIP_EPS; }
    else if (y / A <= (R)0.6417) { num = y / A; den = sqrtF((1 - num) * (1 + num)); }
    else if (y == 1 && x < @EPS_128) den = sqrtF(x) * sqrtF((A + y) / 2);
    else if (x >= @EPS * fabsF(d)) {  /* A - y = fp + (|z - i| - (y - 1)) / 2 */
        const R fm = d < 0 ? (rm - d) / 2 : d == 0 ? x / 2 : x * x / (rm + d) / 2;
        den = sqrtF((fp + fm) * (A + y));
    }
    else if (y > 1) {  /* scaled up: den would underflow */
        den = x * @FOUR_RECIP_EPS2 * y / sqrtF((y + 1) * d);
        num = y * @FOUR_RECIP_EPS2;
    }
    else den = sqrtF((1 - y) * (1 + y));
    return la_make_@S(re, b.re == 0 ? atan2F(num, den) : atan2F(den, copysignF(num, b.im)));""",
    "asinh": """const R x = a.re, y = a.im, ax = fabsF(x), ay = fabsF(y);
    if (isnan(x) || isnan(y)) {
        if (isinf(x)) return la_make_@S(x, y + y);
        if (isinf(y)) return la_make_@S(fabsF(y), x + x);
        if (y == 0) return la_make_@S(x + x, y);
        return la_make_@S((R)NAN, (R)NAN);
    }
    if (ax > @RECIP_EPS || ay > @RECIP_EPS) {  /* asinh z = log(2z) + O(1/z^2) */
        const T w = la_log_@S(la_make_@S(ax, ay));
        return la_make_@S(copysignF(w.re + @LN2, x), copysignF(w.im, y));
    }
    if ((x == 0 && y == 0) || (ax < @SQRT6EPS4 && ay < @SQRT6EPS4)) return a;
    const T w = la_hull_@S(la_make_@S(ax, ay), la_make_@S((R)0, (R)0));
    return la_make_@S(copysignF(w.re, x), copysignF(w.im, y));""",
    "asin": """const T w = la_asinh_@S(la_make_@S(a.im, a.re));
    return la_make_@S(w.im, w.re);""",
    "acos": """const R x = a.re, y = a.im, ax = fabsF(x), ay = fabsF(y);
    if (isnan(x) || isnan(y)) {
        if (isinf(x)) return la_make_@S(y + y, -(R)INFINITY);
        if (isinf(y)) return la_make_@S(x + x, -y);
        if (x == 0) return la_make_@S(@PIO2, y + y);
        return la_make_@S((R)NAN, (R)NAN);
    }
    if (ax > @RECIP_EPS || ay > @RECIP_EPS) {  /* acos z = -i sign(y) log(2z) + O(1/z^2) */
        const T w = la_log_@S(a);
        const R r = w.re + @LN2;
        return la_make_@S(fabsF(w.im), signbit(y) ? r : -r);
    }
    if (x == 1 && y == 0) return la_make_@S((R)0, -y);
    if (ax < @SQRT6EPS4 && ay < @SQRT6EPS4) return la_make_@S(@PIO2 - x, -y);
    const T w = la_hull_@S(la_make_@S(ay, ax), la_make_@S((R)1, x));
    return la_make_@S(w.im, signbit(y) ? w.re : -w.re);""",
    "acosh": """const T w = la_acos_@S(a);
    if (isnan(w.re) && isnan(w.im)) return la_make_@S(w.im, w.re);
    if (isnan(w.re)) return la_make_@S(fabsF(w.im), w.re);
    if (isnan(w.im)) return la_make_@S(w.im, w.re);  /* acosh(±0 + i nan) = nan + i pi/2 */
    return la_make_@S(fabsF(w.im), copysignF(w.re, a.im));""",
    "atanh": """const R x = a.re, y = a.im, ax = fabsF(x), ay = fabsF(y);
    if (y == 0 && ax <= 1) return la_make_@S(atanhF(x), y);
    if (x == 0 && !isnan(y)) return la_make_@S(x, atanF(y));
    if (isnan(x) || isnan(y)) {
        if (isinf(x)) return la_make_@S(copysignF((R)0, x), y + y);
        if (isinf(y)) return la_make_@S(copysignF((R)0, x), copysignF(@PIO2, y));
        if (x == 0) return la_make_@S(x, y + y);
        return la_make_@S((R)NAN, (R)NAN);
    }
    if (ax > @RECIP_EPS || ay > @RECIP_EPS) {  /* atanh z = Re(1/z) + i pi/2 sign(y) */
        const R m = ax > ay ? ax : ay, s = ax / m, t = ay / m;
        const R r = isinf(m) ? (R)0 : s / (s * s + t * t) / m;
        return la_make_@S(copysignF(r, x), copysignF(@PIO2, y));
    }
    if (ax < @SQRT3EPS2 && ay < @SQRT3EPS2) return a;
    const R d = ax - 1, re = ax == 1 && ay < @EPS ? (@LN2 - logF(ay)) / 2
        : log1pF(4 * ax / (ay < @SQRT_MIN ? d * d : d * d + ay * ay)) / 4;
    const R im = ax == 1 ? atan2F((R)2, -ay) / 2
        : ay < @EPS ? atan2F(2 * ay, (1 - ax) * (1 + ax)) / 2
        : atan2F(2 * ay, (1 - ax) * (1 + ax) - ay * ay) / 2;
    return la_make_@S(copysignF(re, x), copysignF(im, y));""",
    "atan": """const T w = la_atanh_@S(la_make_@S(a.im, a.re));
    return la_make_@S(w.im, w.re);""",
    "mulg": """R p = a.re, q = a.im, r = b.re, s = b.im;
    const R pr = p * r, qs = q * s, ps = p * s, qr = q * r;
    R x = pr - qs, y = ps + qr;
    if (isnan(x) && isnan(y)) {  /* recover infinities from an infinite factor */
        int again = 0;
        if (isinf(p) || isinf(q)) {
            p = copysignF(isinf(p) ? (R)1 : (R)0, p); q = copysignF(isinf(q) ? (R)1 : (R)0, q);
            if (isnan(r)) r = copysignF((R)0, r);
            if (isnan(s)) s = copysignF((R)0, s);
            again = 1;
        }
        if (isinf(r) || isinf(s)) {
            r = copysignF(isinf(r) ? (R)1 : (R)0, r); s = copysignF(isinf(s) ? (R)1 : (R)0, s);
            if (isnan(p)) p = copysignF((R)0, p);
            if (isnan(q)) q = copysignF((R)0, q);
            again = 1;
        }
        if (!again && (isinf(pr) || isinf(qs) || isinf(ps) || isinf(qr))) {
            if (isnan(p)) p = copysignF((R)0, p);
            if (isnan(q)) q = copysignF((R)0, q);
            if (isnan(r)) r = copysignF((R)0, r);
            if (isnan(s)) s = copysignF((R)0, s);
            again = 1;
        }
        if (again) { x = (R)INFINITY * (p * r - q * s); y = (R)INFINITY * (p * s + q * r); }
    }
    return la_make_@S(x, y);""",
}

DEPS = {
    "exp": ("la_expk_@S",), "sinh": ("la_expk_@S",), "cosh": ("la_expk_@S",),
    "sin": ("la_sinh_@S",), "cos": ("la_cosh_@S",), "tan": ("la_tanh_@S",),
    "asinh": ("la_log_@S", "la_hull_@S"), "asin": ("la_asinh_@S",),
    "acos": ("la_log_@S", "la_hull_@S"), "acosh": ("la_acos_@S",), "atan": ("la_atanh_@S",),
}
NAMES = frozenset(_FORMULAS)
BINARY = frozenset({"hull", "mulg", "expk"})


def render(fn: str, s: str) -> tuple[str, tuple[str, ...]]:
    """(body of `la_<fn>_<s>`, helpers it calls) with types, libm suffix and constants filled in."""
    r, f = _REAL[s]
    text = re.sub(r"@([A-Z][A-Z0-9_]+)", lambda m: _CONSTANTS[s][m.group(1)], _FORMULAS[fn])
    text = re.sub(r"\b([a-z][a-z0-9]*)F\(", lambda m: m.group(1) + f + "(", text.replace("@S", s))
    text = re.sub(r"\bR\b", r, re.sub(r"\bT\b", f"la_{s}", text))
    deps = tuple(d.replace("@S", s) for d in DEPS.get(fn, ()))
    return text, (f"la_make_{s}", *deps)
