#!/usr/bin/env bash
# The GPU suite (issue 6), for a machine with an NVIDIA GPU and CUDA 13 drivers:
#   bash benchmarks/gpu_suite.sh            # tests on every backend (cupy included), then benchmarks
# Installs into a fresh venv: the package with CuPy for CUDA 13, NVRTC, the test deps, JAX for CUDA.
# Writes benchmarks/gpu_results.md (the table for docs/cuda_backend.md).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${VENV:-$(mktemp -d)/venv}
python3 -m venv "$venv"
# shellcheck disable=SC1091
. "$venv/bin/activate"
pip install -q -e '.[test,nvrtc,cuda13]'
pip install -q 'jax[cuda13]' || pip install -q 'jax[cuda12]' || echo "JAX for CUDA not installed: no JAX column"
python - <<'PY'
from lazyarray.runtime import available_backends
from lazyarray.runtime.cupy_backend import CupyBackend
reason = CupyBackend.unavailable_reason()
assert reason is None, f"cupy backend unavailable: {reason}"
print("backends:", available_backends())
PY
# The differential suite on every available backend (cupy among them), GPU-specific tests unskipped.
CI=true python -m pytest -q -p no:cacheprovider -rs tests/
python benchmarks/bench_gpu.py --markdown benchmarks/gpu_results.md
