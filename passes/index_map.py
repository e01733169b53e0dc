"""Index maps: how a kernel's loop index reaches an element of a node, as affine arithmetic.

A kernel iterates `space` (a tuple of sizes). An `IndexMap` for a node of shape S says, for each dim
d of S, `index[d] = offs[d] + sum(rows[d][k] * loop[k])`. Views transform maps on the way from a
consumer down to its producer, so they never copy:

    broadcast_to  rows of broadcast dims become 0 (stride 0)
    permute       rows are permuted
    slice         index = start + step * index (negative steps flip); a start given as a
                  scalar argument goes to the map's `dyn` part: (scalar index, coefficient)
                  pairs per node dim, so the map names the argument, never its value
    reshape       exact when the flat index splits into the source's digits without carries;
                  otherwise `None`, and the planner materializes the source

A buffer is C-contiguous, so reading a node's buffer through a map is one `Load` whose strides are
`flat_address(map, shape)`. Columns of size-1 loop dims are kept at 0, so equal maps compare equal.
"""

from __future__ import annotations

from typing import NamedTuple


class IndexMap(NamedTuple):
    rows: tuple[tuple[int, ...], ...]
    offs: tuple[int, ...]
    # per node dim, ((scalar index, coefficient), ...) added to offs at run time; () when no dim
    # has any (the usual map, so equal static maps stay equal)
    dyn: tuple[tuple[tuple[int, int], ...], ...] = ()


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    out, n = [], 1
    for s in reversed(shape):
        out.append(n)
        n *= s
    return tuple(reversed(out))


def unit(k: int | None, space: tuple[int, ...]) -> tuple[int, ...]:
    """Row selecting loop dim k (all zeros for None or a size-1 dim)."""
    return tuple(1 if j == k and space[j] != 1 else 0 for j in range(len(space)))


def placed(positions: tuple[int | None, ...], space: tuple[int, ...]) -> IndexMap:
    """Node dim d is loop dim positions[d] (None: a size-1 dim, always index 0)."""
    return IndexMap(tuple(unit(p, space) for p in positions), (0,) * len(positions))


def _dyn(parts: list | tuple) -> tuple:
    """The `dyn` field for per-dim parts: () when every dim has none."""
    return tuple(parts) if any(parts) else ()


def through_broadcast(m: IndexMap, src: tuple[int, ...], dst: tuple[int, ...]) -> IndexMap:
    lead = len(dst) - len(src)
    zero = (0,) * (len(m.rows[0]) if m.rows else 0)
    rows = tuple(m.rows[lead + d] if s == dst[lead + d] else zero for d, s in enumerate(src))
    offs = tuple(m.offs[lead + d] if s == dst[lead + d] else 0 for d, s in enumerate(src))
    dyn = _dyn([m.dyn[lead + d] if s == dst[lead + d] else () for d, s in enumerate(src)]
               ) if m.dyn else ()
    return IndexMap(rows, offs, dyn)


def through_permute(m: IndexMap, axes: tuple[int, ...]) -> IndexMap:
    rows: list = [None] * len(axes)
    offs: list = [0] * len(axes)
    dyn: list = [()] * len(axes)
    for i, a in enumerate(axes):
        rows[a], offs[a] = m.rows[i], m.offs[i]
        if m.dyn:
            dyn[a] = m.dyn[i]
    return IndexMap(tuple(rows), tuple(offs), _dyn(dyn))


def through_slice(m: IndexMap, spec: tuple, starts: tuple[int | None, ...] = ()) -> IndexMap:
    """`starts[d]`: the scalar index of dim d's run-time start, where spec's start is None."""
    rows = tuple(tuple(step * c for c in row) for row, (_, step, _) in zip(m.rows, spec))
    offs = tuple((start or 0) + step * o for o, (start, step, _) in zip(m.offs, spec))
    if not m.dyn and not starts:
        return IndexMap(rows, offs)
    dyn = []
    for d, (start, step, _) in enumerate(spec):
        part = tuple((k, step * c) for k, c in m.dyn[d]) if m.dyn else ()
        if start is None:
            part += ((starts[d], 1),)
        dyn.append(part)
    return IndexMap(rows, offs, _dyn(dyn))


def flat_address(m: IndexMap, shape: tuple[int, ...], n_space: int) -> tuple[tuple[int, ...], int]:
    """(element strides per loop dim, element offset) into a C-contiguous buffer of `shape`."""
    rs = contiguous_strides(shape)
    strides = tuple(sum(r * row[k] for r, row in zip(rs, m.rows)) for k in range(n_space))
    return strides, sum(r * o for r, o in zip(rs, m.offs))


def flat_dynamic(m: IndexMap, shape: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The run-time part of the element offset: (scalar index, element coefficient) pairs, one
    per scalar, in order of first appearance (a Load's `dynamic`)."""
    if not m.dyn:
        return ()
    total: dict[int, int] = {}
    for r, part in zip(contiguous_strides(shape), m.dyn):
        for k, c in part:
            total[k] = total.get(k, 0) + r * c
    return tuple((k, c) for k, c in total.items() if c)


def _digit(a: int, shape: tuple[int, ...], rs: tuple[int, ...]) -> int | None:
    for d, (s, r) in enumerate(zip(shape, rs)):
        if s > 1 and r <= a < r * s:
            return d
    return None


def through_reshape(m: IndexMap, dst: tuple[int, ...], src: tuple[int, ...],
                    space: tuple[int, ...]) -> IndexMap | None:
    """The map into `src` for a reshape src -> dst, or None when it is not affine (or has a
    run-time offset: which digit a start lands in depends on its value)."""
    if m.dyn:
        return None
    n = len(space)
    if 0 in space or 0 in src:
        return IndexMap(tuple((0,) * n for _ in src), (0,) * len(src))
    coeffs, offset = flat_address(m, dst, n)
    rs = contiguous_strides(src)
    rows = [[0] * n for _ in src]
    offs = [(offset // r) % s for s, r in zip(src, rs)]
    lo, hi = list(offs), list(offs)
    for k, c in enumerate(coeffs):
        if c == 0 or space[k] == 1:
            continue
        d = _digit(abs(c), src, rs)
        if d is None or c % rs[d]:
            return None
        q = c // rs[d]
        rows[d][k] = q
        span = q * (space[k] - 1)
        if span > 0:
            hi[d] += span
        else:
            lo[d] += span
    if any(lo[d] < 0 or hi[d] >= src[d] for d in range(len(src))):
        return None
    return IndexMap(tuple(map(tuple, rows)), tuple(offs))
