"""einops' backend for Arrays: `einops.rearrange/reduce/repeat/pack/unpack(x, ...)` on an Array.

einops finds a framework by walking the subclasses of its `AbstractBackend` and instantiating
those whose `framework_name` is an imported module (einops/_backends.py `get_backend`), so the
class must exist, as a subclass, before the first einops call on an Array. Importing einops
from `import lazyarray` would cost ~55 ms (measured with `python -X importtime`) for everyone who
has einops installed and fail for no one, but it is a test-only dependency here: the class is
defined when einops is imported, by whichever comes second. If einops is already imported,
`register()` defines it at once; otherwise a one-shot import hook waits for `einops._backends`
and defines it right after that module runs. Nothing happens where einops is absent.

The backend is eager only where einops needs values (`to_numpy`); every tensor operation binds
the lazy lazyarray function, so `rearrange(x, ...) + 1` is one fused kernel.
"""

from __future__ import annotations

import importlib.abc
import sys
from types import ModuleType
from typing import Any

import numpy as np

import lazyarray as la  # the namespace (partly initialized here; used only in the methods)

_TARGET = "einops._backends"
_DEFINED: list[type] = []  # the backend class, once defined (tests read it)


def register() -> None:
    """Make einops see Arrays: now if einops is imported, else when it is."""
    module = sys.modules.get(_TARGET)
    if module is not None:
        _define(module)
    elif not any(isinstance(f, _EinopsHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _EinopsHook())


class _EinopsHook(importlib.abc.MetaPathFinder):
    """Finds nothing itself: on `einops._backends`, hands back the regular spec with its loader
    wrapped so that the backend class is defined after the module body has run; then leaves."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != _TARGET:
            return None
        sys.meta_path.remove(self)
        spec = next((found for finder in sys.meta_path  # the finders after this one, in order
                     if (found := getattr(finder, "find_spec", lambda *a: None)(name, path, target))
                     is not None), None)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            _define(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _define(backends: ModuleType) -> None:
    if _DEFINED:
        return

    class LazyarrayBackend(backends.AbstractBackend):  # type: ignore[name-defined,misc]
        """einops' imperative backend over lazyarray's namespace (as its NumpyBackend)."""

        framework_name = "lazyarray"

        def is_appropriate_type(self, tensor: Any) -> bool:
            return isinstance(tensor, la.Array)

        def from_numpy(self, x: Any) -> Any:
            return la.asarray(x)

        def to_numpy(self, x: Any) -> Any:
            return np.asarray(x)

        def arange(self, start: int, stop: int) -> Any:
            return la.arange(start, stop)

        def stack_on_zeroth_dimension(self, tensors: list) -> Any:
            return la.stack(tensors)

        def tile(self, x: Any, repeats: tuple) -> Any:
            return la.tile(x, repeats)

        def concat(self, tensors: list, axis: int) -> Any:
            return la.concat(tensors, axis=axis)

        def is_float_type(self, x: Any) -> bool:
            return x.dtype.kind == "f"  # einops' numpy backend: float dtypes only (mean)

        def add_axis(self, x: Any, new_position: int) -> Any:
            return la.expand_dims(x, axis=new_position)

        def einsum(self, pattern: str, *x: Any) -> Any:
            return la.einsum(pattern, *x)

    _DEFINED.append(LazyarrayBackend)
