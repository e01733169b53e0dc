"""Shape-generic plans (graph/generic.py, lazyarray/generic_plan.py): a graph whose ops hold no
sizes has one plan for every size with the same broadcast pattern; a new size compiles nothing and
runs no pass; values match NumPy on every backend."""

import numpy as np
import pytest

import lazyarray as la
from lazyarray.graph import Graph
from lazyarray.graph.generic import PRIMES, generic_signature, substitute


def mlp(xp, x, w, b):
    return xp.maximum(x @ w + b * 0.5, 0).sum(axis=1), (x * 2.0 - 1.0).mean(axis=0)


SIZES = [3, 37, 5, 412, 37, 2, 500, 64, 3]  # never 1 or 16/8 (those are other patterns)


def test_varying_batch_is_one_plan(backend, fresh_caches):
    rng = np.random.default_rng(0)
    w = rng.random((16, 8), dtype=np.float32)
    b = rng.random(8, dtype=np.float32)
    wl, bl = la.array(w), la.array(b)
    results, wants = [], []
    for n in SIZES:
        x = rng.random((n, 16), dtype=np.float32)
        results.append(mlp(la, la.array(x), wl, bl))
        la.eval(*results[-1])
        wants.append(mlp(np, x, w, b))
        if n == SIZES[0]:
            first = la.cache_info()
    info = la.cache_info()
    assert info.plans_built == 1, info
    assert info.kernels_compiled == first.kernels_compiled  # new sizes compile nothing
    for got, want in zip(results, wants):
        for g, w_ in zip(got, want):
            np.testing.assert_allclose(np.asarray(g), w_, rtol=2e-5, atol=1e-5)


def test_new_size_runs_no_pass(monkeypatch, fresh_caches):
    from lazyarray import evaluation

    x = la.array(np.ones((7, 3), np.float32))
    np.asarray(la.exp(x) + 1.0)
    calls = []
    for name in ("optimize", "optimize_until"):
        real = getattr(evaluation, name)
        monkeypatch.setattr(evaluation, name, lambda *a, real=real: calls.append(a) or real(*a))
    for n in (9, 11, 13):
        y = la.exp(la.array(np.ones((n, 3), np.float32))) + 1.0
        np.testing.assert_allclose(np.asarray(y), np.full((n, 3), np.e + 1, np.float32))
    assert calls == [] and la.cache_info().plans_built == 1


def test_new_size_compiles_no_launcher_code(monkeypatch, fresh_caches):
    """A C plan's launcher text names its sizes through the plan's own globals
    (runtime/c/launch.py): every size of a size-generic plan shares one compiled launcher."""
    from lazyarray.runtime.c import launch as c_launch

    compiled = []
    monkeypatch.setattr(c_launch, "compile", lambda *a: compiled.append(a) or compile(*a),
                        raising=False)
    monkeypatch.setattr(c_launch, "_CODE", {}, raising=False)
    with la.config(backend="c"):
        for n in (7, 9, 11, 13):
            x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
            np.testing.assert_allclose(np.asarray(la.exp(la.array(x)) * 2.0), np.exp(x) * 2,
                                       rtol=1e-6)
    assert la.cache_info().plans_built == 1 and len(compiled) == 1


def test_new_size_reuses_the_structural_key(monkeypatch, fresh_caches):
    """The C backend's key of a kernel is size-free (runtime/c/backend.py `_layout_and_key`):
    a new size finds it by the kernel's structure instead of printing that structure again."""
    from lazyarray.runtime.c import backend as c_backend

    monkeypatch.setattr(c_backend, "_KEYS", {}, raising=False)
    c_backend._layout_and_key.cache_clear()
    with la.config(backend="c"):
        for n in (7, 9, 11, 13):
            x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
            np.testing.assert_allclose(np.asarray(la.exp(la.array(x)) * 3.0), np.exp(x) * 3,
                                       rtol=1e-6)
    assert la.cache_info().plans_built == 1
    assert c_backend._layout_and_key.cache_info().misses == 4  # one kernel per size
    assert len(c_backend._KEYS) == 1  # ... with one structure


def test_broadcast_pattern_is_part_of_the_key(fresh_caches):
    """A dim of 1 broadcasts: it is a different plan (and a right one)."""
    for n in (4, 5, 1, 6, 1):
        x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
        y = la.array(x) * 2.0 + 1.0
        np.testing.assert_allclose(np.asarray(y), x * 2 + 1)
    assert la.cache_info().plans_built == 2  # n > 1 and n == 1


def test_equal_sizes_of_independent_dims_are_another_plan(fresh_caches):
    """(n, 16) @ (16, 8) with n == 16 ties two size classes: its own generic plan, right values."""
    w = np.ones((16, 8), np.float32)
    for n in (5, 16, 9):
        x = np.full((n, 16), 2.0, np.float32)
        np.testing.assert_allclose(np.asarray(la.array(x) @ la.array(w)), x @ w)
    assert la.cache_info().plans_built == 2


def test_sizes_in_attributes_are_not_generic():
    x = la.array(np.ones((6, 4), np.float32))
    assert generic_signature(Graph([(x + 1.0)._node])) is not None
    assert generic_signature(Graph([la.reshape(x + 1.0, (24,))._node])) is None
    assert generic_signature(Graph([(x[1:4] + 1.0)._node])) is None
    assert generic_signature(Graph([(x + x)._node])) is not None


def test_substitute_maps_products_of_probe_primes():
    p, q = PRIMES[0], PRIMES[1]
    assert substitute(p * q * 4, (7, 9)) == 7 * 9 * 4
    assert substitute(-q, (7, 9)) == -9
    assert substitute(0, (7, 9)) == 0 and substitute(1, (7, 9)) == 1


def test_jit_over_varying_sizes(fresh_caches):
    f = la.jit(lambda x, s: la.tanh(x * s).sum(axis=0))
    for n in (3, 10, 40):
        x = np.linspace(0, 1, n * 5, dtype=np.float32).reshape(n, 5)
        np.testing.assert_allclose(np.asarray(f(la.array(x), 0.7)), np.tanh(x * 0.7).sum(axis=0),
                                   rtol=1e-5)
    assert la.cache_info().plans_built == 1


@pytest.mark.parametrize("reduce_axis", [0, 1, None])
def test_reductions_over_varying_sizes(reduce_axis, backend, fresh_caches):
    rng = np.random.default_rng(1)
    for n in (3, 50, 7):
        x = rng.standard_normal((n, 6)).astype(np.float64)
        got = la.eval(la.sum(la.array(x) ** 2, axis=reduce_axis), la.max(la.array(x),
                                                                         axis=reduce_axis))
        np.testing.assert_allclose(np.asarray(got[0]), (x**2).sum(axis=reduce_axis), rtol=1e-12)
        np.testing.assert_allclose(np.asarray(got[1]), x.max(axis=reduce_axis))
    assert la.cache_info().plans_built == 1


def _programs(n_values):
    """(generic instance program, program planned for that exact graph) per size."""
    from lazyarray.graph.generic import probe_graph, substitute_program
    from lazyarray.passes import optimize
    from lazyarray.passes.pipeline import optimize_until
    from lazyarray.passes.plan_memory import plan_memory

    rng = np.random.default_rng(2)
    w, b = la.array(rng.random((16, 8), dtype=np.float32)), la.array(np.ones(8, np.float32))
    out = []
    template = None
    for n in n_values:
        x = la.array(rng.random((n, 16), dtype=np.float32))
        graph = Graph([y._node for y in mlp(la, x, w, b)])
        generic = generic_signature(graph)
        if template is None:
            template = optimize_until(probe_graph(graph, generic), "fuse").program
        out.append((plan_memory(substitute_program(template, generic.sizes)), optimize(graph)))
    return out


def test_substituted_program_equals_the_program_planned_for_that_size():
    for instance, direct in _programs([5, 300, 77]):
        assert instance == direct


@pytest.mark.gpu
def test_cuda_source_of_every_size_is_one_module():
    """The instances' CUDA is one translation unit (sizes are arguments) and NVRTC compiles it."""
    from lazyarray.runtime.cuda import nvrtc
    from lazyarray.runtime.cuda.printer import render_cuda_program

    sources = {render_cuda_program(instance).source for instance, _ in _programs([5, 300, 77])}
    assert len(sources) == 1
    if nvrtc.unavailable_reason() is None:  # the `nvrtc` extra: CI has it
        assert nvrtc.compile_cuda(sources.pop(), name="generic.cu") is not None


def escape_loop(xp, z, c, steps):
    """Mandelbrot's shape (tests/programs/mandelbrot.py): the points still inside are gathered
    by a boolean mask each step, so every step has another size."""
    for _ in range(steps):
        z = z * z + c
        keep = abs(z) <= 2.0
        z, c = z[keep], c[keep]
    return z, c


def test_a_shrinking_masked_gather_is_one_plan(backend, fresh_caches):
    """`take` (the gather that `x[mask]` becomes) holds no size: its result's dims are its
    inputs' dims, so a loop whose mask keeps fewer points each step builds one plan for the
    step's graph and one for the mask's, however many sizes it passes through."""
    rng = np.random.default_rng(3)
    c = rng.uniform(-2.0, 1.0, 3000) + 1j * rng.uniform(-1.2, 1.2, 3000)
    z = np.zeros_like(c)
    want = escape_loop(np, z, c, 12)
    got = escape_loop(la, la.array(z), la.array(c), 12)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12)
    assert la.cache_info().plans_built <= 3  # the first step's graph, the steady one, the mask's
    sizes = {len(w) for w in [escape_loop(np, z, c, k)[0] for k in range(2, 12)]}
    assert len(sizes) >= 6  # the test passes through many sizes


def test_a_call_that_passes_through_many_sizes_keeps_their_concrete_plans(monkeypatch,
                                                                         fresh_caches):
    """k-means' `X[labels == k]` for 8 clusters over its iterations, mandelbrot's shrinking
    mask: one call passes through dozens of sizes of one generic plan. A second call with the
    same sizes reuses their concrete plans (an exact plan per size did, before `take` became
    size-generic); an LRU of 8 made every call substitute, plan memory and launch them again."""
    from lazyarray import generic_plan

    made = []
    real = generic_plan.substitute_program
    monkeypatch.setattr(generic_plan, "substitute_program",
                        lambda p, s: made.append(s) or real(p, s))
    x = np.arange(40 * 3, dtype=np.float64).reshape(40, 3)
    sizes = [5 + k for k in range(30)]
    for round_ in range(2):
        for n in sizes:
            got = la.exp(la.asarray(x[:n])) * 2.0
            np.testing.assert_allclose(np.asarray(got), np.exp(x[:n]) * 2.0, rtol=1e-12)
        if round_ == 0:
            first = len(made)
    assert first == len(sizes) and len(made) == first  # none again in the second round
    assert la.cache_info().plans_built == 1
