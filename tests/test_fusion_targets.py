"""The structural targets of the passes issue: kernels and library calls per program, checked on
the kernel-IR Program (no device, no compiler), plus the values through the numpy executor."""

import numpy as np
import pytest
from lazyarray.graph import Graph
from lazyarray.passes import optimize

import lazyarray as la

B, H, D = 3, 5, 7
rng = np.random.default_rng(0)


def _program(*arrays):
    return optimize(Graph([a._node for a in arrays]))


def _counts(*arrays):
    p = _program(*arrays)
    return len(p.kernels), len(p.library_calls)


def _sigmoid_np(z):
    return 1 / (1 + np.exp(-z))


def _lstm(gates, c):
    i, f, g, o = gates[:, :H], gates[:, H:2 * H], gates[:, 2 * H:3 * H], gates[:, 3 * H:]
    new_c = la.nn.sigmoid(f) * c + la.nn.sigmoid(i) * la.tanh(g)
    return new_c, la.nn.sigmoid(o) * la.tanh(new_c)


def _lstm_np(gates, c):
    i, f, g, o = gates[:, :H], gates[:, H:2 * H], gates[:, 2 * H:3 * H], gates[:, 3 * H:]
    new_c = _sigmoid_np(f) * c + _sigmoid_np(i) * np.tanh(g)
    return new_c, _sigmoid_np(o) * np.tanh(new_c)


def _arr(*shape):
    return rng.standard_normal(shape)


def test_sigmoid_is_one_kernel():
    x = _arr(4, 6)
    y = 1 / (1 + la.exp(-la.array(x)))
    assert _counts(y) == (1, 0)
    np.testing.assert_allclose(np.asarray(y), _sigmoid_np(x))


def test_gelu_tanh_form_is_one_kernel():
    x = _arr(16)
    y = la.nn.gelu(la.array(x))
    assert _counts(y) == (1, 0)
    ref = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    np.testing.assert_allclose(np.asarray(y), ref)


def test_lstm_nonlinearity_is_one_kernel_writing_both_outputs():
    g, c = _arr(B, 4 * H), _arr(B, H)
    new_c, new_h = _lstm(la.array(g), la.array(c))
    p = _program(new_c, new_h)
    assert (len(p.kernels), len(p.library_calls)) == (1, 0)
    assert len(p.kernels[0].output_slots) == 2
    la.eval(new_c, new_h)
    for got, ref in zip((new_c, new_h), _lstm_np(g, c)):
        np.testing.assert_allclose(np.asarray(got), ref)


def test_full_lstm_cell_is_two_library_calls_and_one_kernel():
    x, w, h, u = _arr(B, D), _arr(D, 4 * H), _arr(B, H), _arr(H, 4 * H)
    b, c = _arr(4 * H), _arr(B, H)
    gates = la.array(x) @ la.array(w) + la.array(h) @ la.array(u) + la.array(b)
    new_c, new_h = _lstm(gates, la.array(c))
    assert _counts(new_c, new_h) == (1, 2)
    la.eval(new_c, new_h)
    for got, ref in zip((new_c, new_h), _lstm_np(x @ w + h @ u + b, c)):
        np.testing.assert_allclose(np.asarray(got), ref)


def test_relu_of_affine_is_one_library_call_and_one_kernel():
    x, w, b = _arr(4, D), _arr(D, 6), _arr(6)
    y = la.nn.relu(la.array(x) @ la.array(w) + la.array(b))
    assert _counts(y) == (1, 1)
    np.testing.assert_allclose(np.asarray(y), np.maximum(x @ w + b, 0))


def test_mean_squared_error_is_one_kernel():
    a, b = _arr(5, 7), _arr(5, 7)
    y = la.mean((la.array(a) - la.array(b)) ** 2)
    p = _program(y)
    assert (len(p.kernels), len(p.library_calls)) == (1, 0)
    assert [st.inner for st in p.kernels[0].stages] == [True, False]  # reduce, then sum / n
    np.testing.assert_allclose(float(y), np.mean((a - b) ** 2))


@pytest.mark.parametrize("fn", ["softmax", "log_softmax", "logsumexp"])
def test_row_wise_softmax_family_is_one_kernel(fn):
    x = _arr(4, 9)
    y = getattr(la.nn, fn)(la.array(x), axis=-1)
    assert _counts(y) == (1, 0)
    m = x.max(-1, keepdims=True)
    lse = np.log(np.exp(x - m).sum(-1, keepdims=True)) + m
    ref = {"softmax": np.exp(x - lse), "log_softmax": x - lse, "logsumexp": lse[:, 0]}[fn]
    np.testing.assert_allclose(np.asarray(y), ref)


def test_chain_of_ten_matmuls_keeps_two_intermediate_buffers():
    ws = [_arr(8, 8) for _ in range(10)]
    z0 = _arr(4, 8)
    z, ref = la.array(z0), z0
    for w in ws:
        z, ref = z @ la.array(w), ref @ w
    p = _program(z)
    assert (len(p.kernels), len(p.library_calls)) == (0, 10)
    pinned = set(p.inputs) | set(p.outputs)
    intermediate = {p.buffers[s].storage for s in range(len(p.buffers)) if s not in pinned}
    assert len(intermediate) <= 2
    assert p.peak_bytes == 2 * 4 * 8 * 8
    np.testing.assert_allclose(np.asarray(z), ref)


def test_a_stored_value_two_passes_read_is_computed_once_in_its_own_kernel():
    """hist_equalize's `blurred` (a 3x3 box sum // 9) and `where(blurred > blurred.mean(),
    ...)`: one kernel computed the box sum in the mean's pass and again in the pass storing
    both. A stored root that two passes of one kernel compute, costing more than rule 5
    recomputes, gets its own kernel (its buffer is written anyway); a cheap one stays."""
    img = rng.integers(0, 256, (12, 14)).astype(np.uint16)
    x = la.array(img)
    with la.config(eager_size=0):
        box = sum(x[dy:dy + 10, dx:dx + 12] for dy in range(3) for dx in range(3)) // 9
        mask = la.where(box > box.mean(), 255, 0)
        cheap = x + 1
        cheap_mask = la.where(cheap > cheap.mean(), 1, 0)
    p = _program(box, mask)
    assert (len(p.kernels), len(p.library_calls)) == (2, 0)
    assert any("computed in two passes of one kernel" in n for n in p.notes), p.notes
    assert [len(k.stages) for k in p.kernels] == [1, 2]  # the box sum; the mean and the mask
    assert _counts(cheap, cheap_mask) == (1, 0)
    want = sum(img[dy:dy + 10, dx:dx + 12] for dy in range(3) for dx in range(3)) // 9
    got_box, got_mask = la.eval(box, mask)
    np.testing.assert_array_equal(np.asarray(got_box), want)
    np.testing.assert_array_equal(np.asarray(got_mask), np.where(want > want.mean(), 255, 0))
