"""The library-call half of la.linalg: decompositions and solvers (graph/ops_linalg.py).

Each function checks and promotes its operands the NumPy way (integers and bools compute in float64,
float32 stays float32), broadcasts batch dims, binds one opaque op and, for a decomposition with
several results, takes its packed buffer apart with views (slices and reshapes: no copies).
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Callable, NamedTuple

import numpy as np

from . import _bind
from .array import Array, scalar_result
from .cache import _state, is_busy
from .complex_functions import conj, real
from .creation import host_result
from .eager import LIMIT as _EAGER_LIMIT, run_candidate
from .elementwise import abs as abs_, astype, sign, where
from .evaluation import evaluate_arrays
from .graph import dtypes, get_op
from .graph.node import Node, user_site
from .result_layout import copied
from .manipulation import expand_dims, flip, matrix_transpose, reshape_node, slice_node
from .reductions import _as_node, max as _max, sum as _sum
from .searching import argsort, sort
from .shaping import gather_along_axis
from ._matmul import matmul
from ._handled import at_the_line, user_frames_handle_errors


class EighResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class EigResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    U: Array
    S: Array
    Vh: Array


def _complex_dtype(dt: np.dtype) -> np.dtype | None:
    """The complex dtype of eig's results, or None while lazyarray has no complex dtypes."""
    want = np.dtype(np.complex64 if dt == dtypes.float32 else np.complex128)
    if dt.kind == "c":
        return dt
    return want if want in dtypes.SUPPORTED else None


def _matrix(x: Any, name: str, site: _bind.Site, square: bool = False) -> Node:
    """x as a floating (..., m, n) node: NumPy's linalg computes integers and bools in float64."""
    node = _as_node(x, site)
    if node.ndim < 2:
        raise _bind.fail(np.linalg.LinAlgError, f"{node.ndim}-dimensional array given. "
                         "Array must be at least two-dimensional", site)  # NumPy's texts
    if square and node.shape[-1] != node.shape[-2]:
        raise _bind.fail(np.linalg.LinAlgError, "Last 2 dimensions of the array must be square",
                         site)
    _refuse_half(node, site)
    if node.dtype.kind not in "fc":
        node = _bind.cast(node, dtypes.float64, site)
    return node


def _refuse_half(node: Node, site: _bind.Site) -> None:
    """NumPy's linalg has no float16 loops (LAPACK has none): its TypeError, at the user's line
    (the op's reference raised it when the plan ran)."""
    if node.dtype == np.float16:
        raise _bind.fail(TypeError, "array type float16 is unsupported in linalg", site)


def _call(name: str, inputs: tuple[Node, ...], attrs: tuple, shape: tuple[int, ...],
          dtype: np.dtype, site: _bind.Site) -> Node:
    for node in inputs:
        _refuse_half(node, site)
    return _bind.primitive(get_op(name), inputs, attrs, shape, dtype, site)


def _at_once(packed: Node) -> Node:
    """eig's and eigh's packed result computed at the call where small (the at-once rule's size),
    so that their values and vectors are views of one buffer: the vectors' C copy is computed at
    once (a copy seeds the rule) and the values were not, so reading them ran the call again
    (stability's eig ran twice per call). On the general path both stay pending, siblings."""
    if (_EAGER_LIMIT[0] and packed.size <= _EAGER_LIMIT[0] and not _state.busy
            and not _state.stand_ins):
        done = run_candidate(packed)
        if done is not None:
            return done
    return packed


def _part(packed: Node, start: int, shape: tuple[int, ...], site: _bind.Site) -> Array:
    """The piece of a packed result that starts at `start` along its last axis, viewed as shape."""
    batch = packed.shape[:-1]
    length = math.prod(shape[len(batch):])
    spec = tuple((0, 1, s) for s in batch) + ((start, 1, length),)
    return scalar_result(reshape_node(slice_node(packed, spec, site), shape, site))


def _checked(build: Callable[[], Array], site: _bind.Site) -> Array:
    """`build()`, evaluated now when the user's line sits in a try block, its own or a
    caller's in the same file (lazyarray/_handled.py): NumPy raises its LinAlgError at that
    line, where the handler catches it, with NumPy's message (a small op computed at once
    raises there too)."""
    try:
        out = build()
        if not (_state.stand_ins or is_busy()) and user_frames_handle_errors():
            evaluate_arrays([out])
    except np.linalg.LinAlgError as exc:
        raise at_the_line(exc, site) from None
    return out


def _real(dt: np.dtype) -> np.dtype:
    return np.dtype(dt.char.lower()) if dt.kind == "c" else dt


def _real_part(x: Array) -> Array:
    """A packed complex buffer's real-valued piece (eigenvalues, singular values, log|det|)."""
    if x.dtype.kind != "c":
        return x
    return real(x)


# --- single results -------------------------------------------------------------------------------
def cholesky(a: Any, /, *, upper: bool = False) -> Array:
    """The Cholesky factor L (x = L L^H), or U = L^H with upper=True."""
    site = user_site(1)
    mat = _matrix(a, "cholesky", site, square=True)
    return _checked(lambda: Array(_call("cholesky", (mat,), (bool(upper),), mat.shape, mat.dtype,
                                        site)), site)


def det(a: Any) -> Array:
    site = user_site(1)
    mat = _matrix(a, "det", site, square=True)
    return Array(_call("det", (mat,), (), mat.shape[:-2], mat.dtype, site))


def _reads_upper(uplo: Any, site: _bind.Site) -> bool:
    """NumPy's UPLO of eigh/eigvalsh: whether the upper triangle is read ('U') or the lower."""
    key = uplo.upper() if isinstance(uplo, str) else uplo
    if key not in ("L", "U"):
        raise _bind.fail(ValueError, "UPLO argument must be 'L' or 'U'", site)
    return key == "U"


def inv(a: Any) -> Array:
    site = user_site(1)
    mat = _matrix(a, "inv", site, square=True)
    return _checked(lambda: Array(_call("inv", (mat,), (), mat.shape, mat.dtype, site)), site)


def eigvalsh(a: Any, UPLO: str = "L") -> Array:
    site = user_site(1)
    upper = _reads_upper(UPLO, site)
    mat = _matrix(a, "eigvalsh", site, square=True)
    return Array(_call("eigvalsh", (mat,), (upper,), mat.shape[:-1], _real(mat.dtype), site))


def svdvals(x: Any, /) -> Array:
    site = user_site(1)
    a = _matrix(x, "svdvals", site)
    k = min(a.shape[-2:])
    return _checked(lambda: Array(_call("svdvals", (a,), (), a.shape[:-2] + (k,), _real(a.dtype),
                                        site)), site)  # (NumPy's 'SVD did not converge')


def _default_rtol(a: Node) -> float:
    return max(a.shape[-2:]) * float(np.finfo(a.dtype).eps)


def _rank_of(s: Array, tol: float | Array | None) -> Array:
    """Number of singular values above tol * the largest (per matrix)."""
    return _sum(s > cutoff(s, tol), axis=-1)


def cutoff(s: Array, rtol: float | Array) -> Array:
    """rtol * the largest singular value, shaped (..., 1) against s (..., k). An array rtol
    broadcasts against the stack (the standard: compatible with shape(x)[:-2]), as NumPy's
    `asarray(rtol)[..., newaxis]`; a Python float stays weak (s's dtype)."""
    if isinstance(rtol, Array):
        rtol = expand_dims(rtol, axis=-1) if rtol.ndim else rtol
    return _max(s, axis=-1, keepdims=True, initial=0) * rtol  # (NumPy's: an empty matrix's rank is 0)


def array_rtol(rtol: Any, name: str, site: _bind.Site) -> float | Array:
    """A Python number as a float; an Array, NumPy array or scalar as a real Array (an array rtol
    is broadcast against the stack, so it must stay one)."""
    if isinstance(rtol, (int, float)) and not isinstance(rtol, bool):
        return float(rtol)
    r = Array(_as_node(rtol, site))
    if r.dtype.kind not in "iuf":
        raise _bind.fail(TypeError, f"{name}: rtol must be a real number or a real-valued "
                         f"array, not {r.dtype}", site)
    return r


_NOT_GIVEN: Any = np._NoValue  # NumPy's marker: pinv's rtol not given differs from rtol=None


def pinv(a: Any, rcond: float | Any | None = None, hermitian: bool = False, *,
         rtol: float | Any | None = _NOT_GIVEN) -> Array:
    """Moore-Penrose pseudo-inverse; singular values below rtol * largest are dropped. NumPy's
    defaults: 1e-15 with neither rcond nor rtol given, max(M, N) * eps for rtol=None (the Array
    API's). A float rtol is one library call; an array rtol (broadcast against the stack, as the
    standard allows) or hermitian=True (singular values from eigh, as NumPy) is NumPy's own steps
    over `svd`."""
    site = user_site(1)
    if rcond is not None and rtol is not _NOT_GIVEN:
        raise _bind.fail(ValueError, "`rtol` and `rcond` can't be both set.", site)
    rtol = rcond if rcond is not None else 1e-15 if rtol is _NOT_GIVEN else rtol
    src = _as_node(a, site)
    if src.ndim >= 2 and 0 in src.shape[-2:]:  # NumPy's empty result in the input's dtype (an
        # int16 (0, 2) gives int16 (2, 0); it was float64, fuzz56)
        return host_result(np.empty(src.shape[:-2] + src.shape[:-3:-1], src.dtype))
    mat = _matrix(a, "pinv", site)
    tol = array_rtol(rtol, "pinv", site) if rtol is not None else _default_rtol(mat)
    shape = mat.shape[:-2] + (mat.shape[-1], mat.shape[-2])
    if (isinstance(tol, Array) or hermitian) and math.prod(mat.shape):
        return _pinv_steps(mat, tol, site, bool(hermitian))
    tol = tol if isinstance(tol, float) else 0.0  # an empty matrix: nothing to cut
    return _checked(lambda: Array(_call("pinv", (mat,), (tol,), shape, mat.dtype, site)), site)


def _pinv_steps(a: Node, rtol: Array | float, site: _bind.Site, hermitian: bool = False) -> Array:
    """numpy.linalg.pinv's computation: 1/s above the cut-off, 0 below, V diag(1/s) U^H."""
    u, s, vh = svd(Array(a), full_matrices=False, hermitian=hermitian)
    cut = cutoff(s, rtol)
    if _bind.broadcast_shapes([s.shape, cut.shape], site) != s.shape:
        raise _bind.fail(ValueError, f"pinv: rtol of shape {np.shape(rtol)} does not broadcast to "
                         f"the stack's shape {s.shape[:-1]}", site)  # NumPy: ValueError too
    large = s > cut
    inv_s = where(large, 1 / where(large, s, 1), 0)
    return matmul(conj(matrix_transpose(vh)),
                  expand_dims(inv_s, axis=-1) * conj(matrix_transpose(u)))


def solve(a: Any, b: Any) -> Array:
    """X with a @ X = b. As in NumPy 2 and the Array API: b is a vector only when it is 1-D;
    otherwise (..., M, K) with the batch dims broadcast against a's."""
    site = user_site(1)
    mat = _matrix(a, "solve", site, square=True)
    rhs = _as_node(b, site)
    _refuse_half(rhs, site)
    dtype = np.result_type(mat.dtype, rhs.dtype if rhs.dtype.kind in "fc" else dtypes.float64)
    n = mat.shape[-1]
    vector = rhs.ndim == 1
    if vector:
        rhs = reshape_node(rhs, (n, 1), site) if rhs.shape[0] == n else rhs
    if rhs.ndim < 2 or rhs.shape[-2] != n:  # NumPy's gufunc text (solve1: the vector loop)
        signature = "solve1: ... (m,m),(m)->(m)" if vector else "solve: ... (m,m),(m,n)->(m,n)"
        name, sig = signature.split(": ... ")
        raise _bind.fail(ValueError, f"{name}: Input operand 1 has a mismatch in its core dimension "
                         f"0, with gufunc signature {sig} (size "
                         f"{rhs.shape[-2 if rhs.ndim >= 2 else 0]} "
                         f"is different from {n})", site)
    batch = _bind.broadcast_shapes([mat.shape[:-2], rhs.shape[:-2]], site)
    mat = _bind.broadcast_to(_bind.cast(mat, dtype, site), batch + mat.shape[-2:], site)
    rhs = _bind.broadcast_to(_bind.cast(rhs, dtype, site), batch + rhs.shape[-2:], site)
    return _checked(lambda: Array(_call_solve(mat, rhs, dtype, batch, n, vector, site)), site)


def _call_solve(a: Node, b: Node, dtype: np.dtype, batch: tuple[int, ...], n: int, vector: bool,
                site: _bind.Site) -> Node:
    out = _call("solve", (a, b), (), b.shape, dtype, site)
    return reshape_node(out, batch + (n,), site) if vector else out


# --- packed results -------------------------------------------------------------------------------
def slogdet(a: Any) -> SlogdetResult:
    site = user_site(1)
    mat = _matrix(a, "slogdet", site, square=True)
    batch = mat.shape[:-2]
    packed = _call("slogdet", (mat,), (), batch + (2,), mat.dtype, site)
    return SlogdetResult(_part(packed, 0, batch, site), _real_part(_part(packed, 1, batch, site)))


def eigh(a: Any, UPLO: str = "L") -> EighResult:
    """Eigenvalues (ascending) and eigenvectors (columns) of symmetric matrices; like NumPy, only
    the lower triangle is read (UPLO='L') or the upper (UPLO='U')."""
    site = user_site(1)
    upper = _reads_upper(UPLO, site)
    mat = _matrix(a, "eigh", site, square=True)
    batch, n = mat.shape[:-2], mat.shape[-1]
    packed = _at_once(_call("eigh", (mat,), (upper,), batch + (n, n + 1), mat.dtype, site))
    spec = tuple((0, 1, s) for s in batch)
    # the vectors' columns of the packed rows, copied C-contiguous: NumPy's are a new C array
    # (a strided slice of the pack made `v.ravel()` a copy, whose writes never reached v)
    vectors = copied(slice_node(packed, spec + ((0, 1, n), (0, 1, n)), site), "C")
    values = reshape_node(slice_node(packed, spec + ((0, 1, n), (n, 1, 1)), site), batch + (n,),
                          site)
    return EighResult(_real_part(Array(values)), Array(vectors))


def qr(a: Any, *, mode: str = "reduced") -> QRResult | Array:
    """The Array API's modes, and NumPy's mode='r' (R alone: np.linalg.qr(a, mode='r') on an
    Array dispatches here)."""
    site = user_site(1)
    if mode not in ("reduced", "complete", "r"):
        return _qr_on_host(a, mode, site)
    mat = _matrix(a, "qr", site)
    batch, (m, n) = mat.shape[:-2], mat.shape[-2:]
    k = m if mode == "complete" else min(m, n)
    call_mode = "complete" if mode == "complete" else "reduced"
    packed = _call("qr", (mat,), (call_mode,), batch + (m * k + k * n,), mat.dtype, site)
    r = _part(packed, m * k, batch + (k, n), site)
    return r if mode == "r" else QRResult(_part(packed, 0, batch + (m, k), site), r)


def _qr_on_host(x: Any, mode: Any, site: Any) -> Any:
    """NumPy's other qr modes, by NumPy on the host: 'raw' (LAPACK's Householder reflectors
    and tau: the published `h, tau = np.linalg.qr(a, mode='raw')`), the deprecated 'full' and
    'economic' with NumPy's DeprecationWarning at the user's line, and NumPy's "Unrecognized
    mode" ValueError for any other (lazyarray's own text before, 'raw' an error: probe55)."""
    if mode not in ("raw", "full", "economic"):
        raise _bind.fail(ValueError, f"Unrecognized mode '{mode}'", site)
    _matrix(x, "qr", site)  # (lazyarray's checks and texts of a non-matrix, as the other modes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = np.linalg.qr(np.asarray(x), mode=mode)
    for w in caught:
        warnings.warn_explicit(w.message, w.category, *(site or ("<unknown>", 0)))
    if isinstance(out, np.ndarray):
        return host_result(out)
    parts = tuple(host_result(part) for part in out)
    return parts if mode == "raw" else QRResult(*parts)


def svd(a: Any, full_matrices: bool = True, compute_uv: bool = True,
        hermitian: bool = False) -> SVDResult | Array:
    """numpy.linalg.svd (the Array API's with NumPy's keywords): compute_uv=False gives the
    singular values alone; hermitian=True derives them from eigh, as NumPy does."""
    if hermitian:
        return _svd_hermitian(a, bool(compute_uv))
    if not compute_uv:
        return svdvals(a)
    site = user_site(1)
    mat = _matrix(a, "svd", site)
    batch, (m, n) = mat.shape[:-2], mat.shape[-2:]
    k = min(m, n)
    p, q = (m, n) if full_matrices else (k, k)
    packed = _checked(lambda: Array(_call("svd", (mat,), (bool(full_matrices),), batch + (
        m * p + k + q * n,), mat.dtype, site)), site)._node
    u = _part(packed, 0, batch + (m, p), site)
    s = _part(packed, m * p, batch + (k,), site)
    vh = _part(packed, m * p + k, batch + (q, n), site)
    return SVDResult(u, _real_part(s), vh)


def _svd_hermitian(x: Any, compute_uv: bool) -> SVDResult | Array:
    """NumPy's hermitian svd step for step: |eigenvalues| in descending order (argsort reversed),
    U the eigenvectors in that order, Vh = (U * sign)^H (full_matrices does not apply)."""
    if not compute_uv:
        return flip(sort(abs_(eigvalsh(x)), axis=-1), axis=-1)
    w, u = eigh(x)
    order = flip(argsort(abs_(w), axis=-1), axis=-1)
    sgn = gather_along_axis(sign(w), order, -1, in_bounds=True)
    s = gather_along_axis(abs_(w), order, -1, in_bounds=True)
    u = gather_along_axis(u, expand_dims(order, axis=-2), -1, in_bounds=True)
    vh = conj(matrix_transpose(u * expand_dims(sgn, axis=-2)))
    return SVDResult(u, s, vh)


def _real_if_numpys_is(real_input: bool, *results: Array) -> tuple[Array, ...]:
    """NumPy's eig/eigvals of a real matrix are real when every eigenvalue's imaginary part is 0
    (of the whole stack): a dtype that is data, so the values are evaluated at the call, as
    `nonzero`'s count. Under a trace (la.jit's stand-ins, la.grad) they stay complex: a traced
    value cannot be read (docs/linalg_random.md)."""
    if not real_input or _state.stand_ins or is_busy():
        return results
    evaluate_arrays(list(results))  # (one plan for values and vectors)
    if np.any(np.asarray(results[0]).imag != 0):
        return results
    return tuple(real(r) for r in results)


def eig(a: Any) -> EigResult:
    """General eigen-decomposition: complex results, real where NumPy's are (a real matrix whose
    eigenvalues are all real: evaluated at the call to know it)."""
    site = user_site(1)
    mat = _matrix(a, "eig", site, square=True)
    ct = _complex_dtype(mat.dtype)
    if ct is None:
        raise _bind.fail(NotImplementedError, "eig needs complex dtypes, which this build of "
                         "lazyarray does not have yet", site)
    batch, n = mat.shape[:-2], mat.shape[-1]
    packed = _at_once(_call("eig", (mat,), (), batch + (n, n + 1), ct, site))  # real a: real routine
    spec = tuple((0, 1, s) for s in batch)
    # the vectors' columns of the packed rows, copied C-contiguous: NumPy's are a new C array
    # (a strided slice of the pack made `v.ravel()` a copy, whose writes never reached v)
    vectors = copied(slice_node(packed, spec + ((0, 1, n), (0, 1, n)), site), "C")
    values = reshape_node(slice_node(packed, spec + ((0, 1, n), (n, 1, 1)), site), batch + (n,),
                          site)
    return EigResult(*_real_if_numpys_is(mat.dtype.kind != "c", Array(values), Array(vectors)))


def eigvals(a: Any) -> Array:
    site = user_site(1)
    mat = _matrix(a, "eigvals", site, square=True)
    ct = _complex_dtype(mat.dtype)
    if ct is None:
        raise _bind.fail(NotImplementedError, "eigvals needs complex dtypes, which this build of "
                         "lazyarray does not have yet", site)
    values = Array(_call("eigvals", (mat,), (), mat.shape[:-1], ct, site))  # real: the real routine
    return _real_if_numpys_is(mat.dtype.kind != "c", values)[0]


def lstsq(a: Any, b: Any, rcond: float | None = None) -> tuple[Array, Array, Array, Array]:
    """NumPy's (x, residuals, rank, s) for 2-D a. The solution is a library call; rank and s come
    from svdvals and residuals are fused from a @ x. For M > N the rank is evaluated at the call:
    NumPy's residuals are empty for a rank-deficient a (a shape that is data, as `nonzero`'s);
    under a trace (la.jit, la.grad) they are computed whatever the rank."""
    site = user_site(1)
    an = _matrix(a, "lstsq", site)
    if an.ndim != 2:
        raise _bind.fail(np.linalg.LinAlgError, f"{an.ndim}-dimensional array given. Array must "
                         "be two-dimensional", site)  # (NumPy's text)
    bn = _as_node(b, site)
    if bn.ndim not in (1, 2) or bn.shape[0] != an.shape[0]:
        raise _bind.fail(np.linalg.LinAlgError, "Incompatible dimensions", site)  # (NumPy's)
    _refuse_half(bn, site)
    dtype = np.result_type(an.dtype, bn.dtype if bn.dtype.kind in "fc" else dtypes.float64)
    an, bn = _bind.cast(an, dtype, site), _bind.cast(bn, dtype, site)
    tol = float(rcond) if rcond is not None else _default_rtol(an)
    m, n = an.shape
    if m > n and not (_state.stand_ins or is_busy()) and (an.inputs or bn.inputs):
        # the rank is read below: a and b computed once, as one graph, not by each of x's and
        # s's evaluations (polyfit's Vandermonde matrix of 100,000 rows: ~4 ms each time)
        held = [Array(an), Array(bn)]
        evaluate_arrays(held)
        an, bn = held[0]._node, held[1]._node
    x = _checked(lambda: Array(_call("lstsq", (an, bn), (tol,), (n,) + bn.shape[1:], dtype,
                                     site)), site)
    s = svdvals(Array(an))
    rank = astype(_rank_of(s, tol), dtypes.int32)  # LAPACK's C int, as NumPy's
    if m > n and not (_state.stand_ins or is_busy()):
        evaluate_arrays([x, rank])  # (with x: the residuals' graph reads its buffer, else the
    if m > n and (_state.stand_ins or is_busy() or int(rank) == n):  # solve ran again there)
        r = Array(bn) - matmul(Array(an), x)
        squares = real(r * conj(r)) if r.dtype.kind == "c" else r * r  # NumPy's |r|**2
        residuals = _sum(squares, axis=0).reshape(bn.shape[1:] if bn.ndim == 2 else (1,))
    else:
        residuals = Array(_bind.leaf(np.empty((0,), _real(dtype)), site))
    return x, residuals, rank, s

