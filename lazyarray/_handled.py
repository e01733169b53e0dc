"""Whether the user's line runs inside a `try` (or `with`) block: there an error NumPy raises at
that line can be caught, so a function whose error depends on the data (a singular matrix in
`inv`/`solve`, `cholesky` of a matrix that is not positive definite) evaluates at the call,
and its error comes where the handler sees it, with NumPy's message:

    try:
        x = np.linalg.solve(A, b)
    except np.linalg.LinAlgError:
        x = np.linalg.lstsq(A, b, rcond=None)[0]

Elsewhere the op stays lazy and its error comes at evaluation, naming the line that built it.
Read from the frame's exception table (CPython 3.11+; `with` blocks have entries too, so there
the call evaluates as well, which changes no value). Other Pythons: never (lazy, as before).
"""

from __future__ import annotations

import dis
import sys
from types import CodeType
from typing import Any, Callable, TypeVar

from .graph.node import _IS_LIBRARY, _is_library_file, format_site

_parse: Callable[[CodeType], Any] | None = getattr(dis, "_parse_exception_table", None)
_RANGES: dict[CodeType, tuple[tuple[int, int], ...]] = {}  # code -> (start, end) of its entries
E = TypeVar("E", bound=BaseException)


def _ranges(code: CodeType) -> tuple[tuple[int, int], ...]:
    found = _RANGES.get(code)
    if found is None:
        found = tuple((e.start, e.end) for e in _parse(code)) if _parse is not None else ()
        if len(_RANGES) > 4096:
            _RANGES.clear()
        _RANGES[code] = found
    return found


def user_line_handles_errors() -> bool:
    """Whether the innermost frame outside lazyarray is inside a try/with block."""
    if _parse is None:
        return False
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        lib = _IS_LIBRARY.get(filename)
        if lib is None:
            lib = _is_library_file(filename)
        if not lib:
            lasti = frame.f_lasti
            return any(start <= lasti < end for start, end in _ranges(frame.f_code))
        frame = frame.f_back
    return False


def at_the_line(exc: E, site: tuple[str, int] | None) -> E:
    """`exc` as NumPy raises it at the user's line: without the " (in op built at site)" note
    the evaluation adds (runtime/backend.at_site) when that note names this very line (an op
    built on another line keeps it)."""
    text = str(exc)
    cut = text.rfind(" (in ")
    if cut > 0 and text.endswith(f" built at {format_site(site)})"):
        return type(exc)(text[:cut])
    return exc
