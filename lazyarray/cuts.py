"""Where the node budget cuts a pending graph: at a point where the program repeats.

Loops that never look at their state (`v = v*0.9 + g; w = w - v*0.01`) grow pending graphs until the
node budget cuts them. Cutting only the inputs of the node that crossed the budget leaves other state
pending, so every segment has a different structure and every cut builds a new plan. Instead:

- the first crossing picks the program point of the node that crossed: the user's code object,
  bytecode offset and the node's op (one instruction can build several nodes); later crossings
  wait until the program next builds a node at that point;
- there, every live pending Array (weak references, in creation order) and the new node's inputs
  are evaluated as one graph and become leaves.

Each segment then starts from leaves at the same point of the loop body, so it has the same
structure as the one before and hits the plan built for it: a steady state of one plan for any
number of state variables. If the point does not recur within `budget` nodes (straight-line code,
a different loop), the cut happens where it is and the point is forgotten: the next crossing
picks a new one. A crossing whose graph reads none of the leaves the last cut made (a new call
of the function, on new inputs) also starts with no point, as the first call did.

A crossing is decided on the exact size of the new node's pending graph (`_crosses`), not on the
over-estimates that call the hook: those depend on the history (a previous call's tail, dead
nodes), so the same program would cross, and cut, at other nodes in its second call than in its
first. Decided exactly, and with no point carried over, a second call with the same sizes cuts
where the first did and builds no plan (tests/test_program_plans.py, over the corpus).

The count that calls the hook is an over-estimate (`graph.node`: nodes built since the last cut).
After an evaluation that was not a cut (the end of a training function's call: `la.eval(w)`) the
nodes built before it are no longer pending, so a check that finds no crossing recounts what live
Arrays really hold and, when that is within the budget, counts the segment from there (the next
check comes when a crossing is possible again); a wait for the point that an evaluation
interrupted is recounted the same way (and forgotten when within the budget).

After a cut at a recurring point the hook stays on for two more visits of the point, which give
the iterations' lengths in build order: the tail after the last cut (what the program evaluates
at the end, `steps mod k` iterations) then runs in chunks of whole iterations whose plans repeat
(lazyarray/tails.py), instead of one plan per remainder.
"""

from __future__ import annotations

import gc
import sys
import weakref
from typing import Any

import numpy as np

from . import _bind, cache, donation
from .graph.node import (
    _IS_LIBRARY,
    Node,
    _compiled,
    _is_library_file,
    built_count,
    built_in_segment,
    set_cut_threshold,
    start_segment,
)
from .tails import TAIL, forget_tail, forget_whole, operations_reading

_LIVE: list[weakref.ref] = []  # weak references to Arrays made on pending nodes, creation order
# Prune the list past this length (amortized O(1) per Array: the limit is at least twice the
# Arrays alive after a prune). Small, because the weak references are objects the garbage
# collector tracks: 4096 of them kept a few thousand objects alive across collections, which
# promoted them to the oldest generation and so triggered full collections (~150 ms with JAX's
# heap loaded, one per ~30,000 evaluations of a 10-op expression: ~4 us per evaluation on
# average; bench_overhead's implicit path and MLP loop). At 256 the young generation's count of
# live objects stays below its threshold and no collection runs at all in such a loop.
_MIN_LIMIT = 256
_LIMIT = [_MIN_LIMIT]
# evaluation.evaluate_nodes, set by lazyarray.evaluation (which imports this module)
EVALUATE_NODES: list = [None]
# lazyarray/eager.py's LIMIT (eager_size where the at-once rule applies, else 0), set by it
AT_ONCE_LIMIT: list = [0]
# A cut's results up to this many elements (and eager_size) continue at once (`_at_once`): at
# 3-512 elements a loop of three elementwise lines ran 1.2-1.7x NumPy at once against 2.2-5.3x
# cut; at 4,096 fusing 100 nodes a plan was the faster (0.94x against 1.5x).
AT_ONCE_CUT_MAX = 1024


def track(array: Any) -> None:
    """Called by `Array.__init__` for an Array on a pending node."""
    _LIVE.append(weakref.ref(array))
    if len(_LIVE) > _LIMIT[0]:
        _prune()


def forget(nodes: list[Node]) -> None:
    """Stop tracking the Arrays on these nodes: their evaluation failed (an index out of bounds,
    an interrupt), so a cut must not evaluate them again with unrelated work; they stay pending
    and raise again when looked at. The error path only."""
    failed = {id(n) for n in nodes}
    _LIVE[:] = [r for r in _LIVE if (a := r()) is not None and id(a._node) not in failed]


def live_pending() -> list[Any]:
    """The live Arrays on pending nodes, in creation order (and the list pruned to them); the
    view ring's dropped views let go first (`_release_view_ring`)."""
    _release_view_ring()
    return _prune()


def _prune() -> list[Any]:
    alive = []
    refs = []
    for r in _LIVE:
        a = r()
        if a is not None and a._node.inputs:
            alive.append(a)
            refs.append(r)
    _LIVE[:] = refs
    _LIMIT[0] = max(_MIN_LIMIT, 2 * len(refs))
    return alive


class _State:
    budget = 10_000
    point: Any = None  # (code, bytecode offset) where cuts happen
    waiting = False  # the budget was crossed: cut when the program next enters `point`
    waited = 0
    cut_point: Any = None
    after = 0
    evaluations = -1  # plan-cache lookups when the count was last exact (a cut, a recount)
    replaced: dict[int, tuple[Node, Node]] = {}  # id(pending node) -> (node, its result leaf)
    cut_leaves: dict[int, weakref.ref] = {}  # id -> weak reference: the leaves the last cut made
    over = False  # the last exact count of everything pending was over the budget
    survey: Any = None  # the point whose next visits measure the iterations (after a cut there)
    surveyed = 0  # nodes seen while surveying
    tail_start = 0  # `order` of the node the last cut's point built (the tail's first)
    first_visit: Any = None  # `order` of the node the point built next after the cut


_STATE = _State()
_AFTER = 16  # nodes after a cut that may still get pre-cut operands (the rest of one instruction)


def configure(budget: int) -> None:
    """A new node budget: forget any wait (settings listener)."""
    st = _STATE
    st.budget, st.waiting, st.replaced, st.point = budget, False, {}, None
    st.cut_leaves = {}
    st.survey = None
    forget_tail()
    st.evaluations = -1
    set_cut_threshold(budget)
    if not _prune():  # nothing pending: count the next segment from here (exact, not per use)
        start_segment()


def reset() -> None:
    """Forget the cut point and any wait (`la.clear_caches()`): the next crossing picks a new
    point, as in a fresh process. Where a pending Array is still alive, garbage is collected
    first: a reference cycle left by earlier code counts as live for the node budget and the
    sibling search, and the next evaluations built other plans than in a fresh process
    (plan-count tests failed by test order). Only then: a collection per call cost the test
    suite minutes."""
    for r in _LIVE:
        if r() is not None:
            gc.collect()
            break
    forget_whole()
    configure(_STATE.budget)


def _evaluations() -> int:
    plans = cache.plan_cache
    return plans.plans_built + plans.plan_hits


def _count_pending(nodes: list[Node]) -> int:
    """Distinct operation nodes (leaves not counted) of these nodes' graphs."""
    return _walk(nodes)[0]


def _walk(nodes: list[Node]) -> tuple[int, bool]:
    """Distinct operation nodes of these nodes' graphs, and whether they read a leaf that the
    last cut made."""
    seen, reads_cut = operations_reading([n for n in nodes if n.inputs], _STATE.cut_leaves)
    return len(seen), reads_cut


def _recounted_within_budget(inputs: tuple[Node, ...]) -> bool:
    """After an evaluation since the count was last exact: count the live pending graph (and
    the new node's inputs) exactly; within the budget, the segment counts from that."""
    st = _STATE
    done = _evaluations()
    if done == st.evaluations:
        return False
    st.evaluations = done
    pending = _count_pending([a._node for a in _prune()] + list(inputs))
    if pending >= st.budget:  # the new node makes pending + 1
        return False
    start_segment(pending)
    return True


def _crosses(inputs: tuple[Node, ...]) -> bool:
    """Whether the node about to be built on `inputs` makes a pending graph of more than `budget`
    operations, counted exactly (distinct nodes): the cheap counts that call the hook
    (`Node.pending` sums a shared sub-graph once per use; `built_in_segment` counts dead nodes and
    the tail of a previous call) over-estimate it by amounts that depend on the history, so a
    crossing decided on them lands at a different node in a second call than in the first, and
    every later segment then differs too. Decided exactly, the crossing is a function of what the
    program holds, so calls with the same sizes cross, and cut, at the same nodes. Not crossing:
    the segment restarts from the exact count of everything pending, which keeps
    `built_in_segment` an upper bound (the next check comes no sooner than it could cross)."""
    st = _STATE
    size, reads_cut = _walk(list(inputs))
    if size + 1 > st.budget:
        if not reads_cut:
            # A graph that does not continue from the last cut (a new call of the function, on
            # new inputs): start as the first call did, with no point to wait for. Else where
            # the previous call left the point decides where this call cuts first.
            st.point = None
        return True
    done = _evaluations()
    if st.over and done == st.evaluations:
        return False  # all that is pending was over the budget at the last check: still is, mostly
    st.evaluations = done
    pending = _count_pending([a._node for a in _prune()] + list(inputs))
    st.over = pending >= st.budget
    if not st.over:
        start_segment(pending)
    return False


def _user_point(op: Any) -> Any:
    frame = sys._getframe(2)
    known = _IS_LIBRARY.get
    while frame is not None:
        filename = frame.f_code.co_filename
        lib = known(filename)
        if lib is None:
            lib = _is_library_file(filename)
        if not lib:
            return frame.f_code, frame.f_lasti, op
        frame = frame.f_back
    return None


# graph/_node.c's walk (~0.05 us instead of ~0.4 us: the hook asks on every node while a cut waits
# for its point); `_user_point` is its reference and the pure-Python path.
_c_user_point = getattr(_compiled, "user_point", None)


def _substitute(inputs: tuple[Node, ...]) -> tuple[Node, ...]:
    replaced = _STATE.replaced
    return tuple([replaced[id(n)][1] if id(n) in replaced else n for n in inputs])


def substitute_after(replaced: dict[int, tuple[Node, Node]], op: Any) -> None:
    """Pending nodes were computed inside a node's construction for another reason than the
    budget (lazyarray/fp_state.py: NumPy's error state changed): `replaced` maps each to its
    result leaf. Library code may still hold them for the rest of the user's instruction (a
    composite's later nodes read its operands again), so they are substituted there, as after
    a cut, not computed again."""
    st = _STATE
    point = _user_point(op) if _c_user_point is None else _c_user_point(2, op)
    if point is None:
        return
    if st.replaced and st.cut_point is not None and st.cut_point[:2] == point[:2]:
        replaced = {**st.replaced, **replaced}
    st.replaced, st.cut_point, st.after = dict(replaced), point, _AFTER
    set_cut_threshold(-1)  # (cut_hook substitutes, then restores the threshold)


def cut_hook(inputs: tuple[Node, ...], op: Any) -> tuple[Node, ...]:
    """Node-budget hook (graph.node): called past the budget, and for every node while waiting
    for the cut point or just after a cut (library code may still hold pre-cut operands)."""
    if cache.is_busy():
        return inputs
    st = _STATE
    point = _user_point(op) if _c_user_point is None else _c_user_point(2, op)
    if st.survey is not None:
        _survey(point)
    if st.replaced:
        st.after -= 1
        if point[:2] == st.cut_point[:2] and st.after > 0:
            inputs = _substitute(inputs)
        else:
            st.replaced = {}
            if not st.waiting and st.survey is None:
                set_cut_threshold(st.budget)
    if st.waiting:
        if _recounted_within_budget(inputs):  # evaluated while waiting (a call's `la.eval`)
            st.waiting = False
            set_cut_threshold(st.budget)
            return inputs
    else:
        if st.survey is not None and 1 + sum([n.pending for n in inputs]) <= st.budget:
            return inputs  # called only to find the point again: no serial taken
        if min(1 + sum([n.pending for n in inputs]), built_in_segment()) <= st.budget:
            return inputs
        if not _crosses(inputs):
            return inputs
        if st.point is None:
            st.point = point
        st.waiting, st.waited = True, 0
        set_cut_threshold(-1)
    st.waited += 1
    if point == st.point:
        return _cut(inputs, point)
    if st.waited <= st.budget:
        return inputs
    # The point did not recur (another loop, or code the loop has left): cut here and forget the
    # point, so that the next crossing picks one where it happens (in the loop running then).
    # Adopting this node as the point instead makes the point a call's first crossing waits for
    # depend on where the previous call timed out: the second call then cuts elsewhere than the
    # first, and builds new plans (finding 5 of the corpus: adi, ludcmp).
    st.point = None
    return _cut(inputs, point)


def _survey(point: Any) -> None:
    """While surveying (after a cut at a point that recurs): at each of the point's next two
    visits, the iteration that ended built `built_count() + 1 - (its start)` nodes. The first
    iteration after a cut may build other nodes than the rest (a cut inside `x[a:b] += v`), so
    the second one gives the period; from the first visit on an evaluation of the tail may split
    it at iteration boundaries (lazyarray/tails.py). A point that does not come back within
    `budget` nodes measures nothing more."""
    st = _STATE
    if point == st.survey:
        now = built_count() + 1
        if st.first_visit is None:
            st.first_visit = now
            TAIL[0] = (st.tail_start, now, now - st.tail_start, st.cut_leaves, point)
            st.surveyed = 0
        else:
            TAIL[0] = (st.tail_start, st.first_visit, now - st.first_visit, st.cut_leaves,
                       point)
            st.survey = None
    else:
        st.surveyed += 1
        if st.surveyed > st.budget:
            st.survey = None
    if st.survey is None and not st.replaced and not st.waiting:
        set_cut_threshold(st.budget)


def _evaluate_separately(nodes: list[Node], inputs: tuple[Node, ...]
                         ) -> tuple[list[Node], list[Node]]:
    """A cut evaluates every live pending Array, also ones unrelated to the op being built: one
    whose evaluation fails (an index out of bounds the user caught, still referenced from the
    traceback) must not fail this op, nor every later cut. Each node alone, then: a failing one
    stays pending (and untracked: it raises when it is looked at), unless this op reads it."""
    done, results = [], []
    for n in nodes:
        try:
            (r,) = EVALUATE_NODES[0]([n])
        except Exception:
            if any(n is i for i in inputs):
                raise
            continue
        done.append(n)
        results.append(r)
    return done, results


def _release_view_ring() -> None:
    """_trace.c's view ring lets go of the dropped views it keeps to hand out again: each holds
    its root, which may since have been written lazily (`w = A[:2]; w /= 0` under eager_size=0)
    and dropped; a cut evaluates every live pending Array, and evaluated that dead root, with
    its flags, at an unrelated statement (fuzz40; the same as evaluation.evaluate does)."""
    fast = _bind.FAST
    if fast is not None:
        fast.release_view_ring()


def _at_once(result: Node, limit: int) -> Node:
    """A cut's result of at most eager_size elements as an at-once leaf: ops reading it then run
    at once (lazyarray/eager.py), as an index loop's do. A loop over small arrays that never
    evaluates inside (`v = 0.9 * v + 0.1 * g; w = w - 0.01 * v` of 3 elements) was cut every ~20
    steps, each cut ~0.2 ms of Python (the survey, the walks, a plan's hit) for 100 nodes of
    work NumPy does in ~1 us each."""
    if (result.inputs or result.attrs is _bind.AT_ONCE_MARK or result.size > limit
            or type(result.data) is not np.ndarray):
        return result
    return _bind.at_once_leaf(result.data, result.site)


def _cut(inputs: tuple[Node, ...], point: Any) -> tuple[Node, ...]:
    forget_tail()  # this cut's own evaluation is not the last cut's tail
    _release_view_ring()
    arrays = _prune()
    nodes = list(dict.fromkeys([a._node for a in arrays] + [n for n in inputs if n.inputs]))
    try:
        with donation.allowed():  # every pending Array is evaluated and rebound: dead inputs
            results = EVALUATE_NODES[0](nodes) if nodes else []  # may be written over
    except Exception:
        nodes, results = _evaluate_separately(nodes, inputs)
    limit = min(AT_ONCE_LIMIT[0], AT_ONCE_CUT_MAX)
    if limit and all(r.size <= limit for r in results):  # (a loop whose whole state is small:
        results = [_at_once(r, limit) for r in results]  # one large value keeps fusing it all)
    st = _STATE
    st.replaced = {id(n): (n, r) for n, r in zip(nodes, results)}
    st.cut_leaves = {id(r): weakref.ref(r) for r in results}
    st.over = False
    for a in arrays:  # an Array listed twice (`x[i] = v` tracks it again) is replaced once
        a._node = st.replaced.get(id(a._node), (None, a._node))[1]
    _LIVE.clear()
    st.waiting, st.cut_point, st.after = False, point, _AFTER
    st.evaluations = _evaluations()
    set_cut_threshold(-1)  # until the program leaves this point: substitute pre-cut operands
    # At a point that recurs (not a timed-out wait): watch for its next two visits, which measure
    # the iterations (`_survey`); the node being built now at `point` is the tail's first.
    st.survey = point if point == st.point else None
    st.surveyed = 0
    st.tail_start = built_count() + 1
    st.first_visit = None
    cache.counters.graph_cuts += 1
    start_segment()  # nothing built before is pending now (but `inputs`: substituted below)
    return _substitute(inputs)
