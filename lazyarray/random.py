"""la.random: NumPy's random API and JAX-style keys, both drawing inside the fused kernels.

    la.random.seed(0); x = la.random.rand(3, 4); i = la.random.randint(0, 10, size=5)   # NumPy's
    rng = la.random.default_rng(0); z = rng.normal(0.0, 2.0, size=(3, 4))               # NumPy's
    k = la.random.key(0); y = la.random.uniform(k, (3, 4))                               # keys

`uniform`, `normal`, `randint`, `choice` and `permutation` are in both APIs: a key (a uint32
Array or ndarray whose last dimension is 2, as `key`/`split` make) as the first argument selects
the key API (lazyarray/random_keys.py), anything else NumPy's (lazyarray/random_numpy.py).
docs/linalg_random.md says how the numbers are made; NumPy's other distributions are not here
(AttributeError naming what to use).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import random_keys as _keys
from . import random_numpy as _numpy
from .array import Array
from .random_keys import PRNGKey, bernoulli, fold_in, key, split, truncated_normal
from .random_numpy import (Generator, RandomState, binomial, default_rng, exponential, poisson,
                           rand, randn, random_sample, seed, shuffle, standard_normal)

random = sample = ranf = random_sample  # noqa: A001  (NumPy's aliases)


def _keyed(args: tuple, kwargs: dict) -> bool:
    first = args[0] if args else kwargs.get("k")  # the key API's name for its key
    if not isinstance(first, (Array, np.ndarray)):
        return False
    return first.dtype == np.uint32 and first.shape[-1:] == (2,)


def _dispatch(name: str, doc: str) -> Any:
    by_key, numpy_style = getattr(_keys, name), getattr(_numpy, name)

    def fn(*args: Any, **kwargs: Any) -> Any:
        return (by_key if _keyed(args, kwargs) else numpy_style)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{doc}\n\nKey API: {by_key.__doc__}\nNumPy's API: {numpy_style.__doc__}"
    return fn


uniform = _dispatch("uniform", "uniform(key, shape, dtype, minval, maxval) or "
                    "uniform(low=0.0, high=1.0, size=None)")
normal = _dispatch("normal", "normal(key, shape, dtype) or normal(loc=0.0, scale=1.0, size=None)")
randint = _dispatch("randint", "randint(key, shape, minval, maxval, dtype) or "
                    "randint(low, high=None, size=None, dtype=int)")
choice = _dispatch("choice", "choice(key, a, shape, replace, p, axis) or "
                   "choice(a, size=None, replace=True, p=None)")
permutation = _dispatch("permutation", "permutation(key, x, axis) or permutation(x)")

__all__ = ["Generator", "PRNGKey", "RandomState", "bernoulli", "binomial", "choice", "default_rng",
           "exponential", "fold_in", "key", "normal", "permutation", "poisson", "rand",
           "randint", "randn", "random", "random_sample", "ranf", "sample", "seed",
           "shuffle", "split", "standard_normal", "truncated_normal", "uniform"]


def __getattr__(name: str) -> Any:
    """NumPy's other random names: an AttributeError that says what to do instead."""
    if hasattr(np.random, name) and not name.startswith("_"):
        raise AttributeError(f"lazyarray.random has no {name!r} (NumPy's numpy.random.{name} is "
                             "not implemented lazily): draw it with NumPy and wrap it with "
                             "la.asarray(...)")
    raise AttributeError(f"module 'lazyarray.random' has no attribute {name!r}")


def __dir__() -> list[str]:
    return list(__all__)
