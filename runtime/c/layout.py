"""From a concrete Kernel to its size-generic shape: loop order, collapsed dims, the int64 arguments.

Generated code depends only on a kernel's *pattern*: ops and dtypes, the rank after collapsing, and
for every memory access whether each stride is 0, 1 or "some value", whether its offset is 0, and
which scalar arguments add to its offset at run time (a slice start; its coefficient is a
stride). The concrete extents, strides and offsets travel at run time in one int64 block (one block beats many
scalar arguments; GUIDE.md). So a new batch size re-uses the compiled kernel.

- Loop order follows strides: the outer (parallel) dims are sorted so the first store's smallest
  stride is innermost (contiguous writes, vectorizable). Inner (reduced) dims keep their order:
  argmax's flat position is row-major in them.
- Collapse (CuPy's `_reduce_dims`): neighbouring loop dims a, b merge when every access has
  stride[a] == stride[b] * extent[b]; dims read by an `Index` expression never merge.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...graph.kernel_ir import Index, Kernel, Load, Store


@dataclass(frozen=True)
class KernelLayout:
    extents: tuple[int, ...]  # collapsed loop dims, outermost first: outer dims, then inner dims
    n_outer: int
    # (strides per loop dim, offset, dynamic), print order; dynamic: the Load's (scalar argument,
    # element coefficient) pairs, a run-time slice start times its stride
    accesses: tuple[tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]], ...]
    index_dims: tuple[tuple[int, int], ...]  # (kernel space dim, loop dim) for Index expressions
    # the last inner loop dims that hold one pairwise tree where NumPy sums a row block after
    # block (`tree_boundary`; printer.py emit_pairwise); 0: the whole row is one tree
    tree_dims: int = 0

    @property
    def pattern(self) -> tuple:
        """What the generated source depends on (never a concrete size)."""
        return (len(self.extents), self.n_outer, self.tree_dims, tuple(
            (tuple(stride_class(s) for s in strides), offset != 0,
             tuple((k, stride_class(c)) for k, c in dynamic))
            for strides, offset, dynamic in self.accesses), self.index_dims)

    def block(self) -> np.ndarray:
        """The run-time int64 argument block in the order the printer reads it."""
        values = list(self.extents)
        for strides, offset, dynamic in self.accesses:
            values.extend(s for s in strides if stride_class(s) == "s")
            if offset:
                values.append(offset)
            values.extend(c for _, c in dynamic if stride_class(c) == "s")
        return np.array(values or [0], dtype=np.int64)

    @property
    def n_elements(self) -> int:
        return int(np.prod(self.extents, dtype=np.int64)) if self.extents else 1


def stride_class(stride: int) -> str:
    return "0" if stride == 0 else ("1" if stride == 1 else "s")


def kernel_accesses(kernel: Kernel) -> list[Load | Store]:
    """Every Load and Store in the order the printer meets them (stage by stage, exprs then stores)."""
    out: list[Load | Store] = []
    for stage in kernel.stages:
        out.extend(e for e in stage.exprs if isinstance(e, Load))
        out.extend(stage.stores)
    return out


@lru_cache(maxsize=512)  # (the interpreted tier's folds ask per run: ~10 us of a tiny kernel's)
def plan_layout(kernel: Kernel) -> KernelLayout:
    accesses = kernel_accesses(kernel)
    index_dims = sorted({e.dim for st in kernel.stages for e in st.exprs if isinstance(e, Index)})
    outer = _order_outer(kernel, accesses)
    inner = list(range(kernel.n_outer, len(kernel.space)))
    groups_outer = _collapse(kernel, accesses, outer, index_dims)
    boundary = tree_boundary(kernel)  # never collapsed across: the block's size stays a loop's
    groups_tree = _collapse(kernel, accesses, inner[boundary:], index_dims) if boundary else []
    groups_inner = _collapse(kernel, accesses, inner[:boundary] if boundary else inner,
                             index_dims) + groups_tree
    groups = groups_outer + groups_inner
    extents = tuple(int(np.prod([kernel.space[d] for d in g], dtype=np.int64)) for g in groups)
    loop_of = {g[0]: k for k, g in enumerate(groups)}
    return KernelLayout(
        extents=extents,
        n_outer=len(groups_outer),
        accesses=tuple((tuple(a.strides[g[-1]] for g in groups), a.offset,
                        getattr(a, "dynamic", ())) for a in accesses),
        index_dims=tuple((d, loop_of[d]) for d in index_dims),
        tree_dims=len(groups_tree),
    )


def tree_boundary(kernel: Kernel) -> int | None:
    """The inner dims NumPy adds one block after another before a pairwise tree over the rest
    (`Reduce.sequential_dims`, the same for every reduction of the kernel, short of all of its
    inner dims: `axis=(0, 2, 3)` of NCHW), or None."""
    n_inner = len(kernel.space) - kernel.n_outer
    seqs = {r.sequential_dims for st in kernel.stages for r in st.reduces}
    if len(seqs) != 1:
        return None
    seq = seqs.pop()
    return seq if 0 < seq < n_inner else None


def _order_outer(kernel: Kernel, accesses: list[Load | Store]) -> list[int]:
    dims = list(range(kernel.n_outer))
    stores = [a for a in accesses if isinstance(a, Store)]
    if not stores:
        return dims
    key, space = stores[0].strides, kernel.space
    # Stable: equal strides keep the kernel's order; the smallest |stride| goes innermost, but a
    # length-1 dim (its stride 0, any stride) goes outermost: innermost, its stride-0 store made
    # `x.sum(axis=0)` of a (9, 1, 3) x miss printer.py's column fold, a pairwise sum and not
    # NumPy's sequential bits (fuzz41)
    return sorted(dims, key=lambda d: (space[d] != 1, -abs(key[d])))


def _collapse(kernel: Kernel, accesses, dims: list[int], index_dims) -> list[list[int]]:
    groups: list[list[int]] = []
    for d in dims:
        if groups and _mergeable(kernel, accesses, groups[-1][-1], d, index_dims):
            groups[-1].append(d)
        else:
            groups.append([d])
    return groups


def _mergeable(kernel: Kernel, accesses, a: int, b: int, index_dims) -> bool:
    if a in index_dims or b in index_dims:
        return False
    n = kernel.space[b]
    return all(acc.strides[a] == acc.strides[b] * n for acc in accesses)
