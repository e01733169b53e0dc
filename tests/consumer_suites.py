"""A pytest plugin that runs scikit-learn's and SciPy's own array-API tests on lazyarray, from their
installed test files (docs/array_api.md gives the commands and what they found):

    SCIPY_ARRAY_API=1 PYTHONPATH=tests python -m pytest -p consumer_suites -k lazyarray \\
        $(python -c 'import sklearn, os; print(os.path.dirname(sklearn.__file__))')
    SCIPY_ARRAY_API=1 PYTHONPATH=tests python -m pytest -p consumer_suites -k lazyarray \\
        --rootdir=$SCIPY $SCIPY/special $SCIPY/stats ...      # SCIPY: scipy's package folder

scikit-learn parametrizes its tests by namespace *names*
(`yield_namespace_device_dtype_combinations`, imported by each test module): they become
"lazyarray" with float64 and float32. SciPy's `xp`
fixture takes modules: its parameters become lazyarray, under array_api_strict's name, so that the
skip and xfail marks SciPy keeps for array_api_strict (functions the standard lacks) apply."""

from __future__ import annotations

import types
from typing import Any

import pytest

import lazyarray


def _namespaces(include_numpy_namespaces: bool = True) -> Any:
    yield "lazyarray"


def _namespace_device_dtypes(include_numpy_namespaces: bool = True) -> Any:
    yield "lazyarray", None, "float64"
    yield "lazyarray", None, "float32"


def pytest_configure(config: pytest.Config) -> None:
    try:
        import sklearn.utils._array_api as sklearn_array_api
    except ImportError:
        return
    sklearn_array_api.yield_namespaces = _namespaces
    sklearn_array_api.yield_namespace_device_dtype_combinations = _namespace_device_dtypes


class _AsArrayApiStrict(types.ModuleType):
    """lazyarray under array_api_strict's name (SciPy's marks name backends by module name)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(lazyarray, name)


_LAZYARRAY = _AsArrayApiStrict("array_api_strict")


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Before pytest parametrizes SciPy's `xp` fixture by its backends (scipy/conftest.py)."""
    for fixture in metafunc._arg2fixturedefs.get("xp", ()):
        if fixture.params and "scipy" in fixture.func.__code__.co_filename:
            fixture.params, fixture.ids = (_LAZYARRAY,), ("lazyarray",)
