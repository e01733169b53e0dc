"""The compiled tracing path (graph/_node.c, lazyarray/_trace.c) builds the graphs the Python path
builds: the same nodes, keys, shapes, dtypes, sites, pending counts and cuts, and the same errors.

In one process, `_trace.set_enabled(False)` sends every operator and unary/binary function through
`_bind` on the same source lines, so the two graphs can be compared key for key. The pure-Python
`Node` class (LAZYARRAY_PURE_PYTHON=1) is compared in a subprocess: the same program from a fresh
interpreter gives the same keys and counts on both paths. Timings are in benchmarks, not here.
"""

from __future__ import annotations

import copy
import gc
import operator
import pickle
import os
import subprocess
import sys
import threading
import weakref
from contextlib import contextmanager

import numpy as np
from fresh_process import run_both_paths
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazyarray as la
from lazyarray import _bind
from lazyarray.cuts import _prune
from lazyarray.graph import node as graph_node
from lazyarray.graph import topological_order
from lazyarray.graph.signature import graph_signature, python_graph_signature

FAST = _bind.FAST
# CI builds the extension, so there it must be there, unless the pure-Python path was asked for
# (the exhaustive tier reruns this file with LAZYARRAY_PURE_PYTHON=1).
needs_compiled = pytest.mark.skipif(
    FAST is None and (not os.environ.get("CI")
                      or os.environ.get("LAZYARRAY_PURE_PYTHON", "") not in ("", "0")),
    reason="compiled tracing path off (lazyarray/_trace.c not built, or LAZYARRAY_PURE_PYTHON=1)")


@contextmanager
def python_path():
    was = FAST.set_enabled(False)
    try:
        yield
    finally:
        FAST.set_enabled(was)


def dump(outputs: list) -> list:
    """Every node reachable from `outputs`, in order, with what defines it."""
    order = topological_order([a._node for a in outputs])
    index = {id(n): i for i, n in enumerate(order)}
    return [(n.op.name, n.attrs, n.shape, str(n.dtype), n.key, n.pending, n.site, _data(n),
             tuple(index[id(i)] for i in n.inputs)) for n in order]


def _data(n):
    if isinstance(n.data, np.ndarray):
        return n.data.tobytes()
    return None if n.data is None else (type(n.data).__name__, n.data)


# --- random programs: dtypes x broadcasting x Python scalars x unary/binary ops -------------------
DTYPES = ("float32", "float64", "int32", "int64", "uint8", "bool", "complex64")
SHAPES = ((3,), (2, 3), (1, 3), ())
SCALARS = (0.5, 2, -1, True, 3.0, 300, -2.5)
OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
             "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
             "==": operator.eq, "!=": operator.ne}
UNARY_OPERATORS = {"-": operator.neg, "+": operator.pos, "abs": operator.abs, "~": operator.invert}
BINARY = ("add", "subtract", "multiply", "divide", "maximum", "less", "equal")
UNARY = ("exp", "tanh", "negative", "abs", "sqrt", "square", "logical_not")


@st.composite
def programs(draw):
    leaves = [(draw(st.sampled_from(DTYPES)), draw(st.sampled_from(SHAPES)))
              for _ in range(draw(st.integers(1, 3)))]
    steps = []
    for i in range(draw(st.integers(1, 12))):
        n = len(leaves) + i  # values so far
        kind = draw(st.sampled_from(["operator", "binary", "unary", "unary operator"]))
        x = draw(st.integers(0, n - 1))
        if kind.startswith("unary"):
            names = UNARY if kind == "unary" else sorted(UNARY_OPERATORS)
            steps.append((kind, draw(st.sampled_from(names)), x))
            continue
        name = draw(st.sampled_from(sorted(OPERATORS) if kind == "operator" else BINARY))
        y = draw(st.one_of(st.tuples(st.just("value"), st.integers(0, n - 1)),
                           st.tuples(st.just("scalar"), st.sampled_from(SCALARS))))
        steps.append((kind, name, x, y, draw(st.booleans())))  # last: swap the operands
    return leaves, steps


def run(program, ns) -> tuple[list, list]:
    """Run a program on namespace `ns` (lazyarray or numpy); returns (values, errors per step)."""
    leaves, steps = program
    rng = np.random.default_rng(0)
    values = [ns.asarray((rng.integers(-3, 4, shape) * 0.75).astype(dt)) for dt, shape in leaves]
    errors = []
    for kind, name, x, *rest in steps:
        args = (values[x],)
        if not kind.startswith("unary"):
            (what, y), swap = rest
            other = values[y] if what == "value" else y
            args = (other, values[x]) if swap else (values[x], other)
        fn = {"operator": OPERATORS, "unary operator": UNARY_OPERATORS}.get(kind, {}).get(name)
        fn = fn or getattr(ns, name)
        try:
            with np.errstate(all="ignore"):
                out = fn(*args)
        except (TypeError, ValueError, OverflowError) as exc:
            errors.append((type(exc).__name__, str(exc)))
            out = values[x]
        else:
            errors.append(None)
        values.append(out)
    return values, errors


@needs_compiled
@settings(max_examples=60, deadline=None)
@given(programs())
def test_both_paths_build_the_same_graphs(program):
    compiled, compiled_errors = run(program, la)
    with python_path():
        python, python_errors = run(program, la)
    assert compiled_errors == python_errors
    assert dump(compiled) == dump(python)
    for outputs in ([a._node for a in compiled], [compiled[-1]._node]):
        assert graph_signature(outputs) == python_graph_signature(outputs)
    want, numpy_errors = run(program, np)
    n = len(program[0])
    with la.config(backend="numpy"):
        for i, (err, np_err) in enumerate(zip(compiled_errors, numpy_errors)):
            if (err is None) != (np_err is None):
                break  # lazyarray refuses what NumPy does (complex maximum): values part here
            if err is None:
                np.testing.assert_allclose(np.asarray(compiled[n + i]), want[n + i], rtol=2e-6,
                                           atol=1e-6, equal_nan=True)


@needs_compiled
def test_element_templates_of_every_dtype_are_kept_side_by_side():
    """Element reads copy a 0-d template per dtype (_trace.c template_slot): reads of many dtypes
    in turn keep every template. NumPy's builtin dtypes lie 512 bytes apart, and all of them fell
    in one slot of the old `address >> 4` hash: alternate int and float reads replaced each
    other's template, every read going the general way."""
    dtypes = ["float64", "int64", "int32", "uint8", "bool", "complex128", "float32", "int16"]
    arrays = [la.asarray(np.arange(6).astype(d)) for d in dtypes]
    with la.config(eager_size=4096):  # (the at-once path's, also under LAZYARRAY_EAGER_SIZE=0)
        for _ in range(3):
            for a in arrays:
                a[2]
    kept = set(FAST.template_dtypes())
    assert {np.dtype(d) for d in dtypes} <= kept, kept


@needs_compiled
def test_slice_specs_of_a_stencil_are_shared_objects():
    """`A[i, 1:-1]` and `A[i - 1, :-2]` in turn: each key's spec tuple comes back from _trace.c's
    cache as the same object (the node's structure key is then a cache hit, graph/_node.c
    KEY_CACHE, which compares identities). Their hashes shared the cache's low bits, so they
    replaced each other and every view built its key anew (2.1 -> 1.1 us a pair)."""
    A = la.asarray(np.arange(100.0).reshape(10, 10))
    keys = [(slice(1, -1),), (slice(None, -2),), (slice(2, None),), (slice(None, -3),)]
    first = {}
    for i in range(1, 9):
        for k, key in enumerate(keys):
            attrs = A[(i,) + key]._node.inputs[0].attrs
            assert first.setdefault(k, attrs) is attrs, (i, key)


@needs_compiled
def test_views_get_their_keys_when_asked_and_the_python_paths_keys():
    """Basic indexing builds its view nodes without a key (graph/_node.c node_build_keyless):
    asked later (a graph's signature, `node.key`), the key is the one the Python path interns for
    the same view, and graphs over such views have the Python path's signature."""
    A = la.asarray(np.arange(120.0).reshape(10, 12))

    def views():  # (one line builds both: a node's site is part of the dump)
        return [A[i, :j] for i in range(3) for j in (1, 5, 12)] + [A[1:, ::2][2], A[None, 3]]

    compiled = views()
    with python_path():
        python = views()
    for c, p in zip(compiled, python):
        assert dump([c]) == dump([p])
    outputs = [(v * 2.0 + 1.0)._node for v in compiled[:4]]
    assert graph_signature(outputs) == python_graph_signature(outputs)
    np.testing.assert_array_equal(np.asarray(compiled[4]), np.arange(120.0).reshape(10, 12)[1, :5])


def test_sites_of_many_statements_of_one_function_are_each_their_own_line():
    """graph/_node.c caches a site per (code, instruction) in sets of two ways: 400 statements
    of one function, run three times, each report its own line (hits and evictions alike)."""
    lines = ["def body(A):", "    out = []"]
    for k in range(400):
        lines.append(f"    out.append(A * {k + 1}.0)")
    lines.append("    return out")
    scope: dict = {}
    exec(compile("\n".join(lines), "sites_of_many_statements.py", "exec"), scope)
    with la.config(eager_size=0):
        A = la.asarray(np.arange(3.0))
        for _ in range(3):
            out = scope["body"](A)
            for k, a in enumerate(out):
                assert a._node.site == ("sites_of_many_statements.py", k + 3), (k, a._node.site)


@needs_compiled
def test_the_compiled_path_is_in_use():
    assert graph_node.COMPILED and la.cache_info().tracing == "compiled"
    a = la.ones(4, dtype=la.float32)
    for method in (a.__add__, a.__rtruediv__, a.__gt__, a.__eq__, a.__neg__, a.__abs__):
        assert type(method).__name__ == "builtin_function_or_method"  # no Python frame per op
    assert (a + a)._node.site == (__file__, sys._getframe().f_lineno)


@needs_compiled
def test_compiled_signature_walk_matches_the_python_one():
    assert graph_signature is not python_graph_signature
    buf = np.arange(4, dtype=np.float32)
    a, b = la.Array(_bind.leaf(buf)), la.Array(_bind.leaf(buf))  # two leaves, one buffer
    c = la.ones(4, dtype=la.float32)
    x = a
    for _ in range(30):
        x = x * 0.5 + b
    cases = [[(a * b)._node], [(a * a)._node], [(a * c + b)._node, c._node, (a * c)._node],
             [x._node], [a._node], [], [x._node, x._node]]
    for outputs in cases:
        assert graph_signature(outputs) == python_graph_signature(outputs)
    with pytest.raises(TypeError):
        graph_signature([a])  # an Array, not a Node


def test_nodes_copy_and_pickle_with_their_fields():
    node = (la.ones(3, dtype=la.float32) * 2.0 + 1.0)._node
    fields = ("op", "attrs", "shape", "dtype", "key", "pending", "site")
    for twin in (copy.copy(node), copy.deepcopy(node), pickle.loads(pickle.dumps(node))):
        assert type(twin) is type(node)
        assert [getattr(twin, f) for f in fields] == [getattr(node, f) for f in fields]
        assert [i.key for i in twin.inputs] == [i.key for i in node.inputs]


# --- the Python Node class against the compiled one, from fresh interpreters ----------------------
PROGRAM = """
import json, numpy as np, lazyarray as la
with la.config(backend="numpy", max_graph_nodes=12, eager_size=0):  # (the lazy cuts)
    w, v = la.asarray(np.linspace(-1, 1, 8, dtype=np.float32)), la.zeros(8, dtype=la.float32)
    for i in range(40):  # momentum, never evaluated: cuts at the loop's point
        g = w * 0.5
        v = v * 0.9 + g
        w = w - la.tanh(v) * 0.01
    x = la.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    y = (x + 1) * 2.5 - la.exp(x / 3) + la.maximum(x, la.asarray(np.ones(3, np.float64)))
    nodes = [(n.op.name, n.shape, str(n.dtype), n.key, n.pending, n.site[1] if n.site else None)
             for n in la.graph.topological_order([w._node, y._node])]
    print(json.dumps({"nodes": nodes, "cuts": la.cache_info().graph_cuts,
                      "tracing": la.cache_info().tracing,
                      "values": [np.asarray(w).tolist(), np.asarray(y).tolist()]}))
"""


@needs_compiled
def test_pure_python_node_class_builds_the_same_keys_counts_and_cuts():
    compiled, python = run_both_paths(PROGRAM)
    assert compiled["cuts"] > 0
    assert compiled == python


# --- references, errors, threads ------------------------------------------------------------------
@needs_compiled
def test_no_references_leak_from_the_fast_path():
    a, b = la.ones(16, dtype=la.float32), la.ones(16, dtype=la.float32)
    scale = 0.5
    watched = [a, b, a._node, b._node, a.dtype, a.shape, scale, _bind._LOOPS, la.exp]
    for _ in range(100):  # caches warm (loops, scalar keys, interned keys)
        a + b, a * scale, scale * a, la.exp(a), la.maximum(a, b), a > b, a <= scale, -a, abs(a)
    gc.collect()
    _prune()
    before = [sys.getrefcount(o) for o in watched]
    for _ in range(2000):
        a + b, a * scale, scale * a, la.exp(a), la.maximum(a, b), a > b, a <= scale, -a, abs(a)
    gc.collect()
    _prune()
    assert [sys.getrefcount(o) for o in watched] == before
    c = a + b
    refs = (weakref.ref(c), weakref.ref(c._node))
    del c
    gc.collect()
    assert [r() for r in refs] == [None, None]


@needs_compiled
def test_memory_stays_flat_over_many_nodes():
    import tracemalloc

    a = la.ones(8, dtype=la.float32)
    for _ in range(2000):
        a * 0.5 + a
    tracemalloc.start()
    gc.collect()
    start = tracemalloc.get_traced_memory()[0]
    for _ in range(25_000):  # 75,000 nodes: a leak of one small object a node is ~1 MB
        la.exp(a * 0.5 + a)
    gc.collect()
    _prune()
    grown = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    assert grown < 256 * 1024, grown


@needs_compiled
@pytest.mark.parametrize("error", [KeyboardInterrupt, RuntimeError])
def test_an_exception_in_the_cut_hook_propagates(error):
    a = la.ones(4, dtype=la.float32)

    def hook(inputs, op):
        raise error("from the hook")

    saved = list(graph_node._BUDGET)
    graph_node.set_node_budget(-1, hook)
    try:
        for build in (lambda: a + a, lambda: a * 2.0, lambda: la.exp(a), lambda: 1.0 - a,
                      lambda: a > 0.5, lambda: 1 == a, lambda: -a, lambda: +a):
            with pytest.raises(error, match="from the hook"):
                build()
    finally:
        graph_node._BUDGET[:] = saved
    assert np.asarray(a + a).tolist() == [2.0] * 4


@needs_compiled
def test_bad_operands_take_the_python_path_and_its_errors():
    a = la.ones(3, dtype=la.float32)
    with pytest.raises(TypeError):
        a + "text"
    with pytest.raises(ValueError, match="could not be broadcast"):
        a + la.ones(4, dtype=la.float32)
    with pytest.raises(OverflowError):
        la.ones(3, dtype=la.uint8) + 300
    assert (a + [1, 2, 3]).tolist() == [2, 3, 4]
    assert (a + np.float32(1)).dtype == la.float32
    assert (a != "text").tolist() == [True] * 3  # NumPy 2's elementwise answer (probe48)
    assert (a == None).tolist() == [False] * 3 and (a != None).tolist() == [True] * 3  # noqa: E711
    with pytest.raises(TypeError):
        a < "text"
    with pytest.raises(TypeError):
        -la.ones(3, dtype=la.bool)
    assert (~la.ones(3, dtype=la.bool)).tolist() == [False] * 3


@needs_compiled
def test_threads_building_nodes_at_once():
    a = la.ones(8, dtype=la.float32)
    results, failures = [], []

    def work():
        try:
            for _ in range(3000):
                out = la.exp(a * 0.5 - a) + 1.0
            results.append(out._node.key)
        except BaseException as exc:  # noqa: BLE001  (reported below)
            failures.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    assert len(results) == 4 and len(set(results)) == 1


@pytest.mark.exhaustive
def test_loop_cut_site_and_error_tests_pass_on_the_python_path():
    """The suites about cuts, budgets, sites and error messages, run again with
    LAZYARRAY_PURE_PYTHON=1 (the fast tier runs them on the compiled path)."""
    files = ["tests/test_loops.py", "tests/test_bounded_graphs.py", "tests/test_errors.py",
             "tests/test_operator_scalars.py", "tests/test_jit.py", "tests/test_trace_paths.py",
             "tests/test_evaluation_fast_paths.py", "tests/test_loop_step_fast_paths.py",
             "tests/test_getitem_paths.py"]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, LAZYARRAY_PURE_PYTHON="1")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-x", *files],
                          cwd=root, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:]


@needs_compiled
def test_the_c_prune_of_live_arrays_keeps_the_pending_ones():
    """make_array prunes cuts._LIVE in C when it passes its limit (every view and pending result
    appends to it): the live pending Arrays stay, in creation order, dead ones go, and the limit
    is cuts._prune's (twice the kept, at least _MIN_LIMIT)."""
    from lazyarray import cuts

    A = la.asarray(np.arange(12.0).reshape(3, 4))
    x = la.asarray(np.ones(5))
    kept = [x * float(i) for i in range(300)]  # pending: no indexed read, so lazy
    assert all(k._node.inputs for k in kept)
    for i in range(5000):
        A[i % 3, 1:3]  # views (pending nodes over A), dead at once
    live = [a for r in cuts._LIVE if (a := r()) is not None]
    position = {id(a): n for n, a in enumerate(live)}
    assert all(id(k) in position for k in kept)
    assert [position[id(k)] for k in kept] == sorted(position[id(k)] for k in kept)
    assert len(live) <= len(kept) + 2 * cuts._MIN_LIMIT  # (the dead views went)
    assert cuts._LIMIT[0] >= max(cuts._MIN_LIMIT, len(kept))
    np.testing.assert_array_equal(np.asarray(kept[7]), np.full(5, 7.0))
