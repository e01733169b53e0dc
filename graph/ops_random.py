"""In-kernel random numbers: a counter source and the Philox-4x32-10 bijection.

`flat_index` is a SOURCE op: the row-major position of each element of its shape, computed from
the loop index (it reads no memory). `philox` is an elementwise op: Philox-4x32-10 (Salmon et al.,
"Parallel random numbers: as easy as 1, 2, 3", SC'11; the Random123 constants) applied to the
counter (lo(i), hi(i), stream, 0) under the key (k0, k1); it returns words 0 and 1 of the result as
one uint64 (word 1 high). Every operand is uint64 (only the low 32 bits of stream, k0, k1 count).
So `uniform(key, shape)` is `philox(flat_index, stream, k0, k1)` followed by a few integer and float
ops, all fused into whatever kernel consumes it, and the key is a kernel argument (a loaded buffer),
never part of the code.

The C and CUDA code is runtime/c/philox.py; the reference below is the same integer arithmetic in
NumPy uint64, so every backend yields the same bits.
"""

from __future__ import annotations

import math

import numpy as np

from .node import Node
from .registry import OpDef, OpKind, get_op, register

M0, M1 = 0xD2511F53, 0xCD9E8D57  # the Philox-4x32 multipliers
W0, W1 = 0x9E3779B9, 0xBB67AE85  # the Weyl key increments (golden ratio, sqrt(3) - 1)
ROUNDS = 10
_LOW = np.uint64(0xFFFFFFFF)


def philox4x32(c0, c1, c2, c3, k0, k1, rounds: int = ROUNDS):
    """The four uint32 output words (as uint64 arrays) of Philox-4x32 for uint64 array inputs."""
    c0, c1, c2, c3, k0, k1 = (np.asarray(v, np.uint64) & _LOW for v in (c0, c1, c2, c3, k0, k1))
    for _ in range(rounds):
        p0, p1 = c0 * np.uint64(M0), c2 * np.uint64(M1)  # 32 x 32 -> 64 bits: no overflow
        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ k0, p1 & _LOW,
                          (p0 >> np.uint64(32)) ^ c3 ^ k1, p0 & _LOW)
        k0, k1 = (k0 + np.uint64(W0)) & _LOW, (k1 + np.uint64(W1)) & _LOW
    return c0, c1, c2, c3


def philox_bits(i, stream, k0, k1) -> np.ndarray:
    """Words 0 | 1 << 32 of Philox-4x32-10 at counter (lo(i), hi(i), stream, 0)."""
    i = np.asarray(i, np.uint64)
    w0, w1, _, _ = philox4x32(i & _LOW, i >> np.uint64(32), stream, 0, k0, k1)
    return w0 | (w1 << np.uint64(32))


def _flat_index(xs, attrs, dtype):
    (shape,) = attrs
    return np.arange(math.prod(shape), dtype=dtype).reshape(shape)


FLAT_INDEX = register(OpDef("flat_index", OpKind.SOURCE, _flat_index, arity=-1,
                            attr_names=("shape",), differentiable=False,
                            doc="each element's row-major position in `shape` (uint64); inputs: "
                                "the row-major strides of dims 0..ndim-2 as scalar leaves"))
_SCALAR = get_op("scalar")
_U64 = np.dtype(np.uint64)


def flat_index(shape: tuple[int, ...], site=None) -> Node:
    """The position node of `shape`. Its strides are run-time scalars (kernel arguments), so a
    kernel drawing random numbers is the same code for every size: a new shape compiles nothing."""
    strides, n = [], 1
    for s in reversed(shape[1:]):
        n *= s
        strides.append(Node(_SCALAR, (), (), (), _U64, data=n, site=site))
    return Node(FLAT_INDEX, tuple(reversed(strides)), (tuple(shape),), tuple(shape), _U64,
                site=site)
PHILOX = register(OpDef("philox", OpKind.ELEMENTWISE,
                        lambda xs, a, dt: philox_bits(*xs), arity=4, c="la_philox_{S}({0}, {1}, "
                        "{2}, {3})", differentiable=False,
                        doc="Philox-4x32-10 words 0, 1 of counter (lo(i), hi(i), stream, 0), key "
                            "(k0, k1); all operands uint64"))
