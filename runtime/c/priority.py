"""The compilers' priority: the background compiler's thread and the helper library's builder run
niced (Linux: niceness is per thread and inherited by the compilers they start), so the caller's
loop keeps its core (runtime/c/background.py has the figures). Its own module so both compile
paths use it without importing each other (compiler -> helper_library -> background -> compiler
was an import circle)."""

from __future__ import annotations

import os
import threading

COMPILER_NICENESS = 10


def lower_priority() -> None:
    """Nice this thread, hence the compilers it starts (Linux: niceness is per thread and
    inherited): on 2 shared cores a compiler at equal priority slowed the caller's loop ~3x."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), COMPILER_NICENESS)
    except (AttributeError, OSError):  # not Linux, or not permitted: equal priority
        pass
