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
