"""Loops as people write them, never evaluated inside: the node budget cuts where the loop body
repeats and evaluates every live pending Array, so each segment has the same structure and the
plan built for the first full segment serves every later one (lazyarray/cuts.py)."""

import numpy as np
import pytest

import lazyarray as la


def momentum(xp, w, v, steps):
    for _ in range(steps):
        g = w * 0.5
        v = v * 0.9 + g
        w = w - v * 0.01
    return w, v


def fibonacci(xp, a, b, steps):
    for _ in range(steps):
        a, b = b, a + b
    return a, b


def adam(xp, w, m, s, t, steps):
    for _ in range(steps):
        g = w * 0.1 - 0.05
        m = m * 0.9 + g * 0.1
        s = s * 0.999 + g * g * 0.001
        t = t + 1.0
        w = w - m / (xp.sqrt(s) + 1e-8) * 0.001
    return w, m, s, t


def accumulate(xp, acc, v, steps):
    for _ in range(steps):
        acc = acc + v * 0.5
    return acc, v


LOOPS = {
    "momentum": (momentum, 2),
    "fibonacci": (fibonacci, 2),
    "adam": (adam, 4),
    "accumulate": (accumulate, 2),
}


def run_loop(name, steps, budget, size=8):
    fn, k = LOOPS[name]
    start = [np.linspace(0.5, 1.0, size, dtype=np.float32) + i for i in range(k)]
    with la.config(max_graph_nodes=budget):
        got = fn(la, *[la.array(x) for x in start], steps)
        info = la.cache_info()
        built_in_loop = info.plans_built
        cuts = info.graph_cuts
        # compiles: at most one kernel per plan (each segment is one elementwise kernel)
        assert info.kernels_compiled <= built_in_loop, info
        la.eval(*got)
    want = fn(np, *start, steps)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), w, rtol=2e-5)
    return built_in_loop, cuts


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_unevaluated_loop_reaches_one_plan(name, backend, fresh_caches):
    """Many cuts, but after the first segment every cut hits one plan: <= 3 plans in all."""
    fib = name == "fibonacci"  # one node a step; float32 overflows past ~185 steps
    steps, budget = (180, 30) if fib else (200, 60)
    built, cuts = run_loop(name, steps, budget=budget)
    assert cuts >= 5, cuts
    assert built <= 3, (built, cuts)


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_a_loop_function_called_again_builds_no_plan(name, backend, fresh_caches):
    """A training function called once per epoch: its cuts fall at the same steps in every call
    (the count restarts exactly after the previous call's evaluation, and a wait for the cut point
    that evaluation interrupted is forgotten), so calls 2..k hit the plans of the first."""
    fn, k = LOOPS[name]
    steps = 150 if name == "fibonacci" else 200
    start = [np.linspace(0.5, 1.0, 8, dtype=np.float32) + i for i in range(k)]
    want = fn(np, *start, steps)
    built = []
    with la.config(max_graph_nodes=40):
        for _ in range(4):
            before = la.cache_info()
            got = la.eval(*fn(la, *[la.array(x) for x in start], steps))
            after = la.cache_info()
            built.append(after.plans_built - before.plans_built)
            assert after.graph_cuts - before.graph_cuts >= 3
            for g, w in zip(got, want):
                np.testing.assert_allclose(np.asarray(g), w, rtol=2e-5)
    assert built[0] >= 1 and built[1:] == [0, 0, 0], built


def test_every_live_pending_array_is_evaluated_at_a_cut(fresh_caches):
    x = la.array(np.ones(4, np.float32))
    side = x * 3.0  # pending, unrelated to the loop
    acc = x
    with la.config(max_graph_nodes=30):
        for _ in range(40):
            acc = acc + x
    assert la.cache_info().graph_cuts >= 1
    assert not side._node.inputs  # evaluated with the loop state: later segments start from leaves
    np.testing.assert_array_equal(np.asarray(side), np.full(4, 3.0, np.float32))
    np.testing.assert_array_equal(np.asarray(acc), np.full(4, 41.0, np.float32))


def test_straight_line_code_is_still_bounded(fresh_caches):
    """No repeating point: the cut falls back to where the budget ran out."""
    x = la.array(np.ones(3, np.float32))
    y = x
    with la.config(max_graph_nodes=20):
        y = y + 1.0; y = y + 1.0; y = y + 1.0; y = y + 1.0; y = y + 1.0; y = y + 1.0  # noqa: E702
        y = y * 1.0; y = y * 1.0; y = y * 1.0; y = y * 1.0; y = y * 1.0; y = y * 1.0  # noqa: E702
        y = y - 1.0; y = y - 1.0; y = y - 1.0; y = y - 1.0; y = y - 1.0; y = y - 1.0  # noqa: E702
        y = y + 2.0; y = y + 2.0; y = y + 2.0; y = y + 2.0; y = y + 2.0; y = y + 2.0  # noqa: E702
    assert la.cache_info().graph_cuts >= 1
    np.testing.assert_array_equal(np.asarray(y), np.full(3, 13.0, np.float32))


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", sorted(LOOPS))
def test_long_unevaluated_loops_at_the_default_budget(name, backend, fresh_caches):
    steps = 300 if name == "fibonacci" else 3000
    with np.errstate(over="ignore"):
        built, cuts = run_loop(name, steps, budget=500)  # the default
    assert built <= 3, (built, cuts)


def test_clear_caches_forgets_the_cut_point(fresh_caches):
    """The cut point is cache state: after `la.clear_caches()` the next crossing picks a new one."""
    from lazyarray import cuts

    x = la.array(np.ones(4, np.float32))
    acc = x
    with la.config(max_graph_nodes=30):
        for _ in range(40):
            acc = acc + x
        assert cuts._STATE.point is not None
        la.clear_caches()
        assert cuts._STATE.point is None and not cuts._STATE.waiting
        for _ in range(40):
            acc = acc * 1.0
    assert la.cache_info().graph_cuts >= 1
    np.testing.assert_allclose(np.asarray(acc), np.full(4, 41, np.float32))


def test_loop_that_evaluates_its_residual_reuses_one_plan(backend, fresh_caches):
    """Jacobi iteration tested by `float(max(abs(r)))`: the live state (`x`, `r`) is computed as
    part of that evaluation and kept, so the next iteration starts from leaves. It used to stay
    pending: each iteration recomputed all earlier ones and built a new, deeper plan."""
    rng = np.random.default_rng(0)
    a0 = rng.random((6, 6)) + 6 * np.eye(6)
    b0 = rng.random(6)
    with la.config(backend=backend):
        a, b = la.array(a0), la.array(b0)
        d = la.linalg.diagonal(a)
        off = a * (1.0 - la.eye(6))
        x, steps = la.zeros(6), 0
        while True:
            x_new = (b - off @ x) / d
            r = x_new - x
            x, steps = x_new, steps + 1
            if float(la.max(la.abs(r))) < 1e-12:
                break
        info = la.cache_info()
    assert steps > 10
    assert info.plans_built <= 3, info
    assert x._node.op.name == "input"  # kept by the evaluation of the residual
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(a0, b0), rtol=1e-10)


def test_evaluation_keeps_no_local_alive(fresh_caches):
    """Reading the caller's locals for held intermediates must not keep them alive."""
    import gc
    import weakref

    a = la.array(np.ones(100, np.float32))
    probe = weakref.ref(a._node.data)
    b = la.exp(a) + 1.0
    np.asarray(b * 2.0)
    assert b._node.op.name == "input"  # held and computed anyway: kept
    del a, b
    gc.collect()
    assert probe() is None


def _pending_nodes(*arrays):
    """Distinct operation nodes (leaves not counted) of the Arrays' pending graphs."""
    seen, stack = set(), [a._node for a in arrays]
    while stack:
        node = stack.pop()
        if node.inputs and id(node) not in seen:
            seen.add(id(node))
            stack.extend(node.inputs)
    return len(seen)


def _power_step(xp, a, v):
    v = a @ v
    return v / xp.linalg.norm(v)


@pytest.mark.parametrize("budget", [60, 200])
def test_power_iteration_cuts_near_the_budget(budget, fresh_caches):
    """`v / norm(v)` uses `v` three times a step; summing the inputs' pending counts counted it
    three times, so the count grew ~4x a step and a 500-node budget cut every 4 steps (~40 nodes).
    Capped by the nodes built since the last cut, a segment holds about `budget` nodes."""
    a0 = np.random.default_rng(0).standard_normal((16, 16)).astype(np.float32)
    a = la.array(a0)
    per_step = _pending_nodes(_power_step(la, a, la.ones(16, dtype=la.float32)))
    steps = 120
    la.clear_caches()
    with la.config(max_graph_nodes=budget):
        v = la.ones(16, dtype=la.float32)
        for _ in range(steps):
            v = _power_step(la, a, v)
        info = la.cache_info()
    assert 1 <= info.graph_cuts <= steps * per_step / budget * 1.5 + 2, (info, per_step)
    assert info.plans_built <= 3, info
    want = np.ones(16, np.float32)
    for _ in range(steps):
        want = _power_step(np, a0, want)
    np.testing.assert_allclose(np.asarray(v), want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("budget", [60, 200])
def test_adam_cuts_near_the_budget(budget, backend, fresh_caches):
    """Adam's four state variables share `g` and `s`: the old count cut every ~3 steps at any
    budget above ~50. Now the cut count follows the budget, and the plans stay <= 3."""
    state = [la.array(np.full(8, 1.0 + i, np.float32)) for i in range(4)]
    per_step = _pending_nodes(*adam(la, *state, 1))
    steps = 200
    built, cuts = run_loop("adam", steps, budget)
    assert 1 <= cuts <= steps * per_step / budget * 1.5 + 2, (cuts, per_step)
    assert built <= 3, (built, cuts)


def test_gradient_descent_with_la_grad_reaches_one_plan(backend, fresh_caches):
    """`x = x - 0.01 * grad(x)`: la.grad's argument trees were flattened by nested recursive
    functions (a reference cycle each call), so each call's Arrays stayed alive until the garbage
    collector ran and the cuts evaluated them with `x`: the plans varied (5 built). Now <= 3, and a
    second descent builds none."""
    a0 = np.random.default_rng(1).standard_normal((16, 16)).astype(np.float32) / 4
    b0 = np.ones(16, np.float32)
    want = np.zeros(16, np.float32)
    for _ in range(60):
        want = want - np.float32(0.01) * (2 * a0.T @ (a0 @ want - b0))
    a, b = la.array(a0), la.array(b0)
    grad = la.grad(lambda x: la.sum((a @ x - b) ** 2))
    built = []
    with la.config(max_graph_nodes=100):
        for _ in range(2):
            before = la.cache_info().plans_built
            x = la.zeros(16, dtype=la.float32)
            for _ in range(60):
                x = x - 0.01 * grad(x)
            np.testing.assert_allclose(np.asarray(x), want, rtol=1e-4, atol=1e-6)
            built.append(la.cache_info().plans_built - before)
    assert la.cache_info().graph_cuts >= 4
    assert built[0] <= 3 and built[1] == 0, built


def test_a_failing_pending_array_does_not_fail_later_cuts(backend):
    """A cut evaluates every live pending Array together. One whose evaluation failed (an index
    out of bounds the user caught; the traceback keeps it alive) made every later cut raise its
    IndexError inside unrelated code. It stays pending and raises only when looked at."""
    x = la.asarray(np.arange(6.0))
    bad = x[la.asarray(np.array([1, 7]))] * 2.0
    with pytest.raises(IndexError):
        np.asarray(bad)
    with la.config(max_graph_nodes=8):
        acc = la.zeros(3)
        for _ in range(50):
            acc = acc + 1.0
        np.testing.assert_array_equal(np.asarray(acc), np.full(3, 50.0))
    assert la.cache_info().graph_cuts > 0
    with pytest.raises(IndexError, match="out of bounds"):
        np.asarray(bad)
