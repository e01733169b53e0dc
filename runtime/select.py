"""Which backend `auto` means on this machine: cupy with a GPU, else c with a compiler, else numpy."""

from __future__ import annotations

from .backend import available_backends

_PREFERENCE = ("cupy", "c", "numpy")


def resolve_backend(name: str) -> str:
    if name != "auto":
        return name
    available = available_backends()
    return next(b for b in _PREFERENCE if b in available)
