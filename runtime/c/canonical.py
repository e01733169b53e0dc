"""A kernel renumbered as if it were alone: its own buffer slots and scalar arguments from 0.

A Program numbers buffer slots and scalar arguments globally, and a kernel's IR names them by those
numbers: the same kernel at two positions of a loop segment (the 3rd and the 9th `v / norm(v)` of a
power iteration) read `b3`/`s + 8` and `b9`/`s + 40`, so they printed, keyed and compiled as two
kernels. The C launcher already passes each kernel its own pointer array (`kernel_slots` order), so
only the scalars need the program's help: the plan hands each kernel a pointer to its own scalars
(`CPlan` in c_backend.py), and the kernel is printed and keyed in this local numbering:

    Load(slot=9), Store(slot=10), ScalarArg(index=5)  ->  Load(slot=0), Store(slot=1), ScalarArg(index=0)

Identical kernels anywhere in any plan then share one structural key and one compile.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from ...graph.kernel_ir import Kernel, Load, ScalarArg, Stage
from .printer import kernel_scalars, kernel_slots


@lru_cache(maxsize=4096)
def canonical_kernel(kernel: Kernel, shared: frozenset[int]) -> tuple[Kernel, frozenset[int]]:
    """(`kernel` with slots numbered in `kernel_slots` order and scalars in `kernel_scalars`
    order, `shared` in that numbering). Loop-free plans call it once per kernel per plan build."""
    slot = {s: k for k, s in enumerate(kernel_slots(kernel))}
    scalar = {i: k for k, i in enumerate(kernel_scalars(kernel))}
    if all(s == k for s, k in slot.items()) and all(i == k for i, k in scalar.items()):
        return kernel, shared
    stages = tuple(
        Stage(st.inner, tuple(_renumber(e, slot, scalar) for e in st.exprs), st.reduces,
              tuple(replace(t, slot=slot[t.slot]) for t in st.stores))
        for st in kernel.stages)
    return replace(kernel, stages=stages), frozenset(slot[s] for s in shared)


def _renumber(e, slot: dict[int, int], scalar: dict[int, int]):
    if isinstance(e, Load):
        return replace(e, slot=slot[e.slot],
                       dynamic=tuple((scalar[k], c) for k, c in e.dynamic))
    if isinstance(e, ScalarArg):
        return replace(e, index=scalar[e.index])
    return e
