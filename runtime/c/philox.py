"""C/CUDA code of the `philox` op (graph/ops_random.py): Philox-4x32-10, words 0 | 1 << 32.

One helper serves both dialects (plain uint32/uint64 arithmetic; the 32 x 32 -> 64 products need
no mulhi intrinsic), so C, CUDA and the NumPy reference compute the same bits.
"""

from __future__ import annotations

import numpy as np

_BODY = """{
    uint32_t c0 = (uint32_t)i, c1 = (uint32_t)(i >> 32), c2 = (uint32_t)s, c3 = 0u;
    uint32_t a = (uint32_t)k0, b = (uint32_t)k1;
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ a, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ b;
        c1 = (uint32_t)p1; c3 = (uint32_t)p0; c0 = n0; c2 = n2;
        a += 0x9E3779B9u; b += 0xBB67AE85u;
    }
    return ((uint64_t)c1 << 32) | (uint64_t)c0;
}"""


def _philox(dt: np.dtype, t: str) -> tuple[str, str, tuple[str, ...]]:
    return "i, s, k0, k1", _BODY, ()


GENERATORS = {"philox": _philox}
