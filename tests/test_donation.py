"""Functional but in place (issue 25): an update (`x[i] = v`, `.at[...]`, `x[i] += v`, all of which
lower to `scatter`) writes into its base's buffer when nothing else can read the base, and a plan
may write its results into a dead input's buffer (donation, lazyarray/donation.py). Values always
against NumPy on every backend; that no copy is made, structurally: the memory plan's storages and
`la.cache_info()`'s copy and donation counters (docs/caching.md, "Donation")."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy_oracle import FAST, assert_matches

import lazyarray as la
from lazyarray import donation
from lazyarray.graph import Graph
from lazyarray.passes import optimize
from lazyarray.passes.plan_memory import plan_memory


@pytest.fixture
def roomy():
    """One graph per evaluation (no node-budget cut in the middle of a test's chain)."""
    la.clear_caches()
    with la.config(max_graph_nodes=10_000):
        yield
    la.clear_caches()


def _writes(xp, A):
    """A chain of updates of every kind, each reading the value the one before wrote."""
    for i in range(3):
        A[i] = A[i] * 2 + 1.0
    A[3, 1] += 5
    A[1:3, 2] = xp.asarray([7.0, 8.0])
    A[:, 0] -= A[:, 1]
    return A


def _program(A):
    return optimize(Graph([A._node]))


# --- (a) inside a plan ----------------------------------------------------------------------------


def test_a_chain_of_scatters_lives_in_the_output_buffer():
    A = _writes(la, la.array(np.zeros((4, 4))))
    p = _program(A)
    scatters = [s for s in p.library_calls if s.op.name == "scatter"]
    assert len(scatters) == 6
    out = p.outputs[0]
    # every scatter's result is planned in the output's buffer: the first copies its base (the
    # input) there, the others update it where it is
    assert {p.buffers[s.output].storage for s in scatters} == {p.buffers[out].storage}
    assert all(p.aliases()[s.output] == out for s in scatters if s.output != out)


def test_a_chain_copies_its_base_once(backend, backend_does, roomy):
    base = np.random.default_rng(0).random((4, 4))
    want = _writes(np, base.copy())
    keep = la.array(base)
    A = la.array(base)
    _writes(la, A)
    la.eval(A)
    info = la.cache_info()
    if backend_does("donation"):
        counts = (info.base_copies, info.base_copy_bytes, info.in_place_updates)
        assert counts == (1, base.nbytes, 5)
    assert_matches(A, want)
    assert_matches(keep, base)


def test_an_intermediate_still_read_later_is_copied_not_overwritten(backend, roomy):
    """`B = A + 0` reads A's value before the writes: the chain must not update that buffer."""
    def program(xp, A):
        A = A * 1.0  # an intermediate base
        B = A + 0.5
        A[0, 0] = 9.0
        A[1, 1] = B[0, 0] + A[0, 0]
        C = A * 2.0  # reads the intermediate after the first two writes
        A[2, 2] = 4.0
        return A, B, C

    base = np.arange(16.0).reshape(4, 4)
    want = program(np, base.copy())
    got = program(la, la.array(base))
    la.eval(*got)
    for g, w in zip(got, want):
        assert_matches(g, w)


def test_an_at_update_of_an_intermediate_runs_in_place(backend, backend_does, roomy):
    x = la.array(np.arange(6.0))
    y = (x * 2).at[1].add(10.0).at[2].multiply(3.0).at[0].set(-1.0)
    want = (np.arange(6.0) * 2)
    want[1] += 10.0
    want[2] *= 3.0
    want[0] = -1.0
    la.eval(y)
    info = la.cache_info()
    if backend_does("donation"):  # `x * 2` written in the output
        assert info.in_place_updates == 3 and info.base_copies == 0
    assert_matches(y, want)
    assert_matches(x, np.arange(6.0))


def test_an_update_whose_index_is_out_of_bounds_raises_and_writes_nothing(backend, roomy):
    base = np.arange(5.0)
    x = la.array(base)
    y = x * 1.0
    y = y.at[la.asarray(np.array([7]))].set(1.0)
    with pytest.raises(IndexError):
        la.eval(y)
    assert_matches(x, base)


# --- (b) dead inputs ------------------------------------------------------------------------------


@pytest.fixture
def donating(monkeypatch):
    """Donation for every buffer size (its threshold keeps small copies, which cost less than
    the test), a fresh cache, and graphs cut every few nodes so that writes span plans."""
    monkeypatch.setattr(donation, "MIN_BYTES", 0)
    la.clear_caches()
    yield
    la.clear_caches()


def _evaluated(values):
    """An Array holding an evaluation's result (lazyarray's own buffer: the kind donated), made
    from a shared NumPy array (never donated), so that the counters count the test's own work."""
    a = la.asarray(np.array(values, dtype=float), copy=False) * 1.0
    la.eval(a)
    return a


def test_a_chain_of_writes_on_a_dead_leaf_copies_nothing(backend, backend_does, donating):
    base = np.random.default_rng(1).random((6, 5))
    A = _evaluated(base)
    want = base.copy()
    for i in range(6):
        A[i] = A[i] * 2 + i
        want[i] = want[i] * 2 + i
    before = la.cache_info()
    la.eval(A)
    info = la.cache_info()
    if backend_does("donation"):
        assert info.inputs_donated - before.inputs_donated == 1
        assert info.base_copies == before.base_copies  # the chain ran in the old buffer
    assert_matches(A, want)


def test_views_kept_to_be_handed_out_again_keep_no_dead_root_from_donation(
        backend, backend_does, donating):
    """_trace.c keeps a few dropped views to hand out again (its view ring), and each holds its
    root's node: they are let go before a graph runs, so a root nothing else reads is dead there,
    and is donated (and freed)."""
    import weakref
    base = np.random.default_rng(2).random((6, 5))
    A = _evaluated(base)
    for i in range(4):
        A[i]  # dropped at once: the ring keeps them
        A[i, 1:]
    gone = weakref.ref(A._node)
    before = la.cache_info()
    with la.config(eager_size=0):
        A = A * 2.0 + 1.0
        la.eval(A)
    info = la.cache_info()
    if backend_does("donation"):
        assert info.inputs_donated - before.inputs_donated == 1
    assert gone() is None
    assert_matches(A, base * 2.0 + 1.0)


def _address(buffer) -> int:
    """Where a host or device (CuPy) buffer's data starts."""
    interface = getattr(buffer, "__cuda_array_interface__", None) or buffer.__array_interface__
    return interface["data"][0]


def test_an_elementwise_update_loop_writes_over_its_input(backend, backend_does, donating):
    x0 = np.linspace(-1, 1, 50)
    x, want = _evaluated(x0), x0.copy()
    address = _address(x._node.data)  # (holding the buffer would keep it)
    for _ in range(4):
        x = x * 2 + 1
        want = want * 2 + 1
        la.eval(x)
    if backend_does("donation"):
        assert la.cache_info().inputs_donated == 4
        assert _address(x._node.data) == address  # nothing allocated
    assert_matches(x, want)


def test_a_donating_evaluation_reuses_its_options_and_their_key(backend, backend_does,
                                                                 donating):
    """The options a donating plan is keyed with are one object per (options, positions): made
    anew each evaluation (`dataclasses.replace` and its repr for the key), they cost ~8 us of a
    ~3 us plan hit."""
    from lazyarray import cache
    x = _evaluated(np.linspace(-1, 1, 50))
    seen = set()
    for _ in range(3):
        x = x * 2 + 1
        la.eval(x)
        seen.update(id(v[1]) for v in cache._VARIANTS.values())
    if backend_does("donation"):
        assert la.cache_info().inputs_donated == 3
        assert len(seen) == 1
        (base, variant), = cache._VARIANTS.values()
        assert variant.donate and cache.donating(base, variant.donate) is variant
        assert cache.options_token(variant) is cache.options_token(variant)


def test_a_node_budget_cut_donates_the_written_array(backend, backend_does, donating):
    base = np.random.default_rng(2).random((8, 8))
    A, want = _evaluated(base), base.copy()
    with la.config(max_graph_nodes=12):
        for i in range(40):
            A[i % 8, (3 * i) % 8] = A[i % 8, (3 * i) % 8] + i
            want[i % 8, (3 * i) % 8] += i
        info = la.cache_info()
        assert info.graph_cuts >= 2
        assert info.inputs_donated >= info.graph_cuts or not backend_does("donation")
    assert_matches(A, want)


# --- the old value is still read: it is kept ------------------------------------------------------


def _write_all(A):
    for i in range(A.shape[0]):
        A[i] = A[i] * 3 - 1


def test_another_handle_on_the_old_value_keeps_it(backend, donating):
    base = np.arange(12.0).reshape(4, 3)
    A = _evaluated(base)
    B = la.array(A)  # a second handle on the same value (NumPy: a copy)
    _write_all(A)
    la.eval(A)
    assert la.cache_info().inputs_donated == 0
    assert_matches(B, base)
    assert_matches(A, base * 3 - 1)


def test_a_pending_expression_over_the_old_value_keeps_it(backend, donating):
    base = np.arange(12.0).reshape(4, 3)
    A = _evaluated(base)
    C = A * 2.0
    _write_all(A)
    la.eval(A)
    assert_matches(C, base * 2.0)
    assert_matches(A, base * 3 - 1)


def test_a_pending_expression_in_the_same_cut_reads_the_old_value(backend, donating):
    """A cut evaluates both: the write chain may take the buffer only after C has read it."""
    base = np.arange(12.0).reshape(4, 3)
    A = _evaluated(base)
    C = A.sum(axis=0) + A[0]
    with la.config(max_graph_nodes=10):
        for i in range(20):
            A[i % 4, i % 3] += 1.0
    want = base.copy()
    for i in range(20):
        want[i % 4, i % 3] += 1.0
    assert_matches(C, base.sum(axis=0) + base[0])
    assert_matches(A, want)


def test_a_numpy_export_keeps_the_buffer(backend, donating):
    base = np.arange(12.0).reshape(4, 3)
    A = _evaluated(base)
    exported = np.asarray(A)
    _write_all(A)
    la.eval(A)
    np.testing.assert_array_equal(exported, base)
    x = _evaluated(base)
    view = memoryview(np.asarray(x))  # the export itself is dropped; its memoryview is not
    x = x + 1.0
    la.eval(x)
    np.testing.assert_array_equal(np.asarray(view), base)


def test_a_view_of_the_old_value_follows_numpy(backend, donating):
    base = np.arange(12.0).reshape(4, 3)
    A, want = _evaluated(base), base.copy()
    row, want_row = A[1], want[1]
    _write_all(A)
    _write_all(want)
    la.eval(A)
    assert_matches(row, want_row)
    assert_matches(A, want)


def test_the_users_shared_array_is_never_written(backend, donating):
    user = np.arange(12.0).reshape(4, 3)
    A = la.asarray(user, copy=False)
    _write_all(A)
    la.eval(A)
    x = la.asarray(user, copy=False)
    x = x * 2.0
    la.eval(x)
    np.testing.assert_array_equal(user, np.arange(12.0).reshape(4, 3))
    assert la.cache_info().inputs_donated == 0


def test_donation_is_part_of_the_plan_key(backend, backend_does, donating):
    """The same graph with a live and with a dead input: two plans; the live one never
    writes over its input, also after the donating plan was cached."""
    for keep in (False, True, False, True):
        x = _evaluated(np.arange(5.0))
        held = la.array(x) if keep else None
        x = x * 2.0 + 1.0
        la.eval(x)
        assert_matches(x, np.arange(5.0) * 2.0 + 1.0)
        if keep:
            assert_matches(held, np.arange(5.0))
    assert la.cache_info().inputs_donated == 2 or not backend_does("donation")


@pytest.mark.needs("donation")
@pytest.mark.needs("fp_errors")
def test_an_evaluation_that_raises_after_writing_marks_the_value_lost(backend, donating):
    x = _evaluated(np.array([1.0, 1e300]))
    x = x * 1e10
    with la.config(fp_over="raise"):  # (la.errstate would compute x at its entry: fp_errors.py)
        with pytest.raises(FloatingPointError):
            la.eval(x)
    with pytest.raises(donation.DonatedBufferError):
        la.eval(x)


def test_a_plan_that_can_raise_a_data_error_does_not_donate(backend, donating):
    x = _evaluated(np.arange(5.0))
    x = x.at[la.asarray(np.array([9]))].set(1.0)
    with pytest.raises(IndexError):
        la.eval(x)
    with pytest.raises(IndexError):  # the same error again, from the intact input
        la.eval(x)


# --- random write sequences against NumPy ---------------------------------------------------------

_STEP = st.one_of(
    st.tuples(st.just("element"), st.integers(-4, 3), st.integers(-3, 2), st.floats(-9, 9)),
    st.tuples(st.just("row"), st.integers(0, 3), st.floats(-9, 9)),
    st.tuples(st.just("column_add"), st.integers(0, 2), st.floats(-9, 9)),
    st.tuples(st.just("at_add"), st.lists(st.integers(0, 3), min_size=1, max_size=3)),
    st.tuples(st.just("update_all"), st.floats(-2, 2)),
    st.tuples(st.sampled_from(["keep_handle", "keep_export", "keep_pending", "keep_view",
                               "evaluate"])),
)


@FAST
@given(steps=st.lists(_STEP, min_size=1, max_size=30), budget=st.sampled_from([8, 15, 10_000]))
def test_random_writes_with_old_values_kept_or_not_match_numpy(backend, donating, steps, budget):
    """Random keys, values and updates; now and then an old value is kept (another handle, a
    NumPy export, a pending expression, a view) or the Array is evaluated; cuts every few nodes.
    Every kept value and the final one equal NumPy's."""
    start = np.arange(12.0).reshape(4, 3)
    A, W = _evaluated(start), start.copy()
    kept: list[tuple[object, np.ndarray]] = []
    with la.config(max_graph_nodes=budget):
        for step in steps:
            kind = step[0]
            if kind == "element":
                _, i, j, v = step
                A[i, j] = A[i, j] * 0.5 + v
                W[i, j] = W[i, j] * 0.5 + v
            elif kind == "row":
                A[step[1]] = step[2]
                W[step[1]] = step[2]
            elif kind == "column_add":
                A[:, step[1]] += step[2]
                W[:, step[1]] += step[2]
            elif kind == "at_add":
                A = A.at[np.array(step[1])].add(1.0)  # a new value: views keep the old one
                W = W.copy()
                np.add.at(W, np.array(step[1]), 1.0)
            elif kind == "update_all":
                A = A * step[1] + 1.0
                W = W * step[1] + 1.0
            elif kind == "keep_handle":
                kept.append((la.array(A), W.copy()))
            elif kind == "keep_export":
                kept.append((np.asarray(A), W.copy()))
            elif kind == "keep_pending":
                kept.append((A * 1.5, W * 1.5))
            elif kind == "keep_view":
                kept.append((A[1], W[1]))  # a view: it follows later writes, as NumPy's
            else:
                la.eval(A)
    for got, want in kept:
        assert_matches(got, want)
    assert_matches(A, W)


@pytest.mark.needs("donation")
@pytest.mark.needs("fp_errors")
def test_a_donating_run_still_reports_its_floating_point_flags(backend, donating):
    x = _evaluated(np.array([1.0, 1e300]))
    x = x * 1e10
    with pytest.warns(RuntimeWarning, match="overflow"):
        la.eval(x)
    assert la.cache_info().inputs_donated == 1
    assert_matches(x, np.array([1e10, np.inf]))


def test_la_arrays_copy_is_lazyarrays_own(backend, backend_does, donating):
    x = la.array(np.arange(6.0))
    x = x + 1.0
    la.eval(x)
    assert la.cache_info().inputs_donated == 1 or not backend_does("donation")
    assert_matches(x, np.arange(6.0) + 1.0)


def test_a_pending_expression_over_an_intermediate_keeps_the_input(backend, donating):
    """`keep[0]` reads the value after the first write (an intermediate of A's graph), from a
    list the evaluation's frame scan does not look into: A's input must stay intact for it."""
    base = np.arange(12.0).reshape(4, 3)
    A, W = _evaluated(base), base.copy()
    A[0] = 1.0
    W[0] = 1.0
    keep = [A.at[3].add(10.0)]
    want = W.copy()
    want[3] += 10.0
    A[1] = A[1] + 2.0
    W[1] = W[1] + 2.0
    la.eval(A)
    assert_matches(keep[0], want)
    assert_matches(A, W)
