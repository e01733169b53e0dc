"""NumPy's `ndarray.flags`, `.strides`, `.setflags` and `np.isfortran` for Arrays.

An Array has NumPy's memory layout since stops 52-53 (lazyarray/result_layout.py for a root, the
view's chain replayed for a view: writes.numpy_layout), so the facts NumPy code reads off an
array's memory can be answered as NumPy's: the strides, C/F contiguity, and WRITEABLE, which is
the one flag programs set (`Z.flags.writeable = False`, "make an array immutable"). The flags are
computed when read, from a stand-in ndarray with NumPy's strides (NumPy's own contiguity rules:
length-1 and empty dims), never from lazyarray's buffers, whose layout is the planner's.

WRITEABLE = False on a root makes it a read-only *view* of a new, hidden root handle that takes
over its existing views: as in NumPy, views taken before stay writable and their writes show in
it, views taken after are read-only (writes.view_of ands the flag down), and its own writes raise
NumPy's ValueError. Setting it back to True is allowed for an Array made read-only this way; a
view that is read-only by what it views (`broadcast_to`, `diagonal`, a view of a read-only array,
`asarray` of a read-only ndarray, which here is a copy) refuses with NumPy's text, since making it
writable would let writes go where NumPy's do not (NumPy allows it where the memory's owner is
writable: a view of a read-only array whose owner was made writable again).

OWNDATA is False for a view, for a view of a temporary (`np.arange(6).reshape(2, 3)`, which
writes.release_dead_root turned into a root) and for reshape's copies (`writes.released`), True
for other roots. A NumPy function whose result is a view of its own temporary (`np.tile`,
`np.polyfit`'s transposes) is a root here: OWNDATA True where NumPy's is False (the list in
docs/numpy_coverage.md)."""

from __future__ import annotations

from typing import Any
import numpy as np

from . import _bind, writes
from .graph.node import user_site
from .result_layout import c_strides

released = writes.released  # roots that were views of a temporary: NumPy's owns no data
# Arrays made read-only by their own flags (`x.flags.writeable = False`): they may be set back.
_made_read_only = writes.IdentitySet()
# Roots turned into read-only views of a hidden root by their flags: NumPy's owner of the memory.
_owners = writes.IdentitySet()
# Those hidden roots -> a weak reference to the Array the user holds (NumPy's `base` of its views).
_hidden_roots = writes.IdentityMap()

_KEYS = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
         "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
         "OWNDATA": "owndata", "O": "owndata", "WRITEABLE": "writeable", "W": "writeable",
         "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy",
         "X": "writebackifcopy", "FNC": "fnc", "FORC": "forc", "BEHAVED": "behaved",
         "B": "behaved", "CARRAY": "carray", "CA": "carray", "FARRAY": "farray", "FA": "farray"}
_NUMPY_FLAGS = type(np.empty(0).flags)
_SETTABLE_KEYS = {"WRITEABLE": "writeable", "W": "writeable", "ALIGNED": "aligned", "A": "aligned",
                  "WRITEBACKIFCOPY": "writebackifcopy", "X": "writebackifcopy"}


def _is_scalar(x: Any) -> bool:
    """NumPy's scalar (an element `A[i, j]`, `x.sum()`): its flags are an array scalar's."""
    return x._view is False and not x._node.shape


# Views NumPy makes by strides where lazyarray gathers (as_strided, sliding_window_view): the
# layout NumPy's view has, declared by the function that made them (by identity; dropped with them).
_declared: dict[int, tuple[Any, np.ndarray]] = {}


def declare_layout(x: Any, shape: tuple[int, ...], strides: tuple[int, ...]) -> Any:
    """Record NumPy's `shape` and `strides` for the gathered view `x`; returns x."""
    key = id(x)
    _declared[key] = (writes._weakref(x, lambda r: _declared.pop(key, None)),
                      np.lib.stride_tricks.as_strided(np.zeros(1, x.dtype), shape, strides))
    return x


def check_shape_assignment(x: Any, shape: Any) -> None:
    """NumPy's refusals of `x.shape = s`, tried on the stand-in with NumPy's strides: no view of
    x's memory has that shape (a transposed or strided array: `AttributeError: Incompatible shape
    for in-place modification...`), a size or a shape argument that does not fit (its ValueError
    and TypeError texts), NumPy's scalar (`x.sum()`: its shape is not writable)."""
    if _is_scalar(x):
        raise _bind.fail(AttributeError, "attribute 'shape' of 'numpy.generic' objects is not "
                         "writable", user_site(2))
    stand_in = layout(x).view()
    try:
        stand_in.shape = shape
    except (AttributeError, TypeError, ValueError) as exc:
        raise _bind.fail(type(exc), str(exc), user_site(2)) from None


def layout(x: Any) -> np.ndarray:
    """A stand-in ndarray with NumPy's shape, dtype and strides for x (no memory read)."""
    declared = _declared.get(id(x))
    if declared is not None and declared[0]() is x:
        return declared[1]
    if _is_scalar(x):
        return np.lib.stride_tricks.as_strided(np.empty(1, x.dtype), (), ())
    stand_in = writes.numpy_layout(x)
    if stand_in is None:  # NumPy's value is a C-contiguous copy
        stand_in = np.lib.stride_tricks.as_strided(np.empty(1, x.dtype), x.shape,
                                                   c_strides(x.shape, x.dtype))
    return stand_in


def strides(x: Any) -> tuple[int, ...]:
    """`ndarray.strides`: NumPy's, for the layout NumPy's array would have."""
    return tuple(layout(x).strides)


def writeable(x: Any) -> bool:
    link = x._view
    if type(link) is tuple:
        return bool(link[3])
    return link is not False or bool(x._node.shape)


def owndata(x: Any) -> bool:
    if x in _owners:  # (a view of the hidden root now, or released again once writable)
        return True
    return type(x._view) is not tuple and x not in released


def set_writeable(x: Any, flag: Any, site: Any) -> None:
    """`x.flags.writeable = flag` / `x.setflags(write=flag)`."""
    flag = bool(flag)
    if writeable(x) == flag:
        return
    link = x._view
    if flag:
        if type(link) is not tuple or x not in _made_read_only:
            raise _bind.fail(ValueError, "cannot set WRITEABLE flag to True of this array", site)
        x._view = link[:3] + (True,) + link[4:]
        _made_read_only.discard(x)
        return
    if type(link) is tuple:  # a view: read-only from now on, as the views taken of it
        x._view = link[:3] + (False,) + link[4:]
    else:  # a root: a read-only whole view of a hidden root that takes over its views
        root = _bind.Array(x._node)
        views = link if type(link) is list else []
        for ref in views:
            view = ref()
            if view is not None and type(view._view) is tuple and view._view[0] is x:
                view._view = (root,) + view._view[1:]
        root._view = views
        x._view = None
        writes.view_of(root, x, writable=False)
        _hidden_roots.add(root, writes._weakref(x))
        if x not in released:  # (a view of a temporary stays one that owns nothing)
            _owners.add(x)
    _made_read_only.add(x)


def base(x: Any) -> Any:
    """`ndarray.base`: None for an array that owns its memory, else the array NumPy's view keeps
    (the owner: NumPy collapses a view of a view to it), so `v.base is a` holds for `v = a[1:]`,
    `a.T`, `a.reshape(...)` views. A view of a temporary (`np.arange(6).reshape(2, 3)`, released
    into a root of its own here) has NumPy's temporary as its base: rebuilt on request from the
    temporary's node with x's current values written through the view, read-only (its writes
    would not reach x; NumPy's would). A reshape's copy: a view of x with the copy's shape, as
    NumPy's base is. Roots that NumPy makes as views of their own temporaries (`np.tile`, the
    list in docs/numpy_coverage.md) have None here."""
    link = x._view
    if type(link) is tuple:
        owner = link[0]
        ref = _hidden_roots.get(owner)
        user = ref() if ref is not None else None
        owner = owner if user is None else user
        if owner is not x:
            return base(owner) if owner in released else owner
    elif x in _owners:
        return None
    record = released.get(x)
    if record is None:
        return None
    if not record or type(record[0]) is not writes.Node:  # a reshape's copy: NumPy's is a view of it
        return x.reshape(record)
    view_node, root_node = record
    with writes.cuts_paused():
        value = writes._write_back(view_node, root_node, root_node, x._node)
    rebuilt = _bind.Array(value)
    writes.view_of(_bind.Array(value), rebuilt, writable=False)
    return rebuilt


class Flags:
    """NumPy's `flagsobj` for an Array: attributes, `flags['C_CONTIGUOUS']`, its repr, and the
    settable flags (WRITEABLE, ALIGNED, WRITEBACKIFCOPY) as NumPy allows them."""

    __slots__ = ("_array",)

    def __init__(self, array: Any) -> None:
        object.__setattr__(self, "_array", array)

    def _contiguity(self) -> tuple[bool, bool]:
        flags = layout(self._array).flags
        return bool(flags.c_contiguous), bool(flags.f_contiguous)

    c_contiguous = contiguous = property(lambda self: self._contiguity()[0])
    f_contiguous = fortran = property(lambda self: self._contiguity()[1])
    owndata = property(lambda self: owndata(self._array))
    writeable = property(lambda self: writeable(self._array))
    aligned = property(lambda self: True)
    writebackifcopy = property(lambda self: False)
    fnc = property(lambda self: self._contiguity() == (False, True))
    forc = property(lambda self: any(self._contiguity()))
    behaved = property(lambda self: self.writeable)
    carray = property(lambda self: self.writeable and self._contiguity()[0])
    # (NumPy's FARRAY: any of ALIGNED, WRITEABLE, F_CONTIGUOUS, and not C-contiguous: aligned
    # always, so any layout but C's, a strided view's too)
    farray = property(lambda self: not self._contiguity()[0])

    @property
    def num(self) -> int:  # NumPy's bit mask: C 1, F 2, OWNDATA 4, ALIGNED 0x100, WRITEABLE 0x400
        c, f = self._contiguity()
        return c | f << 1 | self.owndata << 2 | 0x100 | self.writeable << 10

    def __getitem__(self, key: Any) -> bool:
        name = _KEYS.get(key) if type(key) is str else None
        if name is None:
            raise KeyError("Unknown flag")
        return getattr(self, name)

    def __setitem__(self, key: Any, value: Any) -> None:
        name = _SETTABLE_KEYS.get(key) if type(key) is str else None
        if name is None:
            raise KeyError("Unknown flag")
        self._set(name, value, user_site(1))

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in ("writeable", "aligned", "writebackifcopy"):
            if name in _KEYS.values() or name in ("contiguous", "fortran", "num"):
                raise AttributeError(f"attribute {name!r} of 'numpy._core.multiarray.flagsobj' "
                                     "objects is not writable")
            raise AttributeError(f"'numpy._core.multiarray.flagsobj' object has no attribute "
                                 f"{name!r}")
        self._set(name, value, user_site(1))

    def _set(self, name: str, value: Any, site: Any) -> None:
        x = self._array
        if _is_scalar(x):
            raise _bind.fail(ValueError, "Cannot set flags on array scalars.", site)
        if name == "writeable":
            set_writeable(x, value, site)
        elif name == "writebackifcopy":
            if value:
                raise _bind.fail(ValueError, "cannot set WRITEBACKIFCOPY flag to True", site)
        elif not value:  # an Array's memory is always aligned: NumPy's unaligned views are not
            raise _bind.fail(NotImplementedError, "lazyarray: an Array cannot be marked "
                             "unaligned (flags.aligned = False): its memory is always aligned",
                             site)

    def __eq__(self, other: object) -> bool:
        names = ("c_contiguous", "f_contiguous", "owndata", "writeable", "aligned",
                 "writebackifcopy")
        if not isinstance(other, (Flags, _NUMPY_FLAGS)):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in names)

    __hash__ = None  # type: ignore[assignment]  (NumPy's flagsobj is unhashable too)

    def __repr__(self) -> str:
        rows = (("C_CONTIGUOUS", self.c_contiguous), ("F_CONTIGUOUS", self.f_contiguous),
                ("OWNDATA", self.owndata), ("WRITEABLE", self.writeable),
                ("ALIGNED", True), ("WRITEBACKIFCOPY", False))
        return "".join(f"  {name} : {value}\n" for name, value in rows)


def setflags(x: Any, write: Any = None, align: Any = None, uic: Any = None) -> None:
    """`ndarray.setflags`: WRITEABLE as `x.flags.writeable = write`; `align=False` is refused
    (an Array's memory is aligned); `uic=True` is NumPy's ValueError."""
    site = user_site(1)
    if _is_scalar(x):
        return  # (NumPy's array scalars accept setflags and change nothing)
    if uic:
        raise _bind.fail(ValueError, "cannot set WRITEBACKIFCOPY flag to True", site)
    if align is not None and not align:
        Flags(x)._set("aligned", False, site)
    if write is not None:
        set_writeable(x, write, site)


def isfortran(a: Any) -> bool:
    """numpy.isfortran: F-contiguous and not C-contiguous (NumPy's `a.flags.fnc`)."""
    if type(a) is not _bind.Array:
        return bool(np.isfortran(np.asarray(a)))
    return Flags(a).fnc


def root_memory(root: Any) -> tuple[np.ndarray, np.ndarray]:
    """A zeroed byte buffer of the size of NumPy's memory for the root Array `root`, and an
    ndarray over it with the root's shape, dtype and NumPy strides: the model that views'
    layouts are replayed on (writes.numpy_layout_over) to find which bytes they span."""
    model = layout(root)
    memory = np.zeros(max(root.size, 1) * root.dtype.itemsize, np.uint8)
    first = sum(-(n - 1) * s for n, s in zip(model.shape, model.strides) if s < 0 and n)
    return memory, np.ndarray(root.shape, root.dtype, memory, first, model.strides)


def _memory_models(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """NumPy's `a` and `b` as views of one stand-in buffer (their root's memory), or None where
    they are no memory of one array (different roots: a copy never shares; an Array never shares
    a host array's memory, which `asarray` copies)."""
    roots = []
    for x in (a, b):
        if type(x) is not _bind.Array or x._view is False:  # (NumPy's scalar: its own memory)
            return None
        link = x._view
        roots.append(link[0] if type(link) is tuple else x)
    if roots[0] is not roots[1]:
        return None
    root_model = root_memory(roots[0])[1]
    models = []
    for x in (a, b):
        over = writes.numpy_layout_over(x, root_model)
        models.append(root_model if over is None else over)  # (unknown layout: all the memory)
    return models[0], models[1]


def may_share_memory(a: Any, b: Any, /, max_work: Any = None) -> bool:
    """numpy.may_share_memory: whether the memory NumPy's `a` and `b` would span overlaps (views
    of one root, by their layouts: `x[:5]` and `x[5:]` do not; `x[::2]` and `x[1::2]` may)."""
    if type(a) is not _bind.Array and type(b) is not _bind.Array:
        return bool(np.may_share_memory(a, b, max_work=max_work))
    models = _memory_models(a, b)
    return models is not None and bool(np.may_share_memory(*models, max_work=max_work))


def shares_memory(a: Any, b: Any, /, max_work: Any = -1) -> bool:
    """numpy.shares_memory: whether NumPy's `a` and `b` would have an element of memory in common
    (solved exactly on their layouts, as NumPy's)."""
    if type(a) is not _bind.Array and type(b) is not _bind.Array:
        return bool(np.shares_memory(a, b, max_work=max_work))
    models = _memory_models(a, b)
    return models is not None and bool(np.shares_memory(*models, max_work=max_work))
