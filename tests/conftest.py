"""Shared fixtures: every differential test runs on every backend that can run here (one suite for
all backends, flashlight's lesson), with the passes on (the default) unless a test says otherwise."""

import pytest

import lazyarray as la
from lazyarray.runtime import available_backends

# The dask backend runs the C kernels chunk by chunk; it has its own suite (tests/test_dask*.py)
# instead of multiplying every differential test by a Dask graph's overhead.
BACKENDS = tuple(b for b in available_backends() if b != "dask")


@pytest.fixture(params=BACKENDS)
def backend(request):
    """Run the test body with this backend selected; yields its name."""
    with la.config(backend=request.param):
        yield request.param


@pytest.fixture
def reference_backend():
    """For front-end properties (promotion, shapes) that no backend can change: run once, on the
    numpy reference backend, instead of once per backend."""
    with la.config(backend="numpy"):
        yield "numpy"


@pytest.fixture
def fresh_caches():
    """Empty plan and kernel caches before and after: for tests that count builds, hits, compiles."""
    la.clear_caches()
    yield
    la.clear_caches()
