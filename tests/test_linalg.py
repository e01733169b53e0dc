"""la.linalg against numpy.linalg on every backend, over float32/float64 and batch shapes.

Every function of one dtype and batch shape is evaluated in one `la.eval` (one plan, one compile).
Decompositions are checked by what they must satisfy (reconstruction, orthogonality) as well as
against NumPy's values, so a device library whose sign conventions differ would still pass.
"""

from __future__ import annotations

import contextlib
import math

import numpy as np
import pytest

import lazyarray as la
from numpy_oracle import assert_as_numpy

TOL = {np.float32: 2e-4, np.float64: 1e-9, np.complex64: 2e-4, np.complex128: 1e-9}
COMPLEX = [pytest.param(t, marks=pytest.mark.skipif(np.dtype(t) not in la.graph.SUPPORTED,
                                                    reason="no complex dtypes yet"))
           for t in (np.complex64, np.complex128)]
# The registry ops these tests exercise (tests/test_ops_elementwise.py checks every op is covered).
# eig and eigvals need complex dtypes: test_eig covers them where those exist.
LINALG_TESTS = ("cholesky", "det", "slogdet", "inv", "solve", "eigh", "eigvalsh", "qr", "svd",
                "svdvals", "pinv", "lstsq", "eig", "eigvals")


def _inputs(rng, dtype, batch, n=4, m=3):
    def draw(*shape):
        x = rng.standard_normal(shape)
        return x + 1j * rng.standard_normal(shape) if np.dtype(dtype).kind == "c" else x

    a = draw(*batch, n, n)
    spd = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)  # Hermitian positive definite
    rect = draw(*batch, n, m)
    b = draw(*batch, n, 2)
    return [x.astype(dtype) for x in (a + n * np.eye(n), spd, rect, b)]


def _cases(a, spd, rect, b):
    """name -> (lazyarray result, NumPy result) for one set of inputs."""
    L, n = la.linalg, np.linalg
    A, S, R, B = (la.array(x) for x in (a, spd, rect, b))
    return {
        "solve": (L.solve(A, B), n.solve(a, b)),
        "solve_vector": (L.solve(A, la.array(b[..., 0].reshape(-1)[: a.shape[-1]])),
                         n.solve(a, b[..., 0].reshape(-1)[: a.shape[-1]])),
        "inv": (L.inv(A), n.inv(a)),
        "det": (L.det(A), n.det(a)),
        "cholesky": (L.cholesky(S), n.cholesky(spd)),
        "cholesky_upper": (L.cholesky(S, upper=True), n.cholesky(spd, upper=True)),
        "eigvalsh": (L.eigvalsh(S), n.eigvalsh(spd)),
        "svdvals": (L.svdvals(R), n.svd(rect, compute_uv=False)),
        "pinv": (L.pinv(R), n.pinv(rect, rtol=max(rect.shape[-2:]) * np.finfo(rect.dtype).eps)),
        "matrix_rank": (L.matrix_rank(R), n.matrix_rank(rect)),
        "trace": (L.trace(A), np.trace(a, axis1=-2, axis2=-1)),
        "trace_offset": (L.trace(R, offset=-1), np.trace(rect, -1, axis1=-2, axis2=-1)),
        "diagonal": (L.diagonal(R, offset=1), np.diagonal(rect, 1, -2, -1)),
        "matrix_transpose": (L.matrix_transpose(R), np.swapaxes(rect, -1, -2)),
        "matrix_power3": (L.matrix_power(A, 3), n.matrix_power(a, 3)),
        "matrix_power0": (L.matrix_power(A, 0), n.matrix_power(a, 0)),
        "matrix_power-2": (L.matrix_power(A, -2), n.matrix_power(a, -2)),
        "fro": (L.matrix_norm(R), n.norm(rect, axis=(-2, -1))),
        "nuc": (L.matrix_norm(R, ord="nuc"), n.norm(rect, "nuc", axis=(-2, -1))),
        "norm2": (L.matrix_norm(R, ord=2), n.norm(rect, 2, axis=(-2, -1))),
        "norm-2": (L.matrix_norm(R, ord=-2), n.norm(rect, -2, axis=(-2, -1))),
        "norm1": (L.matrix_norm(R, ord=1), n.norm(rect, 1, axis=(-2, -1))),
        "norm-inf": (L.matrix_norm(R, ord=-math.inf), n.norm(rect, -np.inf, axis=(-2, -1))),
        "vnorm": (L.vector_norm(R), n.norm(rect.reshape(-1))),
        "vnorm3": (L.vector_norm(R, axis=-1, ord=3, keepdims=True),
                   n.norm(rect, 3, axis=-1, keepdims=True)),
        "vnorm0": (L.vector_norm(R, axis=-2, ord=0), n.norm(rect, 0, axis=-2)),
        "vnorm_inf": (L.vector_norm(R, axis=-1, ord=math.inf), n.norm(rect, np.inf, axis=-1)),
        "norm_np": (L.norm(R, axis=-1), n.norm(rect, axis=-1)),
        "vecdot": (L.vecdot(R, R), np.sum(np.conj(rect) * rect, axis=-1)),
        "tensordot": (L.tensordot(R, R, axes=([-2], [-2])),
                      np.tensordot(rect, rect, axes=([-2], [-2]))),
    }


def _decompositions(a, spd, rect):
    L = la.linalg
    return {"eigh": L.eigh(la.array(spd)), "qr": L.qr(la.array(rect)),
            "qr_complete": L.qr(la.array(rect), mode="complete"),
            "svd": L.svd(la.array(rect)), "svd_thin": L.svd(la.array(rect), full_matrices=False),
            "slogdet": L.slogdet(la.array(a))}


def _check_decompositions(dec, a, spd, rect, tol):
    def close(x, y, what):
        np.testing.assert_allclose(np.asarray(x), y, rtol=tol, atol=tol * 10, err_msg=what)

    w, v = (np.asarray(t) for t in dec["eigh"])
    close(w, np.linalg.eigvalsh(spd), "eigh values")
    close(v @ (w[..., None] * np.conj(np.swapaxes(v, -1, -2))), spd, "eigh reconstruction")
    for name in ("qr", "qr_complete"):
        q, r = (np.asarray(t) for t in dec[name])
        close(q @ r, rect, name)
        assert np.allclose(np.tril(r, -1), 0)
    for name, full in (("svd", True), ("svd_thin", False)):
        u, s, vh = (np.asarray(t) for t in dec[name])
        k = s.shape[-1]
        close(s, np.linalg.svd(rect, compute_uv=False), name)
        close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], rect, name)
        assert u.shape == np.linalg.svd(rect, full_matrices=full)[0].shape
    sign, logdet = (np.asarray(t) for t in dec["slogdet"])
    want = np.linalg.slogdet(a)
    close(sign, want.sign, "slogdet sign")
    close(logdet, want.logabsdet, "slogdet log")


_FAST_ON_C = {(0, "float32"), (1, "complex128")}


def _batch_and_dtype() -> list:
    """Each (batch, dtype); on C each compiles a unit of every decomposition (3-5 s on 2 cores):
    the fast tier keeps a real dtype unbatched and a complex one batched, the exhaustive tier the
    rest (every dtype both ways)."""
    params = []
    for k, batch in enumerate([(), (2, 1)]):
        for p in [pytest.param(np.float32), pytest.param(np.float64), *COMPLEX]:
            (dtype,) = p.values
            marks = list(p.marks)
            if (k, np.dtype(dtype).name) not in _FAST_ON_C:
                marks.append(pytest.mark.exhaustive_on("c"))
            params.append(pytest.param(batch, dtype, marks=marks,
                                       id=f"batch{k}-{np.dtype(dtype).name}"))
    return params


@pytest.mark.parametrize(("batch", "dtype"), _batch_and_dtype())
def test_linalg_matches_numpy(backend, dtype, batch):
    rng = np.random.default_rng(7)
    a, spd, rect, b = _inputs(rng, dtype, batch)
    cases = _cases(a, spd, rect, b)
    dec = _decompositions(a, spd, rect)
    la.eval(*[got for got, _ in cases.values()], *[x for r in dec.values() for x in r])
    tol = TOL[dtype]
    for name, (got, want) in cases.items():
        assert got.shape == np.shape(want), name
        assert got.dtype == np.asarray(want).dtype or name == "matrix_rank", (name, got.dtype)
        np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol, err_msg=name)
    _check_decompositions(dec, a, spd, rect, tol)


def test_batch_dims_broadcast_and_lstsq(backend):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 1, 4, 4)) + 4 * np.eye(4)
    b = rng.standard_normal((2, 4, 5))
    m, y = rng.standard_normal((6, 3)), rng.standard_normal((6, 2))
    x, res, rank, s = la.linalg.lstsq(la.array(m), la.array(y))
    got = la.linalg.solve(la.array(a), la.array(b))
    ints = la.linalg.inv(la.array(np.array([[2, 1], [1, 3]])))
    outer = la.linalg.outer(la.arange(3.0), la.arange(4.0))
    la.eval(x, res, rank, s, got, ints, outer)
    np.testing.assert_allclose(np.asarray(got), np.linalg.solve(a, b), rtol=1e-10)
    assert got.shape == (3, 2, 4, 5)
    wx, wres, wrank, ws = np.linalg.lstsq(m, y)
    for g, w in ((x, wx), (res, wres), (rank, wrank), (s, ws)):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-10)
    assert ints.dtype == la.float64
    np.testing.assert_allclose(np.asarray(ints), np.linalg.inv([[2.0, 1.0], [1.0, 3.0]]))
    np.testing.assert_allclose(np.asarray(outer), np.outer(np.arange(3.0), np.arange(4.0)))


def test_cross_matches_numpy(reference_backend):
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((1, 3))
    np.testing.assert_allclose(np.asarray(la.linalg.cross(la.array(a), la.array(b))),
                               np.cross(a, b), rtol=1e-12)
    a, b = rng.standard_normal((3, 2)), rng.standard_normal((3, 2))
    np.testing.assert_allclose(np.asarray(la.linalg.cross(la.array(a), la.array(b), axis=0)),
                               np.cross(a, b, axis=0), rtol=1e-12)


def test_library_calls_and_fused_compositions(reference_backend):
    """Decompositions are library calls; trace/diagonal/vector_norm fuse into one kernel."""
    x = la.array(np.random.default_rng(0).standard_normal((5, 5)))
    plan = la.explain(la.linalg.inv(x) * 2.0 + 1.0)
    assert plan.num_library_calls == 1 and plan.num_kernels == 1
    fused = la.explain(la.linalg.trace(x * 2.0) + la.linalg.vector_norm(x))
    assert fused.num_library_calls == 0


def test_qr_mode_r_is_numpys(backend):
    # np.linalg.qr(a, mode="r") on an Array dispatches to la.linalg.qr, which raised ValueError
    rect = np.random.default_rng(3).standard_normal((2, 5, 3))
    for x in (rect, rect[0], rect[0].T.astype(np.float32)):
        want = np.linalg.qr(x, mode="r")
        for got in (np.linalg.qr(la.asarray(x), mode="r"), la.linalg.qr(la.asarray(x), mode="r")):
            assert isinstance(got, la.Array) and got.shape == want.shape
            assert got.dtype == want.dtype
            np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-6)


def test_errors_name_the_problem(reference_backend):
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        la.linalg.inv(la.zeros((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="at least two-dimensional"):
        la.linalg.det(la.zeros(3))
    with pytest.raises(ValueError, match="mode"):
        la.linalg.qr(la.zeros((2, 2)), mode="rw")  # (NumPy: "Unrecognized mode")
    with pytest.raises(np.linalg.LinAlgError):  # raised by LAPACK at evaluation, as in NumPy
        np.asarray(la.linalg.inv(la.zeros((2, 2))))
    with pytest.raises(ValueError, match="Invalid norm order for matrices"):
        la.linalg.matrix_norm(la.zeros((2, 2)), ord="bad")


def test_namespace_is_complete():
    want = {"cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul",
            "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv",
            "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
            "vector_norm", "norm", "lstsq", "eig", "eigvals"}
    assert want <= set(dir(la.linalg))


@pytest.mark.exhaustive
@pytest.mark.parametrize("dtype", [np.float32, np.float64, *COMPLEX])
@pytest.mark.parametrize("batch", [(3,), (2, 3), (1, 2, 2)])
@pytest.mark.parametrize("n,m", [(1, 1), (5, 2), (3, 6)])
def test_linalg_sweep(backend, dtype, batch, n, m):
    rng = np.random.default_rng(n * 10 + m)
    a, spd, rect, b = _inputs(rng, dtype, batch, n=n, m=m)
    cases = _cases(a, spd, rect, b)
    dec = _decompositions(a, spd, rect)
    la.eval(*[got for got, _ in cases.values()], *[x for r in dec.values() for x in r])
    for name, (got, want) in cases.items():
        np.testing.assert_allclose(np.asarray(got), want, rtol=TOL[dtype] * 10,
                                   atol=TOL[dtype] * 10, err_msg=name)
    _check_decompositions(dec, a, spd, rect, TOL[dtype] * 10)


def test_eig(backend):
    """eig/eigvals are complex-valued; without complex dtypes they say so instead of guessing."""
    a = np.array([[2.0, 1.0], [-1.0, 3.0]])
    if np.dtype(np.complex128) not in la.graph.SUPPORTED:
        with pytest.raises(NotImplementedError, match="complex"):
            la.linalg.eig(la.array(a))
        with pytest.raises(NotImplementedError, match="complex"):
            la.linalg.eigvals(la.array(a))
        return
    w, v = la.linalg.eig(la.array(a))
    vals = la.linalg.eigvals(la.array(a))
    la.eval(w, v, vals)
    def ordered(z):  # by imaginary part: sort_complex's real-first order flips on a 1-ulp change
        z = np.asarray(z)
        return z[np.lexsort((z.real, z.imag))]

    want = ordered(np.linalg.eigvals(a))
    np.testing.assert_allclose(ordered(w), want, rtol=1e-12)
    np.testing.assert_allclose(ordered(vals), want, rtol=1e-12)
    np.testing.assert_allclose(a @ np.asarray(v), np.asarray(v) * np.asarray(w), atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_eig_of_a_real_matrix_is_numpys_bit_for_bit(backend, dtype):
    """A real matrix goes to the real routine, as in NumPy: conjugate pairs are exact conjugates
    and real eigenvalues have a zero imaginary part, so `np.sort_complex(eigvals(A))` orders them
    as NumPy does (the matrix cast to complex first gave pairs an ulp apart: a silent swap)."""
    if np.dtype(np.complex128) not in la.graph.SUPPORTED:
        pytest.skip("no complex dtypes in this build")
    a = np.random.default_rng(2).standard_normal((2, 5, 5)).astype(dtype)
    w, v = la.linalg.eig(la.array(a))
    vals = la.linalg.eigvals(la.array(a))
    la.eval(w, v, vals)
    want_w, want_v = np.linalg.eig(a)
    for got, want in ((w, want_w), (v, want_v), (vals, np.linalg.eigvals(a))):
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(la.sort_complex(vals[0])),
                                  np.sort_complex(np.linalg.eigvals(a[0])))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_eig_is_real_where_numpys_is(reference_backend, dtype):
    """NumPy's eig/eigvals of a real matrix whose eigenvalues are all real are real (float32 in,
    float32 out); one complex eigenvalue in the stack makes them complex; complex in, complex out.
    They were always complex here (a dtype NumPy decides from the values)."""
    sym = np.array([[2.0, 1.0], [1.0, 3.0]])
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    for m in (sym, rot, np.stack([sym, sym.T]), np.stack([sym, rot])):
        m = m.astype(dtype)
        w, v = la.linalg.eig(la.asarray(m))
        vals = la.linalg.eigvals(la.asarray(m))
        want_w, want_v = np.linalg.eig(m)
        assert w.dtype == want_w.dtype and v.dtype == want_v.dtype
        assert vals.dtype == np.linalg.eigvals(m).dtype
        got = np.asarray(vals).reshape(-1, m.shape[-1])
        for g, want in zip(got, want_w.reshape(-1, m.shape[-1])):  # the same set per matrix
            assert np.abs(g[:, None] - want[None, :]).min(axis=0).max() < 1e-5


class _NumpyAsDevice:
    """numpy under another name: runs the ops' CuPy code paths (written against the array module
    they are given) without a GPU, including the branches taken only for a non-NumPy module."""

    def __getattr__(self, name):
        return getattr(np, name)


class _CupyxLike:
    """cupyx.errstate as CuPy has it: inside `linalg="raise"` the factorizations check cuSOLVER's
    status word; outside, a singular matrix gives a result of inf/NaN with no error."""

    checking = False

    @classmethod
    @contextlib.contextmanager
    def errstate(cls, linalg=None):
        cls.checking = linalg == "raise"
        try:
            yield
        finally:
            cls.checking = False


class _DeviceLinalgLike:
    def __getattr__(self, name):
        return getattr(np.linalg, name)

    def inv(self, a):
        if _CupyxLike.checking:
            return np.linalg.inv(a)
        with np.errstate(all="ignore"):
            return np.full(a.shape, np.inf)  # what cuSOLVER's unchecked getrs leaves


class _CupyLike(_NumpyAsDevice):
    linalg = _DeviceLinalgLike()


def test_the_cupy_path_raises_numpys_errors_and_takes_empty_operands(monkeypatch):
    """A GPU run found `la.linalg.inv` of a singular matrix giving inf/NaN on cupy (CuPy reads
    cuSOLVER's status only under cupyx.errstate(linalg="raise")), and qr/svd of an empty stack
    failing in CuPy's batching reshape."""
    from lazyarray.graph import ops_linalg

    monkeypatch.setattr(ops_linalg, "_cupy", _CupyLike)
    monkeypatch.setattr(ops_linalg, "_cupyx", lambda: _CupyxLike)
    f8 = np.dtype(np.float64)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        ops_linalg.LINALG_OPS["inv"].cupy((np.array([[1.0, 2.0], [2.0, 4.0]]),), (), f8)
    np.testing.assert_array_equal(
        ops_linalg.LINALG_OPS["inv"].cupy((np.array([[2.0, 0.0], [0.0, 4.0]]),), (), f8),
        [[0.5, 0.0], [0.0, 0.25]])
    for shape in [(0, 3, 2), (2, 0, 3), (4, 0)]:
        x = np.zeros(shape)
        for name, attrs in (("qr", ("reduced",)), ("svd", (False,))):
            op = ops_linalg.LINALG_OPS[name]
            want = op.reference((x,), attrs, f8)
            got = op.cupy((x,), attrs, f8)
            assert got.shape == want.shape, (name, shape)


@pytest.mark.gpu
def test_cupy_paths_agree_with_the_references(monkeypatch):
    from lazyarray.graph import ops_linalg

    monkeypatch.setattr(ops_linalg, "_cupy", _NumpyAsDevice)
    monkeypatch.setattr(ops_linalg, "_cupyx", lambda: _CupyxLike)
    rng = np.random.default_rng(3)
    a, spd, rect, b = _inputs(rng, np.float64, (2,))
    inputs = {"solve": (a, b), "lstsq": (rect[0], b[0, :, :1]), "cholesky": (spd,),
              "eigh": (spd,), "eigvalsh": (spd,)}
    attrs = {"cholesky": (True,), "eigh": (True,), "eigvalsh": (False,), "qr": ("reduced",),
             "svd": (False,), "pinv": (1e-12,), "lstsq": (1e-12,)}
    for name, op in ops_linalg.LINALG_OPS.items():
        if name in ("eig", "eigvals"):
            continue  # complex results
        xs = inputs.get(name, (rect,) if name in ("qr", "svd", "svdvals", "pinv") else (a,))
        dtype = np.dtype(np.float64)
        want = op.reference(xs, attrs.get(name, ()), dtype)
        got = op.cupy(xs, attrs.get(name, ()), dtype)
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, err_msg=name)


def test_ops_without_a_derivative_rule_say_so(reference_backend):
    """svd has no rule yet: a gradient through it is an error naming it, never a silent zero."""
    x = la.array(np.random.default_rng(4).standard_normal((3, 3)))
    with pytest.raises(NotImplementedError, match="svd has no derivative rule"):
        la.grad(lambda a: la.sum(la.linalg.svd(a).U))(x)
    g = la.grad(lambda a: la.sum(la.linalg.svdvals(a)))(x)  # svdvals has one: sum(s)' = U Vh
    u, _, vh = np.linalg.svd(np.asarray(x))
    np.testing.assert_allclose(np.asarray(g), u @ vh, rtol=1e-10)


@pytest.mark.parametrize("shapes", [((1, 1, 1), (1, 1, 1)), ((2, 3, 2), (3, 2, 2)), ((3,), ()),
                                    ((), (2, 2)), ((2, 3), (3,)), ((3,), (3,))])
def test_the_dot_method_is_np_dot(backend, shapes):
    """`x.dot(y)` is ndarray.dot, np.dot: beyond 2-D the last axis of x with the second-to-last
    of y (it was matmul, whose batch dims broadcast: (1, 1, 1) . (1, 1, 1) gave (1, 1, 1) for
    NumPy's (1, 1, 1, 1); fuzz39's sweep, seed 115123), and a 0-d operand multiplies."""
    sx, sy = shapes
    x = np.arange(1.0, 1.0 + np.prod(sx)).reshape(sx)
    y = np.arange(2.0, 2.0 + np.prod(sy)).reshape(sy)
    want = x.dot(y)
    got = np.asarray(la.asarray(x).dot(la.asarray(y)))
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got, want)


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_products_of_a_broadcast_operand_are_blass_as_numpys(backend, eager_size):
    """`la.ones(n, float32) * s` is a broadcast (stride 0) until it is materialized; NumPy's user
    had a contiguous array there, whose dot goes to BLAS. The reference handed np.matmul the
    stride-0 view, and NumPy's own loop summed 1e5 float32 terms in plain order: 38630.9 for
    BLAS's 38580.7 (0.13% off, silently; corpus42's probes)."""
    s = np.float32(0.3858013)
    y = np.ones(100001, dtype=np.float32)
    W = np.full((3, 100001), s, dtype=np.float32)
    with la.config(eager_size=eager_size):
        x = la.ones(100001, dtype=la.float32) * la.asarray(np.array([s]))[0]
        rows = la.full((3, 100001), s, dtype=la.float32)
        got = (la.dot(x, la.asarray(y)), x @ la.asarray(y), rows @ la.asarray(y),
               la.asarray(y) @ la.asarray(W).T)  # a transposed operand stays NumPy's gemv
        la.eval(*got)
    want_x = np.ones(100001, dtype=np.float32) * s
    want = (np.dot(want_x, y), want_x @ y, W @ y, y @ W.T)
    for g, w in zip(got, want):
        if backend == "cupy":  # cuBLAS's order, not OpenBLAS's: BLAS's value, not the plain loop's
            np.testing.assert_allclose(np.asarray(g), w, rtol=1e-4)  # (the bug: 1.3e-3)
        else:
            np.testing.assert_array_equal(np.asarray(g), w)


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_norm_of_a_whole_array_is_numpys_dot_norm_bit_for_bit(backend, eager_size):
    """numpy.linalg.norm at ord None (2 of a vector, 'fro' of a matrix, any ndim for None) is
    sqrt(dot(x.ravel(), x.ravel())), BLAS's dot, not a sum of squares: the same bits here (a
    sum of squares differed in the last bits in ~45% of random vectors), complex as the parts'
    dots, integers and bools as float64, lazy or at once."""
    rng = np.random.default_rng(7)
    cases = [rng.standard_normal(n) for n in (0, 1, 2, 7, 31, 300, 2001)]
    cases += [rng.standard_normal((5, 9)), rng.standard_normal((3, 4, 5)),
              rng.standard_normal(40).astype(np.float32),
              rng.standard_normal(50) + 1j * rng.standard_normal(50),
              rng.integers(-9, 9, (6, 7)), rng.random(20) < 0.5]
    with la.config(eager_size=eager_size):
        for x in cases:
            for ord_ in ([None, 2] if x.ndim == 1 else [None, "fro"] if x.ndim == 2 else [None]):
                got, want = la.linalg.norm(la.asarray(x), ord_), np.linalg.norm(x, ord_)
                assert np.asarray(got).dtype == want.dtype, (x.dtype, ord_)
                assert_as_numpy(got, np.asarray(want))  # (cuBLAS's dot: within the GPU's ulps)
            kept = la.linalg.norm(la.asarray(x), keepdims=True)
            assert kept.shape == np.linalg.norm(x, keepdims=True).shape


@pytest.mark.parametrize("dtype", [np.float64, *COMPLEX])
def test_lstsq_result_dtypes_and_complex_residuals(reference_backend, dtype):
    """NumPy's rank is int32 (LAPACK's C int; was int64) and a complex system's residuals are real
    sums of |r|^2 (were complex sums of r*r: other values)."""
    rng = np.random.default_rng(3)
    a, _, rect, b = _inputs(rng, dtype, (), n=6, m=3)
    want = np.linalg.lstsq(rect, b, rcond=None)
    got = la.linalg.lstsq(la.asarray(rect), la.asarray(b), rcond=None)
    for g, w in zip(got, want):
        assert g.dtype == np.asarray(w).dtype and g.shape == np.shape(w)
        np.testing.assert_allclose(np.asarray(g), w, rtol=TOL[dtype], atol=TOL[dtype])


@pytest.mark.parametrize("dtype", [np.float32, np.float64, *COMPLEX])
def test_svd_numpy_keywords(reference_backend, dtype):
    """np.linalg.svd's compute_uv=False (the singular values alone) and hermitian=True (NumPy's
    eigh route: |eigenvalues| descending, U in that order, Vh = (U * sign)^H), which raised
    TypeError."""
    rng = np.random.default_rng(4)
    a, _, rect, _ = _inputs(rng, dtype, (2,), n=5, m=3)
    herm = a + np.conj(np.swapaxes(a, -1, -2))
    calls = [lambda m, x: m.linalg.svd(x(rect), compute_uv=False),
             lambda m, x: m.linalg.svd(x(rect), False, False),
             lambda m, x: m.linalg.svd(x(herm), hermitian=True),
             lambda m, x: m.linalg.svd(x(herm), compute_uv=False, hermitian=True)]
    for call in calls:
        want, got = call(np, np.asarray), call(la, la.asarray)
        want = want if isinstance(want, tuple) else (want,)
        got = got if isinstance(got, tuple) else (got,)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(np.asarray(g), w, rtol=TOL[dtype], atol=TOL[dtype])


@pytest.mark.parametrize("dtype", [np.float64, *COMPLEX])
def test_eigh_reads_the_triangle_uplo_names(reference_backend, dtype):
    """eigh/eigvalsh with UPLO='U' read the upper triangle, as NumPy (UPLO was ignored: the lower
    triangle's matrix, other eigenvalues when the input is not Hermitian); NumPy's bits and
    eigenvector signs; a bad UPLO is NumPy's ValueError."""
    rng = np.random.default_rng(6)
    a, *_ = _inputs(rng, dtype, (2,), n=5)  # not Hermitian: the two triangles disagree
    for uplo in ("U", "L", "u"):
        w, v = np.linalg.eigh(a, uplo)
        got_w, got_v = la.linalg.eigh(la.asarray(a), UPLO=uplo)
        np.testing.assert_array_equal(np.asarray(got_w), w)
        np.testing.assert_array_equal(np.asarray(got_v), v)
        np.testing.assert_array_equal(np.asarray(la.linalg.eigvalsh(la.asarray(a), uplo)),
                                      np.linalg.eigvalsh(a, uplo))
    with pytest.raises(ValueError):
        la.linalg.eigh(la.asarray(a), "X")


_rk = np.random.default_rng(7).random((5, 3))
_rk_h = _rk @ _rk.T  # Hermitian, rank 3
_rk_b = np.random.default_rng(8).random((2, 4, 4))
_RANK_PINV = {
    "matrix_rank tol by position": lambda m, x: m.linalg.matrix_rank(x(_rk), 0.5),
    "matrix_rank array tol": lambda m, x: m.linalg.matrix_rank(x(_rk_b),
                                                               tol=x(np.array([0.1, 1.5]))),
    "matrix_rank hermitian": lambda m, x: m.linalg.matrix_rank(x(_rk_h), hermitian=True),
    "matrix_rank tol and rtol refused": lambda m, x: m.linalg.matrix_rank(x(_rk), tol=0.5,
                                                                          rtol=0.1),
    "pinv rcond": lambda m, x: m.linalg.pinv(x(_rk), rcond=0.3),
    "pinv rcond by position": lambda m, x: m.linalg.pinv(x(_rk), 0.3),
    "pinv hermitian": lambda m, x: m.linalg.pinv(x(_rk_h), 1e-3, True),
    "pinv rcond and rtol refused": lambda m, x: m.linalg.pinv(x(_rk), rcond=0.1, rtol=0.1),
}


@pytest.mark.parametrize("name", sorted(_RANK_PINV))
def test_rank_and_pinv_numpy_keywords(reference_backend, name):
    """matrix_rank's absolute `tol` and `hermitian`, pinv's `rcond` and `hermitian` (NumPy's
    keywords and positions; TypeError before), with NumPy's refusals."""
    f = _RANK_PINV[name]
    try:
        want = f(np, np.asarray)
    except ValueError:
        with pytest.raises(ValueError):
            f(la, la.asarray)
        return
    got = f(la, la.asarray)
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10, atol=1e-12)


def test_pinv_default_cutoff_and_lstsq_residuals_are_numpys(reference_backend):
    """pinv with neither rcond nor rtol cuts at 1e-15 (NumPy's default), rtol=None at
    max(M, N) * eps; lstsq's residuals are empty for a rank-deficient a with M > N (NumPy's
    shape). Both differed before (the standard's cut-off; residuals always computed)."""
    m = np.array([[1.0, 0.0], [0.0, 8e-16]])  # a singular value between the two cut-offs
    for kwargs in ({}, {"rtol": None}, {"rcond": 1e-17}):
        np.testing.assert_array_equal(np.asarray(la.linalg.pinv(la.asarray(m), **kwargs)),
                                      np.linalg.pinv(m, **kwargs))
    b = np.array([1.0, 2.0, 4.0])
    for a in (np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]),
              np.array([[1.0, 2.0], [2.0, 5.0], [3.0, 6.0]])):
        got, want = la.linalg.lstsq(la.asarray(a), la.asarray(b))[1], np.linalg.lstsq(a, b)[1]
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)


@pytest.mark.exhaustive_on("c")  # (~1 s of compiles on C; the walks are the same on numpy)
def test_lstsq_and_polyfit_compute_their_pending_inputs_once(backend, monkeypatch):
    """moores_law's `np.polyfit(year, np.log(t), 1)` and `np.linalg.lstsq(Z, yi)` of 5,000 rows:
    the rank is read at the call, so a, b (polyfit: its Vandermonde matrix and y) are computed
    once as one graph, and x with the rank; each result's own evaluation walked the pending
    inputs again (three walks of 5,000-row graphs a call), and the residuals' graph solved
    again. NumPy's values."""
    from lazyarray import eager
    walks = []
    run = eager._walk_and_run
    monkeypatch.setattr(eager, "_walk_and_run", lambda *a: walks.append(a) or run(*a))
    rng = np.random.default_rng(5)
    year, t = np.sort(rng.uniform(1971, 2020, 5000)), rng.uniform(1.0, 9.0, 5000)
    Y, T = la.asarray(year), la.asarray(t)
    yi = la.log(T)
    fit = la.polyfit(Y, yi, 1)
    Z = la.vstack([Y, la.ones(len(Y))]).T
    x, residuals, rank, s = la.linalg.lstsq(Z, yi, rcond=None)
    # (the rank's 0-d sum may run at once: Z = vstack(...).T is Fortran-ordered in NumPy, so
    # once computed it is a view of its buffer (lazyarray/result_layout.py), s = svdvals of that
    # view an at-once value and its count one walk of two values; no 5,000-row graph is walked)
    assert not [w for w in walks if w[0].shape != ()] and x._node.holds_buffer
    assert not any(n.op.name == "lstsq" for n in la.graph.topological_order([residuals._node]))
    want = np.linalg.lstsq(np.vstack([year, np.ones(5000)]).T, np.log(t), rcond=None)
    np.testing.assert_allclose(np.asarray(fit), np.polyfit(year, np.log(t), 1), rtol=1e-12)
    for got, w in zip((x, residuals, rank, s), want):
        np.testing.assert_allclose(np.asarray(got), w, rtol=1e-10)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.complex128])
def test_vander_of_few_columns_is_one_kernel_of_cumprods_products(dtype):
    """`np.vander(x, N)` for N up to 16 (polyfit's): each column the product chain cumprod makes
    (x, x*x, (x*x)*x...), picked by its column index in one kernel (moores_law's (100000, 2):
    a cumprod along rows of 2 values, a concat and a flip, ~4.8 -> ~2.9 ms). NumPy's bytes,
    increasing or not; more columns keep the cumprod."""
    rng = np.random.default_rng(8)
    x = (rng.standard_normal(23) * 3).astype(dtype)
    x[:3] = [0, -0.0, 1] if dtype is not np.int64 else [0, 1, -1]
    if np.dtype(dtype).kind == "f":
        x[3], x[4] = np.nan, np.inf
    X = la.asarray(x)
    e = la.explain(la.vander(la.asarray(np.zeros(100_000, dtype)), 2), backend="c")
    assert (e.num_kernels, e.num_library_calls) == (1, 0)  # (no concat, no cumprod call)
    with np.errstate(all="ignore"), la.errstate(all="ignore"):
        for n in (0, 1, 2, 3, 4, 16, 17, None):
            for increasing in (False, True):
                want, got = np.vander(x, n, increasing), la.vander(X, n, increasing)
                assert got.dtype == want.dtype and got.shape == want.shape
                assert np.asarray(got).tobytes() == want.tobytes(), (n, increasing)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_norm_of_a_float_vector_takes_the_short_path(dtype):
    """python_builtins' `float(np.linalg.norm(row)) for row in P`: the 2-norm of a 1-D float
    Array is sqrt(dot(x, x)) (NumPy's formula) straight from `norm`'s first line, no other
    Python frame (user_site, the axis checks, _dot_norm: ~1 us a row); NumPy's bits, dtype and
    0-d shape; keepdims, ord and axis take the general path."""
    import sys

    p = np.random.default_rng(9).standard_normal((5, 3)).astype(dtype)
    P = la.asarray(p)
    seen, rows = [], list(P)
    la.linalg.norm(rows[0])  # (a first call resolves its ops' loops the general way)
    sys.setprofile(lambda frame, event, arg: seen.append(frame.f_code.co_name)
                   if event == "call" else None)
    try:
        got = list(map(la.linalg.norm, rows))
    finally:
        sys.setprofile(None)
    assert set(seen) <= {"norm", "dot"} or la._bind.FAST is None, seen  # (np.dot's handler)
    for g, w in zip(got, map(np.linalg.norm, p)):
        assert g.shape == () and g.dtype == w.dtype and np.asarray(g).tobytes() == w.tobytes()
    for kw in ({"keepdims": True}, {"ord": 1}, {"axis": 0}):
        np.testing.assert_array_equal(np.asarray(la.linalg.norm(P[1], **kw)),
                                      np.linalg.norm(p[1], **kw))
