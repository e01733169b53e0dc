"""Which backend `auto` means on this machine: cupy with a GPU, else c with a compiler, else numpy."""

from __future__ import annotations

from .backend import backend_names

_AUTO: str | None = None


def resolve_backend(name: str) -> str:
    global _AUTO
    if name != "auto":
        return name
    if _AUTO is None:
        _AUTO = _detect()
    return _AUTO


def _detect() -> str:
    for candidate in ("cupy", "c"):
        if candidate in backend_names():
            from .backend import get_backend

            try:
                backend = get_backend(candidate)
            except Exception:  # noqa: BLE001  (unavailable: fall through to the next choice)
                continue
            if getattr(backend, "available", True):
                return candidate
    return "numpy"
