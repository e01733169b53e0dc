"""Assertions that an exception names the user's line the way lazyarray does: in a PEP 678 note
("(at file:line)", or "(in op built at file:line)" for an error the plan's run raised), never in
its message, which stays NumPy's text (programs print `str(e)`)."""

from __future__ import annotations

import re
from typing import Any


def notes_of(exc: Any) -> str:
    """The notes of `exc` (or of a pytest ExceptionInfo's exception), one a line."""
    exc = getattr(exc, "value", exc)
    return "\n".join(getattr(exc, "__notes__", ()))


def assert_site(exc: Any, pattern: str) -> None:
    """`exc`'s notes match the regex `pattern` (e.g. r"test_x\\.py:12"); its message does not."""
    exc = getattr(exc, "value", exc)
    notes = notes_of(exc)
    assert re.search(pattern, notes), (str(exc), notes, pattern)
    assert not re.search(pattern, str(exc)), (str(exc), pattern)
