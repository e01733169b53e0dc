"""Python's warning filters as blocks that hold for lazy ops: `warnings.catch_warnings`.

NumPy computes an op at its line, so `with warnings.catch_warnings(): warnings.simplefilter(
"ignore"); r = a / b` is silent, and `catch_warnings(record=True)` records the op's warnings in its
list. A lazy op is computed later, under the filters in effect then: read after the block, it
warned (probe51's published programs). The stdlib block has no hook, and checking the filters at
every op would cost the hot path, so `install` (run by `import lazyarray`) puts a subclass in
`warnings.catch_warnings` whose edges compute the pending Arrays, as la.errstate's do for the
floating-point modes (lazyarray/fp_errors.py): at the entry those built before it (their warnings
go where they went outside the block), at the exit those built inside it (under the block's
filters, naming the lines that built them), where the block changed the filters or records.
A block entered through a class bound before `import lazyarray` (`from warnings import
catch_warnings`) is the stdlib's and holds only for what it computes itself. Blocks entered by
library code are the stdlib's too, computing nothing of the user's: lazyarray's own host calls,
NumPy's internals (the frames user sites skip) and any installed package or the standard library
(a file under sysconfig's library paths): Dask's scheduler enters such blocks around its tasks,
and computing the pending ops there read whole out-of-core inputs into memory
(tests/test_dask_cluster.py).
"""

from __future__ import annotations

import os
import sys
import sysconfig
import warnings
from typing import Any

from . import fp_errors
from .settings import warning_blocks_changed
from .graph.node import _IS_LIBRARY, _is_library_file, built_count

_STDLIB = warnings.catch_warnings
_INSTALLED = tuple({os.path.realpath(path) + os.sep for key, path in sysconfig.get_paths().items()
                    if key in ("stdlib", "platstdlib", "purelib", "platlib")})
_USER: dict[str, bool] = {}  # filename -> a user's file (not lazyarray, NumPy or installed code)


def _is_user_file(filename: str) -> bool:
    user = _USER.get(filename)
    if user is None:
        library = _IS_LIBRARY.get(filename)
        if library is None:
            library = _is_library_file(filename)
        user = _USER[filename] = not library and not (
            not filename.startswith("<") and os.path.realpath(filename).startswith(_INSTALLED))
    return user


class _RecordList(list):
    """A recording block's list: reading it first computes the pending ops built in the block
    since its entry (under its filters, their warnings naming the lines that built them), so
    the block's own lines see the warnings NumPy's ops gave at their lines (the stdlib's
    documented idiom `with catch_warnings(record=True) as w: ...; assert len(w) == 1` inside
    the block read an empty list: fuzz53), while the ops stay lazy and fuse until then."""

    def _settle(self) -> None:
        since = self.__dict__.get("since", -1)
        if since >= 0 and not self.__dict__.get("settling"):
            self.settling = True
            try:
                with fp_errors.at_block_exit():
                    fp_errors._evaluate_pending(since)
            finally:
                self.settling = False


def _reading(name: str) -> Any:
    method = getattr(list, name)

    def read(self: _RecordList, *args: Any) -> Any:
        self._settle()
        return method(self, *args)

    read.__name__ = name
    return read


for _name in ("__len__", "__getitem__", "__iter__", "__reversed__", "__contains__", "__eq__",
              "__ne__", "__repr__", "copy", "count", "index", "pop", "__add__", "__mul__"):
    setattr(_RecordList, _name, _reading(_name))


def _recording_list(block: Any, entered: Any, since: int) -> _RecordList | None:
    """Put a _RecordList in the place of the stdlib block's record list (3.11-3.13 record
    through `module._showwarnmsg_impl = log.append`); None where the block does not record or
    keeps its list otherwise."""
    module = getattr(block, "_module", None)
    impl = getattr(module, "_showwarnmsg_impl", None)
    if type(entered) is not list or getattr(impl, "__self__", None) is not entered:
        return None
    log = _RecordList()
    log.since = since
    module._showwarnmsg_impl = log.append
    return log


class catch_warnings(_STDLIB):  # (the stdlib's name: code reads `type(block).__name__`)
    """warnings.catch_warnings whose edges compute lazyarray's pending ops (module docstring)."""

    def __enter__(self) -> Any:
        user = _is_user_file(sys._getframe(1).f_code.co_filename)
        if user:
            with fp_errors.at_block_exit():  # built before: under the filters outside the block
                fp_errors._evaluate_pending()
        entered = super().__enter__()
        self.__dict__.setdefault("_lazyarray_since", []).append(built_count() if user else -1)
        if user:
            log = _recording_list(self, entered, self._lazyarray_since[-1])
            # (a list the stdlib's block records into whose reads compute: no op need be
            # computed at its line; where it cannot be put in, each op is, _handled's rule)
            fp_errors.RECORDING.append(log is None and bool(getattr(self, "_record", True)))
            warning_blocks_changed(1)
            entered = entered if log is None else log
        return entered

    def __exit__(self, *exc: object) -> None:
        since = self._lazyarray_since.pop()
        try:
            if since >= 0 and exc[0] is None and self._holds_anything():
                with fp_errors.at_block_exit():  # (their warnings name the lines that built them)
                    fp_errors._evaluate_pending(since)
        finally:
            if since >= 0:
                if fp_errors.RECORDING:
                    fp_errors.RECORDING.pop()
                warning_blocks_changed(-1)
            super().__exit__(*exc)

    def _holds_anything(self) -> bool:
        """Whether the block records or changed the filters (the stdlib's private fields of
        3.11-3.13; where a Python keeps them otherwise, assume it does)."""
        try:
            return bool(self._record) or self._module.filters != self._filters
        except AttributeError:
            return True


def install() -> None:
    """`warnings.catch_warnings` is this module's class from now on (idempotent)."""
    if warnings.catch_warnings is _STDLIB:
        warnings.catch_warnings = catch_warnings
