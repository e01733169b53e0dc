"""The project's own `sin` and `cos` (float32 and float64), printed as C helpers like c_math.py's.

One body serves both: `la_sinq_f64(a, q)` is sin(|a| + q*pi/2) with the sign of `a` restored for
sin (q = 0); cos is q = 1. Branch-free (selects only), no calls, so every loop shape (vector body,
scalar tail, CUDA) computes the same bits.

Argument reduction, exact over the whole double range (no precision cliff at large |x|), chosen
per element: |x| < NEAR (2^17) by Cody-Waite (round(|x| 2/pi) by the 1.5*2^52 shifter, pi/2 in
three exact 33-bit parts and a tail, carried as a double-double); beyond, as follows (Payne-Hanek).
Both run in every lane of the full functions (`la_sinq_f64`, `la_tan_f64`); the `near` variants
run Cody-Waite alone, and the C printer's vector loop uses them while no element of its chunk is
finite and >= NEAR (`la_trigfar`), rerunning the chunk with the full functions otherwise: the
exact reduction's cost falls on chunks that need it only, and each value keeps one bit pattern.

|x| = M * 2^E with M a 53-bit integer. The bits of 2/pi that matter for x*2/pi mod 4 are a window
of eight 32-bit words starting at word (E-2)/32 of a table (`la_twobypi`), since earlier bits give
multiples of 4. M times that 256-bit window is formed exactly in 32-bit columns of 64-bit integers
(Payne-Hanek, in integer arithmetic that vectorizes); the 2-bit quadrant and 128 fraction bits are
cut out of it, centred to [-1/2, 1/2), turned into a double-double and multiplied by pi/2 (Dekker
products: the generated code has no FMA). |x| < pi/4 skips the reduction. The kernels are Taylor
polynomials on |r| <= pi/4 with the double-double's low part as first-order correction.
float32 sin/cos run the same reduction in float64 with 6-term polynomials and no low part
(`la_sinqs`: error < 2^-45 relative, below a float32 rounding's reach but for near-ties) and
round once; float32 tan the same (`la_tans`).
"""

from __future__ import annotations

import math

PIO4 = 0.7853981633974483
PIO2_HI = 1.5707963267948966  # pi/2 = PIO2_HI + PIO2_LO to ~107 bits
PIO2_LO = 6.123233995736766e-17
SPLIT = 134217729.0  # 2^27 + 1: Veltkamp split into two 26-bit halves
SHIFTER = 6755399441055744.0  # 1.5 * 2^52: t = x + SHIFTER holds round(x) in its low bits
NEAR = 131072.0  # 2^17: below it the Cody-Waite reduction; n = round(|x| 2/pi) < 2^17 < 2^20
# pi/2 in three 33-bit parts and a tail (fdlibm's pio2_1, pio2_2, pio2_3, pio2_3t): n * part is
# exact for n < 2^20, so |x| - n*P1 is exact (Sterbenz) and the rest is carried as a double-double
P1, P2, P3 = 1.57079632673412561417e+00, 6.07710050630396597660e-11, 2.02226624871116645580e-21
P3T = 8.47842766036889956997e-32
N_WORDS = 40  # 1280 bits of 2/pi: the window for the largest exponent (E = 972) ends at word 38


def _two_over_pi_words(n_words: int) -> list[int]:
    """floor(2/pi * 2^(32 n)) as n 32-bit words, most significant first (Machin's formula)."""
    bits = 32 * n_words + 64
    one = 1 << (bits + 8)

    def arctan_inv(k: int) -> int:
        total, term, n, sign = 0, one // k, 1, 1
        while term:
            total += sign * (term // n)
            term //= k * k
            n += 2
            sign = -sign
        return total

    pi = 16 * arctan_inv(5) - 4 * arctan_inv(239)  # pi * 2^(bits+8)
    w = (2 * one << bits) // pi  # 2/pi * 2^bits
    w >>= 64
    return [(w >> (32 * (n_words - 1 - i))) & 0xFFFFFFFF for i in range(n_words)]


def table_text(qualifier: str) -> str:
    """The 2/pi table: `static const` in C, `__device__` memory on CUDA."""
    storage = "static __device__ const" if "__device__" in qualifier else "static const"
    words = _two_over_pi_words(N_WORDS)
    rows = ",\n    ".join(", ".join(f"0x{w:08x}u" for w in words[i:i + 8])
                          for i in range(0, N_WORDS, 8))
    return f"{storage} uint32_t la_twobypi_table[{N_WORDS}] = {{\n    {rows}}};"


def _horner(var: str, coefs: list[float]) -> str:
    text = repr(coefs[-1])
    for c in reversed(coefs[:-1]):
        text = f"{c!r} + {var} * ({text})"
    return text


def _sin_coefs() -> list[float]:  # sin r = r + r^3 (S1 + z S2 + ...), z = r^2
    return [(-1) ** k / math.factorial(2 * k + 1) for k in range(1, 10)]


def _cos_coefs() -> list[float]:  # cos r = 1 - z/2 + z^2 (C1 + z C2 + ...)
    return [(-1) ** k / math.factorial(2 * k) for k in range(2, 11)]


def _reduction_lines() -> list[str]:
    """C statements: quadrant `quad` and r = rh + rl for ax = |a| >= pi/4 (garbage below)."""
    out = [
        "uint64_t u; memcpy(&u, &ax, sizeof u);",
        "int64_t E = (int64_t)((u >> 52) & 0x7ff) - 1075;",
        "E = E < -53 ? -53 : E;                       /* |x| < pi/4 lanes: in range, unused */",
        "uint64_t M = (u & 0x000fffffffffffffull) | 0x0010000000000000ull;",
        "int64_t k0 = E >= 2 ? (E - 2) >> 5 : 0;       /* earlier words: multiples of 4 */",
        "uint64_t ml = M & 0xffffffffu, mh = M >> 32;",
    ]
    for i in range(8):  # L_i: window words, least significant first
        out.append(f"uint64_t L{i} = la_twobypi_table[k0 + {7 - i}];")
        out.append(f"uint64_t q{i} = L{i} * ml, r{i} = L{i} * mh;")
    # column c of M*L: lo(q_c) + hi(q_{c-1}) + lo(r_{c-1}) + hi(r_{c-2}) + carry
    out.append("uint64_t acc = 0;")
    for c in range(10):
        terms = []
        if c < 8:
            terms.append(f"(q{c} & 0xffffffffu)")
        if 1 <= c <= 8:
            terms.append(f"(q{c - 1} >> 32)")
            terms.append(f"(r{c - 1} & 0xffffffffu)")
        if 2 <= c <= 9:
            terms.append(f"(r{c - 2} >> 32)")
        out.append(f"acc = (acc >> 32) + {' + '.join(terms)};")
        out.append(f"uint64_t p{c} = acc & 0xffffffffu;")
    out += [
        "uint64_t p10 = 0;",
        "int64_t b0 = 128 - E + 32 * k0;             /* bit of M*L at 2^-128 of x*2/pi */",
        "int64_t wi = b0 >> 5, s = b0 & 31;",
    ]
    for j in range(6):  # g_j = p[wi + j], wi in 2..5, by selects (no variable register index)
        out.append(f"uint64_t g{j} = wi == 2 ? p{2 + j} : (wi == 3 ? p{3 + j} : "
                   f"(wi == 4 ? p{4 + j} : p{5 + j}));")
    for i in range(5):  # the 160 bits from b0: 128 fraction bits, then the integer part
        out.append(f"uint64_t w{i} = ((g{i} >> s) | (g{i + 1} << (32 - s))) & 0xffffffffu;")
    out += [
        "quad = (int64_t)((w4 + (w3 >> 31)) & 3u);    /* fraction >= 1/2: next quadrant */",
        "double hh = (double)(int32_t)(uint32_t)w3 * 2.3283064365386963e-10;  /* signed, 2^-32 */",
        "double hl = (double)w2 * 5.421010862427522e-20;",
        "double lh = (double)w1 * 1.2621774483536189e-29;",
        "double ll = (double)w0 * 2.938735877055719e-39;",
        "double s1 = hh + hl, bv = s1 - hh, e1 = (hh - (s1 - bv)) + (hl - bv);   /* two-sum */",
        "double s2 = lh + ll, bw = s2 - lh, e2 = (lh - (s2 - bw)) + (ll - bw);",
        "double fh0 = s1 + s2, bx = fh0 - s1, fl0 = ((s1 - (fh0 - bx)) + (s2 - bx)) + (e1 + e2);",
        "double fh = fh0 + fl0, fl = fl0 - (fh - fh0);",
        f"double ca = {SPLIT!r} * fh, ah = ca - (ca - fh), al = fh - ah;",
        f"const double bh = {_split_hi(PIO2_HI)!r}, bl = {PIO2_HI - _split_hi(PIO2_HI)!r};",
        f"double ph = fh * {PIO2_HI!r};",
        "double pe = ((ah * bh - ph) + ah * bl + al * bh) + al * bl;   /* fh*PIO2_HI - ph */",
        f"double pl = pe + (fh * {PIO2_LO!r} + fl * {PIO2_HI!r});",
        "rh = ph + pl; rl = pl - (rh - ph);",
    ]
    return out


def _near_lines(short: bool = False) -> list[str]:
    """C statements: Cody-Waite reduction of ax' = (ax < NEAR ? ax : 0) into `quad` and
    r = rh + rl (the clamp keeps far, infinite and NaN lanes from raising flags here).
    `short` (float32 inputs, whose result drops rl): r = (x - n P1) - n P23 with P23 = pi/2 - P1
    rounded to double: the first difference exact, the error of n P23 below 2^-69 for
    n < 2^17, far below a float32 rounding of r (the all-float32 sweep checks it)."""
    head = [
        f"double cx = ax < {NEAR!r} ? ax : 0.0;",
        f"double ct = cx * {2 / math.pi!r} + {SHIFTER!r};",
        f"double cn = ct - {SHIFTER!r};",
        "uint64_t ctb; memcpy(&ctb, &ct, sizeof ctb);",
        "quad = (int64_t)(ctb & 3u);",
    ]
    if short:
        return head + [f"rh = (cx - cn * {P1!r}) - cn * {P2 + P3!r}; rl = 0.0;"]
    return head + [
        f"double a1 = cx - cn * {P1!r};                 /* exact */",
        f"double a2 = cn * {P2!r}, a3 = cn * {P3!r};    /* exact */",
        "double sh = a1 - a2, sv = sh - a1, sl = (a1 - (sh - sv)) + (-a2 - sv);   /* two-sum */",
        "double th = sh - a3, tv = th - sh, tl = (sh - (th - tv)) + (-a3 - tv);",
        f"double lo = (sl + tl) - cn * {P3T!r};",
        "rh = th + lo; rl = lo - (rh - th);",
    ]


def _split_hi(x: float) -> float:
    c = SPLIT * x
    return c - (c - x)


def _kernel_lines(near_only: bool, short: bool = False) -> list[str]:
    """C statements: sin and cos of the reduced |a| (`sn`, `cs`) and the quadrant `quad`.
    |a| < NEAR: the Cody-Waite reduction; beyond, the exact one (selected per element, so a value
    has one bit pattern). `near_only`: the Cody-Waite reduction alone (garbage beyond NEAR), for
    the vector loop that reruns its chunk with the full function when an element is far."""
    lines = ["double ax = fabs(a);", "int64_t quad = 0;", "double rh = ax, rl = 0.0;"]
    lines += _near_lines(short)
    if not near_only:
        lines += ["int64_t nquad = quad;", "double nrh = rh, nrl = rl;", "{"]
        lines += ["    " + ln for ln in _reduction_lines()]
        lines += [
            "}",
            f"int64_t small = ax < {PIO4!r};",
            "rh = small ? ax : rh; rl = small ? 0.0 : rl; quad = small ? 0 : quad;",
            f"int64_t isnear = ax < {NEAR!r};",
            "rh = isnear ? nrh : rh; rl = isnear ? nrl : rl; quad = isnear ? nquad : quad;",
        ]
    if short:  # float32: 6 terms each (truncation < 2^-45 of the result), rl dropped
        return lines + [
            "double z = rh * rh;",
            f"double sn = rh + rh * z * ({_horner('z', _sin_coefs()[:6])});",
            f"double cs = 1.0 - 0.5 * z + z * z * ({_horner('z', _cos_coefs()[:6])});",
        ]
    return lines + [
        "double z = rh * rh, v = z * rh;",
        f"double sn = rh + (v * ({_horner('z', _sin_coefs())}) + rl * (1.0 - 0.5 * z));",
        "double hz = 0.5 * z, w = 1.0 - hz;",
        f"double cs = w + (((1.0 - w) - hz) + (z * z * ({_horner('z', _cos_coefs())}) - rh * rl));",
    ]


def _sinq_gen(near_only: bool, short: bool = False):
    def gen(dt, t: str):
        return _sinq(dt, t, near_only, short)
    return gen


def _sinq(dt, t: str, near_only: bool = False, short: bool = False):
    if str(dt) != "float64":
        raise KeyError("la_sinq is float64 only")
    lines = _kernel_lines(near_only, short) + [
        "int64_t k = (quad + (int64_t)q) & 3;",
        "double res = (k & 1) ? cs : sn;",
        "res = (k & 2) ? -res : res;",
        "res = (q == 0.0 && a < 0.0) ? -res : res;",
        "res = (q == 0.0 && a == 0.0) ? a : res;           /* sin(-0.0) = -0.0 */",
        "return ax <= 1.7976931348623157e308 ? res : a - a;   /* inf: NaN; NaN stays NaN */",
    ]
    body = "{\n" + "\n".join("    " + ln for ln in lines) + "\n}"
    return "a, q", body, () if near_only else ("la_twobypi_table",)


def _tan_gen(near_only: bool, short: bool = False):
    def gen(dt, t: str):
        return _tan(dt, t, near_only, short)
    return gen


def _tan(dt, t: str, near_only: bool = False, short: bool = False):
    """tan = sin/cos of the reduced argument (one exact reduction, both polynomials, one
    division): -cos/sin in odd quadrants; the sign of `a` restored, tan(-0.0) = -0.0, inf -> NaN.
    float32 runs it in float64 with the short polynomials (`la_tans`) and rounds once."""
    if str(dt) == "float32":
        name = "tansnear" if near_only else "tans"
        return "a", f"(float)la_{name}_f64((double)a)", (f"la_{name}_f64",)
    lines = _kernel_lines(near_only, short) + [
        "int64_t odd = quad & 1;",
        "double res = odd ? -cs / sn : sn / cs;",
        "res = a < 0.0 ? -res : res;",
        "res = a == 0.0 ? a : res;",
        "return ax <= 1.7976931348623157e308 ? res : a - a;   /* inf: NaN; NaN stays NaN */",
    ]
    body = "{\n" + "\n".join("    " + ln for ln in lines) + "\n}"
    return "a", body, () if near_only else ("la_twobypi_table",)


def _sincos(q: str, helper: str):
    def gen(dt, t: str):
        if str(dt) == "float32":  # the short polynomials: la_sinqs / la_sinqsnear
            h = helper.replace("sinq", "sinqs")
            return "a", f"(float)la_{h}_f64((double)a, {q})", (f"la_{h}_f64",)
        return "a", f"la_{helper}_f64(a, {q})", (f"la_{helper}_f64",)
    return gen


def _far(dt, t: str):
    """1 where the element needs the exact reduction (finite, |a| >= NEAR), else 0."""
    top = "3.4028234663852886e38f" if str(dt) == "float32" else "1.7976931348623157e308"
    return "a", f"(fabs(a) >= {NEAR!r} && fabs(a) <= {top}) ? 1 : 0", ()


# The `...near` variants: the Cody-Waite path alone; the C printer's vector loop uses them and
# reruns a chunk with the full functions when `la_trigfar` flags an element (c_printer.py).
GENERATORS = {"sinq": _sinq_gen(False), "sinqnear": _sinq_gen(True),
              "sinqs": _sinq_gen(False, True), "sinqsnear": _sinq_gen(True, True),
              "sin": _sincos("0.0", "sinq"), "cos": _sincos("1.0", "sinq"),
              "sinnear": _sincos("0.0", "sinqnear"), "cosnear": _sincos("1.0", "sinqnear"),
              "tan": _tan_gen(False), "tannear": _tan_gen(True),
              "tans": _tan_gen(False, True), "tansnear": _tan_gen(True, True), "trigfar": _far}
NEAR_NAMES = ("sin", "cos", "tan")  # ops whose helpers have a `near` variant
