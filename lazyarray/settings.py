"""Settings: a pydantic model; defaults from LAZYARRAY_* environment variables; `la.config(...)`.

`la.config(backend="numpy")` changes settings for good; `with la.config(backend="numpy"): ...` restores
them on exit. Settings are per process (not per thread): they choose backends and cache sizes, which
are process-wide things.
"""

from __future__ import annotations

import os
from typing import Callable, Literal

from pydantic import BaseModel, ConfigDict, Field

BackendName = Literal["auto", "numpy", "c", "cupy"]


class Settings(BaseModel):
    model_config = ConfigDict(validate_assignment=True, extra="forbid")

    backend: BackendName = Field("auto", description="auto: cupy with a GPU, else c, else numpy")
    optimize: bool = Field(True, description="run the graph passes and fusion (off: node by node)")
    max_graph_nodes: int = Field(10_000, ge=2, description="pending graphs larger are evaluated")
    plan_cache_size: int = Field(256, ge=0, description="plans kept in the LRU plan cache")
    log_compiles: bool = Field(False, description="log every plan build and kernel compile")
    forbid_compiles: bool = Field(False, description="raise instead of compiling a kernel")
    cache_dir: str | None = Field(None, description="on-disk kernel cache; default: user cache dir")
    num_threads: int | None = Field(None, ge=1, description="OpenMP threads; default: all cores")


def _from_environment() -> Settings:
    values: dict[str, str] = {}
    for name in Settings.model_fields:
        raw = os.environ.get("LAZYARRAY_" + name.upper())
        if raw is not None and raw != "":
            values[name] = raw
    return Settings.model_validate(values)  # pydantic parses "1", "true", "256" from strings


settings: Settings = _from_environment()
_listeners: list[Callable[[Settings], None]] = []  # layers below that mirror a setting (caching)


def on_change(listener: Callable[[Settings], None]) -> None:
    """Call `listener(settings)` now and after every `la.config` change (and its undo)."""
    _listeners.append(listener)
    listener(settings)


def _notify() -> None:
    for listener in _listeners:
        listener(settings)


class config:  # noqa: N801  (a function-like context manager, as users call it)
    """Change settings: `la.config(backend="c")`, or `with la.config(backend="numpy"): ...`."""

    def __init__(self, **changes: object) -> None:
        global settings
        self._saved = settings
        settings = settings.model_copy()
        try:
            for name, value in changes.items():
                if name not in Settings.model_fields:
                    raise TypeError(f"unknown setting {name!r}; known: {sorted(Settings.model_fields)}")
                setattr(settings, name, value)
        except Exception:
            settings = self._saved
            raise
        _notify()

    def __enter__(self) -> Settings:
        return settings

    def __exit__(self, *exc: object) -> None:
        global settings
        settings = self._saved
        _notify()


def get_settings() -> Settings:
    return settings
