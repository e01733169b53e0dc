"""Errors carry NumPy's own text, as programs print it (`except ValueError as e: print(e)`):
broadcast_to's "remapped shapes", broadcast_shapes/broadcast_arrays' "shape mismatch ... arg i ...
arg j", reshape's shape as NumPy's C code prints it (leading -1s dropped), indexing with a float or
a mismatched boolean mask, negative dimensions, ragged nested lists."""

import numpy as np
import pytest

import lazyarray as la

CASES = [
    ("broadcast_to", lambda m: m.broadcast_to(m.ones(3), (4, 2))),
    ("broadcast_to_ndim", lambda m: m.broadcast_to(m.ones((2, 3)), (3,))),
    ("broadcast_to_negative", lambda m: m.broadcast_to(m.ones(3), (-1, 3))),
    ("broadcast_to_empty", lambda m: m.broadcast_to(m.ones(0), (2, 1))),
    ("broadcast_shapes", lambda m: m.broadcast_shapes((2, 3), (1, 4), (5, 3))),
    ("broadcast_shapes_negative", lambda m: m.broadcast_shapes((2,), (-1,))),
    ("broadcast_arrays", lambda m: m.broadcast_arrays(m.ones(3), m.ones((2, 1)), m.ones(4))),
    ("reshape_two_unknown", lambda m: m.ones(6).reshape(-1, -1)),
    ("reshape_leading_unknown", lambda m: m.ones(6).reshape(-1, 4)),
    ("reshape_leading_unknown_zero", lambda m: m.ones(6).reshape(-1, 0)),
    ("reshape_inner_unknown", lambda m: m.ones(6).reshape(2, -1, 4)),
]




def _set(x, key, value):
    x[key] = value


A = np.arange(12).reshape(3, 4)
INDEX_CASES = [
    ("mask_rows", lambda m: m.asarray(A)[[True, False]]),
    ("mask_columns", lambda m: m.asarray(A)[:, [True] * 3]),
    ("mask_2d", lambda m: m.asarray(A)[m.ones((3, 3), dtype=bool)]),
    ("mask_write", lambda m: _set(m.asarray(A), np.array([True, False]), 0)),
    ("float_key", lambda m: m.asarray(A)[1.5]),
    ("float_key_in_tuple", lambda m: m.asarray(A)[None, 2.0]),
    ("str_key", lambda m: m.asarray(A)["x"]),
    ("float_list", lambda m: m.asarray(A)[[1.0]]),
    ("float_array", lambda m: m.arange(3)[m.asarray(np.array([1.0]))]),
    ("float_key_write", lambda m: _set(m.asarray(A), 1.5, 0)),
    ("negative_zeros", lambda m: m.zeros((2, -3))),
    ("negative_full", lambda m: m.full((-1, 2), 0)),
    ("ragged", lambda m: m.array([[1], [2, 3]])),
    ("ragged_scalar", lambda m: m.asarray([[1, 2], 3])),
]
V = np.arange(5.0)
CALL_CASES = [
    ("sum_duplicate_axis", lambda m: m.sum(m.asarray(A), axis=(0, 0))),
    ("mean_duplicate_axis", lambda m: m.mean(m.asarray(A), axis=(1, -1))),
    ("max_of_empty", lambda m: m.max(m.zeros((2, 0)), axis=1)),
    ("argmax_of_empty", lambda m: m.argmax(m.zeros((0, 3)), axis=0)),
    ("convolve_empty_a", lambda m: m.convolve(m.zeros(0), V)),
    ("correlate_empty_v", lambda m: m.correlate(V, m.zeros(0))),
    ("transpose_repeated", lambda m: m.asarray(A).transpose(1, 1)),
    ("transpose_count", lambda m: m.transpose(m.asarray(A), (0, 1, 2))),
    ("dot_vectors", lambda m: m.dot(m.ones(3), m.ones(4))),
    ("dot_matrices", lambda m: m.dot(m.ones((2, 3)), m.ones((2, 3)))),
    ("dot_stack", lambda m: m.dot(m.ones((2, 3, 4)), m.ones((3, 2)))),
    ("percentile_range", lambda m: m.percentile(V, [50, 120])),
    ("full_not_broadcastable", lambda m: m.full((2, 2), [1, 2, 3])),
    ("solve_vector", lambda m: m.linalg.solve(m.eye(3), m.ones(4))),
    ("solve_matrix", lambda m: m.linalg.solve(m.eye(3), m.ones((4, 2)))),
    ("matrix_power_1d", lambda m: m.linalg.matrix_power(m.ones(3), 2)),
    ("matrix_power_not_square", lambda m: m.linalg.matrix_power(m.ones((2, 3)), 2)),
    ("repeat_negative", lambda m: m.repeat(V, -1)),
    ("repeat_counts", lambda m: m.repeat(m.ones((2, 3)), [1, 2], axis=1)),
    ("tile_negative", lambda m: m.tile(V, (2, -1))),
    ("trace_1d", lambda m: m.trace(V)),
    ("rot90_1d", lambda m: m.rot90(V)),
    ("rot90_range", lambda m: m.rot90(m.ones((2, 2)), axes=(0, 3))),
    ("nonzero_0d", lambda m: m.nonzero(m.asarray(np.array(5)))),
    ("searchsorted_2d", lambda m: m.searchsorted(m.asarray(A), 3)),
    ("cross_4", lambda m: m.cross(m.ones(4), m.ones(4))),
]


@pytest.mark.parametrize("fill", [[1, 2, 3], np.array([1.5, 2.0, 3.0]), [[1], [2]]])
def test_full_broadcasts_an_array_fill_value_as_numpy(reference_backend, fill):
    for shape, dtype in [((2, 3), None), ((2, 3), np.float32), ((2, 3), np.uint8)]:
        try:
            want = np.full(shape, fill, dtype=dtype)
        except ValueError:
            continue
        got = la.full(shape, fill, dtype=dtype)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)


ALL = CASES + INDEX_CASES + CALL_CASES


@pytest.mark.parametrize("name,call", ALL, ids=[c[0] for c in ALL])
def test_errors_are_numpys_text(reference_backend, name, call):
    with pytest.raises((ValueError, IndexError)) as want:
        call(np)
    with pytest.raises(want.type) as got:
        call(la)
    assert str(got.value) == str(want.value)


def test_broadcast_shapes_takes_ints_as_numpy_does(reference_backend):
    for shapes in [(5, (2, 1)), ((2, 3), 3), (np.int64(4),)]:
        assert la.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)
