"""A C plan's hit path as one generated Python function: every step unrolled, slots as locals.

`CPlan.run` is what every cached evaluation and every `la.jit` call pays. Written as a loop over
steps and pointer entries it costs ~1 us of interpreter work on top of the kernel call for a
one-kernel plan (tuple unpacking per step and per pointer, list indexing by slot). The launcher
does the same work with nothing left to decide: for `y = f(a, b)` in one kernel it reads

    def run(plan, arrays, scalars):
        ws = getattr(plan._local, "ws", None)
        if ws is None:
            ws = plan._workspace()
        a0 = arrays[0]
        if type(a0) is not ndarray or a0.dtype is not D0 or a0.shape != S0 or not a0.flags.c_contiguous:
            a0 = conform(a0, D0, S0)
        a1 = arrays[1]
        ...
        if scalars:
            PACK.pack_into(ws.scalar_bytes, 0, *scalars)   # (NumPy's assignment if struct refuses)
        o2 = empty(S2, D2)          # a large output: take(ws.key, 2), else empty(...)
        pointers = ws.pointers
        refs = ws.input_refs        # weak references to the inputs bound last run
        try:
            p = pointers[0]
            r = refs[0]
            if r is None or r() is not a0:   # the same array as last run keeps its pointer
                p[0] = cbuf(a0)
                refs[0] = wref(a0)
            ...                             # a1 alike
            p[2] = cbuf(o2)
            F0(p, B0, sptr, T0)     # sptr = ws.scalars_ptr (a kernel whose scalars start
                                    # further on: ws.kernel_scalars[n], runtime/c/canonical.py)
        except BaseException:
            abandon(plan, [a0, a1, o2], ws)
            raise
        return [o2]                 # a large output is first given back: give(ws.key, 2, o2)

A plan with library steps also fills `bufs = ws.buffers.copy()` with its inputs and outputs; a
matmul step is then one line, `matmul(bufs[0], bufs[1], out=bufs[3])`, other library steps
`run_library_call(L0, bufs)`.

Same semantics as `CPlan.run_steps` (the reference, and the path for plans whose outputs alias an
input or repeat); tests/test_c_programs.py compares the two on every hand-built program.

The text names every constant (dtypes, shapes, kernels, blocks) through the plan's own globals, so
plans of one structure have one text: its compiled code is cached (`compile` cost ~0.15-0.8 ms a
plan, most of a size-generic plan's work for a new batch size) and each plan only `exec`s it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from types import CodeType
from typing import Any

import numpy as np

from ...graph.registry import OpKind
from .. import fp_status, spare_outputs
from .compiler import ffi


def conform(value: Any, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    """A leaf that is not a C-contiguous array of the planned dtype and shape, made one."""
    return np.ascontiguousarray(value, dtype=dtype).reshape(shape)


_CODE: dict[str, CodeType] = {}  # launcher text -> its compiled module (bounded: MAX_CODES)
MAX_CODES = 512


def _code(source: str) -> CodeType:
    code = _CODE.get(source)
    if code is None:
        if len(_CODE) >= MAX_CODES:
            _CODE.clear()
        code = _CODE[source] = compile(source, "<lazyarray launcher>", "exec")
    return code


def _matmul_unchecked(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """The matmul twin of NumPy's dot loops (graph/ops_unchecked.py): NumPy's report silenced."""
    with np.errstate(all="ignore"):
        np.matmul(a, b, out=out)


def _matmul_reporting(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """graph/_node.c's matmul step, as the launcher's line: NumPy's flags go to fp_status (the
    report names the user's line; NumPy's own warning here made an overflow warn twice), and
    the flags kernels raised before it are kept."""
    kept = fp_status.test()
    token = fp_status.enter_numpy_errstate()
    try:
        np.matmul(a, b, out=out)
    finally:
        fp_status.leave_numpy_errstate(token)
    if kept:
        fp_status.note("", kept)


def _library_call(step: Any, i: int, env: dict[str, Any], buffers: tuple = ()) -> str:
    """A library step's line: matmul as NumPy's call itself (run_library_call's frame, operand
    tuple and kind test cost ~0.6 us beside the ~1.5 us of a small matmul), a concat of inputs
    of its output's dtype as NumPy's concatenate into the buffer (nothing cast, so no flag to
    record: run_library_call's errstate and copy cost ~4 us, nbody's `hstack` each step),
    others through it."""
    if (step.op.name == "concat" and buffers and not step.transposed
            and all(buffers[s].dtype == buffers[step.output].dtype for s in step.inputs)):
        env["concatenate"] = np.concatenate
        env["fp_test"], env["fp_note"] = fp_status.test, fp_status.note
        parts = ", ".join(f"bufs[{s}]" for s in step.inputs)
        return (f"kept = fp_test(); concatenate(({parts},), axis={int(step.attrs[0])}, "
                f"out=bufs[{step.output}])\n        if kept: fp_note('', kept)")
    if step.op.kind is OpKind.MATMUL and len(step.inputs) == 2:
        name = "matmul" if "fp_unchecked" not in step.op.properties else "matmul_unchecked"
        env["matmul"], env["matmul_unchecked"] = np.matmul, _matmul_unchecked
        a, b = (f"bufs[{s}]" + (".swapaxes(-1, -2)" if k in step.transposed else "")
                for k, s in enumerate(step.inputs))
        # NumPy's matmul clears the flags the kernels before it raised: fp_status keeps them.
        # Its own flags go to fp_status too (the report names the user's line), not to a
        # warning of NumPy's at this line besides (a float overflow warned twice).
        env["fp_test"], env["fp_note"] = fp_status.test, fp_status.note
        env["fp_enter"], env["fp_leave"] = (fp_status.enter_numpy_errstate,
                                            fp_status.leave_numpy_errstate)
        return (f"kept = fp_test(); token = fp_enter()\n"
                f"        try: {name}({a}, {b}, out=bufs[{step.output}])\n"
                f"        finally: fp_leave(token)\n"
                f"        if kept: fp_note('', kept)")
    env[f"L{i}"] = step
    return f"run_library_call(L{i}, bufs)"


def make_launcher(plan: Any, bind_scalars: Callable, char_buffer: Callable,
                  run_library_call: Callable, abandon: Callable
                  ) -> Callable[[Any, Any, Any], list] | None:
    """`run(plan, arrays, scalars)` for this plan, or None where the general loop must serve
    (outputs that are inputs or repeat: those are copied by `fresh_outputs`). The plan is an
    argument, not a constant of the function: the plan keeps the function, and a cycle would keep
    an evicted plan's workspace until the garbage collector ran."""
    if not plan._plain_outputs:
        return None
    env: dict[str, Any] = {
        "ndarray": np.ndarray, "empty": np.empty, "conform": conform, "bind_scalars": bind_scalars, "PACK": plan._pack_scalars,
        "cbuf": char_buffer, "run_library_call": run_library_call, "abandon": abandon,
        "getattr": getattr, "BaseException": BaseException,
        "take": spare_outputs.take, "give": spare_outputs.give, "wref": weakref.ref,
        "ORDER": plan.scalar_order,
    }
    names: dict[int, str] = {}  # slot -> local variable holding its buffer this run
    lines = ["def run(plan, arrays, scalars):",
             "    ws = getattr(plan._local, 'ws', None)",
             "    if ws is None:",
             "        ws = plan._workspace()"]
    for k, (slot, dtype, shape) in enumerate(plan._inputs):
        v = names[slot] = f"a{slot}"
        env[f"D{slot}"], env[f"S{slot}"] = dtype, shape
        lines += [f"    {v} = arrays[{k}]",
                  f"    if (type({v}) is not ndarray or {v}.dtype is not D{slot} "
                  f"or {v}.shape != S{slot} or not {v}.flags.c_contiguous):",
                  f"        {v} = conform({v}, D{slot}, S{slot})"]
    if plan.scalar_order is not None:  # kernels reading scattered scalars get copies (c_backend)
        lines += ["    if scalars:", "        scalars = ORDER(scalars)"]
    if plan._pack_scalars is not None:  # _bind_scalars' usual case inline; it handles the rest
        lines += ["    if scalars:",
                  "        try:",
                  "            PACK.pack_into(ws.scalar_bytes, 0, *scalars)",
                  "        except Exception:",
                  "            bind_scalars(None, ws, scalars)"]
    else:
        lines += ["    if scalars:", "        bind_scalars(None, ws, scalars)"]
    reused = []  # large outputs: taken from and given back to the spare pool (spare_outputs)
    for slot, dtype, shape, spare in plan._outputs:
        v = names[slot] = f"o{slot}"
        env[f"D{slot}"], env[f"S{slot}"] = dtype, shape
        if spare:
            reused.append(slot)
            lines += [f"    {v} = take(ws.key, {slot})",
                      f"    if {v} is None:",
                      f"        {v} = empty(S{slot}, D{slot})"]
        else:
            lines.append(f"    {v} = empty(S{slot}, D{slot})")
    for slot, owner in plan._aliases:  # planned in an input's or output's buffer
        names[slot] = names[owner]
    uses_library = any(n < 0 for n, *_ in plan._steps)
    if uses_library:  # library calls read buffers by slot, intermediates included
        lines.append("    bufs = ws.buffers.copy()")
        lines += [f"    bufs[{slot}] = {v}" for slot, v in names.items()]
    kept = "bufs" if uses_library else "[" + ", ".join(names.values()) + "]"
    lines += ["    pointers = ws.pointers", "    sptr = ws.scalars_ptr", "    try:"]
    body = []
    inputs = {slot for slot, _, _ in plan._inputs}
    n_refs = 0
    if any(plan.scalar_offsets):
        lines.insert(lines.index("    try:"), "    sptrs = ws.kernel_scalars")
    for i, (n, fn, block, nt, bound) in enumerate(plan._steps):
        if n < 0:
            body.append(_library_call(fn, i, env, plan.program.buffers))
            continue
        env[f"F{i}"], env[f"B{i}"], env[f"T{i}"] = fn, block, nt
        body.append(f"p = pointers[{n}]")
        for k, slot in bound:
            v = names[slot]
            if slot in inputs:  # the same array as last run (weights, a jit's constant inputs)
                body += [f"r = refs[{n_refs}]",  # keeps its pointer: the entry still holds it
                         f"if r is None or r() is not {v}:",
                         f"    p[{k}] = cbuf({v})",
                         f"    refs[{n_refs}] = wref({v})"]
                n_refs += 1
            else:
                body.append(f"p[{k}] = cbuf({v})")
        own = f"sptrs[{n}]" if plan.scalar_offsets[n] else "sptr"  # where its scalars start
        body.append(f"F{i}(p, B{i}, {own}, T{i})")
    if n_refs:  # a new workspace, or one `run_steps` used, starts with none remembered
        at = lines.index("    try:")
        lines[at:at] = ["    refs = ws.input_refs",
                        f"    if len(refs) != {n_refs}:",
                        f"        refs = ws.input_refs = [None] * {n_refs}"]
    lines += ["        " + b for b in body or ["pass"]]
    lines += ["    except BaseException:",
              f"        abandon(plan, {kept}, ws)",
              "        raise"]
    lines += [f"    give(ws.key, {slot}, {names[slot]})" for slot in reused]
    lines += ["    return [" + ", ".join(names[s] for s in plan.program.outputs) + "]"]
    exec(_code("\n".join(lines) + "\n"), env)
    run = env["run"]
    # Whether a step runs an op's Python reference (run_library_call): graph/_node.c's hit path
    # marks the thread busy around such a launcher only (run_cached marks every run; nothing but
    # kernels and NumPy's matmul cannot tell).
    run.calls_library = any(f"L{i}" in env for i in range(len(plan._steps)))
    return run


# --- the hit path's direct launch (graph/_node.c) ----------------------------------------------
# graph/_node.c can run the commonest C plan itself, without the launcher above: kernels over the
# plan's inputs and up to 4 small outputs (one; or a forced value with the loop's held state)
# only. `direct_spec` describes such a plan to it; the evaluation hit path (lazyarray/cache.py,
# remember_hit) uses it, and the launcher stays the reference and the path for every other plan
# and call (an input to conform, a scalar struct refuses: the C side declines before doing
# anything).
try:
    from ...graph.node import _compiled as _node
except ImportError:  # pragma: no cover - graph/ always imports
    _node = None
if _node is not None and not hasattr(_node, "direct_spec"):
    _node = None
if _node is not None:  # NumPy's array fields as the C side reads them: checked, or the path is off
    _probe = np.empty((3, 5), np.float32)
    if not _node.check_array_layout(_probe, _probe.ctypes.data, _probe[:, ::2], _probe.dtype):
        _node = None
    del _probe

_DIRECT_CODES = {np.dtype(np.float64): "d", np.dtype(np.float32): "f",
                 np.dtype(np.int64): "q", np.dtype(np.bool_): "?"}
DIRECT_RELEASE_GIL = 2**15  # elements of the largest buffer from which the kernels run without
# the GIL (cffi releases it for every call; a 16-element kernel takes less time than that)


def direct_spec(plan: Any) -> Any:
    """graph/_node.c's description of this C plan for its direct launch, or None where the plan
    needs the launcher (library steps other than a plain matmul, spare-pool outputs, more than
    4 outputs or outputs planned in another buffer, scalars read in another order or of other
    dtypes, watched kernels). Made once per plan."""
    spec = getattr(plan, "_direct", False)
    if spec is False:
        spec = plan._direct = _make_direct_spec(plan) if _node is not None else None
    return spec


_DIRECT_MAX_OUTPUTS = 4  # graph/_node.c's D_MAX_OUT


def _make_direct_spec(plan: Any) -> Any:
    aliases = dict(plan._aliases)
    out_slots = [out[0] for out in plan._outputs]
    if (plan._launch is None or plan.scalar_order is not None
            or not 1 <= len(out_slots) <= _DIRECT_MAX_OUTPUTS
            or out_slots != list(plan.program.outputs) or any(out[3] for out in plan._outputs)
            or (len(out_slots) > 1 and any(s in aliases for s in out_slots))):
        return None
    output = {slot: m for m, slot in enumerate(out_slots)}
    position = {slot: k for k, (slot, _, _) in enumerate(plan._inputs)}
    intermediates: dict[int, int] = {}  # workspace slot -> its number in the spec

    def buffer(slot: int) -> int:  # graph/_node.c's numbering: input k, output m, intermediate j
        slot = aliases.get(slot, slot)  # planned in an output's (or an input's) buffer
        if slot in output:
            return -1 - output[slot]
        if slot in position:
            return position[slot]
        if slot not in plan.intermediates:
            raise LookupError(slot)
        return -1 - len(out_slots) - intermediates.setdefault(slot, len(intermediates))

    codes = [_DIRECT_CODES.get(np.dtype(dt)) for dt in plan.scalar_dtypes]
    if None in codes:
        return None
    steps = []
    threads = 1
    try:
        for n, fn, block, nt, bound in plan._steps:
            if n < 0:  # a library step: only the launcher's plain `matmul(a, b, out=c)`
                if (fn.op.kind is not OpKind.MATMUL or len(fn.inputs) != 2 or fn.transposed
                        or "fp_unchecked" in fn.op.properties):  # (NumPy's report silenced)
                    return None
                steps.append((0, 0, -1, tuple(buffer(s) for s in (*fn.inputs, fn.output)), 0))
                continue
            if not isinstance(fn, ffi.CData):
                return None  # a watched kernel (a Python wrapper)
            slots = plan.calls[n].slots
            steps.append((int(ffi.cast(ffi.UINTPTR, fn)), int(ffi.cast(ffi.UINTPTR, block)),
                          int(nt), tuple(buffer(s) for s in slots), int(plan.scalar_offsets[n])))
            threads = max(threads, int(nt))
    except LookupError:
        return None
    if not steps:
        return None
    largest = max(int(np.prod(plan.program.buffers[s].shape))
                  for s in (*out_slots, *position, *intermediates))
    release = threads > 1 or largest >= DIRECT_RELEASE_GIL
    inputs = tuple((dt, tuple(shape)) for _, dt, shape in plan._inputs)
    outputs = tuple((dt, tuple(shape)) for _, dt, shape, _ in plan._outputs)
    return _node.direct_spec(inputs, outputs, "".join(codes), tuple(steps),
                             tuple(intermediates), np.empty, _matmul_reporting, release,
                             (plan.calls, plan._steps))
