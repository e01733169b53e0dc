"""Sums in NumPy's order, so their last bits are NumPy's: float32 and complex sums pairwise in
their own dtype (runtime/c/printer.py `emit_pairwise`), complex column sums one row after another
in every kernel shape, sums over reduced dims on both sides of a kept one a tree per trailing
block (`axis=(0, 2, 3)` of NCHW, runtime/c/layout.py `tree_boundary`), NumPy's buffered sums (a sum that casts its operand: `np.mean(ints)`,
`x32.mean(dtype=np.float64)`, graph/ops_buffered.py) one 8192-value tree at a time, and mean/var
dividing float32/complex64 by NumPy's intp count (in float64/complex128). Before stop 50 every
one of these was a last bit off NumPy's on most rows. Each case on every backend, at once and
on plans (`eager_size=0`)."""

from __future__ import annotations

import numpy as np
import pytest

import lazyarray as la
from together import compile_together

_RNG = np.random.default_rng(50)


def _wide(shape, dtype) -> np.ndarray:
    """Values over twelve decades: a sum's order shows in its last bits."""
    x = _RNG.standard_normal(shape) * 10.0 ** _RNG.integers(-6, 6, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * _RNG.standard_normal(shape) * 10.0 ** _RNG.integers(-6, 6, shape)
    return x.astype(dtype)


X32, C64, C128 = _wide((6, 700), "float32"), _wide((6, 700), "complex64"), _wide(3000, "complex128")
BIG32, BIG_INT = _wide((3, 9000), "float32"), _RNG.integers(-2**62, 2**62, (3, 9000))
HALVES = _wide(20000, "float32").astype(np.float16)
NCHW, BLOCKS = _wide((16, 8, 14, 14), "float32"), _wide((4, 3, 196), "complex128")
BUFFER_BLOCKS = _wide((3, 2, 10000), "float32")

CASES = {
    "float32 sum": lambda m, a: m.sum(a[0]),
    "float32 row sums": lambda m, a: m.sum(a[0], axis=1),
    "float32 row means of a computed value": lambda m, a: (a[0] / 255).mean(axis=1),
    "float32 row std": lambda m, a: m.std(a[0], axis=1),
    "float32 sum of squares": lambda m, a: m.sum(a[0] * a[0], axis=-1),
    "complex64 sum": lambda m, a: m.sum(a[1]),
    "complex64 row means": lambda m, a: m.mean(a[1], axis=1),
    "complex64 column means, centered": lambda m, a: a[1] - m.mean(a[1], axis=0, keepdims=True),
    "complex64 var": lambda m, a: m.var(a[1], axis=1),
    "complex128 sum": lambda m, a: m.sum(a[2]),
    "complex128 centered": lambda m, a: a[2] - a[2].mean(),
    "float32 rows summed in float64 (buffered)": lambda m, a: m.sum(a[3], axis=1, dtype=np.float64),
    "float32 mean in float64 (buffered)": lambda m, a: m.mean(a[3], dtype=np.float64),
    "int64 mean (buffered)": lambda m, a: m.mean(a[4], axis=-1),
    "int64 var (buffered mean)": lambda m, a: m.var(a[4]),
    "float16 mean (float32 buffers)": lambda m, a: m.mean(a[5]),
    "astype, then summed (one tree)": lambda m, a: m.sum(a[3].astype(np.float64), axis=1),
    "NCHW batch mean (a tree per H x W)": lambda m, a: m.mean(a[6], axis=(0, 2, 3)),
    "NCHW batch var of a computed value": lambda m, a: m.var(a[6] * 3, axis=(0, 2, 3)),
    "complex blocks of 196": lambda m, a: m.sum(a[7], axis=(0, 2)),
    "blocks of 10000 in buffers": lambda m, a: m.sum(a[8], axis=(0, 2), dtype=np.float64),
    "vecdot of float32 rows (BLAS's dot)": lambda m, a: m.vecdot(a[0], a[0] * 3),
    "vecdot of complex64 rows, conjugated": lambda m, a: m.vecdot(a[1], a[1] + 1),
    "vecdot over axis 0 of a computed value": lambda m, a: m.vecdot(a[7] * 2, a[7], axis=0),
}


def _assert_sums(got, want, backend_does, name):
    """NumPy's bits where the backend sums in NumPy's order; on cupy (block trees) close to them."""
    if backend_does("numpy_fold_order"):
        assert got.tobytes() == want.tobytes(), (name, int(np.sum(got != want)), want.size)
    else:
        rtol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(got, want, rtol=rtol, err_msg=name)


@pytest.mark.xdist_group("test_sums_are_numpys_bit_for_bit")
@pytest.mark.parametrize("lazy", [False, True], ids=["at once", "plans"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_sums_are_numpys_bit_for_bit(backend, backend_does, name, lazy):
    if "float16" in name and not backend_does("half"):
        pytest.skip(f"float16 on {backend} (conftest NEEDS['half'])")
    operands = (X32, C64, C128, BIG32, BIG_INT, HALVES, NCHW, BLOCKS, BUFFER_BLOCKS)
    want = np.asarray(CASES[name](np, operands))
    with la.config(**({"eager_size": 0} if lazy else {})):
        compile_together(_COMPILED, (backend, lazy), _builders(CASES, operands))
        got = np.asarray(CASES[name](la, tuple(la.asarray(v) for v in operands)))
    assert got.dtype == want.dtype
    _assert_sums(got, want, backend_does, name)


_COMPILED: dict = {}  # the settings whose kernels of every case are compiled (tests/together.py)


def _builders(cases: dict, operands: tuple) -> list:
    """Each case's value from its operands (tests/together.py compiles their kernels at once)."""
    return [lambda f=f: f(la, tuple(la.asarray(v) for v in operands)) for f in cases.values()]


def test_a_buffered_sum_is_one_fold_over_the_row():
    """A full buffered sum is never cut into halves for two threads (runtime/c/split.py): NumPy
    adds its buffers in order, and halves would add them in another."""
    x = _wide(2**20, "float32")
    want = np.sum(x, dtype=np.float64)
    with la.config(backend="c", eager_size=0, num_threads=2):
        got = la.sum(la.asarray(x), dtype=np.float64)
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_a_complex_sum_fused_with_its_division_is_numpys(dtype):
    """`z / z.sum(axis=1, keepdims=True)` in one C kernel: the sum is loop-invariant in the
    division's loop, gcc unswitches Smith's branch on it, and gcc 12's SLP fused the !big
    lanes into a vfmsubadd despite -ffp-contract=off (1673 of 12000 quotients a last bit off
    NumPy's, with the compiled kernel only: runtime/c/complex.py's `div` keeps both lanes
    z - x * y). Checked on the stand-in run and again on the compiled kernel."""
    from lazyarray.runtime.c import background as c_background
    z = _wide((40, 300), dtype)
    want = z / z.sum(axis=1, keepdims=True)
    with la.config(backend="c", eager_size=0):
        for _ in range(2):
            Z = la.asarray(z)
            got = np.asarray(Z / la.sum(Z, axis=1, keepdims=True))
            assert got.tobytes() == want.tobytes(), int(np.sum(got != want))
            c_background.wait_for_compiles(60)


NORMS = {
    "norm of complex rows": lambda m, a: m.linalg.norm(a[0], axis=1),
    "norm of complex columns": lambda m, a: m.linalg.norm(a[0], axis=0, keepdims=True),
    "vector_norm over (0, 2): a column fold": lambda m, a: m.linalg.vector_norm(a[1], axis=(0, 2)),
    "vector_norm over (2, 0): NumPy's order of the axes": lambda m, a: m.linalg.vector_norm(
        a[1], axis=(2, 0), keepdims=True),
    "vector_norm of everything": lambda m, a: m.linalg.vector_norm(a[1]),
    "vector_norm ord 1 over (0, 2)": lambda m, a: m.linalg.vector_norm(a[1], axis=(0, 2), ord=1),
    "vector_norm ord 2 of float64 columns": lambda m, a: m.linalg.vector_norm(a[0].real, axis=0,
                                                                           ord=2),
    "vector_norm ord 0.5": lambda m, a: m.linalg.vector_norm(a[0], axis=-1, ord=0.5),
    "vector_norm ord inf": lambda m, a: m.linalg.vector_norm(a[1], axis=(1, 2), ord=np.inf),
    "matrix_norm fro of complex": lambda m, a: m.linalg.matrix_norm(a[0]),
    "norm ord 1 of complex rows": lambda m, a: m.linalg.norm(a[0], ord=1, axis=1),
}


@pytest.mark.xdist_group("test_norms_are_numpys_bit_for_bit")
@pytest.mark.parametrize("name", sorted(NORMS))
def test_norms_are_numpys_bit_for_bit(backend, backend_does, name):
    """numpy.linalg's vector norms step by step as NumPy's: 2 is sqrt(add.reduce((conj(x) *
    x).real)) (|x| ** 2 through hypot was a last bit off for complex), vector_norm moves the
    reduced axes first in the order given and reduces axis 0 (a column fold where axes
    remain), p norms raise |x| in place and the sum to reciprocal(p) in its dtype (their
    powers are the project's own, within the ulp bounds of docs/semantics.md, so p = 0.5 only:
    NumPy's sqrt fast path)."""
    operands = (_wide((30, 200), "complex128"), _wide((7, 9, 50), "float32"))
    want = np.asarray(NORMS[name](np, operands))
    with la.config(eager_size=0):
        compile_together(_COMPILED, (backend, "norms"), _builders(NORMS, operands))
        got = np.asarray(NORMS[name](la, tuple(la.asarray(v) for v in operands)))
    assert got.dtype == want.dtype and got.shape == want.shape
    _assert_sums(got, want, backend_does, name)


LAYOUTS = {
    "sum over axis 0 of a transposed view": lambda m, v: m.sum(v.transpose(2, 1, 0), axis=0),
    "sum over axis 0 of a transposed product": lambda m, v: m.sum(v.transpose(2, 1, 0) * 2, axis=0),
    "mean over (0, 2) of a permuted sum": lambda m, v: m.mean(v.transpose(1, 0, 2) + 1, axis=(0, 2)),
    "column sums of a product of transposes": lambda m, v: m.sum(v[0].T * v[1].T, axis=0),
    "var over axis 0 of a transpose": lambda m, v: m.var(v[0].T, axis=0),
    "sum over the last axis of a transpose": lambda m, v: m.sum(v.transpose(0, 2, 1) * 2, axis=2),
}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_reductions_follow_numpys_memory_order(backend, backend_does, name):
    """NumPy folds a reduction in its operand's memory order and allocates ufunc results in
    their operands' order: the sum over axis 0 of `x.T * 2` is pairwise along each column of
    x (passes/numpy_layout.py), where the C-order reading of the transposed value added row
    after row (a last bit off on most outputs before stop 50)."""
    x = _wide((6, 40, 60), "float64")
    want = np.asarray(LAYOUTS[name](np, x))
    with la.config(eager_size=0):
        got = np.asarray(LAYOUTS[name](la, la.asarray(x)))
    _assert_sums(got, want, backend_does, name)


@pytest.mark.parametrize("lazy", [False, True], ids=["at once", "plans"])
def test_inputs_in_another_memory_order_reduce_as_numpy(backend, backend_does, lazy):
    """A Fortran-ordered NumPy array handed in (pandas' `to_numpy()` of a float frame often is)
    or a transposed view of one: NumPy reduces it along its memory (and `np.array` keeps that
    order); lazyarray held a C-ordered copy and folded in C order, a last bit off on most
    outputs. It now holds a C-ordered leaf in the array's memory order and a permute view of
    it (lazyarray/creation.py `memory_axes`)."""
    b = _wide((6, 40, 30), "float64")
    inputs = {"F": np.asfortranarray(b), "transposed view": b.transpose(2, 0, 1),
              "F of float32": np.asfortranarray(b[0].astype(np.float32))}
    for name, x in inputs.items():
        for conv in (la.asarray, la.array):
            for axis in [None, *range(x.ndim), (0, x.ndim - 1)]:
                want = np.sum(x, axis=axis)
                with la.config(**({"eager_size": 0} if lazy else {})):
                    got = np.asarray(la.sum(conv(x), axis=axis))
                _assert_sums(got, want, backend_does, (name, conv.__name__, axis))
        np.testing.assert_array_equal(np.asarray(la.array(x)), x)
        assert np.asarray(la.array(x)).flags.f_contiguous == x.flags.f_contiguous


def _reduced_twice(m, held):
    first = m.sum(held, axis=0)
    np.asarray(first)
    return m.sum(held, axis=1)


HELD_VIEWS = {
    "a held transposed view": lambda m, b, conv: _reduced_twice(m, conv(b).T),
    "a held Fortran-ordered input": lambda m, b, conv: _reduced_twice(m, conv(np.asfortranarray(b))),
    "a held slice of a transpose": lambda m, b, conv: _reduced_twice(m, conv(b).T[::2, 1:]),
    # not a view: computed with the first evaluation, in NumPy's (Fortran) order since stop 52
    # (lazyarray/result_layout.py; more of the class in tests/test_result_layout.py)
    "a held elementwise result of a transpose": lambda m, b, conv: _reduced_twice(
        m, conv(b).T * 2),
}


@pytest.mark.parametrize("name", sorted(HELD_VIEWS))
def test_a_held_view_keeps_numpys_memory_order(backend, backend_does, name):
    """A pending view of a leaf held in a local was computed with the first evaluation that read
    it (lazyarray/evaluation.py `_held_in_frames`) into a C-ordered buffer: a later reduction
    over it folded in C order, NumPy's along the view's memory (264 of 300 sums a last bit
    off). A chain of views down to a leaf is no held candidate now (`_is_view_of_leaf`, and
    graph/_node.c's `view_of_leaf` for the compiled hit path: the loop's later rounds)."""
    b = _wide((200, 300), "float64")
    want = np.asarray(HELD_VIEWS[name](np, b, lambda v: v))
    with la.config(eager_size=0):
        for _ in range(3):  # the first round builds; later rounds take the hit paths
            got = np.asarray(HELD_VIEWS[name](la, b, la.asarray))
            _assert_sums(got, want, backend_does, name)
