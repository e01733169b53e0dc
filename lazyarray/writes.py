"""Writes as NumPy code makes them: `x[i] = v`, `x += y`, and writes through views.

Values stay immutable; what NumPy code writes is a *handle* (an Array object). A write rebinds the
handle to the updated value (`x[i] = v` names `x.at[i].set(v)`), so a function that writes into its
argument changes the caller's object, as NumPy's would. NumPy also has aliases: a view (`row = A[1]`,
`A.T`, `A[:, 0]`, `x.reshape(...)` where NumPy does not copy) shares its base's memory. Here a view
is an Array with a *link* to its root handle:

    view._view == (root, view_node, root_node, writable)

`view_node` is the view's value as a chain of view ops over `root_node` (the root's value when the
link was made). Writing the view writes its new value back down the chain, op by op
(`OpDef.write_back`: a slice becomes a scatter, a permute its inverse, a reshape the reverse
reshape), and rebinds the root; then every live view of the root is re-derived from the root's new
value (the root's `_view` holds weak references to them), so `row` sees `A[1, 2] = 5` too. A root
handle's `_view` is None or that list; a view's is its link tuple; an element (`A[i, j]`, NumPy's
scalar, a copy) has False: its own views are copies too. Views of views link to the same
root. Read-only views (`diagonal`, `broadcast_to`, as NumPy's) follow their root but refuse writes.

A *dynamic* view (`row = A[k]`, k a pending integer scalar: NumPy's basic index) has a fifth item,
its key (lazyarray/indexing.py `DynamicIndex`): its node is a gather with k as an input, no chain
of view ops, so a write through it is a scatter into the root by that key, a root's write gathers
it again, a view of it composes over it (`_ViewOfDynamic`), and what needs a static chain
(`a.shape = s`) resolves it first: k evaluated, the basic view's chain (`resolve_view`). Code that
reads a link's chain checks for four items (the C paths in lazyarray/_trace.c leave five to
Python).
"""

from __future__ import annotations

import operator
from sys import getrefcount as _getrefcount
from typing import Any, Callable
from weakref import ref as _weakref

import numpy as np

from . import _bind, eager, fp_state
from ._numpy_errors import numpy_shape_error
from ._reshape import reshape_node
from .cuts import _LIMIT as _LIVE_LIMIT, _LIVE, _prune
from .eager import LIMIT as _EAGER_LIMIT
from .graph import derivatives, get_op
from .graph.registry import OpKind
from .graph.node import Node, cuts_paused, user_site
from .passes.rewrite import with_inputs
from .result_layout import c_strides, root_is_c_contiguous, root_layout, written_into

# `A[:, j] -= x`'s write through the view in C (lazyarray/_trace.c write_view_value), else Python's
_C_WRITE_VIEW = getattr(_bind.FAST, "write_view_value", None)

_RESHAPE, _PERMUTE, _SLICE = get_op("reshape"), get_op("permute"), get_op("slice")
_PRUNE_AT = 32  # a root's view list is pruned of dead views at this length and each power of 2


def release_dead_root(x: Any) -> None:
    """A static view whose root nothing else holds becomes a root of its own: `a =
    np.arange(n).reshape(r, c)` links `a` to the arange, a temporary, and no write can reach that
    root or come from it any more. A root's reads and writes take the compiled paths: `a[5]`
    9.7 -> 0.2 us, a loop `for row in a` ~13 -> 0.7 us a row. (References to the root: the
    link's and getrefcount's argument; another view of it holds a third.)"""
    link = x._view
    if type(link) is tuple and len(link) == 4 and link[3] and _getrefcount(link[0]) == 2:
        x._view = None  # (a read-only view, `np.diagonal(...)`, stays one: its writes raise)
        released.add(x, (link[1], link[2]))  # (NumPy's `x.base`: the temporary, rebuilt on request)


class IdentitySet:
    """A set of live Arrays by identity (an Array is unhashable: `==` is elementwise), each
    dropped when it dies."""

    __slots__ = ("_refs",)

    def __init__(self) -> None:
        self._refs: dict[int, Any] = {}

    def add(self, x: Any) -> None:
        key, refs = id(x), self._refs
        refs[key] = _weakref(x, lambda r: refs.pop(key, None) if refs.get(key) is r else None)

    def discard(self, x: Any) -> None:
        if x in self:
            del self._refs[id(x)]

    def __contains__(self, x: Any) -> bool:
        r = self._refs.get(id(x))
        return r is not None and r() is x


class IdentityMap(IdentitySet):
    """An IdentitySet whose members carry a value, dropped with them."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        super().__init__()
        self._values: dict[int, Any] = {}

    def add(self, x: Any, value: Any = None) -> None:
        key, refs, values = id(x), self._refs, self._values

        def drop(r: Any) -> None:
            if refs.get(key) is r:
                del refs[key]
                values.pop(key, None)
        refs[key] = _weakref(x, drop)
        values[key] = value

    def discard(self, x: Any) -> None:
        if x in self:
            del self._refs[id(x)]
            self._values.pop(id(x), None)

    def get(self, x: Any) -> Any:
        """x's value, or None when x is no member."""
        return self._values.get(id(x)) if x in self else None


# Roots that were views of a dead root (release_dead_root: the view's node and the dead root's,
# from which NumPy's `x.base` is rebuilt) or reshape's copies (the shape NumPy's copy has): NumPy's
# array owns no memory (`flags.owndata`, lazyarray/numpy_flags.py). _trace.c's iteration releases
# without this mark.
released = IdentityMap()


def prune_due(n: int) -> bool:
    """Whether a view list of length n is pruned now: at _PRUNE_AT and each power of two past it,
    so that many live views (a list of 40 rows held) cost no prune per new view (amortized)."""
    return n >= _PRUNE_AT and n & (n - 1) == 0


def view_of(parent: Any, child: Any, derive: Callable[[Node], Node] | None = None,
            writable: bool = True, dynamic: Any = None,
            built: tuple[Node, Node] | None = None) -> Any:
    """Make `child` (computed from `parent` by a view function) a view of `parent`'s root.

    `derive(node)` builds the child's node from another node of the parent's value: needed when
    the parent is a view whose own node was evaluated (a leaf), so the link's chain still reaches
    the root's node. `dynamic` (indexing.DynamicIndex): the child is `parent[key]` with pending
    scalar indices, linked as a dynamic view; `built`: (the parent's node it was built over, the
    gather built)."""
    if type(parent) is not _bind.Array:
        return child
    link = parent._view
    if link is False:  # an element, NumPy's scalar: a 0-d result of it is a scalar too, others
        child._view = False if not child.shape else None  # a new array
        return child
    if type(link) is tuple and len(link) == 5 and dynamic is None and parent._node is link[1] \
            and _rests_on(child._node, link[1]):  # `A[k][1:3]`, `A[k].T`: dynamic too
        child._view = (link[0], child._node, link[2], writable and link[3],
                       _ViewOfDynamic(link[4], child._node, link[1]))
        _register(link[0], child)
        return child
    if type(link) is tuple and len(link) == 5:  # else the parent's static chain first
        old = parent._node
        resolve_view(parent)
        link = parent._view
        if parent._node is not old and _rests_on(child._node, old):
            with cuts_paused():
                child._node = _substitute(child._node, old, parent._node)
    if type(link) is tuple:
        root, base_node, root_node, parent_writable = link
        writable = writable and parent_writable
    else:
        root = parent
        root_node = base_node = parent._node
    if dynamic is not None:
        if built is not None and built[0] is base_node:
            view_node = built[1]
        else:  # an evaluated view's leaf, or a cut since the build: over the chain instead
            with cuts_paused():
                view_node = dynamic.gather(base_node)
        child._view = (root, view_node, root_node, writable, dynamic.at(base_node))
        _register(root, child)
        return child
    # The child was built over the parent's node; a cut inside that build (the node budget) may
    # have replaced the parent's node by its buffer since: then build the chain again.
    if _rests_on(child._node, base_node):
        view_node = child._node
    else:
        with cuts_paused():
            view_node = _derive(derive, base_node)
    if view_node is None:  # no way to follow the root: a copy (never a silent alias)
        return child
    child._view = (root, view_node, root_node, writable)
    _register(root, child)
    return child


class _ViewOfDynamic:
    """The dynamic part of a view of a dynamic view (`A[k][1:3]`, `A[k].T`): its chain of view
    ops over the parent's gather (`over`), rebuilt over the parent's gather, scatter or
    resolved chain (the parent's DynamicIndex: `indexing.DynamicIndex`'s four ways)."""

    __slots__ = ("parent", "chain", "over")

    def __init__(self, parent: Any, chain: Node, over: Node) -> None:
        self.parent, self.chain, self.over = parent, chain, over

    @property
    def base(self) -> Node:
        return self.parent.base

    def at(self, base: Node) -> "_ViewOfDynamic":
        return _ViewOfDynamic(self.parent.at(base), self.chain, self.over)

    def gather(self, base: Node) -> Node:
        return _substitute(self.chain, self.over, self.parent.gather(base))

    def scatter(self, base: Node, value: Node) -> Node:
        parent = self.parent.gather(base)
        chain = _substitute(self.chain, self.over, parent)
        return self.parent.scatter(base, _write_back(chain, parent, parent, value))

    def resolve(self, base: Node) -> Node:
        return _substitute(self.chain, self.over, self.parent.resolve(base))

    def probe(self, base: Node) -> Node | None:
        parent = self.parent.probe(base)
        return None if parent is None else _substitute(self.chain, self.over, parent)


def is_dynamic(a: Any) -> bool:
    """Whether `a` is a dynamic view: `A[k]` with k a pending scalar index, whose link (five
    items) holds a gather, not a chain of view ops (lazyarray/indexing.py DynamicIndex)."""
    link = a._view
    return type(link) is tuple and len(link) == 5


def resolve_view(a: Any) -> None:
    """A dynamic view re-linked as the static view its indices name (they are evaluated now):
    for whatever needs its chain (a view of it, NumPy's layout for a reshape, `a.shape = s`).
    The handle keeps an evaluated node of its own (the same value)."""
    root, view_node, root_node, writable, dynamic = a._view
    with cuts_paused():  # (a cut inside the build would splice leaves into the chain)
        node = dynamic.resolve(dynamic.base)
    a._view = (root, node, root_node, writable)
    if a._node is view_node:
        a._node = node


def _rests_on(node: Node, base: Node) -> bool:
    """Whether `node` is a chain of view ops over `base`."""
    while node is not base:
        if node.op.write_back is None or not node.inputs:
            return False
        node = node.inputs[0]
    return True


def _derive(derive: Callable[[Node], Node] | None, node: Node) -> Node | None:
    return None if derive is None else derive(node)


def _register(root: Any, view: Any) -> None:
    views = root._view
    if views is None:
        views = root._view = []
    views.append(_weakref(view))
    if prune_due(len(views)):
        prune_views(views)


def prune_views(views: list) -> None:
    """Drop the dead views of a root's list (a loop taking `A[i, :j]` makes one per step)."""
    views[:] = [r for r in views if r() is not None]


def reshapes_in_place(a: Any, shape: tuple[int, ...]) -> bool:
    """Whether NumPy's `a.reshape(shape)` is a view of a's memory (else a copy). A root is
    C-contiguous; a view's strides are NumPy's for its chain, replayed on a stand-in of the root
    that no operation here reads (basic slicing, transpose, reshape with copy=False)."""
    link = a._view
    if type(link) is not tuple and root_is_c_contiguous(a._node):
        return True
    if 0 in shape or [n for n in shape if n != 1] == [n for n in a._node.shape if n != 1]:
        return True  # (NumPy's reshape of an empty array, or one adding or dropping 1s: a view
        # whatever the strides; a chain not replayed here, `sliding_window_view`, was a copy,
        # writable where NumPy's read-only view raises: fuzz seed 1100096)
    if type(link) is not tuple:
        layout = root_layout(a._node)
    else:
        layout = _numpy_layout(link[1], link[2]) if len(link) == 4 else _dynamic_layout(a)
    if layout is None:
        return False
    try:
        np.reshape(layout, shape, copy=False)
    except (ValueError, TypeError):
        return False
    return True


def ravels_in_place(a: Any, order: str = "C") -> bool:
    """Whether NumPy's `a.ravel()` is a view: only of C-contiguous memory (where `reshape(-1)`
    also takes uniformly strided memory); `ravel(order='F')`: of Fortran-contiguous memory
    (fuzz53: a reversed 1-D root's was a view here, NumPy's a copy)."""
    link = a._view
    if type(link) is not tuple:
        if order == "C":
            return root_is_c_contiguous(a._node)
        return root_layout(a._node).flags.f_contiguous
    layout = _numpy_layout(link[1], link[2]) if len(link) == 4 else _dynamic_layout(a)
    return layout is not None and (layout.flags.c_contiguous if order == "C"
                                   else layout.flags.f_contiguous)


def numpy_layout_copies(a: Any, order: str) -> bool:
    """Whether NumPy's `asarray(a, order=order)` copies `a` ('C', 'F'; 'A' and 'K' never):
    a root is C-contiguous, a view's layout its chain's; a read-only view that is no chain of
    views (`diagonal`, `broadcast_to`) copies. `np.ascontiguousarray(A[:, j])` is a copy, which
    a later write to A does not reach (fuzz47: it was the view, and followed the write)."""
    if order in ("K", "A"):  # (NumPy 2's asarray(order='A') takes any layout, as 'K': a
        return False  # strided view stays itself, fuzz53 seed 1586; it copied here)
    if type(a._view) is not tuple and root_is_c_contiguous(a._node):  # (a root: C-contiguous,
        # F-contiguous too where one dim > 1, unless its NumPy layout is another: `root_layout`)
        return order == "F" and sum(n > 1 for n in a.shape) > 1 and 0 not in a.shape
    layout = numpy_layout(a)
    if layout is None:
        return True
    flags = layout.flags
    return not (flags.c_contiguous if order == "C" else flags.f_contiguous if order == "F"
                else flags.c_contiguous or flags.f_contiguous)


def numpy_layout(a: Any) -> np.ndarray | None:
    """A stand-in with NumPy's shape and strides for Array `a` (a root's `root_layout`, a view's
    chain replayed), None where NumPy's would be no view (a copy: C-contiguous)."""
    link = a._view
    if type(link) is not tuple:
        return root_layout(a._node)
    return _numpy_layout(link[1], link[2]) if len(link) == 4 else _dynamic_layout(a)


def _dynamic_layout(a: Any) -> np.ndarray | None:
    """NumPy's layout of a dynamic view: its indices' values move its start, never its strides,
    so the static view with index 0 for each has them (an index into an empty dim, out of range
    for any value: resolved, NumPy's IndexError)."""
    link = a._view
    with cuts_paused():
        probe = link[4].probe(link[4].base)
    if probe is None:
        resolve_view(a)
        link = a._view
        probe = link[1]
    return _numpy_layout(probe, link[2])


def _numpy_layout(view_node: Node, root_node: Node) -> np.ndarray | None:
    """A stand-in ndarray with the shape and strides NumPy would give this view (no memory behind
    it is ever read), or None where the chain has an op NumPy would not give as a view. Over a
    computed root, NumPy's own view of the buffer (eager.view_value, in C: ~0.3 us where the
    stand-in's np.lib.stride_tricks.as_strided costs ~4): a buffer NumPy allocated C-contiguous
    has the stand-in's strides."""
    try:
        chain = _chain(view_node, root_node)
    except ValueError:  # a read-only view: its layout where its ops are all views
        chain = _read_only_chain(view_node, root_node)  # (broadcast_to; not diagonal's take)
        if chain is None:
            return None
    data = root_node.data
    if (not root_node.inputs and type(data) is np.ndarray and data.base is None
            and data.flags.c_contiguous):
        value = eager.view_value(view_node)
        if value is not None:
            return value if _shares(value, data) else None
    return _replay(chain, root_layout(root_node))


def numpy_layout_over(a: Any, root: np.ndarray) -> np.ndarray | None:
    """NumPy's view `a` replayed over `root`, an ndarray standing for its root's memory (the
    memory model lazyarray/lib/stride_tricks.py's as_strided reads): None where `a` is no static
    view NumPy would give (then its own value is its memory)."""
    link = a._view
    if type(link) is not tuple:
        return root
    if len(link) != 4:
        return None
    try:
        chain = _chain(link[1], link[2])
    except ValueError:
        chain = _read_only_chain(link[1], link[2])
        if chain is None:
            return None
    return _replay(chain, root)


def _replay(chain: list, layout: np.ndarray) -> np.ndarray | None:
    """The view ops of `chain` (innermost last) applied to the stand-in `layout`."""
    for node in reversed(chain):
        try:
            if node.op is _RESHAPE:  # its reference may copy, and a copy would read the stand-in
                layout = np.reshape(layout, node.attrs[0], copy=False)
            else:
                starts = tuple([i.data for i in node.inputs[1:]])  # a slice's run-time starts
                before = layout
                layout = node.op.reference((layout, *starts), node.attrs, node.dtype)
                if not _shares(layout, before):
                    return None
        except (ValueError, TypeError):
            return None
    return layout


def _shares(view: np.ndarray, base: np.ndarray) -> bool:
    """Whether NumPy's `view` is memory of `base`: `imag` of a real array is new zeros (read-only,
    no view), so `np.copyto(A.imag, A)` raises where a view of A's own memory passes (fuzz50,
    at-once seed 1900524: it was taken for A's memory, and passed)."""
    return not (view.size and base.size) or np.may_share_memory(view, base)


def is_view(a: Any) -> bool:
    return type(a._view) is tuple


def check_writable(a: Any, message: str = "assignment destination is read-only") -> None:
    """NumPy's ValueError for a write into a read-only view (`np.broadcast_to`, `diagonal`,
    `imag` of a real array), raised before the write's index, shape or cast is looked at, as
    NumPy checks the flag first (fuzz47: `t[5] = 0` raised the IndexError, `t += y` the shape
    or cast error; each writer passes NumPy's text: `output array is read-only`, ...)."""
    link = getattr(a, "_view", None)
    if type(link) is tuple and not link[3]:
        raise _fail(ValueError, message, user_site(2))


def write_past_flag(a: Any, write: Callable[[], None]) -> bool:
    """Run `write` (a write into `a`) as if `a` were writable, for NumPy's writers that skip
    the flag (`ufunc.at` with no subspace to iterate writes through a read-only view, fuzz50).
    False, nothing written, where no write reaches the root (a broadcast's elements alias)."""
    link = a._view
    if type(link) is not tuple or link[3]:
        write()
        return True
    if len(link) == 4:
        chain = _read_only_chain(link[1], link[2])
        if chain is None or any(n.op.write_back is None for n in chain):
            return False
    a._view = link[:3] + (True,) + link[4:]
    try:
        write()
    finally:
        now = a._view
        if type(now) is tuple:
            a._view = now[:3] + (False,) + now[4:]
    return True


def numpy_view_on_host(a: Any) -> tuple[Any, np.ndarray, np.ndarray] | None:
    """(root, a writable copy of the root's value, NumPy's view `a` of that copy, writable), for
    a read-only view no chain of write-backs reaches (`np.broadcast_to(B, (2, n))[1].ravel()`,
    overlapping windows), whose elements NumPy's `ufunc.at` writes through anyway (fuzz50,
    at-once seed 1900799): the caller runs NumPy's own at on the view, aliasing included, and
    writes the copy back into the root. None where the chain is no view of the root."""
    link = a._view
    if type(link) is not tuple or len(link) != 4 or link[0]._node is not link[2]:
        return None
    chain = _read_only_chain(link[1], link[2])
    if chain is None:
        return None
    root = link[0]
    host = np.array(root, copy=True)
    view = host
    for node in reversed(chain):
        try:
            if node.op is _RESHAPE:
                view = np.reshape(view, node.attrs[0], copy=False)
            else:
                starts = tuple([i.data for i in node.inputs[1:]])
                view = node.op.reference((view, *starts), node.attrs, node.dtype)
        except (ValueError, TypeError):
            return None
    if view.shape != a.shape or not _shares(view, host) or not host.size:
        return None
    offset = view.__array_interface__["data"][0] - host.__array_interface__["data"][0]
    return root, host, np.ndarray(view.shape, view.dtype, buffer=host, offset=offset,
                                  strides=view.strides)


def same_memory(a: Any, b: Any) -> bool:
    """Whether NumPy's `a` and `b` would be the same memory, strides and dtype (a static view
    and its root, or two static views of one root): `np.copyto(dst, src)` of such a pair does
    nothing, a read-only dst included (fuzz49)."""
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    layouts = [_memory(x) for x in (a, b)]
    return (None not in layouts and layouts[0][0] is layouts[1][0]
            and layouts[0][1:] == layouts[1][1:])


def _memory(a: Any) -> tuple | None:
    """(root Array, byte offset, strides) of NumPy's `a`, or None (no static layout)."""
    link = a._view
    if type(link) is not tuple:
        return a, 0, c_strides(a.shape, a.dtype)
    if len(link) != 4 or link[0]._node is not link[2]:
        return None
    layout = _numpy_layout(link[1], link[2])
    if layout is None:
        return None
    base = layout
    while isinstance(base.base, np.ndarray):
        base = base.base
    offset = layout.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return link[0], offset, layout.strides


def rebind(a: Any, node: Node, site: Any = None) -> None:
    """Give the handle `a` the value `node`, as NumPy's write into `a`'s memory would: through
    a view to its root, then every live view of the root follows."""
    link = a._view
    if type(link) is tuple and len(link) == 5:  # a dynamic view: a scatter by its key, lazily
        root, view_node, root_node, writable, dynamic = link
        if not writable:
            raise _fail(ValueError, "assignment destination is read-only", site)
        with cuts_paused():
            current = root._node
            base = dynamic.base
            if current is not root_node:
                base = _substitute(base, root_node, current)
            node = _write_back(base, current, current, dynamic.scatter(base, node))
        del view_node, root_node, base, current
        a = root
    elif type(link) is tuple:
        if link[3] and _EAGER_LIMIT[0]:
            done: list = []
            if _write_view_now(a, node, done):
                return  # written into the root's buffer through the view (lazyarray/eager.py)
            node = done[0] if done else node  # (computed there: its warnings were given)
        root, view_node, root_node, writable = link
        if not writable:
            raise _fail(ValueError, "assignment destination is read-only", site)
        with cuts_paused():  # a cut would splice leaves into the chain being walked
            node = _write_back(view_node, root_node, root._node, node)
        del view_node, root_node  # (their references would count as readers of the buffer)
        a = root
    if _EAGER_LIMIT[0] and eager.is_settled_base(a._node):
        node = eager.computed_values(node)
        if _settle_root(a, node):
            return
    old = a._node
    if old.op is _SLICE or old.op is _PERMUTE:
        node = kept_layout(old, node)
    a._node = node
    _track(a)
    views = a._view
    if views:
        with cuts_paused():
            _refresh(a, views)


def _write_view_now(view: Any, new: Node, done: list) -> bool:
    """`row[j] = v`, `row -= x` through a view of a computed root: the view's new value goes
    into the root's buffer through NumPy's view of it, when only the root's views read that
    buffer (eager.write_through_view). The views read it again, evaluated ones included."""
    root = view._view[0]
    if not eager.is_settled_base(root._node) or root._node.inputs:
        return False
    live = []
    for r in root._view or ():
        v = r()
        if v is not None:
            live.append(v)
    if not eager.write_through_view(root, view, new, live, done):
        return False
    for v in live:
        v._node = v._view[1]
    return True


def _settle_root(root: Any, new: Node) -> bool:
    """lazyarray/eager.py's settle for a root that may have views: the write goes into its
    buffer when only the views read it (they see it, as NumPy's views do), else the small
    result is computed now. The views follow either way."""
    views = root._view
    live = []
    if views:
        for r in views:
            v = r()
            if v is not None:
                live.append(v)
    old = root._node
    holders = eager.view_holders(old, live) if live else 0
    if holders is None:
        holders = -_BIG  # an outside reader: not in place (a small result is still computed)
    if not eager.settle(root, old, new, holders):
        return False
    if root._node is old:  # written in place: views read the buffer again (evaluated ones too)
        for v in live:
            v._node = v._view[1]
    elif views:
        with cuts_paused():
            _refresh(root, views)
    return True


_BIG = 1 << 30


def _track(a: Any) -> None:
    """cuts.track: a pending handle counts toward the node budget."""
    if a._node.inputs:
        _LIVE.append(_weakref(a))
        if len(_LIVE) > _LIVE_LIMIT[0]:
            _prune()


def _chain(view_node: Node, root_node: Node) -> list[Node]:
    """The view ops from `view_node` down to `root_node`, outermost first."""
    chain = []
    node = view_node
    while node is not root_node:
        if node.op.write_back is None or not node.inputs:
            raise ValueError("this view cannot be written back to its base")  # not reached: links
        chain.append(node)                                                  # hold view chains
        node = node.inputs[0]
    return chain


def _read_only_chain(view_node: Node, root_node: Node) -> list[Node] | None:
    """The view ops from `view_node` down to `root_node` where some write nothing back
    (`np.broadcast_to(x, (2, n))[0]`), or None where an op is no view: NumPy's layout of such a
    chain says whether its `ravel` is a view (a read-only one: it was a writable copy, and a
    write passed where NumPy raises; fuzz48)."""
    chain = []
    node = view_node
    while node is not root_node:
        if node.op.kind is not OpKind.VIEW or not node.inputs:
            return None
        chain.append(node)
        node = node.inputs[0]
    return chain


def _write_back(view_node: Node, root_node: Node, current: Node, value: Node) -> Node:
    """The root's new value when the view `view_node` (over `root_node`) takes `value`. The chain
    is re-derived over the root's `current` node first: the same value, but `root_node` may be a
    pending node that the root's evaluation has since replaced by its buffer."""
    if current is not root_node:
        view_node = _substitute(view_node, root_node, current)
        root_node = current
    permuted = False
    for node in _chain(view_node, root_node):
        value = node.op.write_back(node.inputs[0], _cast(value, node), node.attrs,
                                   *node.inputs[1:])  # a slice's run-time starts
        permuted = permuted or node.op is _PERMUTE
    if permuted:  # (the write-back's permute is no NumPy view: the root keeps its memory order)
        value = written_into(value, root_node, eager.view_value)
    return value


def kept_layout(old: Node, value: Node) -> Node:
    """The new value of a root held as a slice of a padded leaf (a strided input: creation.py,
    `root_layout`), laid out as the old one: written into a leaf of the old leaf's shape
    through the same views, and viewed through them again. Else a write made it a C-ordered
    root, whose `ravel()` then was a view where NumPy's is a copy. So is a view whose root
    died (`release_dead_root`: `v = a[::2]; a = a + 1`), over a pending value: its memory is
    the dead root's strided one (fuzz55's seed 3144: `v[...] = 2` made it C-ordered)."""
    views, n = [], old
    while n.op is _PERMUTE or n.op is _SLICE:
        views.append(n)
        n = n.inputs[0]
    if value is old or not any(v.op is _SLICE for v in views):
        return value
    with cuts_paused():
        written = value
        for node in views:  # (outermost first, as `_write_back` walks a chain)
            written = node.op.write_back(node.inputs[0], _cast(written, node), node.attrs,
                                         *node.inputs[1:])
        return _substitute(old, n, written)


def _cast(value: Node, like: Node) -> Node:
    return value if value.dtype == like.dtype else _d().cast(value, like.dtype)


def _d() -> Any:
    return derivatives


def _substitute(top: Node, old: Node, new: Node) -> Node:
    """`top` rebuilt with `old` replaced by `new` (an iterative post-order walk that stops at
    `old` and at leaves)."""
    if top is old:
        return new
    done: dict[int, Node] = {id(old): new}
    stack = [(top, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in done:
            continue
        if not node.inputs:
            done[id(node)] = node
            continue
        if not expanded:
            stack.append((node, True))
            stack.extend((i, False) for i in node.inputs if id(i) not in done)
            continue
        done[id(node)] = with_inputs(node, tuple([done[id(i)] for i in node.inputs]))
    return done[id(top)]


def _respine(top: Node, old: Node, new: Node) -> Node | None:
    """`top` rebuilt over `new` where it reaches `old` through first inputs only (a dynamic
    view's gather: take, reshapes, slices over its base), keeping every other input as it is
    (the indices: their graphs may read the old base, as NumPy read them before the write);
    None where it does not within a few steps. A fraction of building the gather again."""
    spine = []
    node = top
    while node is not old:
        if not node.inputs or len(spine) == 8:
            return None
        spine.append(node)
        node = node.inputs[0]
    node = new
    for n in reversed(spine):
        node = with_inputs(n, (node,) + n.inputs[1:])
    return node


def _refresh(root: Any, views: list) -> None:
    """Re-derive every live view of `root` from its new value."""
    current = root._node
    alive = []
    for r in views:
        v = r()
        if v is None:
            continue
        link = v._view
        if len(link) == 5:  # a dynamic view gathers again over its parent's new value (its
            dynamic = link[4]  # indices are its own: a walk would substitute inside them)
            base = _substitute(dynamic.base, link[2], current)
            new_node = _respine(link[1], dynamic.base, base)
            dynamic = dynamic.at(base)
            if new_node is None:
                new_node = dynamic.gather(base)
            v._view = (root, new_node, current, link[3], dynamic)
        else:
            _, view_node, root_node, writable = link
            new_node = _substitute(view_node, root_node, current)
            v._view = (root, new_node, current, writable)
        v._node = new_node
        _track(v)
        alive.append(r)
    views[:] = alive


def set_shape(a: Any, shape: Any) -> None:
    """`a.shape = s`: `a` names its value reshaped (any shape of the same size, also for views
    NumPy would refuse to reshape in place: their memory is not strided here). Other handles of
    the same memory keep their shapes, as NumPy's."""
    for v in [a] if type(a._view) is tuple else [r() for r in a._view or ()]:
        if v is not None and is_dynamic(v):
            resolve_view(v)  # the chains are rebuilt over the new shape: static ones
    with cuts_paused():
        _set_shape(a, reshape_node(a._node, shape, user_site(2)))


def _set_shape(a: Any, new: Node) -> None:
    d = _d()
    link = a._view
    if type(link) is tuple:
        root, view_node, root_node, writable = link
        a._view = (root, d.reshape(view_node, new.shape), root_node, writable)
        a._node = new
        return
    a._node = new
    for r in a._view or ():
        v = r()
        if v is not None:
            root, view_node, root_node, writable = v._view
            v._view = (root, _substitute(view_node, root_node, d.reshape(new, root_node.shape)),
                       new, writable)


def same_view(a: Node, b: Node) -> bool:
    """Whether two view chains are one value: the same ops and attrs down to one node (nodes
    are not hash-consed, so `x[k]` built twice is two objects)."""
    while a is not b:
        if (a.op is not b.op or a.attrs != b.attrs or a.shape != b.shape or a.dtype != b.dtype
                or not a.inputs or len(a.inputs) != len(b.inputs)):
            return False
        for x, y in zip(a.inputs[1:], b.inputs[1:]):  # a slice's run-time starts: equal values
            if x.inputs or y.inputs or x.op is not y.op or x.data != y.data:
                return False
        a, b = a.inputs[0], b.inputs[0]
    return True


# --- in-place operators -------------------------------------------------------------------------


def inplace_result(target: Any, result: Any, ufunc: np.ufunc, other: Any, site: Any) -> Node:
    """`target op= other`'s new value: NumPy's in-place rules (it is cast to target's dtype under
    casting='same_kind', else NumPy's UFuncTypeError; then the result keeps target's shape)."""
    _check_inplace_cast(target, result._node.dtype, ufunc, other, site)
    if result.shape != target.shape:
        if ufunc is np.matmul:  # (NumPy's own core-dimension text, fuzz46)
            exc = numpy_shape_error(np.matmul, (target, other), {}, target)
            raise _bind.with_site(exc or ValueError(
                f"matmul: in-place matrix multiplication would change the shape {target.shape} "
                f"to {result.shape}"), site)
        raise _fail(ValueError, f"non-broadcastable output operand with shape "
                    f"{_bind.numpy_shape_text(target.shape)} doesn't match the broadcast shape "
                    f"{_bind.numpy_shape_text(result.shape)}", site)
    node = result._node
    if node.dtype == target.dtype:
        return node
    return _bind.cast(node, target.dtype, site)


def _check_inplace_cast(target: Any, dtype: np.dtype | None, ufunc: np.ufunc, other: Any,
                        site: Any) -> None:
    """NumPy's UFuncTypeError where `target op= other`'s result dtype does not cast to target's
    under casting='same_kind' (None: not known, nothing raised)."""
    if dtype is not None and not np.can_cast(dtype, target.dtype, "same_kind"):
        raise _numpy_casting_error(ufunc, target.dtype, other, site)


def _check_inplace_shape(target: Any, other: Any, ufunc: np.ufunc, site: Any) -> None:
    """NumPy's ValueError where `target op other` broadcasts beyond target's shape, or does not
    broadcast: NumPy's ufunc lists its three operands' shapes, the output's last (`A[:, 1:3] +=
    B`: "... with shapes (3,2) (2,3) (3,2) ", where `x op y` lists two; fuzz46)."""
    if ufunc is np.matmul:
        return  # (matmul's own core-dimension errors are NumPy's)
    other_shape = other.shape if isinstance(other, _bind.Array) else np.shape(other)
    try:
        shape = np.broadcast_shapes(target.shape, other_shape)
    except ValueError:
        shown = "".join(_bind.numpy_shape_text(s) + " "
                        for s in (target.shape, other_shape, target.shape))
        raise _fail(ValueError, f"operands could not be broadcast together with shapes {shown}",
                    site) from None
    if shape != target.shape:
        raise _fail(ValueError, f"non-broadcastable output operand with shape "
                    f"{_bind.numpy_shape_text(target.shape)} doesn't match the broadcast shape "
                    f"{_bind.numpy_shape_text(shape)}", site)


def result_dtype(ufunc: np.ufunc, target: Any, other: Any) -> np.dtype | None:
    """The dtype of `target op other` by NumPy's loop (NEP 50: a Python scalar is weak), without
    computing it; None where NumPy has no loop or the operand is not a plain value."""
    if type(other) in (int, float, complex):
        kind: Any = type(other)
    else:
        try:
            kind = np.result_type(other._node.dtype if isinstance(other, _bind.Array) else other)
        except TypeError:
            return None
    try:
        return np.dtype(ufunc.resolve_dtypes((target.dtype, kind, None))[-1])
    except (TypeError, ValueError):
        return None


def _fail(exc_type: type[Exception], message: str, site: Any) -> Exception:
    return _bind.fail(exc_type, message, site)


def _numpy_casting_error(ufunc: np.ufunc, dtype: np.dtype, other: Any, site: Any) -> Exception:
    """NumPy's own exception for this in-place op (its type and text), from 0-d stand-ins."""
    if isinstance(other, _bind.Array):
        other = np.zeros((), other.dtype)
    elif not isinstance(other, (bool, int, float, complex, np.generic)):
        other = np.zeros((), np.asarray(other).dtype)
    out = np.zeros((1,) if ufunc is np.matmul else (), dtype)
    stand_in = np.zeros((1,) if ufunc is np.matmul else (), dtype)
    if ufunc is np.matmul:
        other = np.zeros((1,), np.asarray(other).dtype)
    in_place = _IN_PLACE.get(ufunc)  # `x **= 2` is NumPy's square loop, `power(x, 2, out=x)` not
    try:
        with np.errstate(all="ignore"):
            in_place(stand_in, other) if in_place else ufunc(stand_in, other, out=out)
    except TypeError as exc:
        return _bind.with_site(exc, site)
    return _fail(TypeError, f"Cannot cast ufunc '{ufunc.__name__}' output to {dtype} with "
                 "casting rule 'same_kind'", site)


# The operator of `x op= y` by its ufunc: a FloatingPointError of a value computed at once
# leaves the result written into x first, as NumPy's in-place ufunc (`x /= 0` under
# errstate(divide='raise') leaves inf in x; fuzz46, seed 721199)
_OPERATORS = {np.add: operator.add, np.subtract: operator.sub, np.multiply: operator.mul,
              np.true_divide: operator.truediv, np.floor_divide: operator.floordiv,
              np.remainder: operator.mod, np.power: operator.pow}


# `x op= y`'s own operator by its ufunc: NumPy's in-place operator takes fast paths its ufunc
# call does not (`b **= 2` of bools: "Cannot cast ufunc 'square' output from dtype('int8')")
_IN_PLACE = {np.add: operator.iadd, np.subtract: operator.isub, np.multiply: operator.imul,
             np.true_divide: operator.itruediv, np.floor_divide: operator.ifloordiv,
             np.remainder: operator.imod, np.power: operator.ipow}


def inplace_method(fn: Callable[[Any, Any], Any], ufunc: np.ufunc) -> Callable[..., Any]:
    """`Array.__iadd__` and friends: compute `fn(self, other)`, then rebind `self` (and, through
    a view, its root) to it with NumPy's in-place casting rule."""

    def method(self: Any, other: Any) -> Any:
        check_writable(self, "output array is read-only")  # (before `x op y` warns)
        if self._view is not False:  # NumPy's in-place cast error before it computes (no
            # RuntimeWarning of `int_view %= 0.0` first; fuzz56)
            _check_inplace_cast(self, result_dtype(ufunc, self, other), ufunc, other,
                                user_site(1))
        try:
            result = fn(self, other)
        except (ValueError, FloatingPointError, RuntimeWarning) as exc:  # (inplace_rest:
            # NumPy's checks first; RuntimeWarning: a warnings filter's 'error', fuzz53)
            result = exc
        return inplace_rest(self, result, other, ufunc)

    method.__name__ = f"__i{ufunc.__name__}__"
    return method


def inplace_rest(self: Any, result: Any, other: Any, ufunc: np.ufunc) -> Any:
    """`x op= y` once `x op y` is `result`: rebind x (and, through a view, its root). Also the
    tail of lazyarray/_trace.c's in-place operators, past their common case. `result` may be
    the error `x op y` raised (shapes that do not broadcast; a FloatingPointError of a value
    computed at once): NumPy checks the in-place cast and the output's shape before it
    computes, so its UFuncTypeError or ValueError, where they fail, come first."""
    check_writable(self, "output array is read-only")
    if isinstance(result, (ValueError, FloatingPointError, RuntimeWarning)):
        if self._view is not False:
            site = user_site(1)
            _check_inplace_cast(self, result_dtype(ufunc, self, other), ufunc, other, site)
            _check_inplace_shape(self, other, ufunc, site)
        value = getattr(result, "_lazyarray_value", None)
        if value is not None:  # a 'raise' mode's error at the line (_handled.raises_at_the_line):
            del result._lazyarray_value  # NumPy's in-place ufunc wrote its result first
            inplace_rest(self, value, other, ufunc)
        elif isinstance(result, (FloatingPointError, RuntimeWarning)) and self._view is not False \
                and ufunc in _OPERATORS:  # (a value computed at once raised: computed again)
            with fp_state.silenced():
                value = _OPERATORS[ufunc](self, other)
            inplace_rest(self, value, other, ufunc)
        raise result
    if result is NotImplemented or self._view is False:
        # NumPy's scalar (an element `A[i, j]`, a 0-d result of an op) has no in-place operators:
        # `t op= y` is `t = t op y`, of any dtype and shape, and other names of `t` keep its value
        # (so `A[i, j] += 1.5` on an int A is NumPy's read, add and cast write)
        return result
    node = result._node
    if not node.inputs and node.dtype == self._node.dtype and node.shape == self._node.shape:
        if not self._view:
            # a value computed at once: the handle takes it; no view to write through or live
            # view to follow (`_view` None or an empty list), no cast, nothing pending to track
            self._node = node
            return self
        if type(self._view) is tuple and _EAGER_LIMIT[0] and (
                (_C_WRITE_VIEW is not None and _C_WRITE_VIEW(self, node))
                or eager.write_basic_through_view(self, (), node)):
            return self  # `A[:, j] -= x`: into the root's buffer through NumPy's view
    elif (not self._view and node.dtype == self._node.dtype and node.shape == self._node.shape
          and _EAGER_LIMIT[0]):
        done = eager.loop_update_now(node)  # an index loop's update of a whole root: at once
        if done is not None:
            self._node = done
            return self
    del node  # (a reference held here would count as a reader of the buffer in rebind)
    site = user_site(1)
    rebind(self, inplace_result(self, result, ufunc, other, site), site)
    return self
