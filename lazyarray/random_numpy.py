"""NumPy's random API (`np.random.rand`, `randint`, `uniform`, ..., `default_rng(seed)`) over the
counter-based keys of lazyarray/random_keys.py: every call draws with a fresh key, so the numbers
are generated inside the consuming kernels, lazily.

The module-level functions share one stream: a root key (from `seed(s)`, or the OS's entropy at
import, as NumPy) and a call counter, advanced under a lock; call i draws with `fold_in(root, i)`.
A `Generator` is such a stream of its own. The streams are not NumPy's (Philox keyed differently,
other transforms: docs/linalg_random.md); dtypes, shapes, argument rules and errors are NumPy's,
the errors raised by NumPy itself on the parameters (a private NumPy generator validates them),
and `size=None` with scalar parameters returns NumPy's Python or NumPy scalar.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Callable

import numpy as np

from . import _bind
from . import elementwise as ew
from . import random_keys as keys
from .array import Array
from .cache import _state as _trace_state
from .graph import dtypes
from .graph.node import user_site
from .searching import argsort, searchsorted
from .shaping import take_along_axis
from .traced_scalar import TracerEvaluationError

_LEGACY = np.random.RandomState(0)  # validates arguments only: its numbers are never used
_MODERN = np.random.Generator(np.random.PCG64(0))


class _Stream:
    """A root key and a counter: draw i uses fold_in(root, i) (thread-safe, reproducible)."""

    def __init__(self, seed: Any) -> None:
        self._lock = threading.Lock()
        self.reseed(seed)

    def reseed(self, seed: Any) -> None:
        if seed is None:
            words = np.frombuffer(os.urandom(8), np.uint32)
        else:
            words = np.random.SeedSequence(seed).generate_state(2, np.uint32)
        with self._lock:
            self._root = Array(_bind.leaf(words.astype(np.uint32)))
            self._count = 0

    def next_key(self) -> Array:
        if _trace_state.stand_ins:  # la.jit would replay this call's key: the same numbers
            raise TracerEvaluationError(
                f"la.jit: NumPy-style random draws (la.random.rand, randint, default_rng(...)."
                f"normal, ...) at {_bind.format_site(user_site(1))} take the next key of a stream "
                "when called; the jitted function would replay that key, the same numbers on every "
                "call. Draw outside the jit and pass the Array in, or pass a key "
                "(la.random.key/split) and use the key API (la.random.uniform(key, shape))")
        with self._lock:
            root, count = self._root, self._count
            self._count += 1
        return keys.fold_in(root, count)


# --- arguments ------------------------------------------------------------------------------------
def _host(v: Any) -> Any:
    return np.asarray(v) if isinstance(v, Array) else v


def _check(method: Callable[..., Any], site: Any, *params: Any, **kwargs: Any) -> None:
    """NumPy's own argument errors: its generator runs on the parameters (size=None)."""
    try:
        with np.errstate(all="ignore"):
            method(*(_host(p) for p in params), **{k: _host(v) for k, v in kwargs.items()})
    except Exception as exc:
        exc.add_note(f"(at {_bind.format_site(site)})")
        raise exc from None


def _is_scalar(v: Any) -> bool:
    return np.ndim(v) == 0 and not isinstance(v, Array)


def _size(size: Any, params: tuple, site: Any) -> tuple[int, ...]:
    """The draw's shape: `size`, which the parameters must broadcast to; else their broadcast."""
    shapes = [tuple(np.shape(p)) if not isinstance(p, Array) else p.shape for p in params]
    if size is None:
        return np.broadcast_shapes(*shapes) if shapes else ()
    shape = keys._shape(size)
    if any(s < 0 for s in shape):
        raise _bind.fail(ValueError, "negative dimensions are not allowed", site)
    try:
        if np.broadcast_shapes(shape, *shapes) != shape:
            raise ValueError
    except ValueError:
        raise _bind.fail(ValueError, f"shape mismatch: parameters of shapes {shapes} cannot be "
                         f"broadcast to size {shape}", site) from None
    return shape


def _param(v: Any) -> Any:
    """A parameter as NumPy reads it: float64 (Python scalars stay weak)."""
    if type(v) in (int, float):
        return float(v)
    return ew.astype(v if isinstance(v, Array) else np.asarray(v), dtypes.float64)


def _result(x: Array, size: Any, params: tuple, python: bool = True) -> Any:
    """size=None with scalar parameters: NumPy's scalar (a Python float/int, or a NumPy scalar
    for `python=False`); else the lazy Array."""
    if size is None and all(_is_scalar(p) for p in params):
        value = np.asarray(x)[()]
        return value.item() if python else value
    return x


# --- draws over a key -----------------------------------------------------------------------------
def unit(k: Array, shape: tuple, dtype: Any = None) -> Array:
    return keys.uniform(k, shape, dtype)


def draw_uniform(k: Array, low: Any, high: Any, shape: tuple) -> Array:
    low, high = _param(low), _param(high)
    return ew.astype(low + (high - low) * keys.uniform(k, shape), dtypes.float64)


def draw_normal(k: Array, loc: Any, scale: Any, shape: tuple) -> Array:
    return ew.astype(_param(loc) + _param(scale) * keys.normal(k, shape), dtypes.float64)


def draw_exponential(k: Array, scale: Any, shape: tuple) -> Array:
    """-log(1 - u) * scale: 1 - u is in (0, 1], so the draw is finite."""
    return ew.astype(-ew.log1p(-keys.uniform(k, shape)) * _param(scale), dtypes.float64)


def draw_integers(k: Array, low: Any, high: Any, shape: tuple, dtype: Any) -> Array:
    """Integers in [low, high): the 64 Philox bits modulo the span (bias below span / 2**64)."""
    dt = np.dtype(dtype)
    if _is_scalar(low) and _is_scalar(high):
        return keys.randint(k, shape, int(low), int(high), dt)
    lo = ew.astype(low if isinstance(low, Array) else np.asarray(low), dtypes.int64)
    hi = ew.astype(high if isinstance(high, Array) else np.asarray(high), dtypes.int64)
    span = ew.astype(hi - lo, dtypes.uint64)
    offset = keys._bits(k, shape, 0, user_site(1)) % span
    return ew.astype(ew.astype(offset, dtypes.int64) + lo, dt)


def draw_choice(k: Array, a: Any, shape: tuple, replace: bool, p: Any, axis: int = 0) -> Array:
    x = a if _is_scalar(a) or isinstance(a, Array) else np.asarray(a)
    return keys.choice(k, int(x) if _is_scalar(x) else x, shape, replace, p, axis)


_TABLE_LIMIT = 10_000_000  # entries of a poisson/binomial CDF table (80 MB)


def draw_from_table(k: Array, log_pmf: np.ndarray, shape: tuple, site: Any) -> Array:
    """An integer distribution by inversion: the first k with u < CDF(k) (a searchsorted of
    fused uniforms in a host-built float64 CDF table; the table's tail beyond it < 1e-30)."""
    if log_pmf.size > _TABLE_LIMIT:
        raise _bind.fail(NotImplementedError, f"a distribution over {log_pmf.size} values is "
                         "too large for lazyarray's table: draw it with NumPy and la.asarray", site)
    cdf = np.cumsum(np.exp(log_pmf - log_pmf.max()))
    cdf = Array(_bind.leaf(cdf / cdf[-1]))
    u = keys.uniform(k, shape)
    idx = searchsorted(cdf, u, side="right")
    return ew.astype(ew.minimum(idx, log_pmf.size - 1), dtypes.int64)


def _log_factorials(n: int) -> np.ndarray:
    return np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, n + 1, dtype=np.float64)))])


def poisson_log_pmf(lam: Any, site: Any) -> np.ndarray:
    """log P(X = k) for k below lam + 12 sqrt(lam) + 30 (scalar lam)."""
    if not _is_scalar(lam):
        raise _bind.fail(NotImplementedError, "poisson with an array lam: draw it with NumPy and "
                         "la.asarray (lazyarray draws a scalar lam)", site)
    lam = float(lam)
    n = int(lam + 12.0 * np.sqrt(lam) + 30)
    if lam == 0.0:
        return np.array([0.0])
    kk = np.arange(n, dtype=np.float64)
    return kk * np.log(lam) - lam - _log_factorials(n - 1)


def binomial_log_pmf(n: Any, p: Any, site: Any) -> np.ndarray:
    """log P(X = k), k = 0..n (scalar n and p)."""
    if not (_is_scalar(n) and _is_scalar(p)):
        raise _bind.fail(NotImplementedError, "binomial with array n or p: draw it with NumPy and "
                         "la.asarray (lazyarray draws scalar n and p)", site)
    n, p = int(n), float(p)
    if p in (0.0, 1.0) or n == 0:
        log_pmf = np.full(n + 1, -np.inf)
        log_pmf[n if p == 1.0 else 0] = 0.0
        return log_pmf
    kk = np.arange(n + 1, dtype=np.float64)
    fact = _log_factorials(n)
    return fact[n] - fact - fact[::-1] + kk * np.log(p) + (n - kk) * np.log1p(-p)


def _check_choice(a: Any, size: Any, replace: bool, p: Any, modern: bool, site: Any) -> None:
    """NumPy's checks on a and p (its own), then the ones that depend on the sample's size."""
    method = _MODERN.choice if modern else _LEGACY.choice
    count = 1 if size is None else int(np.prod(keys._shape(size)))
    if count == 0:
        return
    _check(method, site, a, p=p)
    n = int(a) if _is_scalar(a) else len(_host(a))
    if not replace and count > n:
        text = ("Cannot take a larger sample than population when replace is False" if modern
                else "Cannot take a larger sample than population when 'replace=False'")
        raise _bind.fail(ValueError, text, site)
    if not replace and p is not None and np.count_nonzero(_host(p)) < count:
        raise _bind.fail(ValueError, "Fewer non-zero entries in p than size", site)


def _permuted_rows(k: Array, x: Any, site: Any) -> Array:
    if isinstance(x, (int, np.integer)):
        return keys.permutation(k, int(x))
    arr = x if isinstance(x, Array) else np.asarray(x)
    if arr.ndim == 0:
        raise _bind.fail(IndexError, "x must be an integer or at least 1-dimensional", site)
    return keys.permutation(k, arr if isinstance(arr, Array) else np.ascontiguousarray(arr))


def shuffle_in_place(x: Any, shuffled: Callable[[Any], Any], site: Any) -> None:
    """Rebind an Array (`x[...] = shuffled`), write a NumPy array, reorder a list."""
    if isinstance(x, Array):
        x[...] = shuffled(x)
    elif isinstance(x, np.ndarray):
        if x.ndim == 0:
            raise _bind.fail(TypeError, "shuffle needs an array of at least 1 dimension", site)
        x[...] = np.asarray(shuffled(x))
    elif isinstance(x, list):
        order = np.asarray(shuffled(len(x)))
        x[:] = [x[int(i)] for i in order]
    else:
        raise _bind.fail(TypeError, f"shuffle takes an Array, a NumPy array or a list, not "
                         f"{type(x).__name__}", site)


# --- NumPy's legacy RandomState, and the module-level functions (np.random.*) over one ----------
class RandomState:
    """NumPy's legacy `RandomState` methods over a stream of keys of its own; the module-level
    functions (`la.random.rand`, ...) are the methods of one global instance, as in NumPy."""

    def __init__(self, seed: Any = None) -> None:
        _check(np.random.RandomState, user_site(1), seed)
        self._stream = _Stream(seed)

    def __repr__(self) -> str:
        return "RandomState(lazyarray Philox keys)"

    def seed(self, seed: Any = None) -> None:
        """Reseed this stream (NumPy's checks on the seed; None: the OS's entropy)."""
        _check(np.random.RandomState, user_site(1), seed)
        self._stream.reseed(seed)

    def rand(self, *dims: int) -> Any:
        """Uniform [0, 1) of shape dims (a Python float with no dims)."""
        site = user_site(1)
        _check(_LEGACY.rand, site, *(0 if isinstance(d, (int, np.integer)) else d for d in dims))
        return _result(unit(self._stream.next_key(), _size(dims, (), site)), dims or None, ())

    def randn(self, *dims: int) -> Any:
        """Standard normal of shape dims (a Python float with no dims)."""
        site = user_site(1)
        _check(_LEGACY.randn, site, *(0 if isinstance(d, (int, np.integer)) else d for d in dims))
        z = keys.normal(self._stream.next_key(), _size(dims, (), site))
        return _result(z, dims or None, ())

    def random_sample(self, size: Any = None) -> Any:
        """Uniform [0, 1) (`random`, `sample`, `ranf` are this function, as in NumPy)."""
        return _result(unit(self._stream.next_key(), _size(size, (), user_site(1))), size, ())

    random = sample = ranf = random_sample  # NumPy's aliases

    def standard_normal(self, size: Any = None) -> Any:
        z = keys.normal(self._stream.next_key(), _size(size, (), user_site(1)))
        return _result(z, size, ())

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Any:
        """Uniform on [low, high): low + (high - low) * u, as NumPy (high < low is allowed)."""
        site = user_site(1)
        _check(_LEGACY.uniform, site, low, high)
        shape = _size(size, (low, high), site)
        x = draw_uniform(self._stream.next_key(), low, high, shape)
        return _result(x, size, (low, high))

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        site = user_site(1)
        _check(_LEGACY.normal, site, loc, scale)
        shape = _size(size, (loc, scale), site)
        x = draw_normal(self._stream.next_key(), loc, scale, shape)
        return _result(x, size, (loc, scale))

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        site = user_site(1)
        _check(_LEGACY.exponential, site, scale)
        shape = _size(size, (scale,), site)
        return _result(draw_exponential(self._stream.next_key(), scale, shape), size, (scale,))

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Any:
        """Poisson by inversion of its CDF (scalar lam), lazy; int64."""
        site = user_site(1)
        _check(_LEGACY.poisson, site, lam)
        x = draw_from_table(self._stream.next_key(), poisson_log_pmf(lam, site),
                            _size(size, (lam,), site), site)
        return _result(x, size, (lam,))

    def binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        """Binomial by inversion of its CDF (scalar n and p), lazy; int64."""
        site = user_site(1)
        _check(_LEGACY.binomial, site, n, p)
        x = draw_from_table(self._stream.next_key(), binomial_log_pmf(n, p, site),
                            _size(size, (n, p), site), site)
        return _result(x, size, (n, p))

    def randint(self, low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Any:
        """Integers in [low, high) ([0, low) without high); int64 (NumPy's `int`) by default."""
        site = user_site(1)
        _check(_LEGACY.randint, site, low, high, dtype=dtype)
        lo, hi = (0, low) if high is None else (low, high)
        shape = _size(size, (lo, hi), site)
        out = draw_integers(self._stream.next_key(), lo, hi, shape, dtype)
        return _result(out, size, (lo, hi), python=dtype in (int, bool))

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
        site = user_site(1)
        _check_choice(a, size, replace, p, False, site)
        out = draw_choice(self._stream.next_key(), a, keys._shape(size), replace, p)
        return _result(out, size, (), python=_is_scalar(a))

    def permutation(self, x: Any) -> Array:
        """A permuted range(x) (x an int) or a shuffled copy of x along axis 0, lazy."""
        return _permuted_rows(self._stream.next_key(), x, user_site(1))

    def shuffle(self, x: Any) -> None:
        """In place along axis 0: an Array is rebound (`x[...] = ...`), a NumPy array written."""
        site = user_site(1)
        k = self._stream.next_key()
        shuffle_in_place(x, lambda v: _permuted_rows(k, v, site), site)


_GLOBAL_STATE = RandomState()
seed, rand, randn = _GLOBAL_STATE.seed, _GLOBAL_STATE.rand, _GLOBAL_STATE.randn
random_sample, standard_normal = _GLOBAL_STATE.random_sample, _GLOBAL_STATE.standard_normal
uniform, normal = _GLOBAL_STATE.uniform, _GLOBAL_STATE.normal
exponential = _GLOBAL_STATE.exponential
randint, choice = _GLOBAL_STATE.randint, _GLOBAL_STATE.choice
permutation, shuffle = _GLOBAL_STATE.permutation, _GLOBAL_STATE.shuffle
poisson, binomial = _GLOBAL_STATE.poisson, _GLOBAL_STATE.binomial


# --- NumPy's Generator ----------------------------------------------------------------------------
class Generator:
    """NumPy's `Generator` methods over a stream of keys of its own (`default_rng(seed)`): lazy
    Arrays, or NumPy's scalars for size=None; NumPy's errors (its own Generator checks the
    parameters)."""

    def __init__(self, seed: Any = None) -> None:
        _check(np.random.SeedSequence, user_site(1), seed)
        self._stream = _Stream(seed)

    def __repr__(self) -> str:
        return "Generator(lazyarray Philox keys)"

    def _key(self) -> Array:
        return self._stream.next_key()

    def random(self, size: Any = None, dtype: Any = np.float64, out: Any = None) -> Any:
        site = user_site(1)
        _check(_MODERN.random, site, dtype=dtype)
        x = unit(self._key(), _size(size, (), site), dtype)
        return _store(x, out, site) if out is not None else _result(x, size, ())

    def standard_normal(self, size: Any = None, dtype: Any = np.float64, out: Any = None) -> Any:
        site = user_site(1)
        _check(_MODERN.standard_normal, site, dtype=dtype)
        x = keys.normal(self._key(), _size(size, (), site), dtype)
        return _store(x, out, site) if out is not None else _result(x, size, ())

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Any:
        site = user_site(1)
        _check(_MODERN.uniform, site, low, high)
        shape = _size(size, (low, high), site)
        return _result(draw_uniform(self._key(), low, high, shape), size, (low, high))

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        site = user_site(1)
        _check(_MODERN.normal, site, loc, scale)
        shape = _size(size, (loc, scale), site)
        return _result(draw_normal(self._key(), loc, scale, shape), size, (loc, scale))

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        site = user_site(1)
        _check(_MODERN.exponential, site, scale)
        shape = _size(size, (scale,), site)
        return _result(draw_exponential(self._key(), scale, shape), size, (scale,))

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Any:
        site = user_site(1)
        _check(_MODERN.poisson, site, lam)
        x = draw_from_table(self._key(), poisson_log_pmf(lam, site), _size(size, (lam,), site),
                            site)
        return _result(x, size, (lam,))

    def binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        site = user_site(1)
        _check(_MODERN.binomial, site, n, p)
        x = draw_from_table(self._key(), binomial_log_pmf(n, p, site), _size(size, (n, p), site),
                            site)
        return _result(x, size, (n, p))

    def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = np.int64,
                 endpoint: bool = False) -> Any:
        """Integers in [low, high) ([low, high] with endpoint); a NumPy scalar for size=None."""
        site = user_site(1)
        _check(_MODERN.integers, site, low, high, dtype=dtype, endpoint=endpoint)
        lo, hi = (0, low) if high is None else (low, high)
        if endpoint:
            hi = hi + 1 if _is_scalar(hi) else ew.add(hi, 1)
        shape = _size(size, (lo, hi), site)
        return _result(draw_integers(self._key(), lo, hi, shape, dtype), size, (lo, hi),
                       python=False)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None,
               axis: int = 0, shuffle: bool = True) -> Any:
        site = user_site(1)
        _check_choice(a, size, replace, p, True, site)
        out = draw_choice(self._key(), a, keys._shape(size), replace, p, axis)
        return _result(out, size, (), python=_is_scalar(a))

    def permutation(self, x: Any, axis: int = 0) -> Array:
        site = user_site(1)
        if isinstance(x, (int, np.integer)):
            return keys.permutation(self._key(), int(x))
        arr = x if isinstance(x, Array) else np.asarray(x)
        if arr.ndim == 0:  # NumPy's Generator: the AxisError of axis 0
            raise np.exceptions.AxisError(f"axis 0 is out of bounds for array of dimension 0 "
                                          f"(at {_bind.format_site(site)})")
        return keys.permutation(self._key(), arr, axis)

    def shuffle(self, x: Any, axis: int = 0) -> None:
        """In place along axis: an Array is rebound (`x[...] = ...`), a NumPy array written."""
        site = user_site(1)
        k = self._key()
        if isinstance(x, list):
            shuffle_in_place(x, lambda v: keys.permutation(k, v), site)
        else:
            shuffle_in_place(x, lambda v: keys.permutation(k, v if isinstance(v, Array)
                                                           else np.asarray(v), axis), site)

    def permuted(self, x: Any, axis: int | None = None, out: Any = None) -> Any:
        """Each slice along axis shuffled on its own (axis=None: the flattened array)."""
        site = user_site(1)
        arr = x if isinstance(x, Array) else Array(_bind.leaf(np.array(x)))
        flat = arr.reshape(-1) if axis is None else arr
        ax = 0 if axis is None else _bind.normalize_axis(axis, arr.ndim, site)
        order = argsort(keys._bits(self._key(), flat.shape, 0, site), axis=ax)
        result = take_along_axis(flat, order, axis=ax).reshape(arr.shape)
        return _store(result, out, site) if out is not None else result


def _store(x: Array, out: Any, site: Any) -> Any:
    if tuple(out.shape) != x.shape:
        raise _bind.fail(ValueError, f"out has shape {tuple(out.shape)}, the draw {x.shape}", site)
    if isinstance(out, np.ndarray):
        out[...] = np.asarray(x)
    else:
        out[...] = x
    return out


def default_rng(seed: Any = None) -> Generator:
    """A Generator: an int/sequence seed reproduces its whole sequence; None: the OS's entropy;
    a Generator is returned as it is (as NumPy)."""
    return seed if isinstance(seed, Generator) else Generator(seed)
