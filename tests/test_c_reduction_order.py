"""C reductions fold in NumPy's order where docs/semantics.md says so (reduction order): a sweep
over shapes, axes and dtypes against NumPy, bit for bit (np.array_equal, never allclose).

NumPy reduces a C-contiguous operand in memory order: reduced dims before its last kept dim
(length-1 dims aside) add row after row in the result dtype; reduced dims after it are one block
that `add` sums pairwise; `multiply` folds in order everywhere. The C backend gives those bits for
column reductions (float32 and float64), for float64 sums over trailing dims, and for products;
float32 trailing sums (double lanes) and sums on both sides of a kept dim are documented as
differing and are not asserted."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lazyarray as la

pytestmark = [pytest.mark.exhaustive, pytest.mark.usefixtures("c_lazy")]
SIZES = (1, 2, 3, 7, 9, 13, 40, 150)  # below and above 8 (lanes) and 128 (a pairwise block)


@pytest.fixture
def c_lazy():
    with la.config(backend="c", eager_size=0):
        yield


def numpy_order_is_claimed(shape: tuple[int, ...], axes: tuple[int, ...], op: str,
                           dtype: np.dtype) -> bool:
    """Whether docs/semantics.md says the C backend gives NumPy's bits for this reduction."""
    if op == "prod":
        return True
    last_kept = max((d for d in range(len(shape)) if d not in axes and shape[d] != 1), default=-1)
    before = any(shape[d] != 1 for d in axes if d < last_kept)
    after = any(shape[d] != 1 for d in axes if d > last_kept)
    return not after or (not before and dtype == np.float64)


@st.composite
def reductions(draw):
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.sampled_from(SIZES)) for _ in range(ndim))
    axes = tuple(d for d in range(ndim) if draw(st.booleans())) or (draw(st.integers(0, ndim - 1)),)
    op = draw(st.sampled_from(("sum", "mean", "prod", "var")))
    dtype = np.dtype(draw(st.sampled_from((np.float32, np.float64))))
    keepdims = draw(st.booleans())
    return shape, axes, op, dtype, keepdims


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=reductions(), seed=st.integers(0, 2**32 - 1))
def test_reductions_are_numpys_bits_where_documented(case, seed):
    shape, axes, op, dtype, keepdims = case
    if not numpy_order_is_claimed(shape, axes, "sum" if op == "var" else op, dtype):
        return
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
    if op == "prod":
        x = 1 + x * 1e-4
    x = x.astype(dtype)
    got = np.asarray(getattr(la, op)(la.array(x), axis=axes, keepdims=keepdims))
    want = getattr(np, op)(x, axis=axes, keepdims=keepdims)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want), (shape, axes, op, dtype)
