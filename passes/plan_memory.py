"""Memory planning: liveness over the step schedule, size-aware reuse of dead buffers, in place
where legal, and the peak intermediate bytes.

Every buffer gets a `storage` (an arena entry). Program inputs and outputs own theirs (outputs go
back to the user). An intermediate takes, when its producing step runs:
1. in place: the storage of an input that dies at this step, when the step is a one-stage kernel
   that reads that input only at exactly the index it writes (same shape, dtype, strides);
2. else the smallest free storage at least as large (freed by a step strictly before);
3. else a new storage.

    before: t1 = a @ b   t2 = t1 @ c   t3 = t2 @ d -> out     storages: t1:0 t2:1 (t3 is output)
    (a chain of n matmuls needs 2 intermediate storages, whatever n is)
"""

from __future__ import annotations

from dataclasses import replace

from ..graph.kernel_ir import BufferSpec, Kernel, Load, Program


def _reads(step) -> tuple[int, ...]:
    return step.input_slots if isinstance(step, Kernel) else step.inputs


def _writes(step) -> tuple[int, ...]:
    return step.output_slots if isinstance(step, Kernel) else (step.output,)


def liveness(program: Program) -> tuple[dict[int, int], dict[int, int]]:
    """(first step writing, last step touching) per intermediate slot."""
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for k, step in enumerate(program.steps):
        for s in _writes(step):
            first.setdefault(s, k)
            last[s] = k
        for s in _reads(step):
            last[s] = k
    return first, last


def _in_place_ok(step, src: int, dst: int, buffers) -> bool:
    if not isinstance(step, Kernel) or len(step.stages) != 1:
        return False
    a, b = buffers[src], buffers[dst]
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    (stage,) = step.stages
    stores = [s for s in stage.stores if s.slot == dst]
    if len(stores) != 1:
        return False
    at = (stores[0].strides, stores[0].offset)
    return all((e.strides, e.offset) == at for e in stage.exprs
               if isinstance(e, Load) and e.slot == src)


def plan_memory(program: Program) -> Program:
    buffers = program.buffers
    pinned = set(program.inputs) | set(program.outputs)
    _, last = liveness(program)
    storage: dict[int, int] = {}
    capacity: dict[int, int] = {}
    for s in sorted(pinned):
        storage[s] = _new(capacity, buffers[s].nbytes)
    users: dict[int, int] = {}  # intermediate storage -> buffers on it still alive
    free: list[int] = []
    peak = 0
    for k, step in enumerate(program.steps):
        dying = [s for s in dict.fromkeys(_reads(step)) if s not in pinned and last[s] == k]
        donors = list(dying)  # each dying input lends its storage to at most one output
        for s in _writes(step):
            if s in pinned or s in storage:
                continue
            donor = next((d for d in donors if _in_place_ok(step, d, s, buffers)), None)
            if donor is not None:
                donors.remove(donor)
                storage[s] = storage[donor]  # the donor is still released below; `s` holds it
            else:
                storage[s] = _take(free, capacity, buffers[s].nbytes)
            users[storage[s]] = users.get(storage[s], 0) + 1
        peak = max(peak, sum(capacity[t] for t, n in users.items() if n > 0))
        done = dying + [w for w in _writes(step) if w not in pinned and last[w] == k]
        for s in dict.fromkeys(done):
            t = storage[s]
            users[t] -= 1
            if users[t] == 0:
                free.append(t)
    for s in range(len(buffers)):  # buffers no step touches
        if s not in storage:
            storage[s] = _new(capacity, buffers[s].nbytes)
    new = tuple(BufferSpec(b.shape, b.dtype, storage[s]) for s, b in enumerate(buffers))
    return replace(program, buffers=new, peak_bytes=peak)


def _new(capacity: dict[int, int], nbytes: int) -> int:
    t = len(capacity)
    capacity[t] = nbytes
    return t


def _take(free: list[int], capacity: dict[int, int], nbytes: int) -> int:
    fits = [t for t in free if capacity[t] >= nbytes]
    if fits:
        best = min(fits, key=lambda t: (capacity[t], t))
        free.remove(best)
        return best
    return _new(capacity, nbytes)
