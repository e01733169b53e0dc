"""Shape functions, views, indexing, functional updates and matmul against NumPy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, basic_indices, mutually_broadcastable_shapes
from numpy_oracle import FAST, SUPPORTED, assert_matches, computes_halves, draw, numpy_or_its_error

import lazyarray as la
from sites import notes_of

# Registry ops these tests cover (test_ops_elementwise.test_registry_coverage reads it).
STRUCTURE_TESTS = ("broadcast_to", "reshape", "permute", "slice", "matmul", "concat", "take",
                   "scatter")

shapes = array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)
seeds = st.integers(0, 2**32 - 1)


def _x(seed, shape, dtype=np.float64):
    return draw(np.random.default_rng(seed), dtype, shape)


@FAST
@given(shape=shapes, seed=seeds, data=st.data())
def test_reshape(backend, shape, seed, data):
    x = _x(seed, shape, np.int32)
    size = math.prod(shape)
    target = list(data.draw(st.permutations(shape), label="target"))
    if target and size and data.draw(st.booleans(), label="use -1"):
        target[data.draw(st.integers(0, len(target) - 1), label="unknown")] = -1
    assert_matches(la.reshape(la.array(x), tuple(target)), np.reshape(x, tuple(target)))
    assert_matches(la.array(x).reshape(*target) if target else la.array(x).reshape(()),
                   x.reshape(tuple(target)))
    assert_matches(la.array(x).flatten(), x.flatten())
    assert_matches(la.array(x).ravel(), x.ravel())


@FAST
@given(shape=shapes, seed=seeds, data=st.data())
def test_permutations(backend, shape, seed, data):
    x = _x(seed, shape)
    a = la.array(x)
    axes = tuple(data.draw(st.permutations(range(len(shape))), label="axes"))
    assert_matches(la.permute_dims(a, axes), np.transpose(x, axes))
    assert_matches(la.transpose(a), np.transpose(x))
    assert_matches(a.transpose(*axes) if axes else a.transpose(), x.transpose(axes))
    assert_matches(a.T, x.T)
    if x.ndim >= 2:
        assert_matches(a.mT, np.swapaxes(x, -1, -2))
        assert_matches(la.matrix_transpose(a), np.matrix_transpose(x))
        assert_matches(la.swapaxes(a, 0, -1), np.swapaxes(x, 0, -1))
        assert_matches(a.swapaxes(0, -1), x.swapaxes(0, -1))
        src = data.draw(st.integers(-x.ndim, x.ndim - 1), label="source")
        dst = data.draw(st.integers(-x.ndim, x.ndim - 1), label="destination")
        assert_matches(la.moveaxis(a, src, dst), np.moveaxis(x, src, dst))
        assert_matches(la.moveaxis(a, (0, 1), (-1, 0)), np.moveaxis(x, (0, 1), (-1, 0)))


@FAST
@given(shape=shapes, seed=seeds, data=st.data())
def test_expand_squeeze_flip(backend, shape, seed, data):
    x = _x(seed, shape, np.uint8)
    a = la.array(x)
    ax = data.draw(st.integers(-x.ndim - 1, x.ndim), label="expand axis")
    assert_matches(la.expand_dims(a, ax), np.expand_dims(x, ax))
    assert_matches(la.expand_dims(a, (0, -1)), np.expand_dims(x, (0, -1)))
    assert_matches(la.squeeze(a), np.squeeze(x))
    assert_matches(a.squeeze(), x.squeeze())
    ones = tuple(i for i, s in enumerate(shape) if s == 1)
    assert_matches(la.squeeze(a, ones), np.squeeze(x, ones))
    assert_matches(la.flip(a), np.flip(x))
    if x.ndim:
        axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="flip axis")
        assert_matches(la.flip(a, axis=axis), np.flip(x, axis=axis))
    if x.ndim >= 2:
        assert_matches(la.flip(a, axis=(0, -1)), np.flip(x, axis=(0, -1)))


def test_squeeze_of_a_non_unit_axis_raises():
    with pytest.raises(ValueError, match="squeeze"):
        la.squeeze(la.zeros((2, 3)), axis=0)


@FAST
@given(shapes=mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=3, max_side=3),
       seed=seeds)
def test_broadcasting(backend, shapes, seed):
    xs = [_x(seed + k, s, dt) for k, (s, dt) in enumerate(zip(shapes.input_shapes,
                                                                (np.float32, np.int8, bool)))]
    for got, want in zip(la.broadcast_arrays(*map(la.array, xs)), np.broadcast_arrays(*xs)):
        assert_matches(got, want)
    assert_matches(la.broadcast_to(la.array(xs[0]), shapes.result_shape),
                   np.broadcast_to(xs[0], shapes.result_shape))


@FAST
@given(shape=array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4), seed=seeds,
       data=st.data(), dtypes=st.lists(st.sampled_from(SUPPORTED), min_size=1, max_size=3))
def test_concat_stack_split(backend, shape, seed, data, dtypes):
    assume(computes_halves(backend) or np.float16 not in dtypes)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    parts = []
    for k, dt in enumerate(dtypes):
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3), label="length")
        parts.append(_x(seed + k, tuple(s), dt))
    assert_matches(la.concat([la.array(p) for p in parts], axis=axis),
                   np.concatenate(parts, axis=axis))
    assert_matches(la.concatenate([la.array(p) for p in parts], axis=None),
                   np.concatenate(parts, axis=None))
    same = [_x(seed + k, shape, dt) for k, dt in enumerate(dtypes)]
    stack_axis = data.draw(st.integers(-len(shape) - 1, len(shape)), label="stack axis")
    assert_matches(la.stack([la.array(p) for p in same], axis=stack_axis),
                   np.stack(same, axis=stack_axis))
    whole = np.concatenate(parts, axis=axis)
    cuts = sorted(data.draw(st.lists(st.integers(-6, 6), max_size=3), label="cuts"))
    for got, want in zip(la.split(la.array(whole), cuts, axis=axis),
                         np.split(whole, cuts, axis=axis), strict=True):
        assert_matches(got, want)
    n = whole.shape[axis]
    if n:
        sections = data.draw(st.sampled_from([d for d in range(1, n + 1) if n % d == 0]))
        for got, want in zip(la.split(la.array(whole), sections, axis=axis),
                             np.split(whole, sections, axis=axis), strict=True):
            assert_matches(got, want)


def test_split_into_unequal_sections_raises():
    with pytest.raises(ValueError, match="equal division"):
        la.split(la.zeros(5), 2)


@FAST
@given(shape=shapes, seed=seeds, data=st.data())
def test_basic_indexing(backend, shape, seed, data):
    x = _x(seed, shape, np.int16)
    index = data.draw(basic_indices(shape, allow_newaxis=True, allow_ellipsis=True), label="idx")
    assert_matches(la.array(x)[index], x[index])


@FAST
@given(shape=array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4), seed=seeds,
       data=st.data())
def test_integer_array_indexing_and_take(backend, shape, seed, data):
    x = _x(seed, shape)
    axis = data.draw(st.integers(0, len(shape) - 1), label="axis")
    n = shape[axis]
    idx = np.array(data.draw(st.lists(st.integers(-n, n - 1), max_size=5), label="idx"),
                   dtype=np.int64)
    idx = idx.reshape(data.draw(st.sampled_from([(idx.size,), (1, idx.size)]), label="ishape"))
    key = (slice(None),) * axis + (idx,)
    assert_matches(la.array(x)[key], x[key])
    assert_matches(la.take(la.array(x), la.array(idx), axis=axis), np.take(x, idx, axis=axis))
    assert_matches(la.array(x).take(idx.astype(np.uint8) % n, axis=axis),
                   np.take(x, idx.astype(np.uint8) % n, axis=axis))
    flat = idx % x.size
    assert_matches(la.take(la.array(x), flat), np.take(x, flat))


@pytest.mark.lazy_only  # the graph of a small indexed value (tests/conftest.py)
def test_take_out_of_bounds_raises_at_evaluation_naming_the_line(backend):
    y = la.take(la.array(np.arange(4.0)), la.array(np.array([0, 9])))  # built here
    with pytest.raises(IndexError, match="out of bounds") as info:
        np.asarray(y)
    assert "test_shapes_indexing.py" in notes_of(info)


def test_indexing_errors():
    a = la.zeros((2, 3))
    with pytest.raises(IndexError, match="out of bounds"):
        a[2]
    with pytest.raises(IndexError, match="too many indices"):
        a[0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        a[..., ...]
    with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 0"):
        a[a[0] > 0]  # a (3,) mask over (2, 3): tests/test_masking.py has the rest


_AT_MODES = {"set": None, "add": np.add, "multiply": np.multiply, "min": np.minimum,
             "max": np.maximum}


@pytest.mark.parametrize("mode", list(_AT_MODES))
@FAST
@given(shape=array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4), seed=seeds,
       data=st.data())
def test_at_update_basic_index(backend, mode, shape, seed, data):
    x = _x(seed, shape, np.float32)
    index = data.draw(basic_indices(shape, allow_newaxis=False, allow_ellipsis=True), label="idx")
    target = x[index].shape
    values = _x(seed + 1, target[data.draw(st.integers(0, len(target)), label="vdims"):])
    want = x.copy()
    cast = values.astype(x.dtype)  # documented: updates cast the values to x's dtype first
    if mode == "set":
        want[index] = cast
    else:
        _AT_MODES[mode].at(want, index, cast)
    assert_matches(getattr(la.array(x).at[index], mode)(la.array(values)), want)


@pytest.mark.parametrize("mode", list(_AT_MODES))
def test_at_update_with_repeated_integer_indices(backend, mode):
    x = np.arange(12, dtype=np.int32).reshape(4, 3)
    idx = np.array([0, 2, 0, -1])
    values = np.array([[5], [-7], [3], [100]], dtype=np.int32)
    want = x.copy()
    if mode == "set":
        want[idx] = values
    else:
        _AT_MODES[mode].at(want, idx, values)
    assert_matches(getattr(la.array(x).at[idx], mode)(values), want)
    assert_matches(la.array(x).at[1, 2].add(1.9), x + np.where(np.arange(12) == 5, 1, 0
                                                              ).reshape(4, 3).astype(np.int32))


def test_at_update_leaves_the_source_unchanged(backend):
    a = la.array(np.zeros(3))
    b = a.at[1].set(5.0)
    assert_matches(b, np.array([0.0, 5.0, 0.0]))
    assert_matches(a, np.zeros(3))


def _matmul_cases():
    return [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (3, 4)),
            ((1, 2, 3), (4, 3, 2)), ((2, 1, 2, 3), (5, 3, 1)), ((0, 3), (3, 2)), ((2, 0), (0, 3)),
            # a stack times one matrix: folded into one matmul (lazyarray/linalg.py)
            ((2, 3, 1, 4), (4, 5)), ((4, 2, 3), (1, 3, 2)), ((2, 3, 4), (4,)), ((0, 2, 3), (3, 4)),
            ((3, 2, 0), (0, 2))]


@pytest.mark.parametrize("shapes", _matmul_cases(), ids=str)
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float64", "float32"),
                                    ("int8", "int16"), ("bool", "bool"), ("uint8", "float64"),
                                    ("int64", "uint64")], ids=str)
def test_matmul(backend, shapes, dtypes):
    rng = np.random.default_rng(0)
    a, b = (rng.integers(-3, 4, s).astype(dt) for s, dt in zip(shapes, dtypes))
    want = np.matmul(a, b)
    ulps = 4 * max(1, a.shape[-1])
    assert_matches(la.matmul(la.array(a), la.array(b)), want, ulps)
    assert_matches(la.array(a) @ la.array(b), want, ulps)
    assert_matches(a @ la.array(b), want, ulps)  # __rmatmul__: NumPy defers to Array
    assert_matches(la.array(a) @ b, want, ulps)


def test_matmul_errors_name_the_line():
    with pytest.raises(ValueError, match=r"test_shapes_indexing\.py:\d+"):
        la.zeros((2, 3)) @ la.zeros((4, 2))
    with pytest.raises(ValueError, match="Input operand 0 does not have enough dimensions"):
        la.matmul(la.zeros(()), la.zeros(3))


@pytest.mark.parametrize("axes", [0, 1, 2, ([1, 0], [0, 1]), ([2], [0]), ([-1], [0])], ids=str)
def test_tensordot(backend, axes):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 3, 4))
    b = rng.standard_normal((3, 2, 5)) if axes == ([1, 0], [0, 1]) else rng.standard_normal(
        (4, 5) if axes in (1, ([2], [0]), ([-1], [0])) else (3, 4, 5) if axes == 2 else (6,))
    want = np.tensordot(a, b, axes)
    assert_matches(la.tensordot(la.array(a), la.array(b), axes), want, 16)


@pytest.mark.parametrize("shapes", [((3,), (3,)), ((2, 3), (3,)), ((4, 1, 3), (2, 3))], ids=str)
def test_vecdot(backend, shapes):
    rng = np.random.default_rng(2)
    a, b = (rng.standard_normal(s).astype(np.float32) for s in shapes)
    assert_matches(la.vecdot(la.array(a), la.array(b)), np.vecdot(a, b), 16)
    ai, bi = (rng.integers(-5, 5, s, dtype=np.int8) for s in shapes)
    assert_matches(la.vecdot(la.array(ai), la.array(bi), axis=-1), np.vecdot(ai, bi))


def test_array_properties_and_small_methods(backend):
    x = np.arange(6, dtype=np.int16).reshape(2, 3)
    a = la.array(x)
    assert (a.ndim, a.size, a.itemsize, a.nbytes, len(a)) == (2, 6, 2, 12, 2)
    assert a.copy() is not a and a.copy()._node is a._node  # a new handle on the same value
    assert_matches(a.dot(la.array(x.T)), x.dot(x.T))
    assert_matches(a.astype("float32").round(), x.astype(np.float32).round())
    assert_matches(a.clip(1, 4), x.clip(1, 4))


@given(shape=array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5), data=st.data())
def test_the_basic_key_fast_path_builds_the_general_paths_nodes(shape, data):
    """`x[ints, slices, None, ...]` skips the general indexer (indexing._basic_getitem and its C
    twin, tests/test_getitem_paths.py); both must build the same graph (same structural keys),
    and the fast path must give way on every other key."""
    from lazyarray.graph import topological_order
    from lazyarray.graph.node import user_site
    from lazyarray.indexing import _basic_getitem, general_getitem

    key = data.draw(basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    x = la.array(np.arange(math.prod(shape), dtype=np.float32).reshape(shape))
    site = user_site(1)
    fast = _basic_getitem(x._node, key, site)
    want = general_getitem(x._node, key, site)
    if fast is not None:
        def structure(n):
            return [(m.op.name, m.attrs, m.shape, m.key) for m in topological_order([n])]
        assert structure(fast) == structure(want)
    np.testing.assert_array_equal(np.asarray(x[key]), np.arange(math.prod(shape),
                                  dtype=np.float32).reshape(shape)[key])


def test_the_basic_key_fast_path_gives_way():
    from lazyarray.graph.node import user_site
    from lazyarray.indexing import _basic_getitem

    x = la.ones((3, 4))
    site = user_site(1)
    for key in [(0, 0, 0), 3, -4, True, np.bool_(True), np.int64(3), (Ellipsis, Ellipsis),
                (0, Ellipsis, 0, 0), (slice(0, 2, 0),), [0, 1], slice(np.float64(0), 2), (0.5,)]:
        try:
            assert _basic_getitem(x._node, key, site) is None, key
        except ValueError:  # a zero step: getitem then lets the general path raise NumPy's error
            assert isinstance(key, tuple) and key[0].step == 0
    with pytest.raises(IndexError, match="out of bounds"):
        x[3]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        x[::0]


def test_a_slice_of_every_whole_dimension_is_the_value_itself():
    """manipulation.slice_node builds no slice node for a spec that keeps every dimension whole
    (`x[:]`, `x[:, 0:4]`, an int index into a dimension of size 1 then only reshapes)."""
    x = la.array(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert x[:]._node is x._node and x[:, 0:4]._node is x._node and x[0:3, :]._node is x._node
    assert x[:, 1:]._node.op.name == "slice" and x[::-1]._node.op.name == "slice"
    y = la.array(np.arange(3, dtype=np.float32).reshape(1, 3))
    assert y[0]._node.op.name == "reshape" and y[0]._node.inputs[0] is y._node
    np.testing.assert_array_equal(np.asarray(y[0]), np.arange(3, dtype=np.float32))


_F_ORDER = {
    "np.reshape order by position": lambda m, x: m.reshape(x, (4, 6), "F"),
    "reshape -1 F": lambda m, x: m.reshape(x, (4, -1), order="F"),
    "method reshape F": lambda m, x: x.reshape(6, 4, order="F"),
    "reshape int f": lambda m, x: m.reshape(x, 24, order="f"),
    "ravel F": lambda m, x: m.ravel(x, "F"),
    "method ravel F": lambda m, x: x.ravel("F"),
    "flatten F": lambda m, x: x.flatten("F"),
    "ravel F of a transpose": lambda m, x: x.T.ravel("F"),
    "reshape F of a slice": lambda m, x: m.reshape(x[:, 1:], (2, -1), order="F"),
    "reshape K": lambda m, x: m.reshape(x, (6, 4), order="K"),
    "ravel bad order": lambda m, x: x.ravel("X"),
}


@pytest.mark.parametrize("name", sorted(_F_ORDER))
def test_fortran_order_reshapes(reference_backend, name):
    """reshape/ravel/flatten with order='F' take the elements column-major, as NumPy's (they
    raised TypeError, and `np.reshape(x, s, 'F')` silently reshaped in C order: 'F' went to
    `copy`); writes through the result reach x exactly where NumPy's result is a view."""
    f = _F_ORDER[name]
    base = np.arange(24.0).reshape(2, 3, 4)
    try:
        want = f(np, base.copy())
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc)):
            f(la, la.asarray(base))
        return
    x_np, x_la = base.copy(), la.asarray(base)
    want, got = f(np, x_np), f(la, x_la)
    assert got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)
    want[(0,) * want.ndim] = -1.0
    got[(0,) * got.ndim] = -1.0
    np.testing.assert_array_equal(np.asarray(x_la), x_np)


def test_layout_orders_follow_the_values_numpy_layout(reference_backend):
    """'A' and 'K' follow the value's NumPy memory layout (NotImplementedError before stop 54;
    every layout: tests/test_memory_orders.py)."""
    host = np.arange(6.0).reshape(2, 3)
    x = la.asarray(host)
    for ours, theirs in ((x.ravel("K"), host.ravel("K")), (x.T.ravel("A"), host.T.ravel("A")),
                         (x.T.ravel("K"), host.T.ravel("K")),
                         (x.reshape(3, 2, order="A"), host.reshape(3, 2, order="A")),
                         (x.T.reshape(3, 2, order="A"), host.T.reshape(3, 2, order="A"))):
        np.testing.assert_array_equal(np.asarray(ours), theirs)


_ca, _cb = np.arange(4.0).reshape(2, 2), np.arange(4).reshape(2, 2)
_JOIN_KEYWORDS = {
    "concatenate dtype": lambda m, A: m.concatenate([A(_ca), A(_cb)], dtype=np.float32),
    "concatenate dtype same_kind refuses": lambda m, A: m.concatenate([A(_ca), A(_cb)],
                                                                      dtype=np.int64),
    "concatenate dtype unsafe": lambda m, A: m.concatenate([A(_ca), A(_cb)], dtype=np.int64,
                                                           casting="unsafe"),
    "concatenate casting no refuses": lambda m, A: m.concatenate([A(_ca), A(_cb)], casting="no"),
    "concatenate out and dtype refused": lambda m, A: m.concatenate(
        [A(_ca), A(_cb)], out=m.zeros((4, 2)), dtype=float),
    "concatenate out of int from float refuses": lambda m, A: m.concatenate(
        [A(_ca)], out=m.zeros((2, 2), int)),
    "stack dtype": lambda m, A: m.stack([A(_ca), A(_cb)], dtype=np.float32),
    "vstack dtype unsafe": lambda m, A: m.vstack([A(_ca), A(_cb)], dtype=np.int16,
                                                 casting="unsafe"),
    "hstack dtype": lambda m, A: m.hstack([A(_ca), A(_cb)], dtype=np.float32),
}


@pytest.mark.parametrize("name", sorted(_JOIN_KEYWORDS))
def test_join_dtype_casting_out_as_numpy(reference_backend, name):
    """concatenate/stack/hstack/vstack take NumPy's dtype= and casting= (a TypeError before),
    refusing what NumPy's casting rule refuses."""
    f = _JOIN_KEYWORDS[name]
    pair = numpy_or_its_error(f)
    if pair is None:
        return
    got, want = pair
    assert_matches(got, want)


@pytest.mark.parametrize("join, out_shape", [("concatenate", (4, 2)), ("stack", (2, 2, 2))])
def test_join_writes_out(reference_backend, join, out_shape):
    """out= (by keyword or NumPy's position) receives the joined arrays and is returned."""
    for make_out in (np.zeros, la.zeros):
        out = make_out(out_shape)
        got = getattr(la, join)([la.asarray(_ca), la.asarray(_cb)], 0, out)
        assert got is out
        np.testing.assert_array_equal(np.asarray(out), getattr(np, join)([_ca, _cb], 0))
