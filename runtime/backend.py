"""The backend interface, kept small (flashlight's lesson): move data, run a plan, synchronize.

Every backend must pass the same conformance suite (tests/ parametrize over `available_backends()`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np


# NumPy's errors about the data a step reads (an index out of bounds, a singular matrix): raised
# only when the plan runs, so they keep their type and text and gain a note naming the op and the
# user's line.
DATA_ERRORS = (IndexError, np.linalg.LinAlgError)


def at_site(exc: Exception, op_name: str, site: str) -> Exception:
    """`exc` (one of DATA_ERRORS) with NumPy's text and a PEP 678 note naming the op that raised
    it and the line that built that op (a fresh exception: the traceback stays short)."""
    out = type(exc)(*exc.args)
    for note in getattr(exc, "__notes__", ()):
        out.add_note(note)
    out.add_note(f"(in {op_name} built at {site})")
    return out


class CopyStats:
    """What in-place updates (an opaque op with `OpDef.in_place`: scatter) copied and what
    donation saved, read by `la.cache_info()`: `base_copies`/`base_copy_bytes` count bases copied
    into a result's buffer before the update (0 when the update ran in the base's own buffer),
    `in_place_updates` the updates that did not copy, `inputs_donated`/`donated_bytes` the input
    buffers plans wrote over (lazyarray/donation.py)."""

    base_copies = base_copy_bytes = in_place_updates = inputs_donated = donated_bytes = 0

    @classmethod
    def reset(cls) -> None:
        cls.base_copies = cls.base_copy_bytes = cls.in_place_updates = 0
        cls.inputs_donated = cls.donated_bytes = 0


def _address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def run_in_place(op: Any, args: tuple, attrs: tuple, out: np.ndarray) -> None:
    """`out = op(*args)` through the op's in-place form: `out` is the base's own buffer when the
    memory plan gave the result the base's storage (no copy), else it gets a copy of the base
    first (one copy, where the reference's own result plus its copy into `out` made two)."""
    base = args[0]
    if out is base or (_address(out) == _address(base) and out.shape == base.shape):
        CopyStats.in_place_updates += 1
    else:
        np.copyto(out, np.asarray(base).reshape(out.shape), casting="unsafe")
        CopyStats.base_copies += 1
        CopyStats.base_copy_bytes += out.nbytes
    op.in_place(out, args, attrs)


class BackendUnavailable(RuntimeError):
    """The requested backend cannot run here; the message says why and how to fix it."""


class Backend(ABC):
    name: str
    device: str = "cpu"

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """None when this backend can run here; otherwise why not and how to fix it."""
        return None

    def kernel_source(self, kernel: Any) -> str | None:
        """Generated source of one kernel-IR Kernel in this backend's language (for la.explain)."""
        return None

    def from_host(self, array: np.ndarray) -> Any:
        return array

    def to_host(self, buffer: Any) -> np.ndarray:
        return buffer

    def allocate(self, shape: tuple[int, ...], dtype: np.dtype) -> Any:
        return np.empty(shape, dtype)

    def compile_without_waiting(self, program: Any) -> Any:
        """The plan evaluation uses: `compile(program)`, unless the backend can run the program
        the same bit for bit while its kernels compile (the C backend: runtime/c/tiered.py)."""
        return self.compile(program)  # type: ignore[attr-defined]

    @abstractmethod
    def run(self, plan: Any, leaves: list[Any]) -> list[Any]:
        """Run a plan built by this backend on bound leaf values; return the output buffers."""

    def synchronize(self) -> None:
        """Wait for queued work (asynchronous backends)."""


_FACTORIES: dict[str, type[Backend]] = {}
_INSTANCES: dict[str, Backend] = {}


def register_backend(name: str, factory: type[Backend]) -> None:
    _FACTORIES[name] = factory


def get_backend(name: str) -> Backend:
    backend = _INSTANCES.get(name)
    if backend is None:
        if name not in _FACTORIES:
            raise ValueError(f"unknown backend {name!r}; choose one of {sorted(_FACTORIES)}")
        reason = _FACTORIES[name].unavailable_reason()
        if reason is not None:
            raise BackendUnavailable(f"backend {name!r} cannot run here: {reason}")
        backend = _INSTANCES[name] = _FACTORIES[name]()
    return backend


def source_backend(name: str) -> Backend:
    """An instance for rendering source only (`kernel_source`, for la.explain): no availability
    check, so `la.explain(y, backend="cupy")` shows CUDA without a GPU. Constructors must not touch
    a device; running a plan still goes through `get_backend`."""
    backend = _INSTANCES.get(name)
    if backend is not None:
        return backend
    if name not in _FACTORIES:
        raise ValueError(f"unknown backend {name!r}; choose one of {sorted(_FACTORIES)}")
    return _FACTORIES[name]()


def backend_names() -> tuple[str, ...]:
    return tuple(_FACTORIES)


def available_backends() -> tuple[str, ...]:
    """Backends that can run here, in registration order (numpy first)."""
    return tuple(n for n, cls in _FACTORIES.items() if cls.unavailable_reason() is None)


def fresh_outputs(program: Any, buffers: Any) -> list[Any]:
    """The program's outputs from `buffers` (indexable by slot), copied where one would alias an
    input or an earlier output: results handed to users never share memory with anything else."""
    out, seen = [], set()
    for slot in program.outputs:
        value = buffers[slot]
        out.append(value.copy() if slot in seen or slot in program.inputs else value)
        seen.add(slot)
    return out
