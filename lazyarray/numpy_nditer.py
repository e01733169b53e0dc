"""numpy.nditer over Arrays: NumPy's order of elements, its multi-index and flat indices, and
0-d views of each element that NumPy code reads and writes (`x[...] = 2 * x` with
op_flags=['readwrite']; CS231n's gradient check walks `it.multi_index`).

The order is NumPy's own: its nditer runs over stand-ins with the layouts NumPy's operands would
have (lazyarray/numpy_flags.py: memory order 'K', broadcasting, 'C'/'F'), and yields the
multi-indices; each step's values are then 0-d views of the Arrays at those indices (read-only
unless the operand's flags say readwrite/writeonly), so a write through one is a write into its
Array, as NumPy's. An 'allocate' operand (None) is a new Array of the broadcast shape in the order
NumPy allocates it. Not supported (a clear NotImplementedError): 'external_loop' (1-D chunks),
'buffered' casting to other op_dtypes, op_axes, itershape, and reductions ('reduce_ok').
"""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from . import numpy_flags
from .array import Array
from .creation import asarray, empty

_FLAGS_KEPT = {"multi_index", "c_index", "f_index", "refs_ok", "zerosize_ok", "buffered",
               "grow_inner", "delay_bufalloc", "copy_if_overlap"}
_FLAGS_REFUSED = {"external_loop", "ranged", "reduce_ok", "common_dtype"}
_WRITES = {"readwrite", "writeonly"}


class nditer:  # noqa: N801  (NumPy's name)
    """numpy.nditer over Arrays (the module's text says what is kept and what is refused)."""

    def __init__(self, op: Any, flags: Any = None, op_flags: Any = None, op_dtypes: Any = None,
                 order: str = "K", casting: str = "safe", op_axes: Any = None,
                 itershape: Any = None, buffersize: int = 0) -> None:
        single = not isinstance(op, (list, tuple))
        ops = [op] if single else list(op)
        flags = list(flags or ())
        for f in flags:
            if f in _FLAGS_REFUSED:
                raise NotImplementedError(f"lazyarray.nditer: flag {f!r} is not supported (each "
                                          "step is one element here); iterate the elements")
            if f not in _FLAGS_KEPT:
                raise ValueError(f"Unexpected iterator global flag \"{f}\"")
        if op_dtypes is not None or op_axes is not None or itershape is not None:
            raise NotImplementedError("lazyarray.nditer: op_dtypes, op_axes and itershape are "
                                      "not supported; cast or reshape the operands first")
        per_op = _per_op_flags(op_flags, ops)
        arrays: list[Any] = [None if o is None else (o if type(o) is Array else asarray(o))
                             for o in ops]
        stand_ins = [None if a is None else numpy_flags.layout(a) for a in arrays]
        index_flags = [f for f in flags if f in ("c_index", "f_index")]
        # NumPy's own iterator over the stand-ins: its order and, for 'allocate', its output
        probe_flags = [["readonly"] if s is not None else ["writeonly", "allocate"]
                       for s in stand_ins]
        probe = np.nditer(stand_ins, flags=["multi_index", "refs_ok", "zerosize_ok"] + index_flags,
                          op_flags=probe_flags, order=order, casting=casting)
        # (its shape as the user's iterator has it: without a multi-index NumPy coalesces axes)
        shape = np.nditer(stand_ins, flags=sorted({"refs_ok", "zerosize_ok", *flags}),
                          op_flags=probe_flags, order=order, casting=casting).shape
        self._steps: list[tuple[tuple[int, ...], int | None]] = []
        with probe:
            allocated = [probe.operands[k] for k in range(len(ops))]
            while not probe.finished:
                self._steps.append((probe.multi_index, probe.index if index_flags else None))
                probe.iternext()
        for k, a in enumerate(arrays):
            if a is None:  # NumPy's allocation: its shape, its dtype, its memory order
                made = allocated[k]
                axes = tuple(np.argsort([-abs(s) for s in made.strides], kind="stable"))
                out = empty(tuple(made.shape[d] for d in axes), made.dtype)
                arrays[k] = out.transpose(tuple(axes.index(d) for d in range(len(axes))))
        self._arrays, self._writes, self._shape = arrays, per_op, tuple(shape)
        self._single, self._flags = single, set(flags)
        self._position, self._started = 0, False

    # --- NumPy's iterator protocol ---------------------------------------------------------------
    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        """The next element's values; the iterator then stands at it (`it.multi_index`)."""
        if self._started and self._position < len(self._steps):
            self._position += 1
        self._started = True
        if self._position >= len(self._steps):
            raise StopIteration
        return self.value

    def iternext(self) -> bool:
        if self._position < len(self._steps):
            self._position += 1
        self._started = True
        return self._position < len(self._steps)

    def reset(self) -> None:
        self._position, self._started = 0, False

    def __enter__(self) -> "nditer":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def close(self) -> None:
        return None

    @property
    def finished(self) -> bool:
        return self._position >= len(self._steps)

    @property
    def value(self) -> Any:
        values = tuple(self[k] for k in range(len(self._arrays)))
        return values[0] if self._single else values

    def __getitem__(self, k: int) -> Array:
        self._check_live()
        index = self._steps[self._position][0]
        a = self._arrays[k]
        own = tuple(index[len(index) - a.ndim:])  # (broadcast dims: the operand's own index)
        own = tuple(0 if n == 1 else i for i, n in zip(own, a.shape))
        element = a[own + (Ellipsis,)]
        if not self._writes[k]:
            numpy_flags.set_writeable(element, False, None)
        return element

    def __len__(self) -> int:
        return len(self._arrays)

    @property
    def multi_index(self) -> tuple[int, ...]:
        self._check_live()
        if "multi_index" not in self._flags:
            raise ValueError("Iterator is not tracking a multi-index")
        return self._steps[self._position][0]

    @property
    def index(self) -> int:
        self._check_live()
        if not self._flags & {"c_index", "f_index"}:
            raise ValueError("Iterator does not have an index")
        return self._steps[self._position][1]  # type: ignore[return-value]

    @property
    def iterindex(self) -> int:
        return self._position

    @property
    def itersize(self) -> int:
        return len(self._steps)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def nop(self) -> int:
        return len(self._arrays)

    @property
    def operands(self) -> tuple[Any, ...]:
        return tuple(self._arrays)

    @property
    def itviews(self) -> tuple[Any, ...]:
        raise NotImplementedError("lazyarray.nditer: itviews (NumPy's memory views) are not "
                                  "supported")

    def _check_live(self) -> None:
        if self._position >= len(self._steps):
            raise ValueError("Iterator is past the end")


def _per_op_flags(op_flags: Any, ops: list) -> list[bool]:
    """Whether each operand is written (NumPy's per-op flags: one list for all, or one each;
    by default an allocated operand, None, is written and the others read)."""
    n = len(ops)
    if op_flags is None:
        return [o is None for o in ops]
    groups = [list(op_flags)] * n if not op_flags or isinstance(op_flags[0], str) \
        else [list(g) for g in op_flags]
    if len(groups) != n:
        raise ValueError("op_flags must be a tuple/list matching the number of ops")
    return [bool(set(g) & _WRITES) for g in groups]


class broadcast:  # noqa: N801  (NumPy's name)
    """numpy.broadcast over Arrays: the broadcast shape, and the elements of each argument at
    each position in C order (NumPy's scalars), as NumPy's iterator yields them."""

    def __init__(self, *args: Any) -> None:
        self._arrays = [a if type(a) is Array else asarray(a) for a in args]
        self.shape: tuple[int, ...] = np.broadcast_shapes(*(a.shape for a in self._arrays))
        self.index = 0

    nd = ndim = property(lambda self: len(self.shape))
    numiter = property(lambda self: len(self._arrays))
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)))

    @property
    def iters(self) -> tuple[Any, ...]:
        return tuple(np.broadcast_to(np.asarray(a), self.shape).flat for a in self._arrays)

    def __iter__(self) -> "broadcast":
        return self

    def __next__(self) -> tuple[Any, ...]:
        if self.index >= self.size:
            raise StopIteration
        position = np.unravel_index(self.index, self.shape) if self.shape else ()
        self.index += 1
        out = []
        for a in self._arrays:
            own = tuple(int(i) for i in position[len(position) - a.ndim:])
            out.append(a[tuple(0 if n == 1 else i for i, n in zip(own, a.shape))])
        return tuple(out)

    def reset(self) -> None:
        self.index = 0
