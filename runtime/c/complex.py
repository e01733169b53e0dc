"""The C-family prelude for complex64/complex128: a struct per dtype and the `la_*_c64`/`la_*_c128`
helpers that graph/complex_ops.py's templates name.

    typedef struct { float re, im; } la_c64;     /* NumPy's layout: real part, then imaginary */

Arithmetic, `abs`, `sign`, `reciprocal`, `expm1`, `log1p`, `log2`, `log10` and `power` are NumPy's
own algorithms (numpy/_core/src/umath: Smith's division, the SIMD loop's `big * sqrt(fma(r, r,
1))` for `abs`, the repeated squaring of `power` for small integer
exponents), written once for both dialects. The remaining
transcendental functions (exp, log, sqrt, the trigonometric and hyperbolic functions and their
inverses) call C99 <complex.h> (`cexp`, `clog`, `csqrt`, `casin`, ...) in C: NumPy's npy_math
calls the same libm functions where the platform has them, so the special values (inf, nan, signed
zeros) are C99 Annex G's, as NumPy's, and results agree within a few ulp. NVRTC has no <complex.h>:
the CUDA dialect renders runtime/c/complex_cuda.py's versions on the real libm functions instead
(msun's and Hull et al.'s algorithms, Annex G's special values, scaled against overflow), and
power's general path multiplies with Annex G's rule as glibc's cpow does. `formulas=True` prints
those in C: tests/test_complex_formulas.py compiles them on the CPU and compares them with NumPy
(special-value grids, power grids, hypothesis values of every magnitude).

No -ffast-math anywhere: it would drop the inf/nan handling.
"""

from __future__ import annotations

import re

import numpy as np

from . import complex_cuda

COMPLEX_SUFFIX = {"c64": np.dtype("complex64"), "c128": np.dtype("complex128")}
_REAL = {"c64": ("float", "f"), "c128": ("double", "")}  # component C type, libm suffix

# name -> (argument count, result: "c" complex, "r" real, "b" bool, uses complex.h in C)
_UNARY_C99 = ("exp", "log", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
              "tanh", "asinh", "acosh", "atanh")
_RESULT = {"abs": "r", "eq": "b", "isnan": "b", "isinf": "b", "isfinite": "b"}
_BINARY = frozenset({"add", "sub", "mul", "fmul", "div", "cpow", "eq"}) | complex_cuda.BINARY


def _abs(s: str, cuda: bool) -> tuple[str, tuple[str, ...]]:
    """NumPy's complex absolute, the SIMD loop every contiguous or strided array takes
    (numpy/_core/src/umath/loops_unary_complex.dispatch.c.src): inf if a part is inf, else nan
    if a part is nan, else big * sqrt(fma(r, r, 1)) with r = small / big (0 where big is 0).
    libm's hypot (CUDA's too, until a GPU run of stop 43) differed from it in the last bit for
    ~10% of complex128 values
    (5% of complex64) and is a scalar call gcc cannot vectorize (~15 ns an element: `abs(Z) > 2`
    over mandelbrot's 120,000 points took 15x NumPy's time).

    The flags are hypot's (overflow past the largest value, underflow for a subnormal result),
    none more: the comparisons are on the parts' bits (a vector `>` on a NaN raises invalid,
    and gcc makes `isgreater` one under -fno-trapping-math); the division, which gcc computes in
    every lane, divides by 1 where big is 0, inf or nan (`ok_q` is `ok` flipped by a zero gcc
    cannot see is zero: la_fpe_zero's bits and'ed with big's, per element, as a loop-invariant
    test made gcc split the loop) and is skipped where r < 2^-59 (fma(r, r, 1) is 1: a subnormal
    r raised underflow). NaN comes through `big` (its bits are the larger): a select on it made
    gcc split `abs(z) > c`'s loop in two, which it then did not vectorize."""
    if cuda:  # the same formula without the flag care (CUDA has no flags) or vector tricks
        return ("const R ax = fabsF(a.re), ay = fabsF(a.im);\n"
                "    if (isinf(ax) || isinf(ay)) return (R)INFINITY;\n"
                "    if (isnan(ax) || isnan(ay)) return ax + ay;\n"
                "    const R big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;\n"
                "    if (big == (R)0) return big;\n"
                "    const R r = small / big;\n"
                "    return sqrtF(fmaF(r, r, (R)1)) * big;", ())
    i, mask, inf, shift = {"c64": ("int32_t", "0x7fffffff", "0x7f800000", 23),
                           "c128": ("int64_t", "0x7fffffffffffffff", "0x7ff0000000000000", 52)}[s]
    zero = "f32" if s == "c64" else "f64"
    return (f"{i} x, y; memcpy(&x, &a.re, sizeof x); memcpy(&y, &a.im, sizeof y);\n"
            f"    x &= {mask}; y &= {mask};\n"
            f"    const {i} top = {inf}, ib = x > y ? x : y, is = x > y ? y : x;\n"
            "    const int inf = x == top || y == top;\n"
            "    const R ax = fabsF(a.re), ay = fabsF(a.im);\n"
            "    const R big = x > y ? ax : ay, small = x > y ? ay : ax;\n"
            f"    const int ok = ib < top && ib != 0 && ib - is < (({i})60 << {shift});\n"
            f"    {i} zero; memcpy(&zero, &la_fpe_zero_{zero}, sizeof zero);\n"
            "    const int ok_q = ok ^ ((ib & zero) != 0);\n"
            "    const R r = (ok ? small : (R)0) / (ok_q ? big : (R)1);\n"
            "    const R h = sqrtF(fmaF(r, r, (R)1)) * big;\n"
            "    return inf ? (R)INFINITY : h;", ())


def _body(fn: str, s: str, cuda: bool) -> tuple[str, tuple[str, ...]]:
    # `cuda`: the formulas on real functions instead of <complex.h> (see the module docstring)
    """(function body, helpers it calls) of `la_<fn>_<s>`; T/R/F are substituted by the caller."""
    mk = f"la_make_{s}"
    bodies: dict[str, tuple[str, tuple[str, ...]]] = {
        "add": (f"return {mk}(a.re + b.re, a.im + b.im);", (mk,)),
        "sub": (f"return {mk}(a.re - b.re, a.im - b.im);", (mk,)),
        "mul": (f"return {mk}(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);", (mk,)),
        # the multiply and square ops: NumPy's complex multiply loop (its SIMD form on a CPU
        # with FMA: 25% of float32 products differ in the last bit from the plain form, and
        # `square(-4.1e19+4.5e19j)` is NumPy's -inf, not inf - inf = NaN); la_mul stays the
        # plain product inside the other functions (NumPy's npy_math helpers)
        "fmul": (f"return {mk}(fmaF(a.re, b.re, -(a.im * b.im)), fmaF(a.re, b.im, a.im * b.re));",
                 (mk,)),
        # NumPy's complex division (Smith's algorithm; 0 / 0 gives a complex inf or nan) on one
        # path, its operands selected first. The kernels compile with -fno-trapping-math: gcc
        # runs both of Smith's branches in a vectorized loop, and the one not taken divided by
        # b's smaller part (a real divisor raised divide by zero, and 0 * inf invalid, where
        # NumPy raises nothing); and it folds `(c ? x : y) / (c ? y : x)` into `c ? x / y :
        # y / x`, so q's condition is p's through a 1 gcc cannot see is 1 (`o`, la_fpe_zero)
        "div": ("const R br = fabsF(b.re), bi = fabsF(b.im), o = (R)1 + (R)la_fpe_zero_f64;\n"
                "    const int zero = br == 0 && bi == 0, big = br >= bi, big_q = big ^ (o != 1);\n"
                "    const R p = zero ? o : big ? b.re : b.im;\n"
                "    const R q = zero ? (R)0 : big_q ? b.im : b.re;\n"
                "    const R u = zero ? (R)0 : big ? a.re : a.im;\n"
                "    const R v = zero ? (R)0 : big ? a.im : a.re;\n"
                "    const R rat = q / p, scl = (R)1 / (p + q * rat), w = u * rat;\n"
                "    const R re = (u + v * rat) * scl;  /* NumPy's a.re * rat + a.im when !big */\n"
                # (w - v) * scl as -((v - w) * scl), the same value but where v and w are the
                # same number (x - x is +0 either way round): gcc 12's SLP turned the unswitched
                # !big lanes {v * rat + u, w - v} into one fused vfmsubadd despite
                # -ffp-contract=off (a complex sum fused with its division: 1673 of 12000
                # quotients a last bit off NumPy's); z - x * y in both lanes has no such pattern
                "    const int same = v == w && signbit(v) == signbit(w);\n"
                "    const R t = (v - w) * scl, im = big || same ? t : -t;\n"
                # 0 / 0 divides by +0 (NumPy's |b.re|): z is +0 there and 1 elsewhere (b's parts
                # under 2^-64: less) from b's own value, not a select on `zero` that gcc splits the
                # division over (it then divided by br, 0 for an imaginary b, in every lane);
                # `x < c ? x : c`, not fmin, keeps the loop vectorized (and NaN gives c)
                "    const R c = (R)0x1p-64, mr = br < c ? br : c, mi = bi < c ? bi : c;\n"
                "    const R s = (mr + mi) * (R)0x1p64, z = s < 1 ? s : (R)1;\n"
                "    const int zero_q = zero ^ (o != 1);  /* not seen as br == bi == 0: z not 0 */\n"
                f"    return zero_q ? {mk}(a.re / z, a.im / z) : {mk}(re, im);", (mk,)),
        "neg": (f"return {mk}(-a.re, -a.im);", (mk,)),
        "conj": (f"return {mk}(a.re, -a.im);", (mk,)),
        "abs": _abs(s, cuda),
        "eq": ("return a.re == b.re && a.im == b.im;", ()),
        "isnan": ("return isnan(a.re) || isnan(a.im);", ()),
        "isinf": ("return isinf(a.re) || isinf(a.im);", ()),
        "isfinite": ("return isfinite(a.re) && isfinite(a.im);", ()),
        "rint": (f"return {mk}(nearbyintF(a.re), nearbyintF(a.im));", (mk,)),
        # NumPy's reciprocal, on one path as `div` (the branch not taken divided by a's zero
        # part): p + q * r is NumPy's a.re * r + a.im when !big
        "recip": ("const R o = (R)1 + (R)la_fpe_zero_f64;\n"
                  "    const int big = fabsF(a.im) <= fabsF(a.re), big_q = big ^ (o != 1);\n"
                  "    const R p = big ? a.re : a.im, q = big_q ? a.im : a.re;\n"
                  "    const R r = q / p, d = p + q * r;\n"
                  f"    return {mk}((big ? (R)1 : r) / d, (big ? -r : (R)-1) / d);", (mk,)),
        # NumPy 2's sign: z / |z|, with nan for nan input and for inf + inf*j
        "sign": ("const R m = hypotF(a.re, a.im);\n"
                 f"    if (isnan(m)) return {mk}((R)NAN, (R)NAN);\n"
                 "    if (isinf(m)) {\n"
                 f"        if (isinf(a.re)) return isinf(a.im) ? {mk}((R)NAN, (R)NAN)"
                 f" : {mk}(a.re > 0 ? (R)1 : (R)-1, (R)0);\n"
                 f"        return {mk}((R)0, a.im > 0 ? (R)1 : (R)-1);\n"
                 "    }\n"
                 f"    if (m == 0) return {mk}((R)0, (R)0);\n"
                 f"    return {mk}(a.re / m, a.im / m);", (mk,)),
        # NumPy's formula, with the Array API's special values where it multiplies inf by 0
        # (graph/semantics.py expm1, the numpy backend's reference, is the same rule)
        "expmone": (f"if (a.im == 0) return {mk}(expm1F(a.re), a.im);\n"
                    "    if (isinf(a.re) && !isfinite(a.im))\n"
                    f"        return a.re > 0 ? {mk}(a.re, (R)NAN) : {mk}((R)-1, (R)0);\n"
                    "    const R h = sinF(a.im / 2);\n"
                    f"    return {mk}(expm1F(a.re) * cosF(a.im) - 2 * h * h, "
                    "expF(a.re) * sinF(a.im));", (mk,)),
        "logonep": (f"return {mk}(logF(hypotF(a.re + 1, a.im)), atan2F(a.im, a.re + 1));", (mk,)),
        "logtwo": (f"const T l = la_log_{s}(a);\n"
                   f"    return {mk}(l.re * (R)1.442695040888963407359924681001892137, "
                   "l.im * (R)1.442695040888963407359924681001892137);", (mk, f"la_log_{s}")),
        "logten": (f"const T l = la_log_{s}(a);\n"
                   f"    return {mk}(l.re * (R)0.434294481903251827651128918916605082, "
                   "l.im * (R)0.434294481903251827651128918916605082);", (mk, f"la_log_{s}")),
        "cpow": _pow(s, cuda),
    }
    if fn in bodies:
        return bodies[fn]
    if fn in _UNARY_C99 or (cuda and fn in complex_cuda.NAMES):
        if cuda:
            return complex_cuda.render(fn, s)
        cfn = "c" + fn  # cexp, casin, ...
        return (f"return la_fromz_{s}({cfn}F(la_toz_{s}(a)));", (f"la_toz_{s}", f"la_fromz_{s}"))
    raise KeyError(fn)


def _pow(s: str, cuda: bool) -> tuple[str, tuple[str, ...]]:
    """NumPy's complex power: 1 for a zero exponent, 0 (exponent with a positive real part) or nan
    for a zero base, repeated squaring
    for integer exponents below 100 in magnitude, else the library's cpow."""
    mk, mul, div = f"la_make_{s}", f"la_mul_{s}", f"la_div_{s}"
    # glibc's cpow is cexp(b * clog(a)) with C99's multiplication (Annex G), as `mulg`
    general = (f"la_exp_{s}(la_mulg_{s}(b, la_log_{s}(a)))" if cuda
               else f"la_fromz_{s}(cpowF(la_toz_{s}(a), la_toz_{s}(b)))")
    deps = (mk, mul, div) + ((f"la_exp_{s}", f"la_log_{s}", f"la_mulg_{s}") if cuda
                             else (f"la_toz_{s}", f"la_fromz_{s}"))
    body = (f"if (b.re == 0 && b.im == 0) return {mk}((R)1, (R)0);\n"
            "    if (a.re == 0 && a.im == 0) {\n"
            f"        if (b.re > 0) return {mk}((R)0, (R)0);\n"
            f"        return {mk}((R)NAN, (R)NAN);\n"
            "    }\n"
            "    if (b.im == 0 && b.re > -100 && b.re < 100 && (R)(long long)b.re == b.re) {\n"
            "        long long n = (long long)b.re;\n"
            "        if (n == 1) return a;\n"
            f"        if (n == 2) return {mul}(a, a);\n"
            f"        if (n == 3) return {mul}({mul}(a, a), a);\n"
            "        const long long e = n < 0 ? -n : n;\n"
            f"        T acc = {mk}((R)1, (R)0), p = a;\n"
            "        for (long long mask = 1;; mask <<= 1) {\n"
            f"            if (e & mask) acc = {mul}(acc, p);\n"
            "            if (e < (mask << 1)) break;\n"
            f"            p = {mul}(p, p);\n"
            "        }\n"
            f"        return n < 0 ? {div}({mk}((R)1, (R)0), acc) : acc;\n"
            "    }\n"
            f"    return {general};")
    return body, deps


def _type_text(s: str, cuda: bool, qualifier: str) -> str:
    r, _ = _REAL[s]
    align = "__align__(%d) " % (2 * (4 if s == "c64" else 8)) if cuda else ""
    text = f"typedef struct {align}{{ {r} re, im; }} la_{s};"
    if cuda:  # warp shuffles move the two components (a non-template overload wins)
        text += (f"\n__device__ __forceinline__ la_{s} la_shfl_down(la_{s} v, int d) {{ "
                 f"la_{s} o; o.re = __shfl_down_sync(0xffffffffu, v.re, d); "
                 f"o.im = __shfl_down_sync(0xffffffffu, v.im, d); return o; }}")
    else:
        text = "#include <complex.h>\n" + text
    return text


def handles(name: str) -> bool:
    """Whether helper `la_<name>` is one of this module's (a complex suffix or a complex cast)."""
    parts = name.split("_")
    if parts[0] == "cast":
        return len(parts) == 3 and (parts[1] in COMPLEX_SUFFIX or parts[2] in COMPLEX_SUFFIX)
    return len(parts) == 2 and parts[1] in COMPLEX_SUFFIX and (
        parts[0] in ("type", "make", "toz", "fromz") or _known_fn(parts[0]))


def _known_fn(fn: str) -> bool:
    return fn in complex_cuda.NAMES or fn in _UNARY_C99 or fn in _RESULT or fn in _BINARY or fn in (
        "neg", "conj", "rint", "recip", "sign", "expmone", "logonep", "logtwo", "logten")


def type_names(code: str) -> list[str]:
    """`type_c64`/`type_c128` for each complex struct `code` mentions: the typedef comes first."""
    return [f"type_{s}" for s in COMPLEX_SUFFIX if f"la_{s}" in code]


def helper(name: str, qualifier: str, bool_type: str, real_type, formulas: bool | None = None
           ) -> tuple[str, tuple[str, ...]]:
    """C definition of `la_<name>` and the helpers it calls; `real_type(suffix, bool_type)` is
    the C type of a real dtype's suffix. The CUDA dialect (its qualifier says `__device__`) uses
    the real-function formulas; `formulas=True` asks for them in C too (tests compare them with
    NumPy on the CPU, as no GPU is at hand)."""
    cuda = "__device__" in qualifier
    formulas = cuda if formulas is None else formulas
    parts = name.split("_")
    if parts[0] == "cast":
        return _cast(parts[1], parts[2], qualifier, bool_type, real_type)
    fn, s = parts
    t, (r, f) = f"la_{s}", _REAL[s]
    if fn == "type":
        return _type_text(s, cuda, qualifier), ()
    deps: tuple[str, ...] = (f"la_type_{s}",)
    if fn == "make":
        return (f"{qualifier} {t} la_make_{s}({r} re, {r} im) {{ {t} z; z.re = re; z.im = im; "
                "return z; }"), deps
    if fn in ("toz", "fromz"):  # C only: the struct as C99's `_Complex` (same layout) and back
        z = f"{r} _Complex"
        if fn == "toz":
            return (f"{qualifier} {z} la_toz_{s}({t} a) {{ union {{ {t} s; {z} z; }} u; u.s = a; "
                    "return u.z; }"), deps
        return (f"{qualifier} {t} la_fromz_{s}({z} a) {{ union {{ {t} s; {z} z; }} u; u.z = a; "
                "return u.s; }"), deps
    body, calls = _body(fn, s, formulas)
    ret = {"r": r, "b": bool_type}.get(_RESULT.get(fn, "c"), t)
    params = f"{t} a, {t} b" if fn in _BINARY else f"{t} a"
    text = body.replace("@S", s)
    text = re.sub(r"\b([a-z][a-z0-9]*)F\(", lambda m: m.group(1) + f + "(", text)  # libm suffix
    text = text.replace("(R)", f"({r})").replace("const R ", f"const {r} ")
    text = text.replace("const T ", f"const {t} ").replace("    T ", f"    {t} ")
    full = f"{qualifier} {ret} la_{name}({params})\n{{\n    {text}\n}}"
    return full, deps + tuple(c.replace("@S", s) for c in calls)


def _cast(src: str, dst: str, qualifier: str, bool_type: str, real_type
          ) -> tuple[str, tuple[str, ...]]:
    """Casts to, from and between complex dtypes, as NumPy's astype: a real value gets a zero
    imaginary part; complex -> real or integer casts the real part (integers by the prelude's
    float→int rule); complex -> bool is `re != 0 || im != 0`."""
    name = f"la_cast_{src}_{dst}"
    if src in COMPLEX_SUFFIX and dst in COMPLEX_SUFFIX:
        r = _REAL[dst][0]
        return (f"{qualifier} la_{dst} {name}(la_{src} a) {{ return la_make_{dst}(({r})a.re, "
                f"({r})a.im); }}", (f"la_type_{src}", f"la_make_{dst}"))
    if dst in COMPLEX_SUFFIX:
        r = _REAL[dst][0]
        ts = real_type(src, bool_type)
        return (f"{qualifier} la_{dst} {name}({ts} a) {{ return la_make_{dst}(({r})a, ({r})0); }}",
                (f"la_make_{dst}",))
    td = real_type(dst, bool_type)
    if dst == "b":
        return (f"{qualifier} {td} {name}(la_{src} a) {{ return a.re != 0 || a.im != 0; }}",
                (f"la_type_{src}",))
    part = "f32" if src == "c64" else "f64"
    inner = "a.re" if dst == part else f"la_cast_{part}_{dst}(a.re)"
    deps = (f"la_type_{src}",) + (() if dst == part else (f"la_cast_{part}_{dst}",))
    return f"{qualifier} {td} {name}(la_{src} a) {{ return {inner}; }}", deps


def render_const(value: complex, s: str) -> str:
    """A complex literal: `la_make_c64(1.0f, -0.0f)` (inf and nan through the real macros)."""
    z = complex(value)
    f = "f" if s == "c64" else ""
    r = _REAL[s][0]

    def part(v: float) -> str:
        if np.isnan(v):
            return f"({r})NAN"
        if np.isinf(v):
            return f"({r})({'-' if v < 0 else ''}INFINITY)"
        return f"{v!r}{f}"

    return f"la_make_{s}({part(z.real)}, {part(z.imag)})"
