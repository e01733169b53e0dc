"""The project's own `cbrt` (float32, float64), as a C helper like c_math.py's: branch-free
(selects), no libm call but `fma` (exact by definition: the same bits in every loop shape and on
CUDA), so gcc vectorizes it under `omp simd` (libm's scalar cbrt cost 7-18x NumPy's SIMD loop:
issue 29).

|x| = m 2^e (subnormals scaled by 2^54 first), e = 3q + r with r in {0, 1, 2} (q from a float
floor that cannot misround: floor((e + 0.5)/3)), M = m 2^r in [1, 8); cbrt M from a degree-4
polynomial (relative error 3.5e-3), two Halley steps y (y^3 + 2M)/(2y^3 + M) (cubic: 1e-24), one
Newton correction y - (y^3 - M)/(3y^2) with y^3 - M from an fma (the last rounding only), times
2^q from the bits; the sign copied. float32: runtime/c/float32.py (one Halley step).
Measured bound: docs/semantics.md.
"""

from __future__ import annotations

# cbrt(M) on [1, 8]: least squares on 200 Chebyshev nodes, relative error 3.5e-3
_INIT = [0.6443281502877718, 0.42476134594656045, -0.07306069872525119, 0.0077885241545703554,
         -0.0003310166445405638]


def _cbrt(dt, t: str):
    init = repr(_INIT[-1])
    for c in reversed(_INIT[:-1]):
        init = f"fma({init}, M, {c!r})"
    body = (
        "{\n"
        "    double ax = fabs(a);\n"
        "    int sub = ax < 2.2250738585072014e-308;\n"
        "    double v = sub ? ax * 18014398509481984.0 : ax;        /* 2^54 */\n"
        "    uint64_t u; memcpy(&u, &v, sizeof u);\n"
        "    double e = (double)(int64_t)((u >> 52) & 0x7ff) - (sub ? 1077.0 : 1023.0);\n"
        "    double q = floor((e + 0.5) * 0.3333333333333333);\n"
        "    double r = e - 3.0 * q;                                 /* 0, 1, 2: exact */\n"
        "    uint64_t mb = (u & 0x000fffffffffffffull) | 0x3ff0000000000000ull;\n"
        "    double m; memcpy(&m, &mb, sizeof m);\n"
        "    double M = r == 0.0 ? m : (r == 1.0 ? m + m : 4.0 * m);\n"
        f"    double y = {init};\n"
        "    double y3 = y * y * y;\n"
        "    y = y * (y3 + (M + M)) / ((y3 + y3) + M);\n"
        "    y3 = y * y * y;\n"
        "    y = y * (y3 + (M + M)) / ((y3 + y3) + M);\n"
        "    double y2 = y * y;\n"
        "    y = y - fma(y2, y, -M) / (3.0 * y2);\n"
        "    uint64_t sb = (uint64_t)((int64_t)q + 1023) << 52;      /* 2^q, q in -358..341 */\n"
        "    double s; memcpy(&s, &sb, sizeof s);\n"
        "    double res = copysign(y * s, a);\n"
        "    res = (ax == 0.0 || ax == INFINITY) ? a : res;\n"
        "    return a != a ? a : res;\n"
        "}"
    )
    return "a", body, ()


GENERATORS = {"cbrt": _cbrt}
