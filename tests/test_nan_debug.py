"""NaN provenance (lazyarray/nan_debug.py): with `debug_nans` on, the first op that made a NaN or
an infinity from finite inputs is named with the line that built it, inside fused kernels of 5+
ops, on every backend; off, nothing is checked and the plans are the same."""

import sys
import warnings

import numpy as np
import pytest

import lazyarray as la
from lazyarray import cache, nan_debug, settings


def here() -> int:
    return sys._getframe(1).f_lineno


def chain_0_over_0(x, z, xi):
    a = x * 2
    b = a - x * 2
    c = b / z; line = here()  # noqa: E702  (the op and its line on one line)
    d = la.exp(c) + 1
    return d * 3 - 1, "divide", line


def chain_log_minus_1(x, z, xi):
    a = x * 0.5 - 10
    b = la.log(a); line = here()  # noqa: E702
    c = b * 2 + z
    return la.tanh(c) - 1, "log", line


def chain_inf_minus_inf(x, z, xi):
    """xi holds infinities: xi * 2 keeps them (no news), xi * 2 - xi makes NaN."""
    a = xi * 2 + x
    b = a - xi; line = here()  # noqa: E702
    return (b * 3 + 1) * x - 2, "subtract", line


def chain_exp_overflow(x, z, xi):
    a = x * 0 + 800.0
    b = la.exp(a); line = here()  # noqa: E702
    return (b - x) * 2 + 1, "exp", line


def chain_hidden_inf(x, z, xi):
    """log(0) = -inf, then exp(-inf) = 0: the outputs are finite, the kernel's flag is not."""
    a = la.log(z * x); line = here()  # noqa: E702
    return la.exp(a) * 2 + x - 1, "log", line


# A hidden infinity leaves finite outputs: only the kernels' floating-point flags show it.
CHAINS = [chain_0_over_0, chain_log_minus_1, chain_inf_minus_inf, chain_exp_overflow,
          pytest.param(chain_hidden_inf, marks=pytest.mark.needs("fp_errors"))]


@pytest.mark.parametrize("chain", CHAINS, ids=lambda f: getattr(f, "__name__", None))
def test_names_the_op_and_its_line(backend, chain):
    x, z = la.asarray(np.array([1.0, 2.0, 3.0, 4.0])), la.asarray(np.zeros(4))
    xi = la.asarray(np.array([np.inf, 1.0, -np.inf, 2.0]))
    with la.config(debug_nans=True), la.errstate(all="ignore"):
        for _ in range(3):  # built, then cached: the hit path must not skip the check
            y, op, line = chain(x, z, xi)
            explained = la.explain(y)
            with pytest.raises(FloatingPointError) as info:
                np.asarray(y)
            text = str(info.value)
            assert text.startswith(f"debug_nans: {op} built at {__file__}:{line} made ")
            assert "from inputs without them" in text
            (kernel,) = [k for k in explained.kernels
                         if any(f == f"{op} at {__file__}:{line}" for f in k.fused)]
            assert len([f for f in kernel.fused if not f.startswith("broadcast_to")]) >= 5
            for other in kernel.fused:  # the kernel's other ops are listed
                if other != f"{op} at {__file__}:{line}" and not other.startswith("broadcast_to"):
                    assert other in text
            assert y._node.inputs  # the Array stays pending, as after any failed evaluation


def test_device_results_are_checked_on_the_host(monkeypatch):
    """The cupy backend has no floating-point flags: debug_nans reads its results and leaves
    (device buffers, which NumPy may not read) on the host (a stand-in device here)."""
    import importlib

    from fake_device import DeviceArray, FakeDevice

    evaluate = importlib.import_module("lazyarray.runtime.evaluate")  # (not the function)
    monkeypatch.setattr(evaluate, "get_backend", lambda name: FakeDevice())
    x = la.asarray(np.array([1.0, 2.0, 0.0]))
    y = la.log(x * 2.0) + 1.0; line = here()  # noqa: E702
    with np.errstate(all="ignore"):
        value = DeviceArray(np.log(np.array([1.0, 2.0, 0.0]) * 2) + 1)
    nan_debug.check([y._node], [DeviceArray(np.ones(3))], 0)  # finite: nothing to say
    with pytest.raises(FloatingPointError, match=f"debug_nans: log built at .*:{line} made"):
        nan_debug.check([y._node], [value], 0)


def test_inf_input_that_propagates_does_not_raise(backend):
    x = la.asarray(np.array([np.inf, -np.inf, 1.0, np.nan]))
    with la.config(debug_nans=True), warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            got = np.asarray((x * 2 + 1) * 0.5 - la.tanh(x) + x)
    expected = np.asarray(x)
    np.testing.assert_array_equal(got, (expected * 2 + 1) * 0.5 - np.tanh(expected) + expected)


def test_off_checks_nothing_and_keeps_the_hit_path(monkeypatch):
    """Off: the check is never called, the compiled hit path serves repeated evaluations, and
    turning it on compiles no kernel (the same kernels, the plan's structure unchanged)."""
    def called(*args):
        raise AssertionError("nan_debug.check ran with debug_nans off")

    monkeypatch.setattr(nan_debug, "check", called)
    x, z = la.asarray(np.ones(4)), la.asarray(np.zeros(4))
    with la.config(backend="c", background_compiles=False), la.errstate(all="ignore"):
        for _ in range(4):
            np.asarray((x - x) / z * 2 + 1)
        hits = cache.plan_cache.fast_hits[0]
        for _ in range(3):
            np.asarray((x - x) / z * 2 + 1)
        if la.cache_info().tracing == "compiled":
            assert cache.plan_cache.fast_hits[0] == hits + 3
        kernels = la.explain((x - x) / z * 2 + 1).num_kernels
        compiled, built = la.cache_info().kernels_compiled, la.cache_info().plans_built
        monkeypatch.undo()
        with la.config(debug_nans=True):
            with pytest.raises(FloatingPointError):
                np.asarray((x - x) / z * 2 + 1)
            assert la.explain((x - x) / z * 2 + 1).num_kernels == kernels
        assert la.cache_info().kernels_compiled == compiled  # no kernel added
        assert la.cache_info().plans_built == built  # the same plan: no pass, no kernel added


def test_environment_variable(monkeypatch):
    monkeypatch.setenv("LAZYARRAY_DEBUG_NANS", "1")
    assert settings._from_environment().debug_nans is True
    monkeypatch.setenv("LAZYARRAY_DEBUG_NANS", "0")
    assert settings._from_environment().debug_nans is False
