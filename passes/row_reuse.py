"""Row-wise kernels compute each row's producer once (issue 9).

A row-wise kernel (softmax, log_softmax, logsumexp, var) runs several stages over the same inner
space, and the fusion planner lowers each stage's expression on its own, so a later stage
recomputes what an earlier one computed: softmax's `exp(x - max)` in the sum stage and again in the
write-back. This pass finds, in every inner stage, each maximal expression an earlier inner stage
already computes (same ops on the same loads, scalars and accumulators) and replaces it with a
`RowValue(stage, pos)`: the C backend keeps that value in a per-thread row workspace; backends
without one recompute it (`recompute_row_values`), which gives the same bits because generated code
never contracts and has one implementation per math function.

softmax, before:                                 after:
    stage 0 (reduce max):  ld0 = x[o, i]              stage 0: unchanged
    stage 1 (reduce sum):  ld0 = x[o, i]              stage 1: unchanged; its exp3 is kept per row
                           sub2 = ld0 - acc0_0
                           exp3 = exp(sub2)
    stage 2 (store):       ld0 = x[o, i]              stage 2: row0 = RowValue(1, 3)
                           sub2 = ld0 - acc0_0                 div1 = row0 / acc1_0
                           exp3 = exp(sub2)                    out[o, i] = div1
                           div5 = exp3 / acc1_0
                           out[o, i] = div5

The replaced expression's operands stay in the stage unused (the C compiler drops them; the
numpy interpreter computes them once more); positions stay stable so RowValues never renumber.
Only kernels with an outer (parallel) loop are rewritten: a full reduction's "row" is the whole
array, which a workspace would cost a second pass through memory for.
"""

from __future__ import annotations

import re

import numpy as np

from ..graph.kernel_ir import Apply, Index, Kernel, Load, RowValue, Stage


_CALL = re.compile(r"[A-Za-z_][\w{}]*\(")  # a function call, `la_exp_{S}(` included


def _key(e, keys: list) -> object:
    if isinstance(e, Apply):
        return ("apply", e.op.name, e.dtype.str, tuple(keys[a] for a in e.args))
    return e  # Load, ScalarArg, Const, Index, AccRef: frozen dataclasses, equal iff same value


def _varies(e, varies: list[bool], n_outer: int) -> bool:
    """Whether the value changes along the inner (row) index: only such values need a row."""
    if isinstance(e, Apply):
        return any(varies[a] for a in e.args)
    if isinstance(e, Load):
        return any(e.strides[n_outer:])
    if isinstance(e, Index):
        return e.dim >= n_outer
    return isinstance(e, RowValue)


def _worth_keeping(exprs, pos: int, n_outer: int) -> bool:
    """A row is kept for a value whose tree calls a function (exp, log, a helper) on values that
    vary along the row; `x - max` or `x * x` is recomputed (a load and an op cost what a row
    read does: measured, log_softmax kept `x - max` and got slower)."""
    varies: list[bool] = []
    for e in exprs[: pos + 1]:
        varies.append(_varies(e, varies, n_outer))
    todo, seen = [pos], set()
    while todo:
        p = todo.pop()
        e = exprs[p]
        if p in seen or not isinstance(e, Apply) or not varies[p]:
            continue
        seen.add(p)
        kind = np.dtype(exprs[e.args[0]].dtype).kind if e.args else np.dtype(e.dtype).kind
        if _CALL.match(e.op.template(kind, "c") or ""):
            return True
        todo.extend(e.args)
    return False


def keep_rows(kernel: Kernel) -> Kernel:
    """`kernel` with each recomputed row value read from the earlier stage (see module doc)."""
    inner = [n for n, st in enumerate(kernel.stages) if st.inner]
    if kernel.n_outer == 0 or len(kernel.space) == kernel.n_outer or len(inner) < 2:
        return kernel
    known: dict[object, tuple[int, int]] = {}  # key of an Apply -> (stage, position) computing it
    stages = list(kernel.stages)
    changed = False
    for n in inner:
        st = stages[n]
        keys: list = []
        varies: list[bool] = []
        exprs = list(st.exprs)
        for pos, e in enumerate(st.exprs):
            keys.append(_key(e, keys))
            varies.append(_varies(e, varies, kernel.n_outer))
            if isinstance(e, Apply) and keys[-1] in known and varies[-1]:
                exprs[pos] = RowValue(*known[keys[-1]], e.dtype)
        live = _live(exprs, st)
        for pos, e in enumerate(exprs):  # only maximal shared values that pay for a row
            if isinstance(e, RowValue):
                src = stages[e.stage].exprs
                if pos in live and _worth_keeping(src, e.pos, kernel.n_outer):
                    changed = True
                else:
                    exprs[pos] = st.exprs[pos]
        for pos, e in enumerate(st.exprs):
            if isinstance(e, Apply) and varies[pos]:
                known.setdefault(keys[pos], (n, pos))
        stages[n] = Stage(st.inner, tuple(exprs), st.reduces, st.stores)
    if not changed:
        return kernel
    return Kernel(kernel.name, kernel.space, kernel.n_outer, tuple(stages), kernel.fused,
                  kernel.sites)


def _live(exprs: list, stage: Stage) -> set[int]:
    """Positions the stage's reduces and stores need, not looking through RowValues."""
    live = {r.value for r in stage.reduces} | {s.value for s in stage.stores}
    for pos in range(len(exprs) - 1, -1, -1):
        if pos in live and isinstance(exprs[pos], Apply):
            live.update(exprs[pos].args)
    return live
