"""Kernel-IR addressing (offset + sum(index * stride) over a C-contiguous buffer) as dask.array views.

A `Load` reads its buffer through strides; on Dask the buffer is a chunked array, so each Load
becomes a view of shape `kernel.space` made of dask.array's own slicing (steps, flips, fixed
indices), transposes, reshapes and broadcasts. The chunks of that view are what the kernel's task
for one chunk receives. Addressing that no such chain expresses returns None; the caller then runs
the kernel on whole buffers in one task.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def c_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def _norm(strides: tuple[int, ...], extents: tuple[int, ...]) -> tuple[int, ...]:
    """Strides with those of extent-1 dims set to 0 (they never move the address)."""
    return tuple(0 if n == 1 else s for s, n in zip(strides, extents))


def decompose(shape: tuple[int, ...], strides: tuple[int, ...], offset: int,
              space: tuple[int, ...]) -> tuple[list[int], dict[int, tuple[int, int]]] | None:
    """How an access maps onto the buffer's dims: (start index per buffer dim, {space dim:
    (buffer dim, signed step)}), or None when it is not one space dim per buffer dim."""
    if any(n == 0 for n in shape) or any(n == 0 for n in space):
        return None
    cst = c_strides(shape)
    starts = [(offset // c) % n for c, n in zip(cst, shape)]
    if sum(s * c for s, c in zip(starts, cst)) != offset:
        return None
    used: dict[int, tuple[int, int]] = {}
    taken: set[int] = set()
    for d, (s, n) in enumerate(zip(_norm(strides, space), space)):
        if s == 0:
            continue
        candidates = [b for b in range(len(shape))
                      if b not in taken and shape[b] > 1 and abs(s) % cst[b] == 0]
        if not candidates:
            return None
        b = max(candidates, key=lambda b: cst[b])
        step = s // cst[b]
        last = starts[b] + step * (n - 1)
        if not 0 <= last < shape[b]:
            return None
        taken.add(b)
        used[d] = (b, step)
    return starts, used


def load_view(x: Any, shape: tuple[int, ...], strides: tuple[int, ...], offset: int,
              space: tuple[int, ...]) -> Any:
    """The dask array of shape `space` that a Load of `x` (a dask array of `shape`) reads, or None."""
    import dask.array as da  # optional: the dask extra

    if (offset == 0 and int(np.prod(space)) == int(np.prod(shape))
            and _norm(strides, space) == _norm(c_strides(space), space)):
        return x if x.shape == space else reshape(x, space)
    found = decompose(shape, strides, offset, space)
    if found is None:
        return None
    starts, used = found
    by_buffer = {b: (d, step) for d, (b, step) in used.items()}
    index: list[Any] = []
    for b, start in enumerate(starts):
        if b not in by_buffer:
            index.append(start)
            continue
        d, step = by_buffer[b]
        stop = start + step * (space[d] - 1) + (1 if step > 0 else -1)
        index.append(slice(start, None if stop < 0 else stop, step))
    view = x[tuple(index)]
    order = [by_buffer[b][0] for b in sorted(by_buffer)]  # space dim of each remaining dim
    present = sorted(order)
    if order != present:
        view = view.transpose([order.index(d) for d in present])
    view = view[tuple(slice(None) if d in used else None for d in range(len(space)))]
    if view.shape != space:
        view = da.broadcast_to(view, space)
    return view


def reshape(x: Any, shape: tuple[int, ...]) -> Any:
    """dask.array's reshape; through 1-D when the dims do not split or merge evenly (Dask refuses
    those directly)."""
    try:
        return x.reshape(shape)
    except NotImplementedError:
        return x.reshape(-1).reshape(shape)


def store_target(outer: tuple[int, ...], shape: tuple[int, ...], strides: tuple[int, ...],
                 offset: int) -> tuple[str, Any] | None:
    """How a C-contiguous block over the outer dims becomes the stored buffer: ("reshape", shape)
    or ("transpose", axes then reshape), or None when the store does not cover the buffer
    exactly once."""
    if int(np.prod(outer)) != int(np.prod(shape)) or offset != 0:
        return None
    if _norm(strides, outer) == _norm(c_strides(outer), outer):
        return ("reshape", None)
    found = decompose(shape, strides, offset, outer)
    if found is None:
        return None
    _, used = found
    if any(step != 1 for _, step in used.values()):
        return None
    real = [d for d in range(len(outer)) if outer[d] > 1]
    if sorted(used) != real or len(real) != sum(1 for n in shape if n > 1):
        return None
    squeezed = tuple(outer[d] for d in real)
    order = sorted(real, key=lambda d: used[d][0])  # buffer order of the block's real dims
    return ("transpose", (squeezed, [real.index(d) for d in order]))
