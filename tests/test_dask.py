"""The dask backend (docs/dask.md): plans over chunks, equal to the C backend; interop; laziness.

Most tests use Dask's synchronous scheduler (fast, same tasks); tests/test_dask_cluster.py runs the
same kind of work on a real LocalCluster with worker processes.
"""

import os

import numpy as np
import pytest
from fresh_process import modules_imported
from lazyarray.runtime import available_backends

import lazyarray as la

if "dask" not in available_backends():
    if os.environ.get("CI"):
        raise RuntimeError("CI installs the dask extra (.ci/run): the dask backend must be available")
    pytest.skip("dask is not installed (pip install 'lazyarray-fusion[dask]')",
                allow_module_level=True)

import dask
import dask.array as da

import lazyarray.dask


@pytest.fixture
def on_dask():
    with dask.config.set(scheduler="synchronous"):
        yield


def _bits(x: np.ndarray) -> np.ndarray:
    """Bit patterns, every NaN made one: the sign and payload of a NaN are not part of a value (IEEE
    754 leaves them open; gcc's constant folding of 0.0/0.0 gives +NaN where the FPU gives -NaN)."""
    if x.dtype.kind != "f":
        return x
    return np.where(np.isnan(x), np.array(np.nan, x.dtype), x).view(np.dtype(f"u{x.dtype.itemsize}"))


def _c_and_dask(build, chunks):
    """Evaluate `build()` (a list of Arrays) on the C backend, then on Dask with `chunks`."""
    with la.config(backend="c"):
        ref = [np.asarray(y) for y in la.eval(*build())]
    with la.config(backend="dask", chunks=chunks):
        got = [np.asarray(y) for y in la.eval(*build())]
    return ref, got


def test_import_lazyarray_does_not_import_dask():
    """Nor does a first evaluation on the auto backend (resolving it asked every backend, and
    dask's probe imported dask: ~0.6 s of the first evaluation), nor networkx (export only)."""
    loaded = modules_imported()["evaluation"]  # a fresh interpreter (tests/fresh_process.py)
    assert "dask" not in loaded, "dask imported"
    assert "networkx" not in loaded, "networkx imported"


@pytest.mark.parametrize("chunks", [1000, 4096])
def test_elementwise_bit_for_bit_with_c(on_dask, chunks):
    rng = np.random.default_rng(0)
    a = la.array(rng.standard_normal((96, 512)).astype(np.float32))
    b = la.array(rng.standard_normal(512).astype(np.float32))
    v = la.array(rng.standard_normal(20_000))  # float64, 1-D: chunks cut mid-vector
    i = la.array(rng.integers(-1000, 1000, 20_000).astype(np.int32))

    def build():
        gelu = 0.5 * a * (1 + la.tanh(0.7978845608 * (a + 0.044715 * a ** 3)))
        return [la.exp(a) * b + 1, gelu, 1 / (1 + la.exp(-a)), la.sin(v) * la.log1p(la.abs(v)),
                (i * 3) // 7 + (i % 5), la.where(v > 0, v, 0.1 * v), la.reshape(a, (512, 96)) * 2,
                la.exp(a[3, 7]) * 2, la.array(np.float32(2.5)) * b[0] + 1]  # 0-d kernels

    ref, got = _c_and_dask(build, chunks)
    for k, (r, g) in enumerate(zip(ref, got)):
        assert r.shape == g.shape and r.dtype == g.dtype
        np.testing.assert_array_equal(_bits(g), _bits(r), err_msg=f"output {k}")


def test_elementwise_views_match_c(on_dask):
    """Transposes, flips, strided slices and broadcasts become dask.array views; values match the C
    backend (to an ulp: a view's loop may take libmvec's vector or scalar path differently)."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, 2048)).astype(np.float32)
    a = la.array(x)

    def build():
        return [la.tanh(a.T)[::-1, 1::2] * 2, a[::2, ::-3] + a[1::2, ::-3], a[5] + a[:, 7:8],
                la.flip(a, axis=0) - a]

    ref, got = _c_and_dask(build, 1024)
    for r, g in zip(ref, got):
        np.testing.assert_allclose(g, r, rtol=2e-7, atol=0)
    np.testing.assert_array_equal(got[3], x[::-1] - x)


def test_reductions_matmul_and_library_calls(on_dask):
    rng = np.random.default_rng(2)
    a_np = rng.standard_normal((256, 512)).astype(np.float32)
    b_np = rng.standard_normal((256, 512)).astype(np.float32)
    a, b = la.array(a_np), la.array(b_np)
    n = la.array(rng.integers(0, 9, 70_000).astype(np.int64))

    def build():
        return [la.mean((a - b) ** 2), la.sum(a * b, axis=1), la.nn.softmax(a, axis=-1)
                if hasattr(la.nn, "softmax") else la.exp(a), la.argmax(a), a @ b.T,
                la.concat([a, b], axis=0) * 2, la.max(la.abs(a)), la.sum(n), la.cumsum(a, axis=0),
                a[la.array(np.arange(0, 256, 7))], la.argmax(a, axis=1)]

    ref, got = _c_and_dask(build, 4096)
    for r, g in zip(ref, got):
        assert r.shape == g.shape and r.dtype == g.dtype
        np.testing.assert_allclose(g, r, rtol=2e-5, atol=1e-5)
    np.testing.assert_allclose(got[0], np.mean((a_np.astype(np.float64) - b_np) ** 2), rtol=1e-6)
    assert got[3] == ref[3] and got[6] == ref[6] and got[7] == ref[7]


def test_full_reduction_is_a_tree_of_kernels(on_dask):
    x = la.array(np.arange(1 << 16, dtype=np.float32))
    with la.config(backend="dask", chunks=4096):
        text = str(la.explain(la.mean((x - 1) ** 2), backend="dask"))
        lazy = la.mean((x - 1) ** 2).to_dask()
    assert "tree" in text and "chunk grid 16, " in text
    tree_line = next(line for line in text.splitlines() if "tree" in line)
    assert "21 kernel task(s)" in tree_line  # 16 partials, 4 combines, 1 aggregate
    layers = list(lazy.dask.layers)
    assert any("partial" in n for n in layers)
    expected = np.mean((np.arange(1 << 16, dtype=np.float64) - 1) ** 2)
    np.testing.assert_allclose(float(lazy.compute()), expected, rtol=1e-6)


def test_from_dask_and_to_dask_stay_lazy(on_dask):
    calls = []

    def source(block):
        if block.size:  # map_blocks probes with an empty block
            calls.append(block.shape)
        return block

    base = da.arange(10_240, chunks=2048, dtype=np.float64).map_blocks(source, dtype=np.float64)
    x = la.from_dask(base)
    y = la.exp(x / 10_240) * 2 + x
    out = y.to_dask()
    assert isinstance(out, da.Array) and not calls  # nothing ran yet
    assert out.numblocks == (5,)
    # one fused kernel layer: Dask fuses the source's tasks into the kernel's, chunk by chunk
    assert len(dask.optimize(out)[0].__dask_graph__().layers) == 1
    ref = np.exp(np.arange(10_240) / 10_240) * 2 + np.arange(10_240)
    np.testing.assert_allclose(out.compute(), ref, rtol=1e-15)
    assert len(calls) == 5
    with la.config(backend="dask"):
        np.testing.assert_allclose(np.asarray(la.mean(y)), ref.mean(), rtol=1e-12)


def test_from_dask_rejects_other_objects():
    with pytest.raises(TypeError, match="dask.array.Array"):
        la.from_dask(np.ones(3))
    # chunks that are not plain NumPy arrays (masked here; cupy with dask-cuda) would lose what
    # makes them so, or fail inside a task: refused up front, naming the chunk type
    masked = da.ma.masked_equal(da.arange(8, chunks=4), 3)
    with pytest.raises(TypeError, match="NumPy chunks, got chunks of numpy.ma.*MaskedArray"):
        la.from_dask(masked)


def test_explain_shows_chunk_grid_and_tasks():
    a = la.array(np.ones((4096, 256), np.float32))
    b = la.array(np.ones(256, np.float32))
    with la.config(chunks=1024):
        e = la.explain(la.exp(a) * b + 1, backend="dask")
    assert e.backend == "dask" and e.dask is not None
    assert "blockwise  k0_exp_multiply_add: chunk grid 4 x 1, 4 kernel task(s)" in str(e)
    assert e.kernels[0].source and "la_exp_multiply_add_" in e.kernels[0].source


def _elementwise_ufunc_ops() -> list:
    """The registry's elementwise ops that have a NumPy ufunc (the every-op sweep's parameters)."""
    from lazyarray.graph import OpKind, all_ops

    return [op for op in all_ops() if op.kind is OpKind.ELEMENTWISE and op.ufunc is not None]


# One test per op (was one test of all ~70, 424 s on one xdist worker at stop 49): the workers
# share the sweep. An op's cases are evaluated CASES_PER_PLAN at a time: all of one op's cases in
# one `la.eval` fuse into one kernel of ~110-170 outputs, and for ops whose helpers gcc inlines
# (logaddexp's exp and log) gcc -O3 took over 10 minutes of one worker on that one unit.
CASES_PER_PLAN = 4


@pytest.mark.exhaustive
@pytest.mark.parametrize("op", _elementwise_ufunc_ops(), ids=lambda op: op.name)
def test_every_elementwise_op_and_dtype_bit_for_bit_with_c(on_dask, op):
    """Every registry elementwise op over every dtype combination NumPy accepts, cut into three
    chunks (one ragged) and broadcast against a scalar-like operand: the C backend's bits."""
    from numpy_oracle import accepted_dtypes, draw

    fn = getattr(la, op.name)
    cases = []
    for seed, dts in enumerate(accepted_dtypes(op.ufunc, half=False)):
        rng = np.random.default_rng(seed)
        shapes = [(2053,), (1,)][: op.arity]
        cases.append([la.array(draw(rng, dt, shape, op.domain, k))
                      for k, (dt, shape) in enumerate(zip(dts, shapes))])

    for start in range(0, len(cases), CASES_PER_PLAN):
        some = cases[start:start + CASES_PER_PLAN]
        ref, got = _c_and_dask(lambda some=some: [fn(*args) for args in some], 1024)
        for r, g in zip(ref, got):
            assert r.dtype == g.dtype, op.name
            np.testing.assert_array_equal(_bits(g), _bits(r), err_msg=op.name)


def test_kernels_that_read_no_chunk_fill_their_whole_shape(on_dask):
    """A kernel with no array input (`full`, a Python scalar broadcast into a scatter) runs as
    one task over the kernel's space (it ran over a 0-d space: IndexError in the layout)."""
    x = np.arange(12.0).reshape(3, 4)
    with la.config(backend="dask"):
        # a full reduction of no chunk runs whole (the tree's blockwise had no index to name)
        total = la.sum(la.full((300, 7), 2.0))
        assert "a reduction of no chunk" in str(la.explain(total))
        assert float(total) == 4200.0
        assert float(la.max(la.zeros((40, 3)))) == 0.0
        np.testing.assert_array_equal(np.asarray(la.full((2, 3), 2.0) + 1), np.full((2, 3), 3.0))
        np.testing.assert_array_equal(np.asarray(la.concat([la.zeros(2), la.ones(3)])),
                                      np.concatenate([np.zeros(2), np.ones(3)]))
        want = x.copy()
        want[1] = -1.0
        np.testing.assert_array_equal(np.asarray(la.array(x).at[1].set(-1.0)), want)
        y = la.array(x)
        y[:, 2] = 7  # x[idx] = v rebinds y to y.at[idx].set(v)
        want = x.copy()
        want[:, 2] = 7
        np.testing.assert_array_equal(np.asarray(y), want)


def test_a_kernel_of_scalars_only_with_two_outputs():
    """A kernel that reads no array (a broadcast scalar) and stores two outputs travels as one
    object-dtype task, which dask's auto rechunking cannot size: NotImplementedError (fuzzer
    seed 950119). Its chunks are now sized by the widest output."""
    with la.config(backend="dask"):
        x = la.ones((4, 3), dtype=la.int64)
        y, z = la.flip(x, axis=1) * 3, x == 2**64 - 1
        la.eval(y, z)
        np.testing.assert_array_equal(np.asarray(y), np.full((4, 3), 3))
        np.testing.assert_array_equal(np.asarray(z), np.zeros((4, 3), bool))
