"""Whether the user's line runs inside a `try` block: there an error NumPy raises at
that line can be caught, so a function whose error depends on the data (a singular matrix in
`inv`/`solve`, `cholesky` of a matrix that is not positive definite) evaluates at the call,
and its error comes where the handler sees it, with NumPy's message:

    try:
        x = np.linalg.solve(A, b)
    except np.linalg.LinAlgError:
        x = np.linalg.lstsq(A, b, rcond=None)[0]

Elsewhere the op stays lazy and its error comes at evaluation, naming the line that built it.
Read from the frame's exception table (CPython 3.11+): a `with` block's handler re-raises, so
only a try around it counts. Other Pythons: never (lazy, as before).
"""

from __future__ import annotations

import dis
import sys

import numpy as np
from types import CodeType
from typing import Any, Callable, TypeVar

from .array import RAISES_AT_THE_LINE, Array
from .cache import _state, is_busy
from . import _bind
from .settings import RAISE_MODE_ON, WARNING_BLOCKS, get_settings
from . import fp_errors as _fp_errors, fp_state as _fp_state
from .evaluation import evaluate_arrays
from .graph.node import _IS_LIBRARY, _is_library_file, format_site, user_site

_parse: Callable[[CodeType], Any] | None = getattr(dis, "_parse_exception_table", None)
# code -> its exception table as (start, end, target) and which targets are `try` handlers
_TABLES: dict[CodeType, tuple[tuple[tuple[int, int, int], ...], frozenset[int]]] = {}
E = TypeVar("E", bound=BaseException)


def _table(code: CodeType) -> tuple[tuple[tuple[int, int, int], ...], frozenset[int]]:
    found = _TABLES.get(code)
    if found is None:
        entries = tuple((e.start, e.end, e.target) for e in _parse(code)) if _parse else ()
        ops = {i.offset: i.opname for i in dis.get_instructions(code)} if entries else {}
        # A handler opens with PUSH_EXC_INFO; a `with` block's goes on to WITH_EXCEPT_START
        # (it re-raises: an enclosing try may catch); cleanups of except bodies open otherwise.
        tries = frozenset(t for _, _, t in entries if ops.get(t) == "PUSH_EXC_INFO"
                          and ops.get(t + 2) != "WITH_EXCEPT_START")
        if len(_TABLES) > 4096:
            _TABLES.clear()
        found = _TABLES[code] = (entries, tries)
    return found


def _in_try(code: CodeType, offset: int) -> bool:
    """Whether `offset` is covered by a try block (through enclosing with-blocks/cleanups)."""
    entries, tries = _table(code)
    for _ in range(64):
        target = next((t for start, end, t in entries if start <= offset < end), None)
        if target is None:
            return False
        if target in tries:
            return True
        offset = target  # a with-block's or a cleanup's handler: what covers it
    return False


_AT: dict[tuple[CodeType, int], bool] = {}  # (code, instruction offset) -> in a try block


def user_line_handles_errors() -> bool:
    """Whether the innermost frame outside lazyarray is inside a try block (never while
    tracing or evaluating: a la.jit trace computes nothing at its lines). ~0.4 us."""
    if _parse is None:
        return False
    frame = sys._getframe(1)
    known = _IS_LIBRARY.get
    while frame is not None:
        code = frame.f_code
        lib = known(code.co_filename)
        if lib is None:
            lib = _is_library_file(code.co_filename)
        if not lib:
            where = (code, frame.f_lasti)
            inside = _AT.get(where)
            if inside is None:
                if len(_AT) > 65536:
                    _AT.clear()
                inside = _AT[where] = _in_try(code, frame.f_lasti)
            return inside and not (_state.stand_ins or is_busy())
        frame = frame.f_back
    return False


def user_frames_handle_errors() -> bool:
    """`user_line_handles_errors`, also through the user's callers in the same source file: a
    try around a call of the program's own function (`try: L = factor(A) except LinAlgError:`,
    `factor` calling cholesky) catches NumPy's error, raised inside the call (probe49: it came
    at evaluation, outside the handler). A frame of another file (a test runner's or a
    harness's try) ends the walk. For the ops whose error depends on the data (linalg)."""
    if _parse is None or _state.stand_ins or is_busy():
        return False
    frame = sys._getframe(1)
    known = _IS_LIBRARY.get
    while frame is not None:
        lib = known(frame.f_code.co_filename)
        if lib is None:
            lib = _is_library_file(frame.f_code.co_filename)
        if not lib:
            break
        frame = frame.f_back
    filename = frame.f_code.co_filename if frame is not None else None
    while frame is not None and frame.f_code.co_filename == filename:
        where = (frame.f_code, frame.f_lasti)
        inside = _AT.get(where)
        if inside is None:
            if len(_AT) > 65536:
                _AT.clear()
            inside = _AT[where] = _in_try(frame.f_code, frame.f_lasti)
        if inside:
            return True
        frame = frame.f_back
    return False


def at_the_line(exc: E, site: tuple[str, int] | None) -> E:
    """`exc` as NumPy raises it at the user's line: without the note naming that very line
    ("(at site)" of _bind.fail, "(in op built at site)" of an evaluation: runtime/backend.py);
    a note naming another line stays."""
    notes = getattr(exc, "__notes__", None)
    if not notes:
        return exc
    here = format_site(site)
    kept = [n for n in notes if n != f"(at {here})"
            and not (n.startswith("(in ") and n.endswith(f" built at {here})"))]
    if len(kept) == len(notes):
        return exc
    out = type(exc)(*exc.args)
    for note in kept:
        out.add_note(note)
    return out


def has_index_array(key: Any, array_type: type) -> bool:
    """Whether an indexing key holds an integer index Array (whose bounds only its values
    tell; a bool mask's shape is data, read at the line anyway)."""
    for k in (key if type(key) is tuple else (key,)):
        if type(k) is array_type:
            node = k._node  # (a pending 0-d index too: `v[np.argmax(v) + 10]`, fuzz46)
            if (node.shape or node.inputs) and node.dtype.kind in "iu":
                return True
    return False


def held_index_arrays(key: Any, array_type: type) -> Any:
    """The key with its integer index Arrays computed, as NumPy arrays: their bounds are then
    checked before a write rebinds anything, so an IndexError the user's try block catches
    leaves the array as it was (`x[i] = v` stayed bound to the failing scatter, and every later
    read raised the error again: fuzz46)."""
    items = key if type(key) is tuple else (key,)
    arrays = [k for k in items if type(k) is array_type and k._node.dtype.kind in "iu"]
    if not arrays:
        return key
    evaluate_arrays(arrays)
    out = tuple(np.asarray(k) if any(k is a for a in arrays) else k for k in items)
    return out if type(key) is tuple else out[0]


def checked_here(build: Callable[[], Any], site: Any) -> Any:
    """`build()` of an indexing by an index Array on a line inside the user's try block: its
    result evaluated there (a small one computed at once already was), NumPy's IndexError
    raised there with NumPy's message."""
    try:
        out = build()
    except IndexError as exc:
        raise at_the_line(exc, site) from None
    evaluate_here([out], (IndexError,), site)
    return out


def evaluate_here(arrays: list, errors: tuple[type[BaseException], ...], site: Any) -> None:
    """Evaluate `arrays` at the user's line (inside its try block): NumPy's `errors` come
    there, without the note naming this same line."""
    try:
        evaluate_arrays(arrays)
    except errors as exc:
        raise at_the_line(exc, site) from None


def raises_at_the_line(x: Any) -> None:
    """A pending Array built under a floating-point 'raise' mode on a line inside the user's try
    block: computed there, so NumPy's FloatingPointError reaches the handler (`with
    np.errstate(divide='raise'): try: r = a / b except FloatingPointError: ...`; fuzz46).
    Elsewhere it stays pending (the block's exit computes it)."""
    if "raise" in _fp_state.modes(get_settings())[0]:  # (the modes x was built under)
        if not user_line_handles_errors():
            return
    elif not WARNING_BLOCKS[0] or _state.stand_ins or is_busy() or x._view is False or not (
            _fp_errors.at_the_line()) or (
            not _fp_errors.RECORDING[-1] and not user_line_handles_errors()):
        return  # (a warnings block that records, or turns warnings into errors in a try: fuzz53;
        # never while la.jit traces or an evaluation runs; nor a stand-in for NumPy's scalar,
        # `x.sum()`: computed, it would be a 0-d array's leaf, and `x.sum() / 0`'s report
        # would name the ufunc's 'divide', not NumPy's 'scalar divide')
    node = x._node
    if node.op.write_back is not None:
        # a view (`r = A.imag`, a slice): it raises nothing of its own, and computed here it
        # would be a copy, its later writes lost to its base (`r.sort()` then failed: fuzz47's
        # seed 1100100); its base's pending computation is what may raise
        while node.inputs and node.op.write_back is not None:
            node = node.inputs[0]
        if not node.inputs:
            return
        x = Array(node)
    try:
        evaluate_arrays([x])
        _as_numpys_scalar(x)
    except (FloatingPointError, RuntimeWarning) as exc:  # (RuntimeWarning: a filter's 'error')
        # NumPy's in-place ufunc has written its result when it raises (`x /= 0` leaves inf
        # in x): the value, computed again under 'ignore', goes with the error to the caller
        # that writes (writes.inplace_rest)
        with _fp_state.silenced():
            evaluate_arrays([x])
        out = at_the_line(exc, user_site(1))
        out._lazyarray_value = x  # type: ignore[attr-defined]
        raise out from None


def _as_numpys_scalar(x: Any) -> None:
    """A 0-d result computed at its line stands for NumPy's scalar, as it did pending: its leaf
    takes the at-once mark, so a later op on it reports NumPy's scalar math ('... in scalar
    divide') as it did before; an unmarked leaf is a 0-d *array*, whose ufunc's report names
    the ufunc ('... in divide': a recording warnings block computed `x.sum() / 0` so, fuzz53)."""
    node = x._node
    if not node.shape and not node.inputs and node.op is _bind.INPUT and node.attrs == ():
        x._node = _bind.build_node(_bind.INPUT, (), _bind.AT_ONCE_MARK, (), node.dtype, node.data,
                                   node.site)


RAISES_AT_THE_LINE[0] = raises_at_the_line
if hasattr(_bind.FAST, "install_raise_hook"):  # (_trace.c's make_array: its Arrays too)
    _bind.FAST.install_raise_hook(RAISE_MODE_ON, raises_at_the_line)
