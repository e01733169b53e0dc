"""la.random: NumPy's random API with NumPy's numbers, and JAX-style keys drawing inside the
fused kernels.

    la.random.seed(0); x = la.random.rand(3, 4); i = la.random.randint(0, 10, size=5)   # NumPy's
    rng = la.random.default_rng(0); z = rng.normal(0.0, 2.0, size=(3, 4))               # NumPy's
    k = la.random.key(0); y = la.random.uniform(k, (3, 4))                               # keys

NumPy's names (every legacy function and distribution, `RandomState`, `Generator`,
`default_rng`, the bit generators and `SeedSequence`) run NumPy's own generators
(lazyarray/random_numpy.py): the same seed gives NumPy's numbers. `uniform`, `normal`, `randint`,
`choice` and `permutation` are in both APIs: a key (a uint32 Array or ndarray whose last dimension
is 2, as `key`/`split` make) as the first argument selects the key API (lazyarray/random_keys.py),
anything else NumPy's. docs/linalg_random.md says how the key API makes its numbers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import random_keys as _keys
from . import random_numpy as _numpy
from .array import Array
from .random_keys import PRNGKey, bernoulli, fold_in, key, split, truncated_normal  # noqa: F401
from .random_numpy import Generator, RandomState, default_rng  # noqa: F401

# NumPy's bit generators and seeding: its own classes (a Generator of lazyarray takes them).
BitGenerator, SeedSequence = np.random.BitGenerator, np.random.SeedSequence
MT19937, PCG64, PCG64DXSM, Philox, SFC64 = (np.random.MT19937, np.random.PCG64,
                                            np.random.PCG64DXSM, np.random.Philox,
                                            np.random.SFC64)


def _keyed(args: tuple, kwargs: dict) -> bool:
    first = args[0] if args else kwargs.get("k")  # the key API's name for its key
    if not isinstance(first, (Array, np.ndarray)):
        return False
    return first.dtype == np.uint32 and first.shape[-1:] == (2,)


def _dispatch(name: str, doc: str) -> Any:
    by_key, numpy_style = getattr(_keys, name), _numpy.module_function(name)

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

# NumPy's module-level functions (the methods of its global RandomState), e.g. seed, rand, randn,
# random, shuffle, beta, gamma, multivariate_normal, get_state/set_state.
_LEGACY = sorted(n for n in dir(np.random.mtrand._rand) if not n.startswith("_")
                 and callable(getattr(np.random, n, None)))
_KEY_API = ["PRNGKey", "bernoulli", "fold_in", "key", "split", "truncated_normal"]
_CLASSES = ["BitGenerator", "Generator", "MT19937", "PCG64", "PCG64DXSM", "Philox",
            "RandomState", "SFC64", "SeedSequence", "default_rng"]
__all__ = sorted(set(_LEGACY) | set(_KEY_API) | set(_CLASSES) | {"sample", "ranf"})


def __getattr__(name: str) -> Any:
    """NumPy's module-level random functions, bound to NumPy's global RandomState."""
    if name in _LEGACY or name in ("sample", "ranf"):
        fn = _numpy.module_function("random_sample" if name in ("sample", "ranf") else name)
        globals()[name] = fn  # looked up once
        return fn
    raise AttributeError(f"module 'lazyarray.random' has no attribute {name!r}")


def __dir__() -> list[str]:
    return list(__all__)
