"""Memory planning: liveness over the step schedule, size-aware reuse of dead buffers, in place
where legal, and the peak intermediate bytes.

Every buffer gets a `storage` (an arena entry). Program inputs and outputs own theirs (outputs go
back to the user). An intermediate takes, when its producing step runs:
1. in place: the storage of an input that dies at this step, when the step is a one-stage kernel
   that reads that input only at exactly the index it writes (same shape, dtype, strides), or an
   update of that input (an opaque op with `in_place`: scatter), which then writes into the
   base's buffer instead of copying it (a chain of scatters runs in one buffer);
2. else the smallest free storage at least as large (freed by a step strictly before);
3. else a new storage.

    before: t1 = a @ b   t2 = t1 @ c   t3 = t2 @ d -> out     storages: t1:0 t2:1 (t3 is output)
    (a chain of n matmuls needs 2 intermediate storages, whatever n is)
"""

from __future__ import annotations

from dataclasses import replace

from ..graph.kernel_ir import BufferSpec, Kernel, LibraryCall, Load, Program


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
    a, b = buffers[src], buffers[dst]
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if isinstance(step, LibraryCall):  # an update of its base (scatter): the base read once
        return (step.op.in_place is not None and step.inputs[0] == src
                and step.inputs.count(src) == 1 and 0 not in step.transposed)
    if len(step.stages) != 1:
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
    outputs = set(program.outputs)
    donated = {program.inputs[k] for k in program.donated}
    pinned = (set(program.inputs) - donated) | outputs
    _, last = liveness(program)
    owner = _chain_owners(program, pinned, last)
    storage: dict[int, int] = {}
    capacity: dict[int, int] = {}
    for s in sorted(set(program.inputs) | outputs):
        if s not in storage:
            storage[s] = _new(capacity, buffers[s].nbytes)
            for t, o in owner.items():  # the chain's slots live in their owner's buffer
                if o == s:
                    storage[t] = storage[s]
    external = {storage[s] for s in set(program.inputs) | outputs}
    users: dict[int, int] = {}  # intermediate storage -> buffers on it still alive
    free: list[int] = []
    peak = 0
    for k, step in enumerate(program.steps):
        dying = [s for s in dict.fromkeys(_reads(step)) if s not in pinned and last[s] == k]
        donors = [d for d in dying if storage.get(d) not in external]
        for s in _writes(step):
            if s in storage:
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
            if t in external:
                continue
            users[t] -= 1
            if users[t] == 0:
                free.append(t)
    for s in range(len(buffers)):  # buffers no step touches
        if s not in storage:
            storage[s] = _new(capacity, buffers[s].nbytes)
    new = tuple(BufferSpec(b.shape, b.dtype, storage[s]) for s, b in enumerate(buffers))
    return replace(program, buffers=new, peak_bytes=peak)


def _chain_owners(program: Program, pinned: set[int], last: dict[int, int]) -> dict[int, int]:
    """Slots that live in a program input's or output's own buffer: chains of in-place steps
    (`_in_place_ok`, each link's source dying at that step) that start at a donated input or end
    at an output. slot -> its owner: the input when the chain has one (an output on it is then
    that input's buffer, returned to the user), else the output. A chain of scatters ending at
    an output copies its base once into the output and updates it there; from a donated input
    it copies nothing. Every slot of a chain has the owner's shape and dtype."""
    inputs = set(program.inputs)
    link: dict[int, int] = {}  # in-place source -> the slot written over it
    for k, step in enumerate(program.steps):
        donors = [s for s in dict.fromkeys(_reads(step)) if s not in pinned and last[s] == k]
        for s in _writes(step):
            if s in inputs:
                continue
            donor = next((d for d in donors if _in_place_ok(step, d, s, program.buffers)), None)
            if donor is not None:
                donors.remove(donor)
                link[donor] = s
    heads = set(link) - set(link.values())
    owner: dict[int, int] = {}
    for head in sorted(heads):
        chain = [head]
        while chain[-1] in link:
            chain.append(link[chain[-1]])
        first, tail = chain[0], chain[-1]
        root = first if first in inputs else tail if tail in program.outputs else None
        if root is not None:
            owner.update({s: root for s in chain if s != root})
    return owner


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
