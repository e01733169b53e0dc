"""graph/_node.c's `to_host` hit path (lazyarray/evaluation.py, cache.remember_hit): one pending
Array whose graph has the structure of the last one evaluated runs the same C plan without the
Python frames between `np.asarray(y)` and the plan's launcher. Every test here compares it with
the general path (`evaluation._python_to_host`, what runs without the compiled module): values,
result leaves, cache counters, held intermediates, errors naming the user's line, settings and
la.jit tracing. The general-path halves also run under LAZYARRAY_PURE_PYTHON=1 (the compiled
halves skip there)."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

import lazyarray as la
from lazyarray import cache, evaluation
from sites import notes_of

ARRAY_MODULE = sys.modules["lazyarray.array"]  # `lazyarray.array` the attribute is la.array
HIT_PATH = evaluation._hit_path
needs_hit_path = pytest.mark.skipif(HIT_PATH is None, reason="graph/_node.c not built or not in use")


@pytest.fixture(params=["general", "hit"])
def path(request, monkeypatch, fresh_caches):
    """Run the test body with `np.asarray`/`float` going through the general path or the hit
    path (array.py caches evaluation.to_host in `_to_host`)."""
    if request.param == "hit" and HIT_PATH is None:
        pytest.skip("graph/_node.c not built or not in use")
    chosen = HIT_PATH if request.param == "hit" else evaluation._python_to_host
    monkeypatch.setattr(ARRAY_MODULE, "_to_host", chosen)
    with la.config(backend="c", background_compiles=False):
        yield request.param


def fast_hits() -> int:
    return cache.plan_cache.fast_hits[0]


def f32(n, seed=0):
    return np.random.default_rng(seed).random(n, dtype=np.float32)


def _loop(steps=8, both=False):
    """Evaluate-inside loop of one structure (`both`: two, alternating): results, their leaves'
    fields, the counters."""
    a, b = la.array(f32(16)), la.array(f32(16, seed=1))
    out, leaves = [], []
    for k in range(steps):
        y = la.exp(a * (0.1 * k) + b) / (b + 2.0) - 0.5
        out.append(np.asarray(y).copy())
        n = y._node
        leaves.append((n.op.name, n.inputs, n.attrs, n.shape, n.dtype, n.key, n.pending, n.site))
        if both:
            out.append(float((la.tanh(y * a) + k).sum()))
    info = la.cache_info().model_dump()
    return out, leaves, info


@pytest.mark.parametrize("both", [False, True])
def test_loop_results_leaves_and_counters_match_the_general_path(path, both):
    out, leaves, info = _loop(both=both)
    want_a, want_b = f32(16), f32(16, seed=1)
    for k in range(8):
        want = np.exp(want_a * np.float32(0.1 * k) + want_b) / (want_b + np.float32(2.0)) - 0.5
        np.testing.assert_allclose(out[(1 + both) * k], want, rtol=1e-5)
    assert (info["plans_built"], info["plan_hits"]) == ((2, 14) if both else (1, 7))
    assert [leaf[0] for leaf in leaves] == ["input"] * 8 and len({leaf[5] for leaf in leaves}) == 1
    # two structures alternating: the memo never serves them, nor does the hit path
    assert fast_hits() == (5 if path == "hit" and not both else 0)


@needs_hit_path
def test_hit_path_and_general_path_give_identical_bits_leaves_and_state(monkeypatch, fresh_caches):
    results = {}
    with la.config(backend="c", background_compiles=False):
        _loop()  # its kernel in this process first: both runs then count a memory hit (alone, or
        # after a test that left the kernel on disk only, the first run counted a compile or a
        # disk hit and the second a memory hit)
        for name, chosen in (("general", evaluation._python_to_host), ("hit", HIT_PATH)):
            la.clear_caches()
            monkeypatch.setattr(ARRAY_MODULE, "_to_host", chosen)
            results[name] = _loop()
            results[name + " fast"] = fast_hits()
    (out0, leaves0, info0), (out1, leaves1, info1) = results["general"], results["hit"]
    for x, y in zip(out0, out1):
        np.testing.assert_array_equal(x, y)  # the same plan: the same bits
    assert leaves0 == leaves1 and info0 == info1
    assert results["general fast"] == 0 and results["hit fast"] == 5


@needs_hit_path
def test_one_structure_runs_the_hit_path_after_the_memo_served_it(fresh_caches):
    a = la.array(f32(16))
    with la.config(backend="c", background_compiles=False):
        for k in range(6):
            np.testing.assert_allclose(np.asarray(a * 2.0 + k), f32(16) * 2 + k, rtol=1e-6)
        info = la.cache_info()
        # built, found by lookup, served by the memo (recorded), then three hits in C
        assert (info.plans_built, info.plan_hits, fast_hits()) == (1, 5, 3)
        la.clear_caches()
        assert cache._HIT[0] is None
        np.asarray(a * 2.0 + 1)
        assert la.cache_info().plans_built == 1 and fast_hits() == 0


@needs_hit_path
def test_size_generic_plan_changes_size_under_the_hit_path(fresh_caches):
    with la.config(backend="c", background_compiles=False):
        for n in (9, 9, 9, 9, 11, 11, 11, 9, 9, 9, 13):
            x = la.array(np.arange(n, dtype=np.float32))
            np.testing.assert_allclose(np.asarray(la.exp(x * 0.5) + 1.0),
                                       np.exp(np.arange(n, dtype=np.float32) * 0.5) + 1.0,
                                       rtol=1e-6)
        assert la.cache_info().plans_built == 1 and fast_hits() > 0


@needs_hit_path
def test_settings_blocks_and_other_backends_leave_the_hit_path(fresh_caches):
    a = la.array(f32(16))
    with la.config(backend="c", background_compiles=False):
        for _ in range(4):
            np.asarray(a * 3.0)
        hits = fast_hits()
        assert hits == 1
        with la.config(backend="numpy"):  # the same signature, other options: not this plan
            for _ in range(3):
                np.testing.assert_allclose(np.asarray(a * 3.0), f32(16) * 3, rtol=1e-6)
        assert fast_hits() == hits
        with la.config(max_graph_nodes=1000):  # new settings object, same options: Python
            np.asarray(a * 3.0)  # re-resolves the options, then the memo serves it again
            np.asarray(a * 3.0)
            np.asarray(a * 3.0)
        assert fast_hits() == hits + 1
        info = la.cache_info()
        assert info.plans_built == 2 and info.plan_hits == 8


@needs_hit_path
def test_held_intermediates_are_kept_on_the_hit_path(fresh_caches):
    a = la.array(f32(16))
    with la.config(backend="c", background_compiles=False):
        for _ in range(4):
            np.asarray(la.exp(a * 0.5) + 1.0)
        before = fast_hits()
        t = a * 0.5
        y = la.exp(t) + 1.0
        np.testing.assert_allclose(np.asarray(y), np.exp(f32(16) * 0.5) + 1.0, rtol=1e-6)
        assert t._node.op.name == "input" and fast_hits() == before


@needs_hit_path
def test_a_counting_wrapper_of_evaluate_sees_every_run(monkeypatch, fresh_caches):
    """tests/test_triggers.py counts runs by wrapping evaluation.evaluate: the hit path, which
    does not call it, steps aside while it is wrapped."""
    a = la.array(f32(16))
    with la.config(backend="c", background_compiles=False):
        for _ in range(4):
            np.asarray(a - 1.0)
        calls = []
        real = evaluation.evaluate
        monkeypatch.setattr(evaluation, "evaluate",
                            lambda *args, **kw: calls.append(1) or real(*args, **kw))
        hits = fast_hits()
        for _ in range(3):
            np.asarray(a - 1.0)
        assert len(calls) == 3 and fast_hits() == hits


@pytest.mark.parametrize("how", ["asarray", "float"])
def test_a_data_error_on_the_hit_path_names_this_line(path, how):
    """A gather whose indices go out of bounds after the plan was recorded: the launcher raises
    inside the hit path, which raises what the general path does (the user's line, NumPy's
    type) and forgets the graph's cut bookkeeping."""
    x = la.asarray(np.arange(6.0))
    for k in range(4):
        i = la.asarray(np.array([1, k]))
        np.asarray(x[i] * 2.0) if how == "asarray" else float(x[i].sum())
    before = fast_hits()
    i = la.asarray(np.array([1, 7]))
    with pytest.raises(IndexError) as info:
        np.asarray(x[i] * 2.0) if how == "asarray" else float(x[i].sum())
    line = sys._getframe().f_lineno - 1
    assert f"test_evaluation_hit_path.py:{line})" in notes_of(info)
    if path == "hit":
        assert fast_hits() == before + 1  # counted as a hit, as the general path counts it
    i = la.asarray(np.array([0, 2]))
    np.testing.assert_array_equal(np.asarray(x[i] * 2.0), [0.0, 4.0])  # and carries on


def _interrupt_the_launcher(monkeypatch, record) -> list[int]:
    """The hit path's record with a launcher that raises KeyboardInterrupt (and no direct launch);
    the sizes of the node lists cuts.forget is then given, as they come."""
    def interrupted(plan, arrays, scalars):
        raise KeyboardInterrupt

    forgotten: list[int] = []
    real_forget = evaluation.cuts.forget
    monkeypatch.setattr(evaluation.cuts, "forget",
                        lambda nodes: forgotten.append(len(nodes)) or real_forget(nodes))
    cache._HIT[0] = record[:7] + (interrupted,) + record[8:10] + (None,)
    return forgotten


@needs_hit_path
def test_keyboard_interrupt_from_the_launcher_propagates(monkeypatch, fresh_caches):
    a = la.array(f32(16))
    with la.config(backend="c", background_compiles=False):
        for _ in range(4):
            np.asarray(a + 2.0)
        record = cache._HIT[0]
        assert record is not None

        forgotten = _interrupt_the_launcher(monkeypatch, record)
        y = a + 2.0
        with pytest.raises(KeyboardInterrupt):
            np.asarray(y)
        assert forgotten == [1] and y._node.op.name == "add"  # still pending
        cache._HIT[0] = record
        np.testing.assert_allclose(np.asarray(y), f32(16) + 2, rtol=1e-6)


@needs_hit_path
def test_jit_tracing_is_not_served_by_the_hit_path(fresh_caches):
    """Evaluating a traced value inside la.jit is an error (cache._check_not_traced), even for a
    graph whose structure is the last one evaluated."""
    from lazyarray.jit import TracerEvaluationError

    a = la.array(f32(16))
    with la.config(backend="c", background_compiles=False):
        for _ in range(4):
            np.asarray(a * 2.0)
        hits = fast_hits()

        @la.jit
        def f(x):
            return la.asarray(np.asarray(x * 2.0))

        with pytest.raises(TracerEvaluationError):
            f(a)
        assert fast_hits() == hits


@needs_hit_path
def test_threads_evaluating_at_once_count_every_hit(fresh_caches):
    a = la.array(f32(16))
    errors = []

    def work():
        try:
            with la.config(backend="c", background_compiles=False):
                for k in range(300):
                    got = np.asarray(a * 2.0 + 1.0)
                    np.testing.assert_allclose(got, f32(16) * 2 + 1, rtol=1e-6)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    info = la.cache_info()
    assert info.plans_built + info.plan_hits == 1200


# --- the direct launch (graph/_node.c runs a C plan without its Python launcher) ----------------

def _i64(n, seed=0):
    return np.random.default_rng(seed).integers(-50, 50, n)


DIRECT_CASES = {
    "f32 scalars": lambda a, b, k: la.exp(a * (0.25 + k) + b) / (b + 2.0) - 0.5,
    "f64": lambda a, b, k: la.tanh(a.astype(la.float64) * (1.5 - k)) + b.astype(la.float64),
    "int64 scalars": lambda a, b, k: la.asarray(_i64(16, k)) * (3 + k) - 7,
    "bool where": lambda a, b, k: la.where(a > 0.25 * k, a, b * 2.0),
    "sum": lambda a, b, k: (a * (2.0 + k) - b).sum(),
    "axis sum": lambda a, b, k: (la.reshape(a, (4, 4)) * (k + 1.0)).sum(axis=1),
    "broadcast": lambda a, b, k: la.reshape(a, (4, 4)) + la.reshape(b, (4, 4))[0] * (k + 0.5),
    "float32 overflow": lambda a, b, k: a * (3.0 if k < 3 else 1e300),  # struct refuses 1e300
    "bool scalar": lambda a, b, k: la.logical_and(a > 0.5, k % 2 == 0),
    "mean of a wide sum": lambda a, b, k: la.mean(la.exp(la.reshape(a, (2, 8)) * (k + 1.0))),
    "matmul epilogue": lambda a, b, k: la.nn.relu(la.reshape(a, (4, 4)) @ la.reshape(b, (4, 4))
                                                  + (0.5 - k)).sum(),
    "two matmuls": lambda a, b, k: (la.tanh(la.reshape(a, (4, 4)) @ la.reshape(b, (4, 4)) * k)
                                    @ la.reshape(a, (4, 4))),
    "matvec": lambda a, b, k: la.reshape(a, (4, 4)) @ (la.reshape(b, (4, 4))[0] + k),
}


@needs_hit_path
@pytest.mark.parametrize("case", sorted(DIRECT_CASES))
def test_direct_launch_gives_the_launchers_bits(case, fresh_caches):
    """The same graphs through the direct launch and through the Python launcher (the record's
    direct spec removed): identical bits, dtypes and shapes, on every call of a loop."""
    build = DIRECT_CASES[case]
    a, b = la.array(f32(16)), la.array(f32(16, seed=1))
    with la.config(backend="c", background_compiles=False), np.errstate(all="ignore"), \
            la.errstate(all="ignore"):  # 1e300 into float32: NumPy's overflow in cast, on purpose
        for k in range(3):
            np.asarray(build(a, b, k))
        record = cache._HIT[0]
        assert record is not None
        for k in range(3, 6):
            results = []
            for direct in (record[10], None):
                cache._HIT[0] = record[:10] + (direct,)
                hits = fast_hits()
                results.append(np.asarray(build(a, b, k)).copy())
                assert fast_hits() == hits + 1
            got, want = results
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(np.atleast_1d(got).view(np.uint8),
                                          np.atleast_1d(want).view(np.uint8))
        cache._HIT[0] = record


@needs_hit_path
def test_direct_launch_covers_the_common_plans_and_declines_the_rest(fresh_caches):
    from lazyarray.runtime.c import launch as c_launch

    a, b = la.array(f32(16)), la.array(f32(16, seed=1))
    w = la.array(np.ones((16, 4), np.float32))
    x, i = la.asarray(np.arange(6.0)), la.asarray(np.array([1, 2]))
    with la.config(backend="c", background_compiles=False):
        for k in range(3):
            np.asarray(la.exp(a * (k + 0.5)) + b)
        assert cache._HIT[0][10] is not None  # one elementwise kernel
        for k in range(3):
            float((la.reshape(a, (1, 16)) @ w + k).sum())
        assert cache._HIT[0][10] is not None  # a matmul into an intermediate, then a kernel
        for k in range(3):
            np.asarray(x[i] * (2.0 + k))
        assert cache._HIT[0][10] is None  # a gather (an op's reference): the launcher runs it
        assert c_launch.direct_spec(cache._HIT[0][6]) is None


@needs_hit_path
def test_direct_launch_declines_an_input_that_needs_conforming(fresh_caches):
    """A leaf whose buffer is not C-contiguous (an evaluated Array's transposed data): the
    launcher makes it contiguous; the direct launch must leave it to the launcher."""
    from lazyarray.graph import get_op
    from lazyarray.graph.node import build_node

    base = np.arange(16, dtype=np.float32).reshape(4, 4)
    with la.config(backend="c", background_compiles=False):
        def leaf(data):
            return la.Array(build_node(get_op("input"), (), (), data.shape, data.dtype, data, None))

        for k in range(3):
            np.asarray(leaf(base + k) * 2.0 + 1.0)
        assert cache._HIT[0][10] is not None
        hits = fast_hits()
        got = np.asarray(leaf(base.T) * 2.0 + 1.0)  # same signature, strided data
        np.testing.assert_array_equal(got, base.T * 2.0 + 1.0)
        assert fast_hits() == hits + 1


@needs_hit_path
def test_nodes_free_through_the_compiled_dealloc():
    """graph/_node.c frees graph.node.Node without CPython's generic subclass dealloc: weak
    references die, a long chain frees without deep C recursion, a further subclass (with a
    __del__) still runs its own, and no reference to the type is lost or leaked."""
    import gc
    import weakref

    from lazyarray.graph.node import Node

    a = la.array(f32(4))

    def chain(n):
        node = (a + 1.0)._node
        ref = weakref.ref(node)
        del node
        assert ref() is None
        x = a
        with la.config(max_graph_nodes=10**9):
            for _ in range(n):
                x = x + 1.0
        del x
        gc.collect()

    chain(100)  # first: whatever the library keeps for these ops (scalar templates, settings)
    type_refs = sys.getrefcount(Node)
    chain(100_000)
    assert sys.getrefcount(Node) == type_refs
    seen = []

    class Traced(Node):
        __slots__ = ()

        def __del__(self):
            seen.append(1)

    t = Traced.__new__(Traced)
    del t
    assert seen == [1]


@needs_hit_path
def test_threads_running_a_matmul_plan_use_their_own_workspaces(fresh_caches):
    """The direct launch reads a matmul's intermediate from this thread's workspace: four threads
    running the MLP step at once each get NumPy's answer."""
    rng = np.random.default_rng(3)
    w = rng.standard_normal((64, 32)).astype(np.float32)
    b = rng.standard_normal(32).astype(np.float32)
    lw, lb = la.array(w), la.array(b)
    errors = []

    def work(seed):
        try:
            xs = [np.random.default_rng(seed + k).standard_normal((16, 64)).astype(np.float32)
                  for k in range(40)]
            with la.config(backend="c", background_compiles=False):
                for _ in range(5):
                    for x in xs:
                        got = float(la.nn.relu(la.array(x) @ lw + lb).sum())
                        want = float(np.maximum(x @ w + b, 0).sum())
                        assert abs(got - want) <= 1e-4 * max(1.0, abs(want)), (got, want)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(100 * k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:1]
    assert fast_hits() > 0


@needs_hit_path
@pytest.mark.parametrize("max_keys", [500_000, 40])
def test_remembered_keys_are_the_key_tables_answer(max_keys):
    """graph/_node.c answers a structure seen lately without building its tuple (by identity of
    op, attrs, dtype and shape, and the input keys); every node's key must be what the interning
    dict maps its structure to, also across clears of that dict (a small max_keys)."""
    from lazyarray.graph import node as graph_node

    compiled = graph_node._compiled
    tables = (graph_node._KEYS, graph_node._BUDGET, graph_node._SEGMENT_START,
              graph_node._IS_LIBRARY, graph_node._is_library_file)
    compiled.bind(*tables, max_keys)
    try:
        a, b = la.array(f32(16)), la.array(f32(16, seed=1))
        m = la.array(np.ones((4, 4), np.float32))
        builds = (lambda k: a * 0.5 + b, lambda k: la.exp(a) - k,
                  lambda k: la.maximum(a, b) * b, lambda k: m @ m + 1.0,
                  lambda k: la.reshape(a, (4, 4))[1:3] * 2.0, lambda k: (a > 0.5) & (b < 0.5))
        for k in range(60):
            for build in builds:  # each checked as soon as built: building the next may clear
                n = build(k)._node  # the table (max_keys=40), then new keys, never false hits
                structure = (n.op, n.attrs, n.dtype, n.shape, *[i.key for i in n.inputs])
                assert graph_node._KEYS.get(structure) == n.key
    finally:
        compiled.bind(*tables, graph_node._MAX_KEYS)
        # Weak scalars' keys remembered by _bind were interned before this test's clears of the
        # table: later tests in this process (xdist's order) would get other keys for them.
        from lazyarray import _bind

        _bind._SCALAR_KEYS.clear()


# --- held state: a forced evaluation that also evaluates the loop's held Arrays (held_hit) -------

def _fields(a):
    n = a._node
    return (n.op.name, n.inputs, n.attrs, n.shape, n.dtype, n.key, n.pending, n.site)


def _held_loop(kind, steps=8, other=None):
    """bench_overhead's forced loops whose state is held while a value is forced: `loss`
    (`float(sum(w * w))`, w updated) and `newton` (`if max(abs(x_new - x)) < tol`). `other`:
    an Array kept pending in this frame through the loop. Values, held leaves, counters."""
    a = la.array(np.linspace(1.0, 2.0, 16))
    out, leaves = [], []
    if kind == "loss":
        w = a
        for _ in range(steps):
            w = w * 0.99 + a * 0.01
            loss = la.sum(w * w)
            out.append(float(loss))
            leaves.append(_fields(w))
        out.append(np.asarray(w).copy())
    elif kind == "matmul":  # a held matmul result (a library step writing an output)
        m = la.array(np.linspace(-1.0, 1.0, 16).reshape(4, 4))
        for k in range(steps):
            h = la.reshape(a, (4, 4)) @ m + 0.5 * k
            out.append(float(la.sum(la.tanh(h))))
            leaves.append(_fields(h))
    else:
        x = a
        for _ in range(steps):
            x_new = 0.5 * (x + a / x)
            err = la.max(la.abs(x_new - x))
            out.append(bool(err < -1.0))
            leaves.append(_fields(x_new) + _fields(err))
            x = x_new
        out.append(np.asarray(x).copy())
    if other is not None:
        leaves.append(_fields(other))
    info = la.cache_info().model_dump()
    for kernels in ("kernels_compiled", "kernel_memory_hits", "kernel_disk_hits", "kernels_queued",
                    "compile_waits", "quick_kernels", "stand_in_runs"):
        del info[kernels]  # the second run finds the first run's kernels loaded
    return out, leaves, info


def _both_paths(monkeypatch, run):
    """`run()` on the general path, then on the hit path, caches cleared before each: its results
    and the hits the compiled path served."""
    results = []
    with la.config(backend="c", background_compiles=False):
        for chosen in (evaluation._python_to_host, HIT_PATH):
            la.clear_caches()
            monkeypatch.setattr(ARRAY_MODULE, "_to_host", chosen)
            results.append((run(), fast_hits()))
    return results


def _same(got, want):
    for x, y in zip(got, want):
        np.testing.assert_array_equal(x, y)  # the same plan: the same bits


@needs_hit_path
@pytest.mark.parametrize("kind", ["loss", "newton", "matmul"])
def test_held_state_takes_the_hit_path_with_the_general_paths_results(kind, monkeypatch,
                                                                      fresh_caches):
    """The held Arrays (w; x_new and err) are found in the frame and made leaves by the C path as
    by evaluate_arrays: same bits, same leaves, same counters, same plans."""
    ((out0, leaves0, info0), fast0), ((out1, leaves1, info1), fast1) = _both_paths(
        monkeypatch, lambda: _held_loop(kind))
    _same(out1, out0)
    assert leaves0 == leaves1 and info0 == info1
    assert all(leaf[0] == "input" for leaf in leaves1)
    # loss, newton: iteration 1 reads `a` twice (another plan); then a build, a lookup, the
    # memo, and 4 evaluations in C (matmul: no first plan of its own, 5)
    assert fast0 == 0 and fast1 == (5 if kind == "matmul" else 4)


@needs_hit_path
@pytest.mark.parametrize("kind", ["loss", "newton", "matmul"])
def test_held_state_direct_launch_gives_the_launchers_bits(kind, fresh_caches):
    """The several-output plan through the direct launch and through its Python launcher."""
    with la.config(backend="c", background_compiles=False):
        _held_loop(kind, steps=4)
        record = cache._HIT[0]
        assert record is not None and record[0][0][1][0] > 1  # a several-output signature
        assert record[10] is not None
        results = []
        for direct in (record[10], None):
            cache._HIT[0] = record[:10] + (direct,)
            hits = fast_hits()
            results.append(_held_loop(kind, steps=4)[:2])
            assert fast_hits() > hits
        cache._HIT[0] = record
    (out0, leaves0), (out1, leaves1) = results
    _same(out1, out0)
    assert leaves0 == leaves1


@needs_hit_path
@pytest.mark.parametrize("reads", [False, True])
def test_a_pending_local_outside_the_graph(reads, monkeypatch, fresh_caches):
    """A pending Array in a caller's frame that this evaluation does not compute. Its graph
    reads none of this one's nodes: it stays pending, and the C path serves the loop. It reads
    one (a sibling, evaluation._siblings): Python finds it and evaluates it with the loop's
    value, every time; the results are the general path's either way."""
    a = la.array(np.linspace(1.0, 2.0, 16))

    def run():
        other = a * 3.0
        if reads:
            box = [other]
            out = []
            w = a
            for _ in range(8):
                w = w * 0.99 + a * 0.01
                sibling = w * 3.0  # reads w's pending node
                out.append(float(la.sum(w * w)))
                box.append(_fields(sibling))
            return out, box[1:], _fields(other)
        return _held_loop("loss", other=other)

    (got0, fast0), (got1, fast1) = _both_paths(monkeypatch, run)
    if reads:
        assert got0[0] == got1[0]
        assert all(s[0] == "input" for s in got1[1]) and got0[1] == got1[1]
        assert fast1 == 0  # a sibling: Python's
    else:
        (out0, leaves0, info0), (out1, leaves1, info1) = got0, got1
        _same(out1, out0)
        assert leaves0[:-1] == leaves1[:-1] and info0 == info1
        assert leaves0[-1][0] == leaves1[-1][0] == "multiply"  # untouched: still pending
        assert fast0 == 0 and fast1 == 4


def test_held_split_is_the_python_walks(fresh_caches):
    """graph/_node.c's held_split against evaluation._python_held_split: inside Arrays (in
    order, a duplicate kept), siblings after them, unrelated Arrays and leaves' readers left."""
    a, b = la.array(np.arange(4.0)), la.array(np.ones(4))
    t = la.exp(a)
    u = t * 2.0
    y = la.sum(u + b)
    sibling, unrelated, deep = u - 1.0, b * 5.0, la.tanh(la.sin(t) + b)
    again = la.Array(u._node)
    held = [unrelated, sibling, u, t, deep, again]
    want = evaluation._python_held_split([y._node], held)
    assert [id(x) for x in want] == [id(u), id(t), id(again), id(sibling), id(deep)]
    if evaluation._held_split is not None:
        got = evaluation._held_split([y._node], held)
        assert [id(x) for x in got] == [id(x) for x in want]
        assert evaluation._held_split([y._node], []) == []


@needs_hit_path
@pytest.mark.parametrize("how", ["asarray", "float"])
def test_a_data_error_with_held_state_names_the_line_and_keeps_it_pending(how, monkeypatch,
                                                                         fresh_caches):
    """A gather out of bounds in a held intermediate, after the record was made: the C path's
    failure goes where evaluate_arrays' goes (the retry without the held Arrays raises, naming
    the gather's line); the held Array stays pending; the loop carries on."""
    def run():
        x = la.asarray(np.arange(6.0))
        messages = []
        for k in range(6):
            i = la.asarray(np.array([1, 7 if k == 4 else k]))
            g = x[i] * 2.0
            line = sys._getframe().f_lineno - 1
            try:
                got = np.asarray(g + 1.0) if how == "asarray" else float((g + 1.0).sum())
            except IndexError as exc:
                messages.append(str(exc))
                assert f"test_evaluation_hit_path.py:{line})" in notes_of(exc)
                assert g._node.op.name != "input"
                continue
            messages.append(np.asarray(got).tolist())
            assert g._node.op.name == "input"
        return messages

    (got0, fast0), (got1, fast1) = _both_paths(monkeypatch, run)
    assert got0 == got1 and any(isinstance(m, str) for m in got1)
    assert fast0 == 0 and fast1 >= 2  # k = 3, and k = 4 which failed in C


@needs_hit_path
def test_keyboard_interrupt_from_the_held_launch_propagates(monkeypatch, fresh_caches):
    with la.config(backend="c", background_compiles=False):
        a = la.array(np.linspace(1.0, 2.0, 16))
        w = a
        for _ in range(5):
            w = w * 0.99 + a * 0.01
            float(la.sum(w * w))
        record = cache._HIT[0]

        forgotten = _interrupt_the_launcher(monkeypatch, record)
        w = w * 0.99 + a * 0.01
        loss = la.sum(w * w)
        with pytest.raises(KeyboardInterrupt):
            float(loss)
        assert forgotten == [2] and w._node.op.name == "add"  # still pending
        cache._HIT[0] = record
        np.testing.assert_allclose(float(loss), np.sum(np.asarray(w) ** 2), rtol=1e-12)


def _scan_both():
    """frame_arrays and the f_locals scan from the same frame."""
    return evaluation._frame_arrays(evaluation._USER_FRAMES), evaluation._python_frame_arrays()


@needs_hit_path
def test_frame_arrays_reads_what_f_locals_shows():
    """Locals, cell variables (read by a closure) and free variables (the closure's own), in
    f_locals' order; leaves and other objects left out."""
    a = la.array(np.arange(4.0))
    first = a + 1.0
    cell = a * 2.0
    leaf = la.array(np.ones(4))  # noqa: F841 - an evaluated local: not a candidate

    def inner():
        mine = cell - 1.0  # noqa: F841
        return _scan_both()

    got, want = _scan_both()
    assert got == want and [id(v) for v in got] == [id(first), id(cell)]
    got, want = inner()
    assert [id(v) for v in got] == [id(v) for v in want]
    assert len(got) == 4  # inner's mine and its free `cell`; then first and cell here
    del first
