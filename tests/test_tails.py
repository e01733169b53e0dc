"""The tail of a cut loop runs in chunks of whole iterations whose plans repeat (issue 25, "cuts
that amortize"; lazyarray/tails.py).

A loop never evaluated inside is cut every k-th time around; what the program evaluates at the
end holds the `steps mod k` iterations since the last cut. Evaluated whole, each remainder was a
new plan (`acc = acc + v * 0.5` over 200..239 steps: 42 plans in 40 calls). Now a cut point's
first tail is evaluated whole (one plan, as before: a program called once or always with the same
steps pays nothing more), and a tail whose own plan is not cached runs as chunks of 1, 4, 16, ...
whole iterations (base-4 digits of the remainder) and a final piece, so every remainder shares a
bounded set of plans. Values are compared with NumPy on every backend;
counts come from `la.cache_info()`.

Arrays have 20,000 elements: well above the size at which small operations run at once (the
eager path of issue 25), so each loop builds its graph as programs with real data do.
"""

from __future__ import annotations

import gc
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_loops import LOOPS, accumulate

import lazyarray as la
from lazyarray import tails

N = 20_000


def _start(k: int, size: int = N) -> list[np.ndarray]:
    return [np.linspace(0.5, 1.0, size, dtype=np.float32) + i for i in range(k)]


def _call(name: str, steps: int, size: int = N) -> tuple[int, int]:
    """One call of loop `name` from fresh starts, checked against NumPy: (plans built, plan
    evaluations) over the call."""
    fn, k = LOOPS[name]
    start = _start(k, size)
    before = la.cache_info()
    got = la.eval(*fn(la, *[la.array(x) for x in start], steps))
    after = la.cache_info()
    with np.errstate(over="ignore"):
        want = fn(np, *start, steps)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), w, rtol=2e-5)
    return (after.plans_built - before.plans_built,
            after.plans_built + after.plan_hits - before.plans_built - before.plan_hits)


# (loop, budget, steps): k, the iterations per cut, is ~20-30 for each; 40 step counts cover every
# remainder at least once.
SWEEPS = [("accumulate", 40, range(100, 140)), ("momentum", 60, range(60, 100)),
          ("fibonacci", 30, range(100, 140))]


@pytest.mark.parametrize(("name", "budget", "steps"), SWEEPS, ids=[s[0] for s in SWEEPS])
def test_tails_of_every_remainder_share_a_bounded_set_of_plans(name, budget, steps, backend,
                                                              fresh_caches):
    """The first sweep builds the first segment's plan, the steady one's, the first tail's, one
    per chunk length (1, 4, 16 below k ~ 20-30) and the final piece's: <= 7, where evaluating
    each tail whole built one per remainder (22-31 here). A second sweep builds none."""
    with la.config(max_graph_nodes=budget):
        first = [_call(name, s)[0] for s in steps]
        again = [_call(name, s)[0] for s in steps]
    assert sum(first) <= 7, first
    assert sum(again) == 0, again


def test_the_issues_accumulator_builds_a_bounded_set_of_plans(fresh_caches):
    """The issue's figure: `acc = acc + v * 0.5` (default budget, k ~ 50) over 200..239 steps
    built 42 plans in 40 calls. Now the first segment, the steady one, the first tail, chunks of
    1, 4 and 16 iterations (k < 64) and the final piece: <= 7."""
    with la.config(backend="numpy"):
        built = [_call("accumulate", s)[0] for s in range(200, 240)]
    assert sum(built) <= 7, built


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_a_tail_runs_one_evaluation_per_chunk_and_the_values_are_numpys(name, backend,
                                                                       fresh_caches):
    """White-box: after a first call (its tail evaluated whole), the final evaluation of a tail of
    `r` whole iterations runs one chunk per base-4 digit unit of `r` and the final piece, and
    gives NumPy's values."""
    fn, k = LOOPS[name]
    with la.config(max_graph_nodes=150):
        for steps in (300, 350, 389):  # a cut point's first tail runs whole; the last is checked
            start = _start(k)
            out = fn(la, *[la.array(x) for x in start], steps)
            if tails.TAIL[0] is None:
                la.eval(*out)
                continue
            _, first, period, _, _ = tails.TAIL[0]
            whole = (max(a._node.order for a in out if a._node.inputs) - first) // period + 1
            before = la.cache_info()
            got = la.eval(*out)
            after = la.cache_info()
            runs = (after.plans_built + after.plan_hits - before.plans_built - before.plan_hits)
            with np.errstate(over="ignore"):
                want = fn(np, *start, steps)
            for g, w in zip(got, want):
                np.testing.assert_allclose(np.asarray(g), w, rtol=2e-5)
    assert whole >= 2
    assert runs == len(tails._chunks(whole)) + 1, (runs, whole)


def test_values_kept_from_inside_the_tail_are_evaluated_with_it(backend, fresh_caches):
    """Arrays held from the middle of the tail are outputs of earlier chunks: evaluated together
    with the end, each is NumPy's."""
    start = _start(2)
    kept_la, kept_np = [], []
    with la.config(max_graph_nodes=60):
        acc, v = (la.array(x) for x in start)
        acc_np, v_np = start
        for i in range(177):
            acc = acc + v * 0.5
            acc_np = acc_np + v_np * np.float32(0.5)
            if i > 150 and i % 5 == 0:  # after the last cut at this budget
                kept_la.append(acc)
                kept_np.append(acc_np)
        got = la.eval(acc, *kept_la)
    for g, w in zip(got, [acc_np, *kept_np]):
        np.testing.assert_array_equal(np.asarray(g), w)


def test_two_arrays_of_one_tail_evaluated_one_after_the_other(backend, fresh_caches):
    """`np.asarray(w)` then `np.asarray(v)`: the second still reads the cut's leaves and is split
    the same way; both are NumPy's."""
    start = _start(2)
    with la.config(max_graph_nodes=80):
        w, v = LOOPS["momentum"][0](la, *[la.array(x) for x in start], 143)
        w_np, v_np = LOOPS["momentum"][0](np, *start, 143)
        np.testing.assert_allclose(np.asarray(w), w_np, rtol=2e-5)
        np.testing.assert_allclose(np.asarray(v), v_np, rtol=2e-5)


def test_a_graph_built_after_the_loop_is_evaluated_whole(fresh_caches):
    """A new computation on fresh inputs, built after the loop and evaluated while the loop's
    tail is still held, reads none of the cut's leaves: one evaluation, not chunks."""
    start = _start(2)
    with la.config(backend="numpy", max_graph_nodes=60):
        acc, v = accumulate(la, *[la.array(x) for x in start], 131)
        assert tails.TAIL[0] is not None
        y = la.array(start[0])
        y_np = start[0]
        for _ in range(25):  # many periods of the loop (2 nodes), within the budget
            y = y * 1.0001 + 0.5
            y_np = y_np * np.float32(1.0001) + np.float32(0.5)
        before = la.cache_info()
        got = np.asarray(y)
        after = la.cache_info()
        assert after.plans_built + after.plan_hits - before.plans_built - before.plan_hits == 1
        np.testing.assert_array_equal(got, y_np)
        np.testing.assert_allclose(np.asarray(acc), accumulate(np, *start, 131)[0], rtol=2e-5)


def test_iterations_that_differ_are_evaluated_whole(fresh_caches):
    """A body whose operations change with the step (every third step another op) has no
    repeating iteration at the cut point's period: its tail is evaluated whole (one run), and
    a second call with the same steps builds no plan."""
    def body(xp, x, steps):
        for i in range(steps):
            x = x * 0.999 if i % 3 else xp.sqrt(x) + 0.5
        return x

    start = _start(1)[0]
    with la.config(backend="numpy", max_graph_nodes=50):
        for call in range(2):
            before = la.cache_info()
            got = np.asarray(body(la, la.array(start), 100))
            after = la.cache_info()
            np.testing.assert_allclose(got, body(np, start, 100), rtol=2e-5)
            if call:
                assert after.plans_built == before.plans_built


def _select(xp, a, b, steps):
    for _ in range(steps):
        a = xp.where(a > 1.5, a * 0.5, a + 0.1)
    return a, b


def _running_sum(xp, a, b, steps):  # a reduction into a 0-d state each step
    s = xp.sum(a) * 0.0
    for _ in range(steps):
        s = s + xp.sum(a) * 1e-6
        a = a * 0.999
    return a, s


def _rotate(xp, a, b, steps):
    for _ in range(steps):
        a = xp.concatenate([a[1:], a[:1]]) * 1.0001
    return a, b


def _running_max(xp, a, b, steps):
    m = a
    for _ in range(steps):
        m = xp.maximum(m, a)
        a = a * 1.001 - b * 0.0005
    return a, m


def _in_place(xp, a, b, steps):
    a = a.copy() if xp is np else a
    for _ in range(steps):
        a[1:5] = a[1:5] * 0.5 + 0.1
        a[7] = a[7] + b[7]
    return a, b


BODIES = {**{name: fn for name, (fn, _) in LOOPS.items()}, "select": _select,
          "running_sum": _running_sum, "rotate": _rotate, "running_max": _running_max,
          "in_place": _in_place}


@st.composite
def body_budget_steps(draw):
    name = draw(st.sampled_from(sorted(BODIES)))
    return name, draw(st.integers(15, 200)), draw(st.lists(st.integers(0, 300), min_size=2,
                                                           max_size=2))


@settings(max_examples=8, deadline=None)
@given(case=body_budget_steps())
def test_tails_at_drawn_bodies_budgets_and_steps(case):
    """Any body (state updates, selects, reductions, rotations, writes), budget and two step
    counts: NumPy's values on every call (float64: the split reorders nothing, so to 1e-12), and
    calling again with the second count builds no plan."""
    name, budget, (s1, s2) = case
    fn = BODIES[name]
    k = LOOPS[name][1] if name in LOOPS else 2
    start = [np.linspace(0.5, 2.0, N) + i * 0.1 for i in range(k)]
    la.clear_caches()
    try:
        with la.config(backend="numpy", max_graph_nodes=budget), np.errstate(all="ignore"):
            for call, steps in enumerate((s1, s2, s2)):
                before = la.cache_info().plans_built
                got = la.eval(*fn(la, *[la.array(x) for x in start], steps))
                built = la.cache_info().plans_built - before
                want = fn(np, *[x.copy() for x in start], steps)
                for g, w in zip(got, want):
                    np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12, err_msg=str(case))
    finally:
        la.clear_caches()
    assert built == 0, (case, built)


@pytest.mark.exhaustive
@settings(max_examples=25, deadline=None)
@given(case=body_budget_steps())
def test_tails_at_more_drawn_bodies_budgets_and_steps(case):
    """The fast tier draws 8 cases (~2.5 s of CPU); this tier 25."""
    test_tails_at_drawn_bodies_budgets_and_steps.hypothesis.inner_test(case)


def _writes(xp, x, v, steps):
    """Writes through an index and a slice every step (scatter nodes in the tail)."""
    for _ in range(steps):
        x[3] = x[3] * 0.5 + 1.0
        x[2:10] += v[2:10] * 0.25
    return x


def test_a_tail_of_element_and_slice_writes_is_numpys(backend, fresh_caches):
    """Writes through an index and a slice every step: NumPy's values, the tail split (cut inside
    the `+=` instruction, the first iterations after a cut differ from the rest and run as a chunk
    of their own: `tails._lead`), and a call with steps seen before builds no plan."""
    start = _start(2)
    with la.config(max_graph_nodes=150):
        for steps in (97, 103, 103):  # the first tail is evaluated whole, the next split
            before = la.cache_info()
            x = _writes(la, la.array(start[0]), la.array(start[1]), steps)
            traced = la.cache_info()
            got = np.asarray(x)
            after = la.cache_info()
            np.testing.assert_allclose(got, _writes(np, start[0].copy(), start[1], steps),
                                       rtol=2e-6)
    assert after.plans_built == before.plans_built
    assert after.graph_cuts > before.graph_cuts
    assert after.plans_built + after.plan_hits - traced.plans_built - traced.plan_hits > 1


def test_garbage_cycles_holding_pending_arrays_do_not_change_the_plans(fresh_caches):
    """A reference cycle left by earlier code still holds its pending Arrays until the garbage
    collector runs; the node budget counted them as live and the sweep built 8 plans, not 7, in
    whichever test worker had such garbage. `la.clear_caches()` collects it first."""

    class Holder:
        pass

    gc.disable()
    try:
        for k in range(50):
            h = Holder()
            h.self, h.value = h, la.array(np.ones(1000, np.float32)) * 2 + k
        del h
        la.clear_caches()
        with la.config(max_graph_nodes=40):
            built = [_call("accumulate", s)[0] for s in range(100, 140)]
    finally:
        gc.enable()
    assert sum(built) <= 7, built
