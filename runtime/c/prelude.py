"""The helper functions that the registry's C templates name (`la_add_i32`, `la_cast_f32_i8`, ...).

Each helper is generated per dtype from one Python function (never hand-copied per type) and defines
what C leaves undefined the way NumPy (and graph/semantics.py) does: signed arithmetic wraps (done in
unsigned), integer division and remainder by zero give 0, `INT_MIN // -1` wraps, shifts by a negative
amount or the width or more give 0 (or -1), float→int casts truncate (into 8 and 16 bits through
int32, so they wrap, as NumPy's; into wider ones NumPy's x86-64 values: INT_MIN out of range),
max/min propagate NaN. Only the helpers a translation unit uses are emitted (`render_helpers`), with
their dependencies first, so generated files stay short and readable.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from . import cbrt as c_cbrt, complex as c_complex, erf as c_erf, float32 as c_float32
from . import hyper as c_hyper, inverse as c_inverse, log as c_log, math as c_math
from . import philox as c_philox, pow as c_pow, select as c_select, trig as c_trig

SUFFIX = {
    "b": np.dtype("bool"), "i8": np.dtype("int8"), "i16": np.dtype("int16"),
    "i32": np.dtype("int32"), "i64": np.dtype("int64"), "u8": np.dtype("uint8"),
    "u16": np.dtype("uint16"), "u32": np.dtype("uint32"), "u64": np.dtype("uint64"),
    "f16": np.dtype("float16"), "f32": np.dtype("float32"), "f64": np.dtype("float64"),
    **c_complex.COMPLEX_SUFFIX,  # c64, c128: structs (runtime/c/complex.py)
}
_SUFFIX_OF = {dt: s for s, dt in SUFFIX.items()}


def suffix(dtype: np.dtype) -> str:
    """'f32', 'i8', 'b', ...: the name part of a helper for this dtype."""
    return _SUFFIX_OF[np.dtype(dtype)]


def c_type(dtype: np.dtype, bool_type: str = "_Bool") -> str:
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return bool_type
    if dt.kind == "f":  # float16: its bits, stored and converted only (`_half_cast`)
        return {2: "uint16_t", 4: "float"}.get(dt.itemsize, "double")
    if dt.kind == "c":
        return "la_" + suffix(dt)
    return f"{'u' if dt.kind == 'u' else ''}int{dt.itemsize * 8}_t"


def libm_suffix(dtype: np.dtype) -> str:
    return "f" if np.dtype(dtype) in (np.float32, np.complex64) else ""


def _wide_unsigned(dt: np.dtype) -> str:
    """The unsigned type arithmetic on `dt` is done in: never narrower than unsigned int, so
    integer promotion cannot turn it back into (overflowing) signed int."""
    return "uint64_t" if dt.itemsize == 8 else "uint32_t"


def _int_limits(dt: np.dtype) -> tuple[str, str]:
    info = np.iinfo(dt)
    if dt.itemsize == 8 and dt.kind == "i":
        return "INT64_MIN", "INT64_MAX"
    if dt.itemsize == 8:
        return "0", "UINT64_MAX"
    return str(int(info.min)), str(int(info.max))


# --- generators: (dtype, T) -> C function body text after the signature --------------------------------
# Each returns (signature args, return expression or block, dependencies).
Gen = Callable[[np.dtype, str], tuple[str, str, tuple[str, ...]]]


def _wrap(op: str) -> Gen:
    def gen(dt: np.dtype, t: str):
        if dt.kind == "b":
            return "a, b", {"+": "a | b", "*": "a & b", "-": "a ^ b"}[op], ()
        u = _wide_unsigned(dt)
        return "a, b", f"({t})(({u})a {op} ({u})b)", ()

    return gen


def _neg(dt: np.dtype, t: str):
    return "a", f"({t})(0u - ({_wide_unsigned(dt)})a)", ()


def _abs(dt: np.dtype, t: str):
    u = _wide_unsigned(dt)
    return "a", f"({t})(a < 0 ? 0u - ({u})a : ({u})a)", ()


_INT_MIN = {4: "(-2147483647 - 1)", 8: "(-9223372036854775807LL - 1)"}


def _recip(dt: np.dtype, t: str):
    if dt.kind == "f":
        return "a", f"({t})1 / a", ()
    # 1 / 0 raises NumPy's 'divide by zero' and 'invalid' (its loop divides in double and casts
    # the inf): `(1 / 0) * 0` through the volatile zero, in the zero's branch only (fuzz44)
    # the inf cast to int32/int64 is x86-64's INT_MIN, to a narrower or unsigned type 0 (graph/
    # semantics.py `reciprocal`; probe54: 0 for every type)
    flags = "(1.0 / LA_FPE_VOLATILE_ZERO) * LA_FPE_VOLATILE_ZERO == 1.0"
    at_zero = _INT_MIN.get(dt.itemsize) if dt.kind == "i" else None
    # (the comparison is 0: kept as the value, so the compiler keeps the division that flags)
    zero = f"a == 0 ? ({t})({flags}) : " if at_zero is None else (
        f"a == 0 ? ({t})(({flags}) ? 0 : {at_zero}) : ")
    if dt.kind == "u":
        return "a", f"({t})({zero}a == 1 ? 1 : 0)", ()
    return "a", f"({t})({zero}a == 1 ? 1 : (a == -1 ? -1 : 0))", ()


def _sign(dt: np.dtype, t: str):
    if dt.kind == "f":
        return "a", f"a > 0 ? ({t})1 : (a < 0 ? ({t})-1 : (a == 0 ? ({t})0 : a))", ()
    if dt.kind in "ub":
        return "a", f"({t})(a > 0)", ()
    return "a", f"({t})((a > 0) - (a < 0))", ()


def _floordiv(dt: np.dtype, t: str):
    if dt.kind == "f":
        s = libm_suffix(dt)
        # (`!(|b| > 0)`, not `b == 0`: NVRTC took `b == 0` as b being +0, `-26 // -0.0` gave -inf)
        body = (f"{{\n    if (!(fabs{s}(b) > 0)) return a / b;\n    {t} m = fmod{s}(a, b);\n"
                f"    {t} d = (a - m) / b;\n    if (m != 0 && ((b < 0) != (m < 0))) d -= 1;\n"
                f"    if (d == 0) return copysign{s}(({t})0, a / b);\n    {t} f = floor{s}(d);\n"
                f"    return d - f > ({t})0.5 ? f + 1 : f;\n}}")
        return "a, b", body, ()
    if dt.kind == "u":
        return "a, b", f"b == 0 ? ({t}){fpe_divide_zero()} : ({t})(a / b)", ()
    body = (f"{{\n    if (b == 0) return ({t}){fpe_divide_zero()};\n"
            f"    if (b == -1) return a == ({t}){_int_limits(dt)[0]} ? ({t})(a + {fpe_overflow()})"
            f" : la_neg_{suffix(dt)}(a);\n"
            f"    {t} q = ({t})(a / b);\n    return ({t})((a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q);\n}}")
    return "a, b", body, (f"la_neg_{suffix(dt)}",)


def _rem(dt: np.dtype, t: str):
    if dt.kind == "f":
        s = libm_suffix(dt)
        body = (f"{{\n    {t} m = fmod{s}(a, b);\n    if (b == 0) return m;\n"
                f"    if (m != 0) return ((b < 0) != (m < 0)) ? m + b : m;\n"
                f"    return copysign{s}(({t})0, b);\n}}")
        return "a, b", body, ()
    if dt.kind == "u":
        return "a, b", f"b == 0 ? ({t}){fpe_divide_zero()} : ({t})(a % b)", ()
    body = (f"{{\n    if (b == 0) return ({t}){fpe_divide_zero()};\n"
            f"    if (b == -1) return 0;\n    {t} r = ({t})(a % b);\n"
            f"    return ({t})((r != 0 && ((r < 0) != (b < 0))) ? r + b : r);\n}}")
    return "a, b", body, ()


def _float_quotient(dt: np.dtype) -> tuple[str, str] | None:
    """(C type, floor function) in which `a / b` of two integers of `dt` rounds to a value whose
    floor is the exact floor quotient: float for 8- and 16-bit, double for 32-bit (the rounding
    error, at most 2**-24 (2**-53) of |a / b| <= 2**16 / |b| (2**32 / |b|), stays below the 1 / |b|
    between a non-integer quotient and the next integer). gcc vectorizes a division by a divisor
    fixed over the loop (unswitched on the zero and -1 tests): `img // 9` on uint16 took a scalar
    `div` per element, 1.7x NumPy's libdivide loop; 64-bit keeps the integer division."""
    if dt.itemsize <= 2:
        return "float", "floorf"
    if dt.itemsize == 4:
        return "double", "floor"
    return None


def _floordiv_fq(dt: np.dtype, t: str):
    """floor_divide through the float quotient (_float_quotient), for the kernels gcc vectorizes;
    floats and 64-bit integers as _floordiv. (In a scalar loop the conversions cost more than
    the integer `div`: hist_equalize's fused blur-and-mean kernel 39 -> 44 ms.)"""
    f, floor = _float_quotient(dt) or (None, None)
    if dt.kind == "f" or f is None:
        return _floordiv(dt, t)
    if dt.kind == "u":
        return "a, b", f"b == 0 ? ({t}){fpe_divide_zero()} : ({t})(({f})a / ({f})b)", ()
    body = (f"{{\n    if (b == 0) return ({t}){fpe_divide_zero()};\n"
            f"    if (b == -1) return a == ({t}){_int_limits(dt)[0]} ? ({t})(a + {fpe_overflow()})"
            f" : la_neg_{suffix(dt)}(a);\n    return ({t}){floor}(({f})a / ({f})b);\n}}")
    return "a, b", body, (f"la_neg_{suffix(dt)}",)


def _rem_fq(dt: np.dtype, t: str):
    """remainder through the float quotient, as _floordiv_fq: `a - q * b` in 32-bit unsigned
    arithmetic (the product may pass the type's range; the remainder fits and the wrap cancels)."""
    f, floor = _float_quotient(dt) or (None, None)
    if dt.kind == "f" or f is None:
        return _rem(dt, t)
    if dt.kind == "u":
        return "a, b", (f"b == 0 ? ({t}){fpe_divide_zero()} : "
                        f"({t})(a - ({t})(({f})a / ({f})b) * b)"), ()
    q = f"(uint32_t)(int32_t){floor}(({f})a / ({f})b)"
    body = (f"{{\n    if (b == 0) return ({t}){fpe_divide_zero()};\n    if (b == -1) return 0;\n"
            f"    return ({t})(int32_t)((uint32_t)a - {q} * (uint32_t)b);\n}}")
    return "a, b", body, ()


def _floordiv_fq_select(dt: np.dtype, t: str):
    """Unsigned floor_divide through the float quotient with no branch, for a divisor fixed over
    the loop (a scalar argument): the quotient divides by 1 where b is 0 and is multiplied by 0
    there; `1 / (b + zero)` (the common zero gcc cannot fold) raises `divide by zero` exactly
    where b is 0, and is used (never 0, so the added term is 0) so that gcc keeps it. No arm of
    a select: in the zero's arm gcc folds b to 0 and hoists the division out of the branch (it
    raised the flag for every divisor). The volatile branch of `_floordiv_fq` kept a loop too
    large for gcc's unswitching scalar: hist_equalize's `acc // 9` on uint16 of nine reads."""
    f, _ = _float_quotient(dt)
    return "a, b", (f"{{\n    const double r = 1.0 / ((double)b + la_fpe_zero_f64);\n"
                    f"    return ({t})(({t})(b != 0) * ({t})(({f})a / ({f})(b + (b == 0)))"
                    f" + ({t})(r == 0.0));\n}}"), ()


def _rem_fq_select(dt: np.dtype, t: str):
    """Unsigned remainder as `_floordiv_fq_select`: `a - q * b` (0 where b is 0)."""
    f, _ = _float_quotient(dt)
    return "a, b", (f"{{\n    const double r = 1.0 / ((double)b + la_fpe_zero_f64);\n"
                    f"    const {t} q = ({t})(({f})a / ({f})(b + (b == 0)));\n"
                    f"    return ({t})(({t})(b != 0) * ({t})(a - q * b)"
                    f" + ({t})(r == 0.0));\n}}"), ()


def _divmod_floor(dt: np.dtype, t: str):
    """divmod's quotient: floor_divide's, with NumPy's divmod flags at a zero divisor (its loop
    computes fmod there too: 'invalid' for any non-NaN dividend)."""
    if dt.kind != "f":
        return _floordiv(dt, t)
    s = libm_suffix(dt)
    return "a, b", (f"!(fabs{s}(b) > 0) ? a / b + "
                    f"({t})(fmod{s}(a, b + ({t})LA_FPE_VOLATILE_ZERO) == 0.5) "
                    f": la_floordiv_{suffix(dt)}(a, b)"), (f"la_floordiv_{suffix(dt)}",)


def _divmod_rem(dt: np.dtype, t: str):
    """divmod's remainder: remainder's, with NumPy's divmod flags at a zero divisor (its loop
    divides there too: 'divide by zero' for a finite non-zero dividend), its quotient's overflow
    and, of signed integers, `INT_MIN // -1`'s (`np.divmod(x, -1)[1]` warned nothing, fuzz48)."""
    if dt.kind == "i":
        return "a, b", (f"(b == -1 && a == ({t}){_int_limits(dt)[0]}) ? ({t}){fpe_overflow()} : "
                        f"la_rem_{suffix(dt)}(a, b)"), (f"la_rem_{suffix(dt)}",)
    if dt.kind != "f":
        return _rem(dt, t)
    # (elsewhere the quotient too, as NumPy's one loop computes it, for its flags:
    # `np.divmod(1e308, 1e-300)[1]` warns 'overflow' and 'invalid' (its inf - floor(inf)); a
    # floor quotient is never 0.5, so `- 0.0` keeps every value, -0.0 included)
    return "a, b", (f"b == 0 ? la_rem_{suffix(dt)}(a, b) + "
                    f"({t})(a / (b + ({t})LA_FPE_VOLATILE_ZERO) == 0.5) "
                    f": la_rem_{suffix(dt)}(a, b) - ({t})(la_floordiv_{suffix(dt)}(a, b) == "
                    f"({t})0.5)"), (f"la_rem_{suffix(dt)}", f"la_floordiv_{suffix(dt)}")


def _fmod(dt: np.dtype, t: str):
    """Integer fmod: C's `%` (the dividend's sign), 0 for `% -1` and, with NumPy's 'divide by
    zero' flag (fuzz42: none was raised), for a zero divisor."""
    if dt.kind == "u":
        return "a, b", f"b == 0 ? ({t}){fpe_divide_zero()} : ({t})(a % b)", ()
    return "a, b", (f"b == 0 ? ({t}){fpe_divide_zero()} : b == -1 ? ({t})0 : ({t})(a % b)"), ()


def _gcd(dt: np.dtype, t: str):
    """Euclid on magnitudes in unsigned arithmetic: gcd(INT_MIN, 0) wraps to INT_MIN, as NumPy."""
    u = _wide_unsigned(dt)
    mag = (lambda v: f"({u}){v}") if dt.kind == "u" else (
        lambda v: f"({v} < 0 ? 0u - ({u}){v} : ({u}){v})")
    body = (f"{{\n    {u} x = {mag('a')}, y = {mag('b')};\n"
            f"    while (y) {{\n        {u} r = x % y;\n        x = y;\n        y = r;\n    }}\n"
            f"    return ({t})x;\n}}")
    return "a, b", body, ()


def _lcm(dt: np.dtype, t: str):
    """|a / gcd| * |b| cast to the dtype, 0 when both are 0: NumPy's npy_lcm takes the magnitude
    in C int before the cast, so lcm(127, 2) on int8 wraps to -2."""
    u, s = _wide_unsigned(dt), suffix(dt)
    mag = (lambda v: f"({u})({v})") if dt.kind == "u" else (
        lambda v: f"(({v}) < 0 ? 0u - ({u})({v}) : ({u})({v}))")
    body = (f"{{\n    {t} g = la_gcd_{s}(a, b);\n    if (g == 0) return 0;\n"
            f"    return ({t})({mag('a / g')} * {mag('b')});\n}}")
    return "a, b", body, (f"la_gcd_{s}",)


def _pow(dt: np.dtype, t: str):
    u = _wide_unsigned(dt)
    neg = "" if dt.kind == "u" else (
        f"    if (b < 0) return a == 1 ? ({t})1 : (a == -1 ? ({t})((b & 1) ? -1 : 1) : ({t})0);\n")
    body = (f"{{\n{neg}    {u} r = 1, x = ({u})a;\n    {u} e = ({u})b;\n"
            f"    while (e) {{\n        if (e & 1) r *= x;\n        x *= x;\n        e >>= 1;\n    }}\n"
            f"    return ({t})r;\n}}")
    return "a, b", body, ()


def _shift(left: bool) -> Gen:
    def gen(dt: np.dtype, t: str):
        bits = dt.itemsize * 8
        u = _wide_unsigned(dt)
        if left:
            return "a, b", f"(uint64_t)b < {bits} ? ({t})(({u})a << b) : ({t})0", ()
        fill = "0" if dt.kind == "u" else "(a < 0 ? -1 : 0)"
        return "a, b", f"(uint64_t)b < {bits} ? ({t})(a >> b) : ({t}){fill}", ()

    return gen


def _extreme(maximum: bool) -> Gen:
    """NumPy's float maximum/minimum: NaN if either is, else the second operand unless the first
    is strictly beyond it, so np.maximum(-0.0, 0.0) is 0.0 and np.maximum(0.0, -0.0) is -0.0."""

    def gen(dt: np.dtype, t: str):
        cmp = ">=" if maximum else "<="
        if dt.kind == "f":
            return "a, b", f"(a {cmp[0]} b || a != a) ? a : b", ()
        if dt.kind == "b":
            return "a, b", "a | b" if maximum else "a & b", ()
        return "a, b", f"a {cmp[0]} b ? a : b", ()

    return gen


def _logaddexp(dt: np.dtype, t: str):
    """NumPy's npy_logaddexp (equal operands: x + ln 2, so inf + inf stays inf; else
    max + log1p(exp(-|x - y|)); NaN propagates), branch-free on the own exp and log so that gcc
    vectorizes it (issue 29: JAX was 4x faster than libm's scalar calls behind branches).
    log1p(e) for e in [0, 1] as log(1 + e) plus the rounding error of 1 + e over 1 + e (the own
    log1p's selects, fed by exp's, made gcc 12 give up vectorizing). float32 runs the float64
    function and rounds once."""
    if dt == np.float32:
        return "a, b", "(float)la_logaddexp_f64((double)a, (double)b)", ("la_logaddexp_f64",)
    body = ("{\n    double d = a - b;\n    double m = d > 0 ? a : b;\n"
            "    double e = la_exp_f64(-fabs(d));\n"
            "    double u = 1.0 + e, c = e - (u - 1.0);           /* 1 + e = u + c exactly */\n"
            "    double r = m + (la_log_f64(u) + c / u);\n"
            "    r = d != d ? d : r;\n"
            "    return a == b ? a + 0.6931471805599453 : r;\n}")
    return "a, b", body, ("la_exp_f64", "la_log_f64")


def _hypot(dt: np.dtype, t: str):
    """float32: sqrt of the sum of squares in double (exact squares, no overflow), rounded once.
    float64: both scaled by 2^-e (e: the larger one's exponent, clamped so both factors are
    normal), sqrt(fma(M, M, m*m)), scaled back (overflow to inf where hypot overflows); inf if
    either is inf, even with a NaN (C99, NumPy). Branch-free: gcc vectorizes it. The larger is
    picked and inf told by the bits (non-negative doubles order as their bits): a vector `>` or
    `==` on a NaN raised invalid, which NumPy's hypot does not (under -fno-trapping-math gcc
    may make any comparison a signalling one)."""
    if dt == np.float32:
        return "a, b", ("{\n    double x = (double)a, y = (double)b;\n"
                        "    float r = (float)sqrt(x * x + y * y);\n"
                        "    return (fabsf(a) == INFINITY || fabsf(b) == INFINITY) ? INFINITY : r;"
                        "\n}"), ()
    body = (
        "{\n"
        "    double ax = fabs(a), ay = fabs(b);\n"
        "    int64_t bx, by; memcpy(&bx, &ax, sizeof bx); memcpy(&by, &ay, sizeof by);\n"
        "    const int64_t top = 0x7ff0000000000000;\n"
        "    const int g = bx > by && bx <= top;               /* ax > ay: false for a NaN */\n"
        "    double mx = g ? ax : ay, mn = g ? ay : ax;        /* NaN: ends in r */\n"
        "    uint64_t u; memcpy(&u, &mx, sizeof u);\n"
        "    int64_t e = (int64_t)((u >> 52) & 0x7ff) - 1023;\n"
        "    e = e < -1021 ? -1021 : (e > 1022 ? 1022 : e);\n"
        "    uint64_t down = (uint64_t)(1023 - e) << 52, up = (uint64_t)(1023 + e) << 52;\n"
        "    double sd, su; memcpy(&sd, &down, sizeof sd); memcpy(&su, &up, sizeof su);\n"
        "    double M = mx * sd, m = mn * sd;                  /* exact: powers of two */\n"
        "    double r = sqrt(fma(M, M, m * m)) * su;\n"
        "    return (bx == top || by == top) ? INFINITY : r;\n"
        "}"
    )
    return "a, b", body, ()


def _logaddexp2(dt: np.dtype, t: str):
    """NumPy's npy_logaddexp2 step for step (a composition of exp2/log1p ops differed from it
    by up to 32 ulps near cancellation: fuzzer seed 931744)."""
    s = libm_suffix(dt)
    log2e = f"({t})1.442695040888963407359924681001892137"
    body = (f"{{\n    if (a == b) return a + 1;\n    {t} d = a - b;\n"
            f"    if (d > 0) return a + {log2e} * log1p{s}(exp2{s}(-d));\n"
            f"    if (d <= 0) return b + {log2e} * log1p{s}(exp2{s}(d));\n    return d;\n}}")
    return "a, b", body, ()


_GENERATORS: dict[str, Gen] = {
    "add": _wrap("+"), "sub": _wrap("-"), "mul": _wrap("*"), "neg": _neg, "abs": _abs,
    "recip": _recip, "sign": _sign, "floordiv": _floordiv, "rem": _rem,
    "fqdiv": _floordiv_fq, "fqrem": _rem_fq, "fqsdiv": _floordiv_fq_select,
    "fqsrem": _rem_fq_select, "pow": _pow,
    "divmodq": _divmod_floor, "divmodr": _divmod_rem,
    "shl": _shift(True), "shr": _shift(False), "max": _extreme(True), "min": _extreme(False),
    "logaddexp": _logaddexp, "logaddexp2": _logaddexp2, "fmod": _fmod, "gcd": _gcd, "lcm": _lcm,
    "hypot": _hypot,
}
_GENERATORS.update(c_math.GENERATORS)  # exp, expm1, tanh, log, log1p: one implementation
_GENERATORS.update(c_trig.GENERATORS)  # sin, cos                       for every loop shape
_GENERATORS.update(c_erf.GENERATORS)  # erf, erfc
_GENERATORS.update(c_inverse.GENERATORS)  # arctan, arcsin, arccos, arctan2
_GENERATORS.update(c_hyper.GENERATORS)  # sinh, cosh, arcsinh, arccosh, arctanh
_GENERATORS.update(c_cbrt.GENERATORS)  # cbrt
_GENERATORS.update(c_log.GENERATORS)  # log2, log10, float32 exp2
_GENERATORS.update(c_pow.GENERATORS)  # float power (float32 own, float64 libm)
_GENERATORS.update(c_select.GENERATORS)  # where's select of bits
_GENERATORS.update(c_float32.over(_GENERATORS))  # float32 in float32 arithmetic (16 lanes)
_TABLES = {"twobypi_table": c_trig.table_text,  # constant tables the helpers index
           "erfc_table": c_erf.table_text}
_GENERATORS.update(c_philox.GENERATORS)  # the random bits of la.random


# Zeros the compiler cannot see through. A special case that a helper defines by a select
# (`log(0)` is -inf, NaN casts to 0, `x // 0` is 0) must still raise NumPy's flag, although the
# kernels compile with -fno-trapping-math, under which gcc folds a constant division by zero. The
# flag comes from the lane's own value (`-1 / (a + zero)` divides by zero only where a is 0), never
# from a constant: gcc computes both arms of a select in vector code (and may hoist an arm that
# the select's condition made constant), so an arm must raise nothing where it is not taken.
# Common symbols (zero, never written): gcc cannot assume their value, may load them
# speculatively (a weak symbol's address may be null: that stopped vectorization), and several
# translation units may define them. lazyarray/fp_errors.py reads the flags.
FPE_VALUES = ("__attribute__((common)) float la_fpe_zero_f32;\n"
              "__attribute__((common)) double la_fpe_zero_f64;\n"
              "#define LA_FPE_VOLATILE_ZERO (*(volatile double *)&la_fpe_zero_f64)\n"
              "#define LA_FPE_OVERFLOW (1e308 * (1e308 + LA_FPE_VOLATILE_ZERO) == 0.0)")
# (CUDA has no flags: its overflow value is a plain 0, where the product of two 1e308 constants
# was NVRTC's warning 222, "floating-point operation result is out of range")
FPE_VALUES_CUDA = ("#define la_fpe_zero_f32 0.0f\n#define la_fpe_zero_f64 0.0\n"
                   "#define LA_FPE_VOLATILE_ZERO 0.0\n#define LA_FPE_OVERFLOW 0")


def fpe_divide_zero() -> str:
    """0, raising `divide by zero`, for an integer division's `b == 0` branch: a volatile read,
    which gcc cannot speculate, keeps the division in the branch (if-converted, a double division
    in every iteration tripled `i // j`'s time)."""
    return "(1.0 / LA_FPE_VOLATILE_ZERO == 0.0)"


def fpe_overflow() -> str:
    """0, raising `overflow`, for NumPy's `INT_MIN // -1` (it wraps and warns): a product past
    the double range through the volatile zero, kept in its branch as fpe_divide_zero's."""
    return "LA_FPE_OVERFLOW"


def _cast_flag(src: np.dtype, dst: np.dtype, ts: str) -> str:
    """0, raising `invalid` where a float→int cast leaves the target's range or sees an inf or a
    NaN: the square root of a product that is negative exactly there (a NaN stands in as -1e30
    there). The cast's ordered comparison raised it for NaN only where gcc kept it one: under
    -fno-trapping-math a cast hoisted out of its loop (a broadcast 0-d NaN, `a[:2] = nan_0d` of
    an int a) compares with `ucomisd`, which raises nothing (fuzz44)."""
    bits = dst.itemsize * 8
    f = np.dtype(src).type
    if dst.kind == "i":  # the least value whose truncation is in range (-128.5 is int8's -128)
        below = -(2 ** (bits - 1)) - 1
        lo = np.nextafter(f(below), f(0)) if int(f(below)) == below else f(-(2.0 ** (bits - 1)))
        hi = np.nextafter(f(2.0 ** (bits - 1)), f(0))
    else:
        lo, hi = np.nextafter(f(-1), f(0)), np.nextafter(f(2.0 ** bits), f(0))
    return _range_flag(src, lo, hi, ts)


def _range_flag(src: np.dtype, lo: Any, hi: Any, ts: str) -> str:
    """0, raising `invalid` where `a` is outside [lo, hi] or NaN (see _cast_flag)."""
    z = "la_fpe_zero_f32" if src == np.float32 else "la_fpe_zero_f64"
    sqrt = f"sqrt{libm_suffix(np.dtype(src))}"
    a = f"(a != a ? ({ts})-1e30 : a)"
    return (f"({sqrt}(({a} - ({ts}){float(lo)!r}) * (({ts}){float(hi)!r} - {a})) == {z} - 1)")


def _cast(src: np.dtype, dst: np.dtype, ts: str, td: str) -> str:
    """Body of la_cast_<src>_<dst>: NumPy's astype, with graph/semantics.py for float→int."""
    if dst.kind == "b":
        return "a != 0"
    if src.kind == "b" and dst.kind == "f":  # a select: gcc does not vectorize (float)_Bool
        # next to 64-bit integer work (a dropout mask); its 0 a zero gcc cannot see (FPE_VALUES),
        # else it folds `b / b` of bools to `b ? 1 : NaN` and 0/0 raises no `invalid`
        zero = "la_fpe_zero_f32" if dst == np.float32 else "la_fpe_zero_f64"
        return f"a ? ({td})1 : ({td}){zero}"
    if src.kind == "f" and dst.kind in "iu" and dst.itemsize <= 2:
        # NumPy's C cast through int32 (graph/semantics.py): in int32's range the low bits wrap,
        # beyond it (and NaN, inf) 0 with 'invalid'. (float32 cannot hold -2**31 - 1.)
        lo = "a >= -2147483648.0f" if src == np.float32 else "a > -2147483649.0"
        value = f"({lo} && a < ({ts})2147483648.0) ? ({td})(int)a : ({td})0"
        return f"({td})(({value}) + {_cast_flag(src, np.dtype(np.int32), ts)})"
    if src.kind == "f" and dst.kind in "iu":
        value, flag = _wide_cast(src, dst, ts, td)
        return f"({td})(({value}) + {flag})"
    return f"({td})a"


def _wide_cast(src: np.dtype, dst: np.dtype, ts: str, td: str) -> tuple[str, str]:
    """Value and 'invalid' flag of a float cast into a 32- or 64-bit integer as NumPy's on x86-64
    (graph/semantics.py `_cast_as_x86_64`): out of range (NaN too) is INT_MIN; unsigned wraps
    negative values, converts the upper half through the signed type (offset), and answers
    2**(bits-1) below and 0 at 2**bits. Every C conversion sees an in-range value (CUDA alike)."""
    bits = dst.itemsize * 8
    half = f"({ts}){float(2 ** (bits - 1)):.1f}"
    signed = f"int{bits}_t"
    if dst.kind == "i":
        lo = _int_limits(dst)[0]
        return f"(a >= -{half} && a < {half}) ? ({td})a : ({td}){lo}", _cast_flag(src, dst, ts)
    sign = f"(({td})1 << {bits - 1})"
    top = f"(({td})({signed})(a - {half}) ^ {sign})"
    value = (f"a >= {half} ? (a < ({ts}){float(2 ** bits):.1f} ? {top} : ({td})0) : "
             f"(a >= -{half} ? ({td})({signed})a : {sign})")
    f = np.dtype(src).type
    return value, _range_flag(src, -(2.0 ** (bits - 1)), np.nextafter(f(2.0 ** bits), f(0)), ts)


def _half_cast(name: str, src: np.dtype, dst: np.dtype, qualifier: str) -> str:
    """float16 <-> float32/float64 on the half's bits (graph/kernel_ir.py `needs_half_loops`
    keeps other float16 work off C), as NumPy's npy_half conversions: exact widening (NaN
    payloads shifted), round-to-nearest-even narrowing with subnormals, NaN keeping its leading
    payload bits, and 'overflow' raised where a finite value rounds to inf. Integer and float
    arithmetic only, so loops over them vectorize (gcc 12 kept a loop with a `_Float16`
    conversion scalar: 4x slower than NumPy's)."""
    if src == np.float16:  # (F. Giesen's half_to_float: the exponent rebiased, subnormals
        # renormalized by one exact subtraction; in the target's own bits, so that a signaling
        # NaN stays one, as NumPy's npy_halfbits_to_doublebits keeps it)
        u, t, shift, field, rebias, unit, magic = (
            ("uint32_t", "float", 13, "0x0f800000u", "0x38000000u", "0x00800000u",
             "6.103515625e-05f") if dst == np.float32 else
            ("uint64_t", "double", 42, "0x01f0000000000000ull", "0x3f00000000000000ull",
             "0x0010000000000000ull", "6.103515625e-05"))
        # (masks, no select of floats: a `?:` on the subtraction's result kept sin's loop around
        # it scalar, "control flow in loop": 121 ms where float32 input takes 5)
        return (
            f"{qualifier} {t} la_{name}(uint16_t a)\n{{\n"
            f"    {u} em = ({u})(a & 0x7fffu) << {shift}, e = em & {field};\n"
            f"    {u} special = -({u})(e == {field}), tiny = -({u})(e == 0);\n"
            f"    {u} bits = em + {rebias} + ({rebias} & special), sub = em + {rebias} + {unit};\n"
            f"    {t} s; memcpy(&s, &sub, sizeof s); s -= {magic};\n"
            f"    {u} sb; memcpy(&sb, &s, sizeof sb);\n"
            f"    bits = (bits & ~tiny) | (sb & tiny);\n"
            f"    bits |= ({u})(a & 0x8000u) << {16 if t == 'float' else 48};\n"
            f"    {t} f; memcpy(&f, &bits, sizeof f);\n"
            f"    return f;\n}}")
    if src == np.float32:  # (Giesen's float_to_half_fast3_rtne, NaN as npy_floatbits_to_halfbits)
        u, one, t = "uint32_t", "1u", "float"
        abs_mask, inf_bits, big = "0x7fffffffu", "0x7f800000u", "0x47800000u"
        small, lo_magic, sig, shift = "0x38800000u", "0.5f", "0x7fffffu", 13
        rebias, over, sign_shift, huge, zero = "0xc8000fffu", "0x477ff000u", 16, "3e38f", "la_fpe_zero_f32"
    else:
        u, one, t = "uint64_t", "1ull", "double"
        abs_mask, inf_bits, big = "0x7fffffffffffffffull", "0x7ff0000000000000ull", "0x40f0000000000000ull"
        small, lo_magic, sig, shift = "0x3f10000000000000ull", "268435456.0", "0xfffffffffffffull", 42
        rebias, over, sign_shift, huge, zero = ("0xc10001ffffffffffull", "0x40effe0000000000ull", 48,
                                                "1e305", "la_fpe_zero_f64")
    return (
        f"{qualifier} uint16_t la_{name}({t} a)\n{{\n"
        f"    {u} w; memcpy(&w, &a, sizeof w);\n"
        f"    uint32_t sign = (uint32_t)(w >> {sign_shift}) & 0x8000u;\n"
        f"    {u} m = w & {abs_mask};\n"
        f"    uint32_t nan = 0x7c00u + (uint32_t)((m & {sig}) >> {shift});\n"
        f"    nan += nan == 0x7c00u;\n"
        f"    uint32_t special = m > {inf_bits} ? nan : 0x7c00u;\n"
        f"    {t} am; memcpy(&am, &m, sizeof am);\n"
        f"    {t} d = am + {lo_magic};\n"
        f"    {u} dw; memcpy(&dw, &d, sizeof dw);\n"
        f"    {u} magic; {t} mg = {lo_magic}; memcpy(&magic, &mg, sizeof magic);\n"
        f"    uint32_t sub = (uint32_t)(dw - magic);\n"
        f"    uint32_t norm = (uint32_t)((m + {rebias} + ((m >> {shift}) & {one})) >> {shift});\n"
        f"    uint32_t h = m >= {big} ? special : (m < {small} ? sub : norm);\n"
        f"    int raised = ((m >= {over} && m < {inf_bits}) ? am : {zero}) * ({t}){huge}"
        f" == {zero} - 1;\n"
        f"    return (uint16_t)((h | sign) + raised);\n}}")


_NAME = re.compile(r"\bla_(cast_[a-z0-9]+_[a-z0-9]+|[a-z][a-z0-9]*_[a-z0-9]+)\b")


# gcc inlines a large helper (power, the exact trig reduction) at one call site and refuses at two:
# a call left in an `omp simd` loop keeps the whole loop scalar. sin's near/far loops call each
# helper twice, so `c0 * exp(-x**2) + c1 * sin(3x) + c2 * x**3` ran at 57 ns an element against
# 5 ns for its parts. How many heavy calls a unit inlines is bounded by inline_budget.py instead.
ALWAYS_INLINE = "static inline __attribute__((always_inline))"


def _helper(name: str, qualifier: str, bool_type: str) -> tuple[str, tuple[str, ...]]:
    """C definition of helper `la_<name>` and the helpers it calls."""
    if c_complex.handles(name):
        return c_complex.helper(name, qualifier, bool_type, lambda s, b: c_type(SUFFIX[s], b))
    if name in _TABLES:
        return _TABLES[name](qualifier), ()
    parts = name.split("_")
    if parts[0] == "arg":  # a scalar argument, read from the byte block without aliasing UB
        t = c_type(SUFFIX[parts[1]], bool_type)
        text = (f"{qualifier} {t} la_{name}(const char *p) {{ {t} v; memcpy(&v, p, sizeof v); "
                f"return v; }}")
        return text, ()
    if parts[0] == "cast":
        src, dst = SUFFIX[parts[1]], SUFFIX[parts[2]]
        if np.float16 in (src, dst):  # (inlined at every call: sin's near and far loops both
            # convert, and a call left in an `omp simd` loop keeps it scalar, 5x slower)
            return _half_cast(name, src, dst, ALWAYS_INLINE if qualifier == "static inline"
                              else qualifier), ()
        ts, td = c_type(src, bool_type), c_type(dst, bool_type)
        return (f"{qualifier} {td} la_{name}({ts} a) {{ return {_cast(src, dst, ts, td)}; }}", ())
    fn, sfx = "_".join(parts[:-1]), parts[-1]
    dt = SUFFIX[sfx]
    t = c_type(dt, bool_type)
    args, body, deps = _GENERATORS[fn](dt, t)
    # an argument of another type than the helper's names it (`_Bool m`: where's condition)
    params = ", ".join(a if " " in a else f"{t} {a}" for a in map(str.strip, args.split(",")))
    if not body.startswith("{"):
        body = f"{{ return {body}; }}"
    if qualifier == "static inline":  # C: see ALWAYS_INLINE
        qualifier = ALWAYS_INLINE
    return f"{qualifier} {t} la_{name}({params}) {body}", deps


def render_helpers(code: str, qualifier: str = "static inline", bool_type: str = "_Bool") -> str:
    """Definitions of every `la_*` helper that `code` names, dependencies before their users."""
    defs: dict[str, str] = {}
    names = list(dict.fromkeys(c_complex.type_names(code)
                               + [m.group(1) for m in _NAME.finditer(code)]))
    stack = [(n, False) for n in reversed(names)]
    while stack:
        name, expanded = stack.pop()
        if name in defs or not _known(name):
            continue
        text, deps = _helper(name, qualifier, bool_type)
        if not expanded:
            stack.append((name, True))
            stack.extend((d[3:], False) for d in reversed(deps))
            continue
        defs[name] = text
    return "\n".join(defs.values())


def _known(name: str) -> bool:
    if name in _TABLES or c_complex.handles(name):
        return True
    parts = name.split("_")
    if parts[0] == "arg":
        return len(parts) == 2 and parts[1] in SUFFIX
    if parts[0] == "cast":
        return len(parts) == 3 and parts[1] in SUFFIX and parts[2] in SUFFIX
    return "_".join(parts[:-1]) in _GENERATORS and parts[-1] in SUFFIX


def complex_definitions(names: list[str], qualifier: str, formulas: bool | None = None) -> str:
    """The definitions of these complex helpers (`exp_c128`, ...) and of everything they call,
    dependencies first: a stand-alone C prelude (for tests of the formulas)."""
    done: dict[str, str] = {}
    stack = [(n, False) for n in reversed(names)]
    while stack:
        name, expanded = stack.pop()
        if name in done:
            continue
        text, deps = c_complex.helper(name, qualifier, "_Bool", lambda s, b: c_type(SUFFIX[s], b),
                                      formulas)
        if expanded:
            done[name] = text
            continue
        stack.append((name, True))
        stack.extend((d[3:], False) for d in reversed(deps) if d[3:] not in done)
    return "\n".join(done.values())
