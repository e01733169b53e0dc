"""`where`'s C select (`la_pick_<dtype>(cond, x, y)`): every lane's arms computed, as NumPy's are.

NumPy computes `where(cond, a / b, c)`'s arguments whole before it selects, so `a / b` warns
'divide by zero' whatever `cond` says. In a fused C kernel the arms are values of the same loop,
and gcc (with AVX-512, under -fno-trapping-math) folds `cond ? a / b : c` into a masked division
(`vdivpd ...{%k1}`, the internal `.COND_DIV`), whose masked-off lanes raise no flag: the warning
was lost (fuzz49; also `select`, `putmask`, `copyto(where=)`, `max(where=)`, `nan_to_num`, ...,
which all build `where`). A select of the arms' bits is no `?:` to fold: each arm is computed in
every lane (one `vpternlog` per vector, the cost of the blend it replaces). The blend is written
`y ^ ((x ^ y) & k)`: gcc 12 also reads `(x & k) | (y & ~k)` as a select when `k` comes from a
comparison in the same loop (an AVX-512 k-register: `where(b != 0, a / b, b)` lost its flag
again, stop 52), and folds that form no further. Complex values are
structs of these parts, selected as a whole (their ops are helper calls gcc does not mask).
CUDA keeps `?:` (its kernels report no flags: docs/semantics.md).
"""

from __future__ import annotations

import numpy as np


def _pick(dt: np.dtype, t: str) -> tuple[str, str, tuple[str, ...]]:
    """`m ? a : b` as a blend of the arms' bits (both computed in every lane)."""
    if dt.kind == "c":
        return "_Bool m, a, b", "m ? a : b", ()
    if dt.kind == "b":
        return "_Bool m, a, b", "(m & a) | (!m & b)", ()
    u = f"uint{dt.itemsize * 8}_t"
    if dt.kind in "iu":
        k = f"(({u})0 - ({u})m)"
        return "_Bool m, a, b", f"({t})(({u})b ^ ((({u})a ^ ({u})b) & {k}))", ()
    body = ("{\n"
            f"    {u} x, y, k = ({u})0 - ({u})m;\n"
            "    __builtin_memcpy(&x, &a, sizeof x);\n"
            "    __builtin_memcpy(&y, &b, sizeof y);\n"
            "    x = y ^ ((x ^ y) & k);\n"
            "    __builtin_memcpy(&a, &x, sizeof a);\n"
            "    return a;\n"
            "}")
    return "_Bool m, a, b", body, ()


GENERATORS = {"pick": _pick}
