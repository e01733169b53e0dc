#!/usr/bin/env bash
# The GPU suite (issues 6, 27) for the lent GPU machine: offline, the image's python3, one output
# folder, a wall-clock budget (docs/cuda_backend.md, "Running on a lent GPU").
#
#   python benchmarks/gpu_wheels.py        # HERE, with network: the missing wheels into .whl/
#   bash benchmarks/gpu_suite.sh [OUTDIR]  # THERE: OUTDIR defaults to $OUT, else a new temp dir
#
# Steps, each capped by a share of GPU_SUITE_SECONDS (default 450 s, inside 8 minutes):
#   1. install the carried wheels (.whl/) with `pip install --no-index --no-deps --target`, then
#      this package (non-editable, same target, no build isolation: the carried setuptools builds
#      the optional C tracing extension when a compiler and Python's headers exist, else pure Python);
#      GPU_SUITE_INSTALL=0 skips this and uses the current environment (a GPU box with a venv);
#   2. env.txt: the device, versions, backends, the tracing path; stops if the cupy backend is
#      unavailable (the tests would only skip), unless GPU_SUITE_REHEARSE=1 (a rehearsal here);
#   3. `-m "gpu and not exhaustive"`: the GPU-specific tests (tests/conftest.py says which), xdist;
#   4. the rest of the differential suite's cupy instances (`-k cupy`), xdist;
#   5. benchmarks/bench_gpu.py (GPU_SUITE_BENCH=0: not).
# GPU_SUITE_TESTS="pytest args" replaces steps 3 and 4 by one pass (a short rerun after a fix).
# Test passes stop starting tests at their cap (LAZYARRAY_TEST_DEADLINE: the rest skip with the
# reason, so the junit file is still written); a `timeout` behind each is the backstop.
# OUTDIR gets at most 9 files: env.txt, gpu_tests.{log,xml,failures.txt},
# rest_tests.{log,xml,failures.txt}, bench_gpu.{log,md}. The failures files are written as each
# failure comes (a pass killed at its cap writes no junit file); hypothesis does not shrink under
# the cap (tests/conftest.py).
# Exit status: the first failing step's.
set -uo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
budget=${GPU_SUITE_SECONDS:-450}
workers=${GPU_SUITE_WORKERS:-8}
py=${PYTHON:-python3}
out=${1:-${OUT:-$(mktemp -d)}}
mkdir -p "$out"
env_txt=$out/env.txt
: >"$env_txt"
status=0
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false  # JAX would take 75% of the GPU
log() { echo "[$(($(date +%s) - t0)) s] $*" | tee -a "$env_txt"; }
at() { echo $((t0 + budget * $1 / 100)); }  # the Unix time at $1 percent of the budget
left() { local s=$(($1 - $(date +%s))); echo $((s > 10 ? s : 10)); }

# --- 1. install -------------------------------------------------------------------------------
if [ "${GPU_SUITE_INSTALL:-1}" != 0 ]; then
    site=${GPU_SUITE_SITE:-/tmp/lazyarray-site}
    if ! ls .whl/*.whl >/dev/null 2>&1; then
        log "no wheels in .whl/: run 'python benchmarks/gpu_wheels.py' here and carry .whl"
        exit 2
    fi
    rm -rf "$site" build
    log "install: $(ls .whl | tr '\n' ' ')"
    "$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target "$site" \
        .whl/*.whl >>"$env_txt" 2>&1 || { log "FAILED: installing the carried wheels"; exit 2; }
    export PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH}
    "$py" -m pip install -q --no-index --no-deps --no-build-isolation --no-cache-dir \
        --target "$site" . >>"$env_txt" 2>&1 || { log "FAILED: installing lazyarray"; exit 2; }
    export PYTHONSAFEPATH=1  # import the installed package, not ./lazyarray (no graph/ inside)
    log "installed into $site (PYTHONPATH)"
fi
tracing=$("$py" -c "import lazyarray as la; print(la.cache_info().tracing)" 2>>"$env_txt")
if [ "$tracing" = python ]; then
    export LAZYARRAY_PURE_PYTHON=1  # what runs anyway; said explicitly for the record
fi
log "tracing path: ${tracing:-lazyarray does not import}"

# --- 2. environment ---------------------------------------------------------------------------
{
    nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv 2>&1
    echo "cc: $(cc --version 2>&1 | head -1)"
    "$py" - <<'PY'
import importlib.metadata as md, platform, sys, sysconfig, os
print("python", sys.version.split()[0], sys.executable, platform.platform())
print("Python.h:", os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))
for name in ("numpy", "cupy-cuda13x", "nvidia-cuda-nvrtc", "jax", "jaxlib", "torch", "pytest",
             "pytest-xdist", "pytest-timeout", "hypothesis", "networkx", "pydantic", "cffi",
             "array-api-strict", "array-api-extra", "setuptools", "lazyarray-fusion"):
    try:
        print(f"  {name} {md.version(name)}")
    except md.PackageNotFoundError:
        print(f"  {name} -")
import lazyarray as la
from lazyarray.runtime import available_backends
from lazyarray.runtime.cuda import nvrtc
from lazyarray.runtime.cuda.backend import CupyBackend
print("lazyarray", la.__file__, "tracing", la.cache_info().tracing)
print("backends", available_backends(), "nvrtc:", nvrtc.unavailable_reason() or "ok")
reason = CupyBackend.unavailable_reason()
print("cupy backend:", reason or "ok")
if reason is None:
    try:
        import cupy as cp
        p = cp.cuda.runtime.getDeviceProperties(0)
        name = p["name"].decode() if isinstance(p["name"], bytes) else p["name"]
        print("device", name, "cc", f"{p['major']}.{p['minor']}", "SMs", p["multiProcessorCount"],
              "CUDA runtime", cp.cuda.runtime.runtimeGetVersion(), "CuPy", cp.__version__)
    except Exception as e:  # a summary line, not a reason to stop
        print("device properties:", repr(e))
sys.exit(0 if reason is None else 3)
PY
} >>"$env_txt" 2>&1 || {
    log "the cupy backend is unavailable (env.txt says why)"
    # GPU_SUITE_REHEARSE=1: go on without a GPU (tests/test_gpu_suite.py; the GPU tests skip)
    [ "${GPU_SUITE_REHEARSE:-0}" = 1 ] || exit 3
    status=3
}

# --- 3./4. tests --------------------------------------------------------------------------------
timeout_opt=()
"$py" -c "import pytest_timeout" 2>/dev/null && timeout_opt=(--timeout 120)
run_tests() {  # name, deadline %, backstop %, pytest selection...
    local name=$1 stop=$2 kill=$3
    shift 3
    log "$name: pytest $* (cap +$((budget * stop / 100)) s)"
    LAZYARRAY_TEST_FAILURES=$out/$name.failures.txt \
        LAZYARRAY_TEST_DEADLINE=$(at "$stop") timeout -k 10 "$(left "$(at "$kill")")" \
        "$py" -m pytest -p no:cacheprovider -n "$workers" --dist loadgroup -rfEs \
        --durations=15 "${timeout_opt[@]}" --junitxml="$out/$name.xml" "$@" >"$out/$name.log" 2>&1
    local rc=$?
    log "$name: exit $rc, $(tail -n 1 "$out/$name.log")"
    [ $rc -ne 0 ] && [ $status -eq 0 ] && status=$rc
}
if [ -n "${GPU_SUITE_TESTS:-}" ]; then  # a rerun of chosen tests: one pass, word-split on purpose
    # shellcheck disable=SC2086
    run_tests gpu_tests 70 78 $GPU_SUITE_TESTS
else
    LAZYARRAY_TEST_FIRST=test_cupy_backend,test_cuda_launch \
        run_tests gpu_tests 45 52 tests -m "gpu and not exhaustive" \
        --ignore=tests/test_cuda_compile.py  # NVRTC only, no device: CI runs it; here it outran the cap
    run_tests rest_tests 78 84 tests -m "not gpu and not exhaustive" -k "cupy and not test_gpu_suite"
fi

# --- 5. benchmarks ----------------------------------------------------------------------------
if [ "${GPU_SUITE_BENCH:-1}" != 0 ]; then
    log "bench_gpu.py (cap +$budget s)"
    timeout -k 5 "$(left "$(at 100)")" "$py" benchmarks/bench_gpu.py \
        --markdown "$out/bench_gpu.md" >"$out/bench_gpu.log" 2>&1
    rc=$?
    log "bench_gpu.py: exit $rc"
    [ $rc -ne 0 ] && [ $status -eq 0 ] && status=$rc
fi
log "done: status $status, $(($(date +%s) - t0)) s; files: $(ls "$out" | tr '\n' ' ')"
exit $status
