"""Evaluation triggers: `la.eval`, `la.block_until_ready`, and conversion to NumPy.

Evaluating several Arrays at once hands all their outputs to the runtime as one graph, so shared
sub-expressions run once and fusion can write several outputs from one kernel.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from dataclasses import replace
from typing import Any

import numpy as np

from . import cache  # plan cache, node budget (the caching issue)
from . import _bind, cuts, donation, eager, fp_errors, fp_state, tails
from .result_layout import bound as _bound_in_memory_order, computed as _in_memory_order
from .result_layout import result_axes as _memory_axes
from .array import Array, bind_evaluation
from .graph import Graph, OpKind, all_ops, get_op
from .graph.node import (_IS_LIBRARY, _PAUSED as _CUTS_PAUSED, Node, _compiled,
                         _is_library_file, build_node, set_node_budget)
from .generic_plan import GenericPlan
from .graph.generic import GenericGraph, probe_graph
from .passes import optimize, plan_memory
from .passes.pipeline import optimize_until
from .runtime import EvaluateOptions, get_backend
from .runtime.backend import DATA_ERRORS
from .runtime.c.backend import configure as configure_c_backend
from .runtime.dask.backend import configure as configure_dask_backend
from .runtime.plan_cache import build_reference_plan
from .runtime.select import ON_RESOLVED, resolve_backend, resolved_auto
from .settings import Settings, apply_if_changed, get_settings, on_change
from .graph.node import format_site
from .graph.signature import graph_signature

_INPUT_OP = get_op("input")
_AT_ONCE = _bind.AT_ONCE_MARK
# _trace.c keeps a few dropped views to hand out again (its view ring): they hold their roots'
# nodes, so they are let go before a graph runs, where a dead root's buffer may be donated
_RELEASE_VIEW_RING = getattr(_bind.FAST, "release_view_ring", None)


def _input_op():
    return _INPUT_OP


_OPTIONS: list = [None, None]  # [(settings, backend, optimize), EvaluateOptions]: resolved once


def options() -> EvaluateOptions:
    s = apply_if_changed()  # another thread's or task's settings: re-mirror them below first
    seen = _OPTIONS[0]
    if seen is None or seen[0] is not s or seen[1] != s.backend or seen[2] != s.optimize:
        _OPTIONS[1] = EvaluateOptions(backend=resolve_backend(s.backend), optimize=s.optimize,
                                      debug_nans=s.debug_nans)
        _OPTIONS[0] = (s, s.backend, s.optimize)
    return _OPTIONS[1]


def build_plan(graph: Graph, opts: EvaluateOptions, generic: GenericGraph | None = None) -> Any:
    """A plan for this graph's structure: `.run(arrays, scalars) -> outputs`. Plans hold no leaf
    data, so the plan cache around this call reuses them for new leaves of the same structure; the
    reference plan (optimize off) runs a data-free copy of the graph node by node. With `generic`
    (the cache found the graph size-free), the passes run once on its probe graph and the plan
    serves every size (lazyarray/generic_plan.py); its kernels are compiled now, for this size.
    The C backend may compile them in the background meanwhile (`compile_without_waiting`)."""
    if not opts.optimize:
        return build_reference_plan(graph, opts)
    backend = get_backend(opts.backend)
    if generic is None:
        program = optimize(graph)
        if opts.donate and donation.safe_to_donate(program):  # write over dead inputs
            program = plan_memory(replace(program, donated=opts.donate))
        return donation.marked(backend.compile_without_waiting(program), program)
    template = optimize_until(probe_graph(graph, generic), "fuse").program
    if opts.donate and donation.safe_to_donate(template):  # planned per size with it
        template = replace(template, donated=opts.donate)
    plan = GenericPlan(template, generic.size_sources, backend.compile_without_waiting)
    plan.plan_for(generic.sizes)
    return donation.marked(plan, template)


def evaluate(outputs: list[Node], opts: EvaluateOptions, walked: tuple | None = None
             ) -> list[Any]:
    """Run the graph of these output nodes; the one place where graphs run (tests count calls).
    The plan comes from the plan cache: a hit runs no pass and no compiler. `walked`: the
    compiled `evaluation_walk` of a single output, when the caller has it already. The tail of a
    cut loop runs in chunks of whole iterations (lazyarray/tails.py): one plan per chunk length,
    not one per remainder."""
    if _RELEASE_VIEW_RING is not None:
        _RELEASE_VIEW_RING()
    if tails.TAIL[0] is not None and not cache.is_busy():
        buffers = tails.evaluate_tail(
            outputs, lambda nodes: cache.run_cached(nodes, opts, build_plan),
            lambda: cache.has_plan(outputs, opts))
        if buffers is not None:
            return buffers
    return cache.run_cached(outputs, opts, build_plan, walked)


def _collect(tree: Any, out: list[Array]) -> None:
    """Arrays inside (nested) tuples, lists and dicts, in order; iterative for deep structures."""
    stack = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, Array):
            out.append(item)
        elif isinstance(item, (tuple, list)):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))


def evaluate_arrays(arrays: list[Array], extra: tuple[Array, ...] = ()) -> None:
    """Evaluate the pending Arrays among `arrays` as one graph; each then holds its buffer.
    `extra`: Arrays the graph computes anyway, evaluated with it as held intermediates are (a
    user's Array on the same node is then found in the frames and shares the result)."""
    leaf_op = _INPUT_OP
    held = None
    if len(arrays) == 1 and not extra:  # np.asarray(y), float(loss): usually nothing else held
        array = arrays[0]
        node = array._node
        if node.op is leaf_op or node.op is _PERMUTE and not node.inputs[0].inputs:
            return  # (a buffer, or a permute of one: a result in NumPy's memory order)
        if _evaluation_walk is not None:
            # None: some intermediate is referenced from outside. References to `node` beyond
            # the Array's, this local and getrefcount's argument: another pending graph reads
            # it (a sibling, `_siblings`), so the general path looks for it.
            walked = _evaluation_walk(node) if _getrefcount(node) <= 3 else None
            if walked is not None:  # (only `array` holds the output: it may donate)
                array._node = _evaluate_walked(node, walked, True)
                return
            held = _held_in_frames([node])
        else:
            held = _held_intermediates([node])
        if type(array._view) is tuple:
            held = held + _view_roots([node], [array], held)
        if not held:
            if _getrefcount(node) <= 3:  # only `array` holds it (the pure-Python path's case)
                with donation.allowed():
                    array._node = evaluate_nodes([node])[0]
                return
            array._node = evaluate_nodes([node])[0]
            return
    arrays = list(arrays)
    pending: list[Array] = []
    seen: set[int] = set()
    for a in arrays:
        if a._node.op is not leaf_op and id(a._node) not in seen and not _in_order(a._node):
            seen.add(id(a._node))
            pending.append(a)
    if not pending:
        return
    if held is None:
        held = _held_intermediates([a._node for a in pending])
        held = held + _view_roots([a._node for a in pending], pending, held)
    held = held + [a for a in extra if a._node.op is not leaf_op]
    requested = [a._node for a in pending]
    for a in held:
        if id(a._node) not in seen:
            seen.add(id(a._node))
            pending.append(a)
        arrays.append(a)
    nodes = [a._node for a in pending]
    try:
        if len(requested) == 1 and len(nodes) > 1 and _hit_path is not None:
            results = _evaluate_remembered(nodes)  # `float(err)` of a loop's held state
        else:
            results = evaluate_nodes(nodes)
    except Exception:
        # A sibling (`_siblings`) whose own ops fail (an index out of bounds) must not fail
        # this evaluation: without the held Arrays it raises only if it fails by itself.
        if len(nodes) == len(requested):
            raise
        nodes = requested
        results = evaluate_nodes(nodes)
    done = dict(zip(map(id, nodes), results))
    for a in arrays:  # duplicates of one node share the result
        replacement = done.get(id(a._node))
        if replacement is not None:
            a._node = replacement


def _in_order(node: Node) -> bool:
    """A permute of a buffer: computed already (a result held in NumPy's memory order,
    lazyarray/result_layout.py, or a Fortran-ordered input); evaluating it again copied it into a
    C-ordered buffer, losing that order."""
    return node.op is _PERMUTE and not node.inputs[0].inputs


_PERMUTE = get_op("permute")
_getrefcount = sys.getrefcount
# The ops whose node is a view of its one input (permute, slice, broadcast, reshape, ...): a chain
# of them down to a leaf is no held candidate (`_is_view_of_leaf`).
_VIEW_OPS = frozenset(op for op in all_ops() if op.kind is OpKind.VIEW)
_USER_FRAMES = 3  # how many of the caller's own (non-library) frames are looked at
# A local that is a tuple of at most this many items is looked into (one level): a function's
# results returned together and read one by one (`out = f(x); np.asarray(out[0]); ...`) are
# siblings as locals are. graph/_node.c's HELD_TUPLE_MAX is the same bound.
HELD_TUPLE_MAX = 32
# Before Python 3.13 a function frame's `f_locals` is a snapshot dict the frame keeps (and refreshes
# from the real locals whenever it is read again); 3.13's is a view of the locals themselves.
_SNAPSHOT = sys.version_info < (3, 13)
_CO_OPTIMIZED = inspect.CO_OPTIMIZED
# graph/_node.c's refcount test: False proves no Array can hold an intermediate of the graph, so
# the frame scan below (~1.5 us, most of it building `f_locals` snapshots) is skipped. The
# pure-Python path always scans: the answer is the same, only slower. `evaluation_walk` makes the
# same test in the walk that also takes the signature and binds the leaves (one Array evaluated).
_shared_intermediates = getattr(_compiled, "shared_intermediates", None)
_evaluation_walk = getattr(_compiled, "evaluation_walk", None)
_frame_arrays = getattr(_compiled, "frame_arrays", None)
_held_split = getattr(_compiled, "held_split", None)


def _view_roots(nodes: list[Node], arrays: list[Array], held: list[Array]) -> list[Array]:
    """The pending roots of the views among `arrays` whose nodes the graph of `nodes` computes
    (not yet in `held`): `v = A[0]; A = A * 2; v[-2] = np.sqrt(x)` left the old root, which only
    v holds, pending after `np.asarray(v)` computed its write, and the next node-budget cut
    computed it again, its 'invalid' warning a second time (fuzz41's seed 180096)."""
    roots = []
    for a in arrays:
        link = a._view
        if type(link) is tuple:
            root = link[0]
            if root._node.inputs and all(root is not h for h in held) and all(
                    root is not r for r in roots) and all(root._node is not n for n in nodes):
                roots.append(root)
    if not roots:
        return []
    split = _held_split if _held_split is not None else _python_held_split
    return split(nodes, roots)


def _held_intermediates(nodes: list[Node]) -> list[Array]:
    """Pending Arrays held in the local variables of the user's innermost frames whose nodes the
    graph of `nodes` computes anyway (not `nodes` themselves).

    Keeping their results makes the next iteration of a loop that evaluates inside (Jacobi:
    `x = f(x)` then `float(max(abs(x - x_old)))`) start from leaves. Otherwise each evaluation
    recomputes every earlier iteration (quadratic work) and, its graph one iteration deeper each
    time, builds a new plan per iteration. Local variables rather than every live Array (the
    weak references `cuts` keeps): library temporaries in reference cycles stay alive until the
    garbage collector runs, which would make the graph, hence the plan, vary from run to run."""
    if _shared_intermediates is not None and not _shared_intermediates(nodes):
        return []  # every intermediate is referenced only by the graph's own nodes
    return _held_in_frames(nodes)


def _held_in_frames(nodes: list[Node]) -> list[Array]:
    """`_held_intermediates` without the refcount test (its caller made it). None while
    `la.grad` traces (`cache.busy`): a held intermediate made a leaf would cut the gradient
    through it (`z = sin(x); z[abs(z) < 2]` lost dz/dx)."""
    if cache.is_busy():
        return []
    found = _frame_arrays(_USER_FRAMES) if _frame_arrays is not None else None
    if found is None:  # no compiled scan, or a frame it does not read
        found = _python_frame_arrays()
    outputs = {id(n) for n in nodes}
    held = [v for v in found if id(v._node) not in outputs]  # `y = f(x); float(y)`: no news
    if not held:
        return []
    if _held_split is not None:  # graph/_node.c: the walks below over one table of nodes
        return _held_split(nodes, held)
    return _python_held_split(nodes, held)


def _python_held_split(nodes: list[Node], held: list[Array]) -> list[Array]:
    """Of the pending Arrays `held` (none on an output), those whose nodes the graph of `nodes`
    computes, then the siblings (`_siblings`): graph/_node.c's `held_split`, in Python."""
    outputs = {id(n) for n in nodes}
    reached: set[int] = set()
    stack = [i for n in nodes for i in n.inputs if i.inputs]
    while stack:
        n = stack.pop()
        if id(n) not in reached:
            reached.add(id(n))
            stack.extend([i for i in n.inputs if i.inputs and id(i) not in reached])
    inside = [a for a in held if id(a._node) in reached]
    return inside + _siblings([a for a in held if id(a._node) not in reached], reached | outputs)


def _is_view_of_leaf(node: Node) -> bool:
    """A chain of views down to a leaf (graph/_node.c `view_of_leaf`): not a held candidate.
    Computed with an evaluation that reads it, it became a C-ordered copy: a later reduction
    over a held `x.T` folded in C order, NumPy's along the view's memory (a last bit off), and
    recomputing a view costs nothing."""
    depth = 0
    while node.inputs:  # (a slice's run-time starts: scalar leaves after its operand)
        if node.op not in _VIEW_OPS or depth == 64 or any(i.inputs for i in node.inputs[1:]):
            return False
        node, depth = node.inputs[0], depth + 1
    return depth > 0


def _python_frame_arrays() -> list[Array]:
    """The pending Arrays in the locals of the caller's `_USER_FRAMES` innermost user frames,
    in `f_locals` order: the reference of graph/_node.c's `frame_arrays`, which reads the same
    values where the frame keeps them instead of building `f_locals` (on Python < 3.13 a
    snapshot dict of every local, ~1.5-3 us of each evaluation that scans)."""
    frame = sys._getframe(1)
    known = _IS_LIBRARY.get
    found: list[Array] = []
    left = _USER_FRAMES
    while frame is not None and left:
        filename = frame.f_code.co_filename
        lib = known(filename)
        if lib is None:
            lib = _is_library_file(filename)
        if not lib:
            left -= 1
            values = frame.f_locals
            for v in values.values():
                if isinstance(v, tuple) and len(v) <= HELD_TUPLE_MAX:  # results returned together
                    # (named tuples too: `res = np.linalg.svd(a); res.U; res.S`)
                    found.extend([a for a in v if type(a) is Array and a._node.inputs
                                  and not _is_view_of_leaf(a._node)])
                elif type(v) is Array and v._node.inputs and not _is_view_of_leaf(v._node):
                    found.append(v)
            if _SNAPSHOT and frame.f_code.co_flags & _CO_OPTIMIZED:
                values.clear()  # the snapshot would keep every local alive until the frame ends
        frame = frame.f_back
    return found


def _evaluate_remembered(nodes: list[Node]) -> list[Node]:
    """`evaluate_nodes(nodes)` for one Array's evaluation with held Arrays (`nodes[1:]`); when
    the memo of the last plan served it (a loop's second evaluation on), `cache.remember_hit`
    records its plan, so that graph/_node.c's `to_host` finds the same held Arrays in the same
    frames next time and runs the plan without Python frames (`held_hit`)."""
    signature, leaves = graph_signature(nodes)
    arrays, scalars = cache.bind_leaves(leaves)
    last = cache._last_hit
    results = evaluate_nodes(nodes, (signature, leaves, arrays, scalars))
    if cache._last_hit is last:
        cache.remember_hit(signature, arrays, *_OPTIONS)
    return results


def _held_failed(array: Array, nodes: list[Node], exc: BaseException) -> Any:
    """graph/_node.c's held hit path ran the plan of `nodes` (the Array's node, then the held
    intermediates) and it raised `exc`: what evaluate_arrays does when that evaluation fails
    (the graph forgotten by the cuts; an Exception retried without the held Arrays, which
    raises the general path's error; anything else raised as it is). The Array's host buffer."""
    cuts.forget(nodes)
    if not isinstance(exc, Exception):
        raise exc
    array._node = evaluate_nodes([nodes[0]])[0]
    return _host_fallback(array, None)


def _siblings(candidates: list[Array], computed: set[int]) -> list[Array]:
    """The candidates whose graphs read a node this evaluation computes (`computed`: ids of its
    outputs and intermediates): `c, h = cell(x); np.asarray(c); np.asarray(h)`. h's graph holds
    c's pending nodes, not the leaf c becomes, so evaluating h alone later ran the shared matmuls
    again; evaluated now, in the same graph, h costs only its own ops (issue 25). One walk over
    the candidates' pending graphs, each node once: a node that reaches `computed` marks every
    candidate that reaches it."""
    if not candidates:
        return []
    shares: dict[int, bool] = {}  # id(node) -> whether it reads a computed node (memo)
    found = []
    for a in candidates:
        if _reads_computed(a._node, computed, shares):
            found.append(a)
    return found


def _reads_computed(root: Node, computed: set[int], shares: dict[int, bool]) -> bool:
    """Whether `root`'s graph reaches a node of `computed` (iterative; memo in `shares`)."""
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        key = id(node)
        if key in shares:
            continue
        if expanded:
            shares[key] = any(shares.get(id(i), False) for i in node.inputs)
            continue
        if key in computed and node is not root:
            shares[key] = True
            continue
        stack.append((node, True))
        stack.extend([(i, False) for i in node.inputs if i.inputs and id(i) not in shares])
    return shares[id(root)]


def evaluate_pending(since: int = 0) -> None:
    """The live pending Arrays whose node was built after node order `since` computed now, as
    one graph (la.errstate and la.seterr where the floating-point modes change:
    lazyarray/fp_errors.py); not while la.jit traces. A view of a computed buffer (`A[i]`)
    computes nothing, and stays a view (an indexed read for the at-once rule, a window that
    writes reach)."""
    if cache._state.busy or cache._state.stand_ins:
        return
    views_a_buffer = eager.views_a_buffer
    arrays = [a for a in cuts.live_pending()
              if a._node.order > since and not views_a_buffer(a._node)]
    if arrays:
        evaluate_arrays(arrays)


def settle_pending(inputs: tuple[Node, ...], op: Any) -> tuple[Node, ...]:
    """NumPy's error state changed a mode where a node on `inputs` is about to be built
    (lazyarray/fp_state.py): the live pending Arrays and the pending inputs computed now, as one
    graph, under the modes they were built in; returns the inputs, computed ones as leaves
    (those the library still holds for the rest of the user's instruction are substituted as
    after a cut: cuts.substitute_after). Views of computed buffers stay views."""
    views_a_buffer = eager.views_a_buffer
    arrays = [a for a in cuts.live_pending() if not views_a_buffer(a._node)]
    held = {id(a._node) for a in arrays}
    for n in inputs:
        if n.inputs and id(n) not in held and not views_a_buffer(n):
            held.add(id(n))
            handle = _new_array(Array)  # (a bare handle: Array() may compute at once, track)
            handle._node, handle._view = n, None
            arrays.append(handle)
    if not arrays:
        return inputs
    before = [(a, a._node) for a in arrays]
    with fp_errors.at_block_exit():  # (their warnings name the lines that built them)
        evaluate_arrays(arrays)
    replaced = {id(n): (n, a._node) for a, n in before if a._node is not n}
    if not replaced:
        return inputs
    cuts.substitute_after(replaced, op)
    return tuple([replaced[id(n)][1] if id(n) in replaced else n for n in inputs])


_new_array = Array.__new__


def _busy() -> bool:
    """An evaluation, a la.jit trace or graph passes (`cuts_paused`: la.explain, to_dask) build
    the nodes now: fp_state.py's watch leaves them (computing what is pending there would
    splice leaves into a graph being rewritten, as a cut would)."""
    state = cache._state
    return state.busy or bool(state.stand_ins) or _CUTS_PAUSED[0] > 0


def evaluate_nodes(nodes: list[Node], walked: tuple | None = None) -> list[Node]:
    """Evaluate pending nodes as one graph; their results as leaves, or as permute views of
    leaves where NumPy's result is not C-ordered (lazyarray/result_layout.py)."""
    layouts = [_memory_axes(n) for n in nodes]
    outputs = nodes
    if any(layouts):
        outputs = [n if a is None else _in_memory_order(n, a) for n, a in zip(nodes, layouts)]
        walked = None  # (the walk's signature is the unpermuted graph's)
    try:
        buffers = evaluate(outputs, options(), walked)
    except MemoryError as exc:
        cuts.forget(nodes)
        raise _out_of_memory(nodes, exc) from None
    except BaseException:
        cuts.forget(nodes)
        raise
    for b in buffers:
        own(b)  # a later plan may write over it once nothing reads it (lazyarray/donation.py)
    return [Node(_INPUT_OP, (), _result_mark(n), n.shape, n.dtype, b, n.site) if a is None
            else _bound_in_memory_order(n, a, b) for n, a, b in zip(nodes, layouts, buffers)]


def _result_mark(node: Node) -> tuple:
    """The computed leaf's attrs: a 0-d result of an op (not of a view op) stands for NumPy's
    scalar, as it did pending (Array's `_view` False), so it keeps the at-once mark: a later
    `s / 0` reports NumPy's scalar math ('... in scalar divide'), where an unmarked 0-d leaf is
    a 0-d *array*, whose ufunc's report says '... in divide'. graph/_node.c's hit paths bind
    their results by the same rule."""
    if node.shape or node.op.write_back is not None:
        return ()
    return _AT_ONCE


def _evaluate_walked(node: Node, walked: tuple, exclusive: bool = False) -> Node:
    """`evaluate_nodes([node], walked)[0]` for one node (the implicit path's common case).
    `exclusive`: the caller checked that only the Array it rebinds holds `node`, so the plan may
    write over dead inputs when one is large enough to matter (lazyarray/donation.py)."""
    axes = _memory_axes(node)
    if axes is not None:  # NumPy's result is not C-ordered (lazyarray/result_layout.py)
        return evaluate_nodes([node])[0]
    if exclusive:
        for a in walked[2]:  # (the test itself costs ~0.7 us: only for large inputs)
            if getattr(a, "nbytes", 0) >= donation.MIN_BYTES:
                del a  # (a reference to the buffer would keep it from being donated)
                with donation.allowed():
                    return _evaluate_walked(node, walked)
    try:
        (buffer,) = evaluate([node], options(), walked)
    except MemoryError as exc:
        cuts.forget([node])
        raise _out_of_memory([node], exc) from None
    except BaseException:
        cuts.forget([node])
        raise
    if buffer.nbytes >= donation.MIN_BYTES:
        own(buffer)  # a later plan may write over it once nothing reads it
    return build_node(_INPUT_OP, (), _result_mark(node), node.shape, node.dtype, buffer,
                      node.site)


own = donation.own


def _out_of_memory(nodes: list[Node], exc: MemoryError) -> MemoryError:
    shown = "; ".join(f"{n.dtype} array of shape {n.shape} (at {format_site(n.site)})"
                      for n in nodes[:3])
    return MemoryError(f"out of memory evaluating {shown}: {exc}")


def eval(*arrays: Any) -> Any:
    """Evaluate Arrays (or trees of them) as one graph; returns its arguments (one → itself)."""
    found: list[Array] = []
    _collect(arrays, found)
    evaluate_arrays(found)
    return arrays[0] if len(arrays) == 1 else arrays


def block_until_ready(tree: Any) -> Any:
    """Evaluate every Array in `tree` and wait for the device; returns `tree`."""
    found: list[Array] = []
    _collect(tree, found)
    evaluate_arrays(found)
    backends = {device_of(a._node) for a in found}
    for device in backends:
        if device != "cpu":
            get_backend("cupy").synchronize()
    return tree


def device_of(node: Node) -> str:
    data = node.data
    if data is not None and not isinstance(data, (np.ndarray, np.generic, int, float, bool)):
        return "cuda:0"
    return "cpu"


def _python_to_host(a: Array) -> np.ndarray:
    """The Array's buffer on the host, evaluating it first if pending (`to_host`)."""
    return _host_fallback(a, None)


def _host_fallback(a: Array, walked: tuple | bool | None) -> np.ndarray:
    """`to_host` the general way. `walked`: what graph/_node.c's `to_host` learned before it
    declined its hit path: the `evaluation_walk` tuple (the signature was not the last plan's),
    False (an intermediate is held), or None (nothing: not walked)."""
    node = a._node
    if node.op is not _INPUT_OP and node.op.write_back is not None:
        # a view of a computed buffer (`rng.choice(3, p=P[s])`): NumPy's view of it, read-only
        # as a leaf's own buffer is; its evaluation was a plan's copy (markov: 65 us a draw)
        value = eager.view_value(node)
        if value is not None:
            if value.flags.writeable:
                value = value.view()
                value.flags.writeable = False
            return value
    if node.op is not _INPUT_OP:
        exclusive = _getrefcount(node) <= 3  # only `a` holds it (as below): it may donate
        if walked is None and _evaluation_walk is not None and exclusive:
            walked = _evaluation_walk(node)  # (more references: a sibling reads it, as above)
        if walked:  # evaluate_arrays([a])'s common case, a frame and a list sooner
            last = cache._last_hit
            node = a._node = _evaluate_walked(node, walked, exclusive)
            if cache._last_hit is last and _hit_path:  # the memo served it: so may C next time
                cache.remember_hit(walked[0], walked[2], *_OPTIONS)
        else:
            evaluate_arrays([a])
            node = a._node
        if node.op is not _INPUT_OP:  # a permute view of its buffer, in NumPy's memory order
            return _host_view(node)
    data = node.data
    if isinstance(data, np.ndarray):
        return data
    return get_backend("cupy").to_host(data)


def _host_view(node: Node) -> np.ndarray:
    """NumPy's view of a result held in its memory order (lazyarray/result_layout.py `bound`: a
    permute of a leaf), read-only as a view of a computed buffer is above; a device buffer is
    copied to the host first."""
    data = node.inputs[0].data
    if not isinstance(data, np.ndarray):
        data = get_backend("cupy").to_host(data)
    value = data.transpose(node.attrs[0])
    value.flags.writeable = False
    return value


def _hit_failed(node: Node, exc: BaseException) -> None:
    """Raise what the general path (`_evaluate_walked` around `run_cached`) raises when the plan
    it ran raised `exc`: graph/_node.c's hit path calls this when its launch failed."""
    try:
        try:
            raise exc
        except DATA_ERRORS as data_error:
            raise cache._at_these_sites([node], data_error) from None
    except MemoryError as memory_error:
        cuts.forget([node])
        raise _out_of_memory([node], memory_error) from None
    except BaseException:
        cuts.forget([node])
        raise


# to_host(a): graph/_node.c's, which evaluates a pending Array whose graph has the structure of
# the last one evaluated without the ~10 Python frames between `np.asarray(y)` and the plan's
# launcher (lazyarray.cache.remember_hit lists what it checks), and calls `_host_fallback`
# otherwise; without the compiled module, `_python_to_host`.
_hit_path = getattr(_compiled, "to_host", None)
to_host = _python_to_host
if _hit_path is not None:
    from . import settings as _settings

    _compiled.bind_hit(cache._HIT, vars(cache), globals(), evaluate, _OPTIONS, _settings._scope,
                       vars(_settings), _settings._applied, cache._state, np.ndarray,
                       _host_fallback, _hit_failed)
    to_host = _hit_path  # noqa: F811
    _compiled.bind_held(Array, own, _held_failed, donation.MIN_BYTES, _USER_FRAMES, _VIEW_OPS)
    _compiled.bind_fp(fp_errors.fired)


def _apply_settings(s: Settings) -> None:
    set_node_budget(s.max_graph_nodes, cuts.cut_hook)
    eager.LIMIT[0] = cuts.AT_ONCE_LIMIT[0] = s.eager_size if _eager_applies(s) else 0
    eager.FOLDS[0] = _compiles_kernels(s)
    cuts.configure(s.max_graph_nodes)
    cache.apply_settings(s)
    configure_c_backend(s.cache_dir, s.num_threads, s.background_compiles)
    configure_dask_backend(s.chunks)


def _eager_applies(s: Settings) -> bool:
    """lazyarray/eager.py computes on the host with the numpy semantics: off on the cupy and
    dask backends and with debug_nans. 'auto' without CuPy installed is C or numpy (asking
    resolve_backend would probe the C compiler and its cache at import). With CuPy installed,
    'auto' stays lazy until the first evaluation works it out (probing imports CuPy, ~1 s: never
    at import); `_on_auto_resolved` then applies the settings again."""
    if s.debug_nans or s.backend not in ("auto", "c", "numpy"):
        return False
    if s.backend != "auto":
        return True
    if _CUPY[0] is None:
        _CUPY[0] = importlib.util.find_spec("cupy") is not None
    return not _CUPY[0] or resolved_auto() in ("c", "numpy")


def _compiles_kernels(s: Settings) -> bool:
    """Whether plans run generated C kernels (eager.py's `_computes_large`: a reduction then
    folds its computed input in one kernel); 'auto' once worked out (never probed here)."""
    return s.backend == "c" or s.backend == "auto" and resolved_auto() == "c"


def _on_auto_resolved() -> None:
    eager.LIMIT[0] = cuts.AT_ONCE_LIMIT[0] = (get_settings().eager_size
                                              if _eager_applies(get_settings()) else 0)
    eager.FOLDS[0] = _compiles_kernels(get_settings())


_CUPY: list[bool | None] = [None]  # whether CuPy is installed (looked up once)


on_change(_apply_settings)
ON_RESOLVED.append(_on_auto_resolved)
eager.EVALUATE_ARRAYS[0] = evaluate_arrays  # (eager.py evaluates a held Array it reads)
fp_errors.EVALUATE_PENDING[0] = evaluate_pending  # (where la.errstate / la.seterr change modes)
fp_state.SETTLE[0], fp_state.BUSY[0] = settle_pending, _busy  # (where NumPy's state changes)
eager.HELD_INTERMEDIATES[0] = _held_intermediates  # (and keeps those its walks compute)
cuts.EVALUATE_NODES[0] = evaluate_nodes  # (a cut evaluates the live pending Arrays)
bind_evaluation(to_host, evaluate_arrays, eval, block_until_ready, device_of)  # Array's triggers
cache._clear_hooks.append(cuts.reset)  # la.clear_caches() also forgets the cut point
