"""NumPy's random API with NumPy's numbers: `seed`, `rand`, `randint`, every distribution,
`RandomState` and `default_rng(seed)`'s `Generator` run NumPy's own generators on the host and
hand their arrays back as Arrays.

Why NumPy's generators, not draws inside the kernels: a program whose only change is the import
must give NumPy's values, and seeded random data is how many programs start (initial weights,
samples, shuffles, Monte Carlo). The module-level functions are the methods of NumPy's own global
`RandomState`, so `la.random.seed(0)` is `np.random.seed(0)` and a library that draws from NumPy's
global stream (scikit-learn's `random_state=None`) sees the stream it sees in the NumPy program.
The key API (lazyarray/random_keys.py, `la.random.uniform(key, shape)`) draws inside the fused
kernels, for code written for it.

Array arguments (parameters, `p=`, the population of `choice`) are evaluated and read on the host;
an ndarray result is a computed buffer, NumPy's scalars and Python numbers are returned as NumPy
returns them; `shuffle` and `out=` write their Array (rebinding it, `x[...] = ...`). Under `la.jit`
every call raises: the jitted function would replay the numbers of its trace on every call.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np

from . import _bind
from .array import Array
from .cache import _state as _trace_state
from .graph import get_op
from .graph.node import build_node, user_site
from .traced_scalar import TracerEvaluationError

_INPUT = get_op("input")
# Methods whose results are state, not draws: returned as NumPy returns them.
_STATE = frozenset({"get_state", "set_state", "seed", "bytes", "spawn", "__getstate__",
                    "__setstate__", "__reduce__", "bit_generator"})


def _host(v: Any) -> Any:
    """An Array argument as NumPy reads it (evaluated); a list or tuple holding Arrays too."""
    if isinstance(v, Array):
        return np.asarray(v)
    if type(v) in (list, tuple) and any(isinstance(e, Array) for e in v):
        return type(v)(_host(e) for e in v)
    return v


def _array(value: Any, site: Any) -> Any:
    """An ndarray NumPy drew as a computed buffer; anything else as NumPy returned it."""
    if type(value) is not np.ndarray:
        return value
    if not value.flags.c_contiguous or not value.flags.writeable or value.base is not None:
        value = np.array(value, order="C")
    attrs = _bind.AT_ONCE_MARK if value.ndim else ()  # (a 0-d one marked is NumPy's scalar)
    return Array(build_node(_INPUT, (), attrs, value.shape, value.dtype, value, site))


def _refuse_under_jit(name: str, site: Any) -> None:
    if _trace_state.stand_ins:
        raise TracerEvaluationError(
            f"la.jit: NumPy-style random calls (la.random.{name}, default_rng(...).{name}, ...) "
            f"at {_bind.format_site(site)} draw when called; the jitted function would replay "
            "the numbers of its trace on every call. Draw outside the jit and pass the Array "
            "in, or pass a key (la.random.key/split) and use the key API "
            "(la.random.uniform(key, shape))")


def _call(method: Callable[..., Any], name: str, args: tuple, kwargs: dict, site: Any) -> Any:
    """NumPy's method on host arguments; its errors carry the user's line, and its warnings
    come from that line, as NumPy's do (`np.random.random_integers`' DeprecationWarning,
    `multivariate_normal`'s RuntimeWarning: lazyarray's own file was their line; probe49)."""
    _refuse_under_jit(name, site)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = method(*(_host(a) for a in args),
                            **{k: _host(v) for k, v in kwargs.items()})
        except Exception as exc:
            raise _bind.with_site(exc, site) from None
    for w in caught:
        warnings.warn_explicit(w.message, w.category, *(site or ("<unknown>", 0)))
    return result


def _in_place(method: Callable[..., Any], name: str, x: Any, args: tuple, kwargs: dict,
              site: Any) -> None:
    """`shuffle(x)`: NumPy shuffles a host copy of an Array, which is then written back
    (`x[...] = copy`: the Array is rebound, as every write); NumPy arrays and lists as NumPy."""
    if not isinstance(x, Array):
        _call(method, name, (x, *args), kwargs, site)
        return
    copy = np.array(x)
    _call(method, name, (copy, *args), kwargs, site)
    x[...] = copy


def _with_out(method: Callable[..., Any], name: str, args: tuple, kwargs: dict,
              site: Any) -> Any:
    """`out=` an Array: NumPy draws into a host array of out's shape and dtype (its checks, its
    numbers), which is then written into out; out is returned, as NumPy returns it."""
    out = kwargs["out"]
    if not isinstance(out, Array):
        return _array(_call(method, name, args, kwargs, site), site)
    host = np.array(out)
    _call(method, name, args, {**kwargs, "out": host}, site)
    out[...] = host
    return out


def _method(name: str) -> Callable[..., Any]:
    """NumPy's method `name` of the wrapped generator, with Arrays in and out."""
    if name == "shuffle":
        def shuffle(self: Any, x: Any, *args: Any, **kwargs: Any) -> None:
            _in_place(self._numpy.shuffle, name, x, args, kwargs, user_site(1))
        method = shuffle
    else:
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            site, numpy_method = user_site(1), getattr(self._numpy, name)
            if kwargs.get("out") is not None:
                return _with_out(numpy_method, name, args, kwargs, site)
            result = _call(numpy_method, name, args, kwargs, site)
            return result if name in _STATE else _array(result, site)
    method.__name__ = method.__qualname__ = name
    return method


def _numpys_methods(numpy_class: type) -> Callable[[type], type]:
    """Give the class every public method of NumPy's class (documented as NumPy's)."""
    def add(cls: type) -> type:
        for name in dir(numpy_class):
            attr = getattr(numpy_class, name)
            if not name.startswith("_") and callable(attr) and name not in cls.__dict__:
                method = _method(name)
                method.__doc__ = attr.__doc__
                setattr(cls, name, method)
        return cls
    return add


@_numpys_methods(np.random.RandomState)
class RandomState:
    """numpy.random.RandomState (Mersenne Twister: NumPy's legacy methods and numbers)."""

    def __init__(self, seed: Any = None) -> None:
        if isinstance(seed, np.random.RandomState):
            self._numpy = seed
        else:
            self._numpy = _call(np.random.RandomState, "RandomState", (seed,), {}, user_site(1))

    def __repr__(self) -> str:
        return f"RandomState({type(self._numpy.bit_generator).__name__}) of lazyarray"


@_numpys_methods(np.random.Generator)
class Generator:
    """numpy.random.Generator (NumPy's methods and numbers; `default_rng(seed)` makes one)."""

    def __init__(self, bit_generator: Any) -> None:
        if isinstance(bit_generator, np.random.Generator):
            self._numpy = bit_generator
        else:
            self._numpy = _call(np.random.Generator, "Generator", (bit_generator,), {},
                                user_site(1))

    def __repr__(self) -> str:
        return f"Generator({type(self._numpy.bit_generator).__name__}) of lazyarray"

    @property
    def bit_generator(self) -> Any:
        return self._numpy.bit_generator


def default_rng(seed: Any = None) -> Generator:
    """NumPy's `default_rng` (PCG64 seeded by `SeedSequence(seed)`, NumPy's numbers); a
    Generator is returned as it is, a NumPy Generator wrapped."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, np.random.Generator):
        return Generator(seed)
    return Generator(_call(np.random.default_rng, "default_rng", (seed,), {}, user_site(1)))


# NumPy's global RandomState (`np.random.seed`, `np.random.rand`, ... are its methods): shared.
_GLOBAL_STATE = RandomState(np.random.mtrand._rand)


def module_function(name: str) -> Callable[..., Any]:
    """`la.random.<name>`: the global RandomState's method (AttributeError if NumPy has none)."""
    return getattr(_GLOBAL_STATE, name)
