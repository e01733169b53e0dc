"""Shared fixtures: every differential test runs on every backend that can run here (one suite for
all backends, flashlight's lesson), with the passes on (the default) unless a test says otherwise."""

import contextlib
import gc
import os
import sys
import time
from pathlib import Path

# Hosts that set PYTHONDONTWRITEBYTECODE (these machines do) compiled lazyarray's ~180 modules again
# in every process: ~0.8 s of CPU for each xdist worker, each test that starts Python (~20 in the
# fast tier) and each later run. The suite writes the .pyc files (a process reads them whatever
# the variable says), so the processes after the first load them; __pycache__ is git-ignored.
sys.dont_write_bytecode = False

import pytest
from hypothesis import Phase, settings

# No per-example deadline: an example's first evaluation may compile a C kernel (hundreds of ms on
# a loaded 2-core machine), which says nothing about correctness; hypothesis then reported a
# "flaky" failure now and then. Speed is the benchmarks' business.
settings.register_profile("lazyarray", deadline=None)
# Under a time cap (benchmarks/gpu_suite.sh on a lent GPU) a failing example is reported as drawn:
# shrinking 143 failures (stop 51's H200 run) outran the cap and the report was lost.
settings.register_profile("lazyarray-capped", deadline=None,
                          phases=[Phase.explicit, Phase.reuse, Phase.generate])
settings.load_profile("lazyarray-capped" if os.environ.get("LAZYARRAY_TEST_DEADLINE")
                      else "lazyarray")

# Tests evaluate most graphs once: with background compiles on, that one run would go through the
# NumPy executor and the C kernels would never be tested. tests/test_c_tiered.py turns them on.
os.environ.setdefault("LAZYARRAY_BACKGROUND_COMPILES", "0")

import lazyarray as la  # noqa: E402
from lazyarray import donation  # noqa: E402
from lazyarray.evaluation import _eager_applies  # noqa: E402
from lazyarray.runtime import available_backends  # noqa: E402
from lazyarray.settings import Settings  # noqa: E402
from numpy_oracle import computes_halves  # noqa: E402

# The dask backend runs the C kernels chunk by chunk; it has its own suite (tests/test_dask*.py)
# instead of multiplying every differential test by a Dask graph's overhead.
BACKENDS = tuple(b for b in available_backends() if b != "dask")

# Sweeps that build one C translation unit per op (or op x dtype): the fast tier runs them on the
# numpy backend (the same front end and kernel IR); on C they belong to the exhaustive tier, which
# .ci/run runs as a second pass (README "Tests").
EXHAUSTIVE_ON_C = frozenset({
    "test_every_accepted_dtype_combination",
    "test_random_shapes_and_dtypes",  # test_random_shapes_and_dtypes_sampled keeps 3 per op on C
    "test_reduction_matches_numpy",  # test_reduction_matches_numpy_sampled keeps 4 per reduction
    "test_unary_operators",  # -x, +x, abs, ~ (a compile per dtype): each op's own sample on C
    # is in test_random_shapes_and_dtypes_sampled (negative, positive, absolute, invert)
    "test_python_scalar_operands_are_weak",
    "test_astype_between_all_non_float_sources",
    "test_100000_op_chain_builds_and_evaluates_without_recursion",
    "test_numpy_function_matches_numpy",  # ~100 small graphs: compiles on C
    "test_every_at_method_and_dtype_computes_in_the_promoted_dtype",  # 61 plans, ~700 kernels
    # (stop 41: the fast tier near its 4 minutes; their numpy instances stay, ~10 s of C each)
    "test_names_match_numpy",  # every NumPy name's graph compiled
    "test_values_match_numpy",  # test_index_args, test_python_int_bounds: a sweep of keys
    "test_vjp_and_jvp_match_finite_differences",  # every op's rule compiled twice (~20 s)
    "test_every_ufunc_of_python_numbers_has_numpys_dtype",  # ~90 units (stop 56)
})


# The helpers' regression modules (a probe's or fuzzer's fixes, stops 53-56): most fixes are the
# front end's, and their C instances check each a second time through the compiler (~66 s of the
# cold fast tier's ~548 s of CPU at stop 56: test_fuzz_regressions 15, test_probe54 10, ...), so
# those run in the exhaustive tier; the numpy backend's instances and the tests that take no
# backend parameter stay in the fast tier (the C paths they reach are the op sweeps' too).
EXHAUSTIVE_ON_C_MODULES = frozenset({
    "test_fuzz_regressions", "test_fuzz53", "test_fuzz54", "test_fuzz55", "test_fuzz56",
    "test_fuzz57", "test_probe53", "test_probe54", "test_probe55", "test_probe56", "test_probe57",
    "test_numpy_errstate"})


# Sweeps the fast tier samples (stop 53: its 4 minutes on 2 cores from a cold cache, ~0.14 s of
# gcc per C translation unit): name -> k keeps every k-th C instance in collection order (every
# k-th instance where the test has no backend parameter: C or the default backend), the others
# run in the exhaustive tier, so the two tiers together keep every case.
SAMPLED_ON_C = {
    "test_sums_are_numpys_pairwise_sums_bit_for_bit": 5,  # test_c_tiered (stop 56: 3 -> 5)
    "test_second_call_with_the_same_sizes_builds_no_plan": 3,  # test_program_plans: the corpus
    "test_random_shapes_and_dtypes_sampled": 2,  # test_ops_elementwise
    "test_matmul": 2,  # test_shapes_indexing
    "test_plans_per_call_stay_bounded": 2,  # test_plans_per_call
    "test_half_calls_are_numpys": 2,  # test_float16
    "test_linalg_matches_numpy": 2,  # test_linalg
    "test_tails_of_every_remainder_share_a_bounded_set_of_plans": 2,  # test_tails
    "test_a_tail_runs_one_evaluation_per_chunk_and_the_values_are_numpys": 2,  # test_tails
    "test_reduction_matches_numpy_sampled": 2,  # test_ops_reductions
    "test_trig_cheap_reduction_agrees_with_exact_chunks": 2,  # test_c_math
    "test_recomputed_values_agree": 2,  # test_bit_stable
    "test_masked_reads_of_computed_values_now": 2,  # test_masking
    "test_a_traced_int_never_bakes_into_the_trace": 2,  # test_jit
    "test_power_float": 2,  # test_math_functions
    "test_binary_own_math": 2,  # test_math_functions
}
# The same on every backend, for sweeps whose cost is their Python (op x dtype-pair tables whose C
# instances are exhaustive already: EXHAUSTIVE_ON_C)
SAMPLED_ON_EVERY_BACKEND = {
    "test_ulp_bound_and_special_values": 3,  # test_math_functions: an op x dtype per unit on C,
    # mpmath's references in the body on both (stop 56: C only, k=2 then 3)
    "test_random_shapes_and_dtypes": 2,
    "test_python_scalar_operands_are_weak": 2,
    "test_every_accepted_dtype_combination": 2,
    "test_array_array_promotion_for_every_operator_and_dtype_pair": 2,
    "test_integer_element_operators_and_comparisons_are_numpys": 2,
}


def _sampled_out(item, backend, seen: dict) -> bool:
    """Whether `item` is one of the sampled sweeps' instances the fast tier leaves to the
    exhaustive tier (SAMPLED_ON_C, SAMPLED_ON_EVERY_BACKEND)."""
    name = getattr(item, "originalname", None)
    k = SAMPLED_ON_EVERY_BACKEND.get(name)
    if k is None:
        k = SAMPLED_ON_C.get(name)
        if k is None or backend not in (None, "c"):
            return False
    key = (name, backend)
    seen[key] = seen.get(key, -1) + 1
    return seen[key] % k != 0


# A parameter's instances on some backends only: `pytest.param(np.float64,
# marks=pytest.mark.exhaustive_on("c"))` keeps the numpy instance in the fast tier and moves the C
# one (a compile per case) to the exhaustive tier; the fast tier keeps at least one parameter per
# op on every backend.


# The GPU-specific tests (`-m gpu`), which benchmarks/gpu_suite.sh runs first on a lent GPU: the
# modules marked `pytestmark = pytest.mark.gpu` (the cupy backend, generated CUDA, launch shapes),
# the tests marked one by one (the CuPy paths of linalg/fft/random), and the cupy instances of the
# differential tests of these modules: every op x dtype, reductions, scalar operands, autodiff,
# linalg/fft/random, the Array API (to_device, DLPack). Without CuPy or a device the `backend`
# fixture has no cupy parameter, and the marked tests that need a device skip with the reason.
GPU_DIFFERENTIAL_MODULES = frozenset({
    "test_ops_elementwise", "test_ops_reductions", "test_operator_scalars", "test_autodiff",
    "test_autodiff_ops", "test_linalg", "test_fft", "test_random", "test_array_api",
})

# A wall-clock cap for a whole run (gpu_suite.sh: the lent machine is lent for minutes): after this
# Unix time every test not yet started skips with the reason, so the run ends with its report.
_DEADLINE = float(os.environ.get("LAZYARRAY_TEST_DEADLINE") or "inf")
# Modules whose tests go first (comma-separated names; gpu_suite.sh: the cupy backend's own tests
# before the long op x dtype sweeps, so that a time cap cuts the sweeps, not them).
_FIRST = frozenset(filter(None, os.environ.get("LAZYARRAY_TEST_FIRST", "").split(",")))


# What a backend does not do, by design: a test of such a fact is marked `needs("eager")` (its
# backend instances that lack it skip with the reason) or, where it checks values too, asks the
# fixture `backend_does("eager")` around its structural asserts, so that the values are checked on
# every backend. Each entry: (does the backend do it, why not).
NEEDS: dict[str, tuple] = {
    # lazyarray/eager.py computes on the host with the numpy backend's semantics; off on every
    # backend with `eager_size=0`: `LAZYARRAY_EAGER_SIZE=0 python -m pytest ...` runs the CPU
    # backends on the general path exactly as cupy takes it (tests/test_general_path.py)
    "eager": (lambda b: _eager_applies(Settings(backend=b)) and la.get_settings().eager_size > 0,
              "the at-once path is off on {b} (lazyarray/evaluation.py `_eager_applies`; "
              "eager_size=0)"),
    # plans writing over dead inputs, updates written into their base's buffer (docs/caching.md,
    # "Donation"); on cupy a scatter runs through NumPy on the host (docs/cuda_backend.md)
    "donation": (lambda b: b in donation.BACKENDS,
                 "buffer donation and in-place updates are off on {b} "
                 "(lazyarray/donation.py `BACKENDS`)"),
    # cupy refuses programs holding float16 with a TypeError (no generated half arithmetic)
    "half": (computes_halves,
             "the {b} backend refuses float16 computations with a TypeError: its generated "
             "CUDA has no half arithmetic (runtime/cuda/backend.py, docs/semantics.md)"),
    # folds in NumPy's order, bit for bit: sums pairwise/buffered (runtime/c/printer.py
    # emit_pairwise), products from 1 in order (emit_sequential); CUDA kernels fold in their own
    # block trees, within the tolerances of docs/cuda_backend.md
    "numpy_fold_order": (lambda b: b != "cupy",
                        "the {b} backend folds in its own tree order, not NumPy's (its sums "
                        "close to NumPy's, not its bits; docs/cuda_backend.md)"),
    # NumPy's order of equal keys in its unstable argsort/partition (graph/ops_sorting.py calls
    # NumPy's own); on cupy CuPy's sorts order them (stably: a valid order, not NumPy's)
    "numpy_ties": (lambda b: b != "cupy",
                   "the {b} backend sorts with CuPy, whose order of equal keys is not NumPy's "
                   "default sort's (docs/cuda_backend.md)"),
    # CPU flags and NumPy's reports (lazyarray/fp_errors.py); CUDA kernels have no such flags
    "fp_errors": (lambda b: b != "cupy",
                  "the {b} backend does not report floating-point errors, as CuPy and JAX do "
                  "not: CUDA has no floating-point flags (docs/semantics.md)"),
}


def does(feature: str, backend: str) -> bool:
    return NEEDS[feature][0](backend)


@pytest.fixture
def backend_does(backend):
    """`backend_does("eager")`: whether this test's backend does that (NEEDS)."""
    return lambda feature: does(feature, backend)


@pytest.hookimpl(tryfirst=True)  # before `-m 'not exhaustive'` / `-m gpu` deselect
def pytest_collection_modifyitems(config, items):
    sampled: dict[str, int] = {}
    for item in items:
        spec = getattr(item, "callspec", None)
        backend = spec.params.get("backend") if spec is not None else None
        if _sampled_out(item, backend if spec is None or "backend_name" not in spec.params
                        else spec.params["backend_name"], sampled):
            item.add_marker(pytest.mark.exhaustive)
        for mark in item.iter_markers("needs") if backend is not None else ():
            feature = mark.args[0]
            if not does(feature, backend):
                item.add_marker(pytest.mark.skip(reason=NEEDS[feature][1].format(b=backend)))
        if backend == "c" and (getattr(item, "originalname", None) in EXHAUSTIVE_ON_C
                               or item.module.__name__ in EXHAUSTIVE_ON_C_MODULES):
            item.add_marker(pytest.mark.exhaustive)
        if any(backend in mark.args for mark in item.iter_markers("exhaustive_on")):
            item.add_marker(pytest.mark.exhaustive)
        if backend == "cupy" and item.module.__name__ in GPU_DIFFERENTIAL_MODULES:
            item.add_marker(pytest.mark.gpu)
    if _FIRST:  # a stable sort: the same order in every xdist worker
        items.sort(key=lambda item: getattr(item.module, "__name__", "") not in _FIRST
                   if hasattr(item, "module") else True)


# `--dist loadgroup` sends the tests whose node ids end in `@<group>` to one worker; pytest-xdist
# (3.8) appends that suffix by setting `item._nodeid`, which pytest 9.2 no longer reads (a node
# keeps its id in `_id`), so every `xdist_group` mark was ignored and the modules that compile all
# their cases in one module fixture (tests/test_c_semantics.py, ...) compiled them on both workers.
# This plugin appends the suffix where xdist's hook left none (it runs after it), on any pytest.
class _XdistGroups:
    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        if hasattr(config, "workerinput") and config.getvalue("loadgroup"):
            for item in items:
                _add_group_suffix(item)


def pytest_configure(config):
    config.pluginmanager.register(_XdistGroups(), "lazyarray-xdist-groups")
    if os.environ.get("LAZYARRAY_TEST_FAILURES") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_FailuresAsTheyCome(os.environ["LAZYARRAY_TEST_FAILURES"]),
                                      "lazyarray-failures-file")
    _build_the_helper_library_once(config)


def _build_the_helper_library_once(config) -> None:
    """The heavy math helpers' library (runtime/c/helper_library.py, ~7 s of compiler CPU a
    build at stop 50) is built once per run, for the run's kernel cache. A process starts that
    build, on a background thread, the first time a unit calls more heavy helpers than
    LIBRARY_BUDGET: in a full `-n 2` run both workers built it for the shared cache, and tests
    with a private cache directory (tmp_path) built it again, each, for nothing (their units
    compile their own static wrappers meanwhile, and the directory is gone after the test): 5
    builds, ~34 s of the fast tier's ~480 s of CPU. Now only the first worker (or the one
    process under `-n 0`) starts it, and only for the shared cache; the other worker's units
    call it once its index entry appears (`helper_library.load` looks on every unit until
    then). tests/test_inline_budget.py and test_c_cache_security.py, which test the library,
    call `build` themselves."""
    if "c" not in available_backends():
        return
    from lazyarray.runtime.c import compiler as c_compiler, helper_library as c_helpers

    worker = getattr(config, "workerinput", {}).get("workerid", "gw0")
    shared = c_compiler.kernel_dir() if worker == "gw0" else None
    start_build = c_helpers.start_build

    def start_build_for_the_shared_cache(directory, tc):
        if shared is not None and Path(directory) == shared:
            start_build(directory, tc)

    c_helpers.start_build = start_build_for_the_shared_cache  # the name render_unit calls


def _group_suffix(item) -> str | None:
    names = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                    for mark in item.iter_markers("xdist_group")})
    return "@" + "_".join(names) if names else None


def _add_group_suffix(item) -> None:
    suffix = _group_suffix(item)
    if suffix is None or item.nodeid.endswith(suffix):
        return
    nodeid = item.nodeid + suffix
    if hasattr(item, "_id"):  # pytest >= 9.2: a structured NodeId that keeps its string
        from _pytest.nodeid import NodeId
        item._id = NodeId.parse(nodeid)
    else:
        item._nodeid = nodeid


def pytest_collection_finish(session):
    """Freeze what the collection made (the imports of every test module and of NumPy, SciPy,
    scikit-learn, torch, Dask: ~340,000 objects) out of the garbage collector's reach: each full
    collection walked all of them, ~0.3 s, and `la.clear_caches()` collects where a pending Array
    is alive (lazyarray/cuts.py `reset`: _trace.c's view ring keeps some alive in every worker),
    about twice a test in fixtures such as tests/test_plans_per_call.py's. Objects the tests make
    are collected as before."""
    gc.collect()
    gc.freeze()


class _FailuresAsTheyCome:
    """Appends each failure (node id and the exception's line) to a file the moment its report
    arrives (LAZYARRAY_TEST_FAILURES, set by benchmarks/gpu_suite.sh): pytest prints failures at
    the end of a run, and a run killed at its time cap on a lent GPU kept none (stop 51)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def pytest_runtest_logreport(self, report):
        if report.failed:
            crash = getattr(report.longrepr, "reprcrash", None)
            line = crash.message.splitlines()[0][:300] if crash and crash.message else ""
            with open(self.path, "a") as f:
                f.write(f"{report.nodeid} ({report.when}) - {line}\n")


def pytest_runtest_setup(item):
    if time.time() > _DEADLINE:
        pytest.skip("time cap reached (LAZYARRAY_TEST_DEADLINE, set by benchmarks/gpu_suite.sh)")


# Modules that test the lazy path itself on small index expressions: the kernels, plans, cuts,
# passes and structures a graph lowers to (lazyarray/eager.py would compute their small indexed
# values at once, with no graph to look at). They run with `eager_size=0`; so does a test marked
# `lazy_only`. Everything else (the NumPy comparisons, the corpus, the Array API rows) runs with
# the default, as users do; tests/test_eager.py tests the rule itself.
LAZY_ONLY_MODULES = frozenset({
    "test_program_plans", "test_triggers", "test_evaluation_hit_path", "test_siblings",
    "test_speed_levers", "test_passes_fuse", "test_passes_graph", "test_math_functions",
    "test_loops", "test_c_kernel_dedupe", "test_random_numpy", "test_random",
    "test_plan_workspace_bytes", "test_plan_cache", "test_getitem_paths", "test_generic_plans",
    "test_fusion_targets", "test_explain", "test_c_tiered", "test_c_cache_security",
    "test_c_cache_degrade", "test_index_args", "test_tails", "test_donation",
})


@pytest.fixture(autouse=True)
def _lazy_only(request):
    module = getattr(request.node, "module", None)
    if (module is not None and module.__name__ in LAZY_ONLY_MODULES) or (
            request.node.get_closest_marker("lazy_only") is not None):
        with la.config(eager_size=0):
            yield
    else:
        yield


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


@contextlib.contextmanager
def fresh_kernel_memory():
    """The C compiler's in-process kernel maps empty inside the block, restored after: tests that
    count compiles in a fresh cache directory (a kernel is the same source wherever it is built,
    so another test's identical kernel, loaded in this process, would be a memory hit)."""
    from lazyarray.runtime.c import compiler as c_compiler, quick as c_quick

    maps = (c_compiler._functions, c_compiler._symbol_of_key, c_quick._functions)
    saved = [dict(m) for m in maps]
    for m in maps:
        m.clear()
    try:
        yield
    finally:
        for m, before in zip(maps, saved):
            m.update(before)
