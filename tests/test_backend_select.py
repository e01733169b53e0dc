"""`auto` picks the fastest backend that can run here and says so when that is the slow one."""

import warnings

import pytest
from lazyarray.runtime import select
from lazyarray.runtime.backend import _FACTORIES


@pytest.fixture
def fresh_auto():
    select.forget_auto_backend()
    yield
    select.forget_auto_backend()


def test_auto_without_a_compiler_falls_back_to_numpy_with_one_warning(fresh_auto, monkeypatch):
    monkeypatch.setattr(_FACTORIES["c"], "unavailable_reason",
                        classmethod(lambda cls: "no C compiler found; install gcc"))
    with pytest.warns(select.SlowBackendWarning, match="numpy reference backend.*install gcc"):
        assert select.resolve_backend("auto") == "numpy"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert select.resolve_backend("auto") == "numpy"  # once per process, not per evaluation


def test_auto_prefers_c_when_it_can_run(fresh_auto, monkeypatch):
    monkeypatch.setattr(_FACTORIES["c"], "unavailable_reason", classmethod(lambda cls: None))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert select.resolve_backend("auto") in ("c", "cupy")


def test_explicit_names_pass_through():
    assert select.resolve_backend("numpy") == "numpy"


def test_with_cupy_installed_auto_is_worked_out_at_the_first_evaluation_not_at_import(
        fresh_auto, monkeypatch):
    """With CuPy installed, knowing whether `auto` is cupy needs CuPy imported (~1 s): the at-once
    path waits, lazy, until the first evaluation works `auto` out (a GPU run found `import
    lazyarray` importing CuPy), then is on for C and numpy."""
    import numpy as np
    import lazyarray as la
    from lazyarray import eager, evaluation
    from lazyarray.settings import get_settings

    monkeypatch.setattr(evaluation, "_CUPY", [True])  # as if CuPy were installed
    monkeypatch.setattr(_FACTORIES["cupy"], "unavailable_reason", classmethod(lambda cls: "no GPU"))
    with la.config(backend="auto"):
        assert eager.LIMIT[0] == 0  # not worked out yet: lazy
        A = la.asarray(np.arange(16.0).reshape(4, 4))
        assert float(A[1, 2] * 2) == 12.0  # the first evaluation works `auto` out: C here
        assert select.resolved_auto() == "c"
        assert eager.LIMIT[0] == get_settings().eager_size > 0
