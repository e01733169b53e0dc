"""Linear-algebra library calls: LAPACK through NumPy on the CPU, cuSOLVER/cuBLAS through CuPy.

Each op is OPAQUE: its inputs are materialized contiguous buffers (like matmul's) and its result one
planned buffer, so the elementwise work around it fuses into the neighbouring kernels. Every op is
batched over leading dims (the front end broadcasts the batch before binding). A decomposition
with several results (eigh, qr, svd, slogdet) returns them packed into one buffer along a last
axis; the front end (lazyarray/linalg.py) takes them apart with views, which cost nothing:

    eigh:    (..., n, n + 1)        eigenvectors [..., :n], eigenvalues [..., n]
    qr:      (..., m*k + k*n)       Q then R, each row-major
    svd:     (..., m*p + k + q*n)   U, S, Vh
    slogdet: (..., 2)               sign, log|det|

`reference` is the NumPy implementation (the oracle and the CPU path); `cupy` the same on CuPy
arrays, run on the device by the cupy backend.
"""

from __future__ import annotations

import numpy as np

from . import derivatives as d
from .ops_random import flat_index
from .registry import OpDef, OpKind, register


def _cupy():
    import cupy  # optional: CuPy, present with a GPU

    return cupy


def _cupyx():
    import cupyx  # optional: CuPy's extensions (errstate), installed with CuPy

    return cupyx


def _both(fn, name):
    """(NumPy reference, CuPy implementation) from one function of the array module."""
    return (lambda xs, a, dt: np.asarray(fn(np, xs, a), dtype=dt),
            lambda xs, a, dt: _on_device(fn, name, xs, a).astype(dt, copy=False))


# NumPy's LinAlgError messages for the inputs a factorization cannot take. cuSOLVER reports them
# only in a status word that CuPy reads under `cupyx.errstate(linalg="raise")`: unread, `inv` of a
# singular matrix gave inf/NaN where NumPy raises (a GPU run found it). det/slogdet take singular
# matrices (a zero determinant), so they are not checked.
_NUMPY_ERRORS = {"inv": "Singular matrix", "solve": "Singular matrix",
                 "cholesky": "Matrix is not positive definite"}


def _on_device(fn, name, xs, attrs):
    """`fn` through CuPy, raising NumPy's LinAlgError where NumPy does. Empty operands take
    NumPy's path on the host (no data to move): CuPy's batching cannot infer a zero-length batch."""
    cupy = _cupy()
    if any(x.size == 0 for x in xs):
        return cupy.asarray(fn(np, [np.empty(x.shape, x.dtype) for x in xs], attrs))
    message = _NUMPY_ERRORS.get(name)
    if message is None:
        return fn(cupy, xs, attrs)
    try:
        with _cupyx().errstate(linalg="raise"):
            try:
                return fn(cupy, xs, attrs)
            except AssertionError:  # a CuPy whose check takes one status word, not a batch's
                if xs[0].ndim <= 2:
                    raise
                return _batched(cupy, lambda *m: (fn(cupy, m, attrs),), *xs)[0]
    except Exception as exc:  # CuPy's LinAlgError (NumPy's class, or its own of that name)
        if not isinstance(exc, np.linalg.LinAlgError) and type(exc).__name__ != "LinAlgError":
            raise
        raise np.linalg.LinAlgError(message) from None


def _flat(xp, parts, batch):
    # each part's own size, not -1: NumPy cannot infer -1 beside a zero-length batch dim
    return xp.concatenate([p.reshape(batch + (_size(p.shape[len(batch):]),)) for p in parts],
                          axis=-1)


def _size(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _eigh(xp, xs, a):
    w, v = xp.linalg.eigh(xs[0], UPLO="U" if a[0] else "L")
    return xp.concatenate([v, w[..., None].astype(v.dtype)], axis=-1)


def _qr(xp, xs, a):
    x = xs[0]
    if xp is np:  # NumPy 2 batches qr itself; CuPy takes matrices one at a time
        q, r = np.linalg.qr(x, mode=a[0])
    else:
        q, r = _batched(xp, lambda m: xp.linalg.qr(m, mode=a[0]), x)
    return _flat(xp, (q, r), x.shape[:-2])


def _svd(xp, xs, a):
    x = xs[0]
    u, s, vh = xp.linalg.svd(x, full_matrices=a[0])
    return _flat(xp, (u, s.astype(u.dtype), vh), x.shape[:-2])


def _slogdet(xp, xs, a):
    sign, logdet = xp.linalg.slogdet(xs[0])
    return xp.stack([sign, logdet.astype(sign.dtype)], axis=-1)  # complex: sign is complex


def _batched(xp, fn, x, *more):
    """fn over the matrices of a batch (and of `more` operands with the same batch), for library
    functions that take 2-D input only."""
    if x.ndim == 2:
        return fn(x, *more)
    batch = x.shape[:-2]
    flats = [y.reshape((_size(batch),) + y.shape[len(batch):]) for y in (x, *more)]
    parts = [fn(*ms) for ms in zip(*flats)]
    outs = tuple(xp.stack([p[i] for p in parts]) for i in range(len(parts[0])))
    return tuple(o.reshape(batch + o.shape[1:]) for o in outs)


def _pinv(xp, xs, a):
    if xp is np:
        return np.linalg.pinv(xs[0], rtol=a[0])
    return xp.linalg.pinv(xs[0], rcond=a[0])  # CuPy's rcond is the same relative cut-off


def _lstsq(xp, xs, a):
    return xp.linalg.lstsq(xs[0], xs[1], rcond=a[0])[0]


def _as_complex(xp, x):
    """A real-typed result of eig/eigvals (every eigenvalue real) as the op's complex dtype."""
    return x.astype(xp.result_type(x.dtype, xp.complex64))


def _eig_values(xp, xs, a):
    # A real matrix goes to the real routine (LAPACK's geev for real input, as NumPy): its
    # conjugate pairs are exact conjugates and a real eigenvalue has a zero imaginary part; the
    # matrix cast to complex first gave pairs ~1 ulp apart, which sort_complex then ordered
    # differently from NumPy.
    return _as_complex(xp, xp.linalg.eigvals(xs[0]))


def _eig(xp, xs, a):
    w, v = xp.linalg.eig(xs[0])
    return xp.concatenate([_as_complex(xp, v), _as_complex(xp, w)[..., None]], axis=-1)


def _cholesky_upper(xp, a):
    """NumPy's cholesky(a, upper=True): LAPACK's 'U' reads a's *upper* triangle (L^H of the
    lower-read factor read the lower one: a silent other answer for a matrix that is not
    Hermitian, probe55). Where the library has no upper=, U = L^H of the Hermitian matrix the
    upper triangle stands for; `+ 0` gives LAPACK's +0 imaginary parts where conj made -0."""
    if xp is np:
        return np.linalg.cholesky(a, upper=True)
    hermitian = xp.triu(a) + xp.swapaxes(xp.triu(a, 1), -1, -2).conj()
    return xp.swapaxes(xp.linalg.cholesky(hermitian), -1, -2).conj() + 0


_IMPLS = {
    "cholesky": lambda xp, xs, a: (xp.linalg.cholesky(xs[0]) if not a[0]
                                   else _cholesky_upper(xp, xs[0])),
    "det": lambda xp, xs, a: xp.linalg.det(xs[0]),
    "slogdet": _slogdet,
    "inv": lambda xp, xs, a: xp.linalg.inv(xs[0]),
    "solve": lambda xp, xs, a: xp.linalg.solve(xs[0], xs[1]),
    "eigh": _eigh,
    "eigvalsh": lambda xp, xs, a: xp.linalg.eigvalsh(xs[0], UPLO="U" if a[0] else "L"),
    "qr": _qr,
    "svd": _svd,
    "svdvals": lambda xp, xs, a: xp.linalg.svd(xs[0], compute_uv=False),
    "pinv": _pinv,
    "lstsq": _lstsq,
    "eig": _eig,
    "eigvals": _eig_values,
}

_ATTRS = {"cholesky": ("upper",), "eigh": ("upper",), "eigvalsh": ("upper",), "qr": ("mode",),
          "svd": ("full_matrices",), "pinv": ("rtol",),
          "lstsq": ("rcond",)}


# --- derivative rules (Giles, "Collected matrix derivative results", 2008) ------------------------
def _t(x):
    return d.matrix_transpose(x)


def _inv_node(a):
    return d.node("inv", (a,), (), a.shape, a.dtype)


def _solve_vjp(g, x, xs, attrs):
    """X = A^-1 B: gB = A^-T g, gA = -gB X^T."""
    a, _ = xs
    gb = d.node("solve", (_t(a), g), (), g.shape, g.dtype)
    return d.neg(d.matmul(gb, _t(x))), gb


def _inv_vjp(g, y, xs, attrs):
    """Y = A^-1: gA = -Y^T g Y^T."""
    return (d.neg(d.matmul(d.matmul(_t(y), g), _t(y))),)


def _det_vjp(g, y, xs, attrs):
    """d det(A) = det(A) tr(A^-1 dA): gA = g det(A) A^-T."""
    a = xs[0]
    scale = d.broadcast(d.reshape(d.mul(g, y), y.shape + (1, 1)), a.shape)
    return (d.mul(scale, _t(_inv_node(a))),)


def _slogdet_vjp(g, y, xs, attrs):
    """Only log|det| has a derivative (the sign is piecewise constant): gA = g_log A^-T."""
    a = xs[0]
    batch = a.shape[:-2]
    spec = tuple((0, 1, s) for s in batch) + ((1, 1, 1),)
    g_log = d.reshape(d.slice_(g, spec), batch + (1, 1))
    return (d.mul(d.broadcast(g_log, a.shape), _t(_inv_node(a))),)




def _masks(shape: tuple[int, ...]) -> tuple:
    """(strictly lower, diagonal) bool masks over (..., n, n), from the element index alone."""
    n = shape[-1]
    idx = flat_index((n, n), d._SITE[0])
    row, col = d.ew("floor_divide", idx, n), d.ew("remainder", idx, n)
    return (d.broadcast(d.compare("greater", row, col), shape),
            d.broadcast(d.compare("equal", row, col), shape))


def _phi(x):
    """The lower triangle with the diagonal halved. Applied to G + G^T it is the cotangent of an
    op that reads only the lower triangle (NumPy's cholesky, eigh, eigvalsh), G its symmetric
    matrix derivative."""
    lower, diag = _masks(x.shape)
    return d.where(lower, x, d.where(diag, d.mul(x, 0.5), 0.0))


def _lower_sym(g):
    return _phi(d.add(g, _t(g)))


def _read_triangle(g, upper):
    """The cotangent of an op that reads the lower triangle (or, UPLO='U', the upper)."""
    lower = _lower_sym(g)
    return _t(lower) if upper else lower


def _column(v, n):
    """(..., n) -> (..., n, n) with v[..., i] along row i."""
    return d.broadcast(d.reshape(v, v.shape + (1,)), v.shape + (n,))


def _row(v, n, rows=None):
    """(..., n) -> (..., rows or n, n) with v[..., j] along column j."""
    m = n if rows is None else rows
    return d.broadcast(d.reshape(v, v.shape[:-1] + (1, n)), v.shape[:-1] + (m, n))


def _solve(a, b):
    return d.node("solve", (a, b), (), b.shape, b.dtype)


def _cholesky_vjp(g, y, xs, attrs):
    """Murray (2016): S = L^-T Phi(L^T gL) L^-1, gA = Phi(S + S^T) (A's lower triangle read).
    upper=True reads the upper triangle (U(A) = L(A^T)^T): the transposed cotangent."""
    upper = attrs[0]
    low, gl = (_t(y), _t(g)) if upper else (y, g)
    p = _phi(d.matmul(_t(low), gl))
    x = _solve(_t(low), p)
    s = _t(_solve(_t(low), _t(x)))
    ga = _phi(d.add(s, _t(s)))
    return (_t(ga) if upper else ga,)


def _eigh_parts(packed, n):
    batch = packed.shape[:-2]
    keep = tuple((0, 1, s) for s in batch) + ((0, 1, n),)
    vectors = d.slice_(packed, keep + ((0, 1, n),))
    values = d.reshape(d.slice_(packed, keep + ((n, 1, 1),)), batch + (n,))
    return values, vectors


def _eigh_vjp(g, y, xs, attrs):
    """gA from G = V (diag(gw) + F o (V^T gV)) V^T, F_ij = 1 / (w_j - w_i) off the diagonal."""
    n = xs[0].shape[-1]
    w, v = _eigh_parts(y, n)
    gw, gv = _eigh_parts(g, n)
    _, diag = _masks(v.shape)
    gap = d.where(diag, 1.0, d.sub(_row(w, n), _column(w, n)))  # 1 on the diagonal: no 1/0,
    f = d.where(diag, 0.0, d.div(1.0, gap))  # whose derivative would make a second order NaN
    inner = d.add(d.where(diag, _column(gw, n), 0.0), d.mul(f, d.matmul(_t(v), gv)))
    return (_read_triangle(d.matmul(d.matmul(v, inner), _t(v)), attrs[0]),)


def _eigvalsh_vjp(g, y, xs, attrs):
    """G = V diag(gw) V^T, with V from an eigh of the same input."""
    a = xs[0]
    n = a.shape[-1]
    _, v = _eigh_parts(d.node("eigh", (a,), attrs, a.shape[:-1] + (n + 1,), a.dtype), n)
    return (_read_triangle(d.matmul(d.mul(v, _row(g, n)), _t(v)), attrs[0]),)


def _svdvals_vjp(g, y, xs, attrs):
    """gA = U diag(gs) Vh, from a thin svd of the same input."""
    a = xs[0]
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    packed = d.node("svd", (a,), (False,), batch + (m * k + k + k * n,), a.dtype)
    keep = tuple((0, 1, s) for s in batch)
    u = d.reshape(d.slice_(packed, keep + ((0, 1, m * k),)), batch + (m, k))
    vh = d.reshape(d.slice_(packed, keep + ((m * k + k, 1, k * n),)), batch + (k, n))
    return (d.matmul(d.mul(u, _row(g, k, m)), vh),)


_VJPS = {"solve": _solve_vjp, "inv": _inv_vjp, "det": _det_vjp, "slogdet": _slogdet_vjp,
         "cholesky": _cholesky_vjp, "eigh": _eigh_vjp, "eigvalsh": _eigvalsh_vjp,
         "svdvals": _svdvals_vjp}

_ARITY = {"solve": 2, "lstsq": 2}

_DOCS = {
    "solve": "X with A X = B; B is (..., n, k) (the front end makes a vector a column)",
    "eigh": "packed (..., n, n + 1): eigenvectors then the eigenvalues as a last column",
    "qr": "packed (..., m*k + k*n): Q then R, row-major",
    "svd": "packed (..., m*p + k + q*n): U, S, Vh",
    "slogdet": "packed (..., 2): sign, log|det|",
    "lstsq": "the least-squares solution only; residuals, rank and s are compositions",
    "eig": "packed complex (..., n, n + 1): eigenvectors then eigenvalues",
}


# Run on the host with NumPy on every backend: the order of a general matrix's eigenvalues is
# LAPACK geev's, which cuSOLVER's geev does not keep (the stop-43 GPU run: a program's eigenvalues
# came back in another order, silently), and no rule sorts them back into LAPACK's order.
_HOST_ONLY = frozenset({"eig", "eigvals"})


def _register(name: str) -> OpDef:
    reference, cupy_impl = _both(_IMPLS[name], name)
    if name in _HOST_ONLY:
        cupy_impl = None  # the cupy backend's documented host round trip (runtime/cuda/backend.py)
    vjp = _VJPS.get(name)
    # No rule yet (svd, qr, pinv, lstsq, eig, eigvals): differentiating through one raises
    # NotImplementedError naming it (lazyarray/autodiff.py), never a silent zero.
    missing = frozenset() if vjp is not None else frozenset({"derivative_not_implemented"})
    return register(OpDef(name, OpKind.OPAQUE, reference, arity=_ARITY.get(name, 1),
                          attr_names=_ATTRS.get(name, ()), cupy=cupy_impl, vjp=vjp,
                          differentiable=vjp is not None, properties=missing,
                          doc=_DOCS.get(name, "")))


LINALG_OPS = {name: _register(name) for name in _IMPLS}
