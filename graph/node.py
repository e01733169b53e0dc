"""The IR node: an immutable operation on input nodes, with its shape and dtype known at creation.

Building nodes is the library's hot path (every user-level op makes one), so a Node is a plain
`__slots__` object and its structural key, a hash of (op, attrs, dtype, shape, input keys) in which a
leaf counts only by its shape and dtype, is computed once here. Which leaves are the same object is
not part of the key; graph signatures add that (see `graph.signature`).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .registry import OpDef

# Frames from these directories are library frames; the first other frame is the user's line.
_LIBRARY_DIRS: tuple[str, ...] = ()


def register_library_dir(path: str) -> None:
    global _LIBRARY_DIRS
    path = os.path.dirname(os.path.abspath(path)) + os.sep
    if path not in _LIBRARY_DIRS:
        _LIBRARY_DIRS = _LIBRARY_DIRS + (path,)


register_library_dir(__file__)


# Files inside those directories that are user code all the same (the `python -m lazyarray` demo).
_USER_FILES: frozenset[str] = frozenset()


def register_user_file(path: str) -> None:
    global _USER_FILES
    _USER_FILES = _USER_FILES | {os.path.abspath(path)}


def user_site(depth: int = 1) -> tuple[str, int] | None:
    """(filename, line) of the innermost frame outside lazyarray: where the user built the op."""
    frame = sys._getframe(depth)
    dirs = _LIBRARY_DIRS
    while frame is not None and frame.f_code.co_filename.startswith(dirs) and (
            not _USER_FILES or frame.f_code.co_filename not in _USER_FILES):
        frame = frame.f_back
    if frame is None:
        return None
    return frame.f_code.co_filename, frame.f_lineno


def format_site(site: tuple[str, int] | None) -> str:
    return f"{site[0]}:{site[1]}" if site else "<unknown>"


class Node:
    """One operation. `data` is set only on leaves: an input buffer, or a Python scalar's value."""

    __slots__ = ("op", "inputs", "attrs", "shape", "dtype", "key", "data", "site", "__weakref__")

    op: OpDef
    inputs: tuple[Node, ...]
    attrs: tuple
    shape: tuple[int, ...]
    dtype: np.dtype
    key: int
    data: Any
    site: tuple[str, int] | None

    def __init__(
        self,
        op: OpDef,
        inputs: tuple[Node, ...],
        attrs: tuple,
        shape: tuple[int, ...],
        dtype: np.dtype,
        data: Any = None,
        site: tuple[str, int] | None = None,
    ) -> None:
        self.op = op
        self.inputs = inputs
        self.attrs = attrs
        self.shape = shape
        self.dtype = dtype
        self.data = data
        self.site = site
        if inputs:
            self.key = hash((op.name, attrs, dtype.char, shape, *[i.key for i in inputs]))
        else:
            self.key = hash((op.name, attrs, dtype.char, shape))

    @property
    def is_leaf(self) -> bool:
        return not self.inputs and self.op.is_leaf

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    def __repr__(self) -> str:
        attrs = f" {self.attrs}" if self.attrs else ""
        return f"<{self.op.name}{attrs} {self.dtype}{list(self.shape)}>"
