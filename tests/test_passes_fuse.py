"""Unit tests of the fusion planner, index maps, the recompute cost rule and memory planning."""

import numpy as np
import pytest
from lazyarray.graph import Graph
from lazyarray.graph.kernel_ir import AccRef, Load, dynamic_offset
from lazyarray.passes import index_map as im
from lazyarray.passes import optimize, recompute_cost_rule
from lazyarray.runtime import ReferencePlan, get_backend, split_leaves

import lazyarray as la

rng = np.random.default_rng(1)


def _program(*arrays):
    return optimize(Graph([a._node for a in arrays]))


def _check(*arrays):
    """Run optimized and reference; return the program."""
    graph = Graph([a._node for a in arrays])
    program = optimize(graph)
    leaves = split_leaves(graph)
    for got, ref in zip(get_backend("numpy").compile(program).run(*leaves),
                        ReferencePlan(graph).run(*leaves)):
        np.testing.assert_allclose(got, ref)
    return program


def test_costly_value_broadcast_far_is_materialized_not_recomputed():
    """A value of 2+ ops broadcast to >= 8x its size over >= 2**16 results gets its own buffer
    (heat_1d's `sin(pi * xs) * sin(pi * ys)` recomputed two sines per element of 33M); a cheap
    one (one op), a small result or a small expansion stays inline, and values agree."""
    with la.config(eager_size=0):
        x = la.array(rng.standard_normal(600))
        y = la.array(rng.standard_normal(400))
        far = la.sin(x * 2.0)[None, :] * la.sin(y * 3.0)[:, None]  # (400, 600): two sources
        p = _check(far)
        assert sum("broadcast to" in n for n in p.notes) == 2 and len(p.kernels) == 3
        cheap = (x * 2.0)[None, :] + (y * 3.0)[:, None]  # one op each: recomputing is a load
        near = la.sin(x * 2.0)[None, :] * la.ones((4, 600))  # 4x: under the expansion
        small = la.sin(x[:60] * 2.0)[None, :] * la.sin(y[:40] * 3.0)[:, None]  # 2,400 results
        for a in (cheap, near, small):
            q = _check(a)
            assert len(q.kernels) == 1 and not any("broadcast to" in n for n in q.notes)


@pytest.mark.parametrize("src,dst,view", [
    ((24,), (4, 6), None), ((6, 4), (2, 3, 4), None), ((6, 1, 4), (3, 2, 4), None),
    ((6, 4), (3, 2, 2, 2), "slice"), ((4, 6), (2, 2, 6), "flip")])
def test_reshape_index_maps_match_numpy(src, dst, view):
    """Walk every loop index through the map and compare with NumPy's reshape."""
    base = np.arange(int(np.prod(src))).reshape(src)
    if view == "slice":
        base_view, spec = base[::2], ((0, 2, src[0] // 2), (0, 1, src[1]))
        src = base_view.shape
        dst = (src[0], 2, 2)
    elif view == "flip":
        base_view, spec = base[::-1], ((src[0] - 1, -1, src[0]), (0, 1, src[1]))
    else:
        base_view, spec = base, None
    space = dst
    m = im.through_reshape(im.placed(tuple(range(len(dst))), space), dst, src, space)
    assert m is not None
    if spec is not None:
        m = im.through_slice(m, spec)
    strides, offset = im.flat_address(m, base.shape, len(space))
    for idx in np.ndindex(*dst):
        assert base.reshape(-1)[offset + np.dot(strides, idx)] == base_view.reshape(dst)[idx]


def test_non_contiguous_merge_materializes_the_view():
    x = rng.standard_normal((3, 4))
    y = la.exp(la.array(x).T.reshape(12))
    p = _check(y)
    assert len(p.kernels) == 2
    assert any("reshape is not expressible as strides" in n for n in p.notes)


def test_merging_reshape_reads_buffers_directly_but_not_computed_values():
    x = rng.standard_normal((4, 6))
    assert len(_check(la.array(x).reshape(24) + 1).kernels) == 1  # a buffer's flat index is affine
    # an elementwise value: the reshape moves to its leaves (passes/reshape_sink.py)
    assert len(_check(la.exp(la.array(x)).reshape(24) + 1).kernels) == 1
    e = la.exp(la.array(x))  # read twice: a loop index would need div/mod, so e gets a buffer
    assert len(_check(e.reshape(24) + la.sum(e)).kernels) == 2


def test_views_become_strides_not_copies():
    x = rng.standard_normal((4, 6))
    y = la.array(x).T[::-1, 1::2] + 1
    p = _check(y)
    (k,) = p.kernels
    (load,) = [e for e in k.stages[0].exprs if isinstance(e, Load)]
    # x[1 + 2j, 5 - i]: the key's start 1 is run-time scalar 0 (docs/caching.md); `::-1`'s
    # start follows from the size (static)
    assert load.strides == (-1, 12) and dynamic_offset(load, (1,)) == 11
    assert load.offset == 5 and load.dynamic == ((0, 6),)


def test_multi_output_shares_one_kernel():
    a, b = la.array(rng.standard_normal(5)), la.array(rng.standard_normal(5))
    p = _check(a + b, a * b)
    assert len(p.kernels) == 1 and len(p.kernels[0].output_slots) == 2


def test_var_is_one_kernel_with_two_reduce_stages():
    x = rng.standard_normal((3, 8))
    p = _check(la.var(la.array(x), axis=1))
    (k,) = p.kernels
    assert [len(s.reduces) for s in k.stages] == [1, 1, 0]
    assert any(isinstance(e, AccRef) and e.stage == 0 for e in k.stages[1].exprs)


def test_cost_rule_written_down():
    assert recompute_cost_rule(1, 100, 100, True) is None
    assert recompute_cost_rule(2, 3, 2, False) is None  # cheap: recompute
    assert "reduction" in recompute_cost_rule(2, 1, 1, True)
    assert "buffers" in recompute_cost_rule(3, 3, 3, False)
    assert "ops" in recompute_cost_rule(2, 17, 1, False)


def test_cheap_shared_value_is_recomputed_and_reduction_materialized():
    x = la.array(rng.standard_normal((4, 5)))
    e = la.exp(x)  # cheap, one buffer: recomputed by both reductions' kernels
    p = _check(la.sum(e, axis=0), la.sum(e, axis=1))
    assert len(p.kernels) == 2 and not p.notes
    s = la.sum(la.exp(x), axis=1)  # read on two index spaces: computed once
    p2 = _check(s.reshape(2, 2) + 1, s[None, :] * la.ones((3, 4)))
    assert any("cost rule" in n or "index space" in n for n in p2.notes)
    assert sum(len(st.reduces) for k in p2.kernels for st in k.stages) == 1


def test_the_cost_rule_materializes_the_latest_shared_value_only():
    """dE = (E - e * sin(E) - M) / (1 - e * cos(E)) read by two kernels (`max(abs(dE))` and
    `E - dE`): dE gets a buffer; its parts, read by both kernels only through dE, do not (two
    intermediates were stored that no kernel read)."""
    M, e = la.array(rng.random(64) * 6), la.array(rng.random(64) * 0.5)
    E = M + 0.0
    dE = (E - e * la.sin(E) - M) / (1 - e * la.cos(E))
    p = _check(la.max(la.abs(dE)), E - dE)
    owned = [n for n in p.notes if "cost rule" in n]
    assert len(owned) == 1 and owned[0].startswith("divide"), p.notes
    written = {st.slot for k in p.kernels for stage in k.stages for st in stage.stores}
    assert len(written - set(p.outputs)) == 1


def test_no_exponential_duplication_on_shifted_chains():
    y = la.array(rng.standard_normal(64))
    for _ in range(24):
        y = y[1:] + y[:-1] * 0.5
    p = _check(y)
    applies = sum(len(s.exprs) for k in p.kernels for s in k.stages)
    assert applies < 5000


def test_in_place_reuses_a_dying_intermediate():
    x, w, v = rng.standard_normal((4, 3)), rng.standard_normal((3, 5)), rng.standard_normal((5, 2))
    t = la.nn.relu(la.array(x) @ la.array(w))  # matmul input: materialized, in place on x@w
    p = _check(t @ la.array(v))
    call0, kernel, _ = p.steps
    assert p.buffers[call0.output].storage == p.buffers[kernel.output_slots[0]].storage
    assert p.peak_bytes == 4 * 5 * 8


def test_a_dying_input_lends_its_storage_to_one_output_only():
    # 1x1 operands make every load and store stride 0, so both outputs of the kernel that feeds
    # the second matmul qualify for in place on the dying x.T @ (x + s1): only one may take it.
    x = la.array(np.array([[0.5]]))
    y = x.T @ (x + 0.25)
    p = _check(y.T @ (y + 0.125))
    kernel = p.kernels[-1]
    storages = [p.buffers[s].storage for s in kernel.output_slots]
    assert len(set(storages)) == len(storages)


def test_output_that_is_an_input_is_copied():
    x = la.array(np.arange(3.0))
    y = -(-x)  # noqa: B002  (folds to x itself)
    p = _check(y)
    assert len(p.kernels) == 1 and p.outputs[0] not in p.inputs


@pytest.mark.parametrize("build", [
    lambda a: la.stack([a[i].sum() for i in range(a.shape[0])]),  # row sums one by one
    lambda a: sum((la.sum(a[0] * k) for k in range(a.shape[0])), la.asarray(0.0)),  # one root
])
def test_a_kernel_computes_at_most_eight_reductions(build):
    """gcc's compile time grows faster than a function's loop nests: 100 row sums fused into one
    kernel took 6.7 s to compile. Past MAX_REDUCTIONS_PER_KERNEL the reductions own buffers and
    form kernels of their own, whose same structure lets them share one compiled function."""
    from lazyarray.passes.fuse import MAX_REDUCTIONS_PER_KERNEL

    a = la.array(rng.standard_normal((30, 7)))
    with la.config(max_graph_nodes=10_000):  # no cut while building: one graph
        p = _check(build(a))
    per_kernel = [sum(len(st.reduces) for st in k.stages) for k in p.kernels]
    assert max(per_kernel) <= MAX_REDUCTIONS_PER_KERNEL and sum(per_kernel) >= 30, per_kernel
