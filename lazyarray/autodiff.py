"""Automatic differentiation: `grad`, `value_and_grad`, `vjp`, `jvp` and `stop_gradient`.

Arrays already hold their expression graphs, so differentiating needs no tracer: `f` runs once on
its arguments wrapped in fresh identity nodes (the wrappers mark what is differentiated; arrays `f`
reads from elsewhere are constants, as in JAX), and `backward` walks the resulting graph from the
output to the wrappers, applying each op's derivative rule from its registry entry
(`OpDef.vjp`, written with `graph/derivatives.py`). The cotangents are ordinary lazy nodes: they
go through the same passes as any graph (the wrappers are identities and fold away), fuse into the
same kinds of kernels, and a training step rebuilt each iteration hits the plan cache.

Forward mode transposes reverse mode: the VJP is linear in its cotangent u, so the JVP of f at x
along t is the VJP of u -> vjp(f, x)(u) applied to t. Higher orders differentiate backward graphs,
which are made of the same primitives.

    before: y = exp(p(x)) * w            (p: the wrapper marking x)
    after:  dx = 1 * w * y               (ones(y) * w from multiply's rule, then * y from exp's)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from . import _bind, cache
from .array import Array
from .graph import Node, get_op, topological_order
from .graph import derivatives as d
from .graph.node import user_site
from .jit import inline_depth

_WRAP, _STOP = get_op("positive"), get_op("stop_gradient")
Site = _bind.Site


# --- argument trees -----------------------------------------------------------------------------------
def tree_flatten(tree: Any) -> tuple[list[Any], Any]:
    """(leaves, structure) of nested tuples, lists and dicts (keys sorted, as la.jit)."""
    leaves: list[Any] = []
    return leaves, _walk(tree, leaves)


# Module-level, not nested: a nested function that calls itself is a reference cycle (function ->
# closure cell -> function) holding the leaves, so every la.grad call left its Arrays alive until
# the garbage collector ran, and the node budget's cuts evaluated them with the loop state: the
# cut graphs, hence the plans, varied with the collector's timing (gradient descent: 5 plans).
def _walk(x: Any, leaves: list[Any]) -> Any:  # argument trees are shallow: recursion is fine
    t = type(x)
    if t is tuple or t is list:
        return (t, [_walk(v, leaves) for v in x])
    if t is dict:
        keys = sorted(x)
        return (dict, keys, [_walk(x[k], leaves) for k in keys])
    if x is None:
        return None
    leaves.append(x)
    return ...


def tree_unflatten(structure: Any, leaves: Sequence[Any]) -> Any:
    return _build(structure, iter(leaves))


def _build(s: Any, it: Iterator[Any]) -> Any:
    if s is ...:
        return next(it)
    if s is None:
        return None
    if s[0] is dict:
        return {k: _build(v, it) for k, v in zip(s[1], s[2])}
    return s[0](_build(v, it) for v in s[1])


def _as_float_array(x: Any, what: str, site: Site) -> Array:
    if not isinstance(x, Array):
        if isinstance(x, (int, bool)) and not isinstance(x, float):
            raise _bind.fail(TypeError, f"{what} is an integer ({x!r}); differentiate with respect "
                             "to float values (write 1.0, not 1)", site)
        x = Array(_bind.leaf(_bind.host_array(x, site=site), site))
    if x.dtype.kind == "c":  # a documented choice (docs/autodiff.md): no complex derivatives
        raise _bind.fail(TypeError, f"{what} has dtype {x.dtype}: lazyarray does not "
                         "differentiate complex inputs; differentiate with respect to real "
                         "arrays (e.g. the real and imaginary parts) instead", site)
    if x.dtype.kind != "f":
        raise _bind.fail(TypeError, f"{what} has dtype {x.dtype}; only float arrays have "
                         "derivatives (cast with .astype(la.float32) first)", site)
    return x


# --- the backward walk -----------------------------------------------------------------------------------
def backward(outputs: Sequence[Node], cotangents: Sequence[Node | None],
             targets: Sequence[Node]) -> list[Node | None]:
    """Cotangent nodes of `targets` (None: zero) given those of `outputs`: one reverse walk over
    the nodes that depend on a target, each op's rule applied once to its summed cotangent."""
    with cache.busy():  # no node-budget cut while the backward graph is half built
        return _backward(outputs, cotangents, targets)


def _backward(outputs: Sequence[Node], cotangents: Sequence[Node | None],
              targets: Sequence[Node]) -> list[Node | None]:
    order = topological_order(outputs)
    start = d.built()
    d.begin()
    wanted = {id(t) for t in targets}
    live: set[int] = set(wanted)
    for n in order:  # inputs before consumers
        for i in n.inputs:
            if id(i) in live:
                live.add(id(n))
                break
    pending: dict[int, list[Node]] = {}
    for o, g in zip(outputs, cotangents):
        if g is not None and id(o) in live:
            _accumulate(pending, o, g)
    found: dict[int, Node] = {}
    # Complex values get no cotangents (no complex derivatives, docs/autodiff.md); one that would
    # is "tainted", and the taint follows the rules back (stop_gradient ends it). A target that a
    # taint reaches is an error naming the complex op's line, never a silently missing term.
    tainted: dict[int, Node] = {}
    try:
        for n in reversed(order):
            parts = pending.pop(id(n), None)
            source = tainted.pop(id(n), None)
            if parts is None and source is None:
                continue
            d.at(n.site)
            if source is not None:
                if id(n) in wanted:
                    raise _bind.fail(TypeError, f"the derivative passes through a complex value "
                                     f"({source.op.name}, {source.dtype}); lazyarray does not "
                                     "differentiate complex functions (docs/autodiff.md)",
                                     source.site)
                _spread_taint(n, source, live, tainted)
            if parts is None:
                continue
            g = parts[0] if len(parts) == 1 else d.total(parts)
            if id(n) in wanted:
                found[id(n)] = g
                continue
            for x, c in zip(n.inputs, _apply_rule(n, g)):
                if c is not None and id(x) in live and x.dtype.kind == "c":
                    tainted.setdefault(id(x), x)
                if c is not None and id(x) in live and x.dtype.kind == "f":
                    _accumulate(pending, x, c)
    finally:
        d.at(None)
    results = [found.get(id(t)) for t in targets]
    _settle(outputs, len(order))
    _settle([r for r in results if r is not None], len(order) + d.built() - start)
    return results


def _spread_taint(n: Node, source: Node, live: set[int], tainted: dict[int, Node]) -> None:
    """Taint the inputs of `n` that its rule would send a cotangent to (asked with a zero one)."""
    try:
        parts = _apply_rule(n, d.zeros(n.shape, n.dtype))
    except Exception:  # a rule that cannot take a complex cotangent: taint every input
        parts = n.inputs
    for x, c in zip(n.inputs, parts):
        if c is not None and id(x) in live:
            tainted.setdefault(id(x), source)


def _settle(nodes: Sequence[Node], size: int) -> None:
    """Node.pending over-estimates shared sub-graphs (2**T for a recurrence unrolled T times);
    cap it at this graph's real size, so the node budget cuts for real growth only, and a step's
    loss and gradients are evaluated together instead of being cut apart."""
    for n in nodes:
        n.pending = min(n.pending, size)


def _apply_rule(n: Node, g: Node) -> Sequence[Node | None]:
    op = n.op
    if not op.differentiable:
        if "derivative_not_implemented" in op.properties:  # a real derivative, not written yet
            raise _bind.fail(NotImplementedError, f"{op.name} has no derivative rule yet; "
                             "gradients cannot flow through it", n.site)
        return ()
    if op.vjp is None:
        raise _bind.fail(NotImplementedError, f"{op.name} has no derivative rule (graph/ entry "
                         "lacks `vjp`)", n.site)
    d.at(n.site)
    try:
        return op.vjp(g, n, n.inputs, n.attrs)
    except NotImplementedError as exc:
        raise _bind.fail(NotImplementedError, f"cannot differentiate {op.name}: {exc}",
                         n.site) from None


def _accumulate(pending: dict[int, list[Node]], node: Node, g: Node) -> None:
    if g.shape != node.shape or g.dtype != node.dtype:  # a rule's bug, caught where it happens
        raise AssertionError(f"{node.op.name}: cotangent {g} does not match {node}")
    pending.setdefault(id(node), []).append(g)


# --- tracing f -----------------------------------------------------------------------------------------
def _wrap(x: Array, site: Site) -> Array:
    n = x._node
    return Array(Node(_WRAP, (n,), (), n.shape, n.dtype, site=site))


class _Tracing:
    """While f runs for differentiation: graphs are not cut (a cut would evaluate an Array and
    detach it from the wrappers) and la.jit functions run inline (their plans have no graph)."""

    def __enter__(self) -> None:
        self._busy = cache.busy()
        self._busy.__enter__()
        inline_depth[0] += 1

    def __exit__(self, *exc: object) -> None:
        inline_depth[0] -= 1
        self._busy.__exit__(*exc)


def _trace(f: Callable, args: tuple, argnums: tuple[int, ...], has_aux: bool, site: Site
           ) -> tuple[Any, Any, list[Array], list[Any]]:
    """Run f with args[argnums] wrapped: (output, aux, wrappers, structure of each argnum)."""
    with _Tracing():  # (also while wrapping: an eager argument's wrapper must stay a node)
        return _trace_inside(f, list(args), argnums, has_aux, site)


def _trace_inside(f: Callable, args: list, argnums: tuple[int, ...], has_aux: bool, site: Site
                  ) -> tuple[Any, Any, list[Array], list[Any]]:
    wrappers: list[Array] = []
    structures = []
    for i in argnums:
        if i >= len(args):
            raise _bind.fail(TypeError, f"argnums {i} is out of range for {len(args)} positional "
                             "arguments", site)
        leaves, structure = tree_flatten(args[i])
        wrapped = [_wrap(_as_float_array(x, f"argument {i}", site), site) for x in leaves]
        wrappers += wrapped
        structures.append((structure, len(wrapped)))
        # f gets handles of its own: `x[i] = v` inside f rebinds its handle, and the gradient is
        # still the one w.r.t. the wrapped argument, not w.r.t. the value f stored into it.
        args[i] = tree_unflatten(structure, [Array(w._node) for w in wrapped])
    out = f(*args)
    aux = None
    if has_aux:
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise _bind.fail(TypeError, "has_aux=True needs f to return a pair (output, aux)", site)
        out, aux = out
    return out, aux, wrappers, structures


def _regroup(structures: list, grads: list[Array]) -> list[Any]:
    out, start = [], 0
    for structure, n in structures:
        out.append(tree_unflatten(structure, grads[start:start + n]))
        start += n
    return out


def _zeros_for(x: Node, g: Node | None) -> Array:
    return Array(g if g is not None else d.zeros(x.shape, x.dtype))


def _output_node(out: Any, site: Site) -> Node:
    if not isinstance(out, Array):
        raise _bind.fail(TypeError, f"grad needs f to return a scalar Array, not "
                         f"{type(out).__name__}", site)
    if out.shape != ():
        raise _bind.fail(TypeError, f"grad needs f to return a scalar (shape ()), not shape "
                         f"{out.shape}; use la.vjp for array outputs, or reduce (la.sum)", site)
    if out.dtype.kind != "f":
        raise _bind.fail(TypeError, f"grad needs a float output, not {out.dtype}", site)
    return out._node


# --- public API ------------------------------------------------------------------------------------
def value_and_grad(f: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False
                   ) -> Callable:
    """`f` -> a function returning (f(*args), gradient of f w.r.t. args[argnums]); all lazy.

    With has_aux, f returns (value, aux) and the result is ((value, aux), gradient). A tuple
    `argnums` gives a tuple of gradients; each gradient has its argument's tree structure.
    """
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def value_and_grad_f(*args: Any) -> Any:
        site = user_site(1)
        out, aux, wrappers, structures = _trace(f, args, nums, has_aux, site)
        y = _output_node(out, site)
        d.at(site)
        grads = backward([y], [d.const(1.0, y)], [w._node for w in wrappers])
        arrays = [_zeros_for(w._node, g) for w, g in zip(wrappers, grads)]
        regrouped = _regroup(structures, arrays)
        result = regrouped[0] if isinstance(argnums, int) else tuple(regrouped)
        return ((out, aux) if has_aux else out), result

    value_and_grad_f.__name__ = f"value_and_grad({getattr(f, '__name__', 'f')})"
    return value_and_grad_f


def grad(f: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False) -> Callable:
    """`f` (returning a float scalar) -> its gradient function, as `jax.grad`."""
    vg = value_and_grad(f, argnums, has_aux)

    def grad_f(*args: Any) -> Any:
        value, g = vg(*args)
        return (g, value[1]) if has_aux else g

    grad_f.__name__ = f"grad({getattr(f, '__name__', 'f')})"
    return grad_f


def vjp(f: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """(f(*primals), pullback) [, aux]: pullback(cotangent shaped like the output) returns a tuple
    with one cotangent per primal."""
    site = user_site(1)
    out, aux, wrappers, structures = _trace(f, primals, tuple(range(len(primals))), has_aux, site)
    out_leaves, out_structure = tree_flatten(out)
    out_nodes = [o._node for o in out_leaves]

    def pullback(cotangent: Any) -> tuple:
        where = user_site(1)
        leaves, structure = tree_flatten(cotangent)
        if structure != out_structure or len(leaves) != len(out_nodes):
            raise _bind.fail(ValueError, "the cotangent must have the structure of f's output",
                             where)
        cts = [_cotangent(c, o, where) for c, o in zip(leaves, out_nodes)]
        grads = backward(out_nodes, cts, [w._node for w in wrappers])
        arrays = [_zeros_for(w._node, g) for w, g in zip(wrappers, grads)]
        return tuple(_regroup(structures, arrays))

    return (out, pullback, aux) if has_aux else (out, pullback)


def _cotangent(c: Any, like: Node, site: Site) -> Node:
    node = _bind.operand(c, site)
    if not isinstance(node, Node):
        node = _bind.scalar_leaf(node[1], like.dtype, site)
    if node.shape != like.shape and node.shape != ():
        raise _bind.fail(ValueError, f"cotangent of shape {node.shape} for an output of shape "
                         f"{like.shape}", site)
    return _bind.broadcast_to(_bind.cast(node, like.dtype, site), like.shape, site)


def jvp(f: Callable, primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    """(f(*primals), the directional derivative of f at primals along tangents), as `jax.jvp`.

    Built by transposing the VJP (see the module docstring): no separate forward-mode rules."""
    site = user_site(1)
    primals, tangents = tuple(primals), tuple(tangents)
    if len(primals) != len(tangents):
        raise _bind.fail(ValueError, "jvp needs one tangent per primal", site)
    out, _, wrappers, _ = _trace(f, primals, tuple(range(len(primals))), False, site)
    out_leaves, out_structure = tree_flatten(out)
    d.at(site)
    probes = [Node(_WRAP, (d.zeros(o.shape, o.dtype),), (), o.shape, o.dtype, site=site)
              for o in out_leaves]  # u: the cotangent the VJP is linear in
    cts = backward([o._node for o in out_leaves], probes, [w._node for w in wrappers])
    t_leaves: list[Any] = []
    for t in tangents:
        t_leaves += tree_flatten(t)[0]
    if len(t_leaves) != len(wrappers):
        raise _bind.fail(ValueError, "tangents must have the structure of primals", site)
    pairs = [(c, _cotangent(t, w._node, site)) for c, t, w in zip(cts, t_leaves, wrappers)
             if c is not None]
    t_out = backward([c for c, _ in pairs], [t for _, t in pairs], probes)
    tangent_out = [_zeros_for(o._node, g) for o, g in zip(out_leaves, t_out)]
    return out, tree_unflatten(out_structure, tangent_out)


def stop_gradient(x: Any) -> Any:
    """x unchanged (the passes fold it away), but derivatives do not flow through it."""
    site = user_site(1)
    leaves, structure = tree_flatten(x)
    out = []
    for leaf in leaves:
        n = leaf._node if isinstance(leaf, Array) else _bind.leaf(_bind.host_array(leaf), site)
        out.append(Array(Node(_STOP, (n,), (), n.shape, n.dtype, site=site)))
    return tree_unflatten(structure, out)


__all__ = ["grad", "jvp", "stop_gradient", "value_and_grad", "vjp"]
