"""The lent-GPU run rehearsed without a GPU (benchmarks/gpu_suite.sh, docs/cuda_backend.md
"Running on a lent GPU"): every requirement of pyproject.toml is in the machine's image, carried
as a wheel, or knowingly done without; `-m gpu` collects with CuPy absent and its tests skip with
the reason; the suite's time cap skips what has not started; the carried wheels resolve offline for
CPython 3.12 (exhaustive tier: it downloads)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("gpu_wheels", ROOT / "benchmarks" / "gpu_wheels.py")
gpu_wheels = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gpu_wheels)


def test_every_pyproject_requirement_is_in_the_image_carried_or_skipped():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in ("test", "nvrtc", "cuda13", "dask", "bench"):  # cuda12: another CUDA, SKIPPED
        wanted += project["optional-dependencies"][extra]
    carried = {gpu_wheels.requirement_name(r) for r in gpu_wheels.CARRY}
    known = gpu_wheels.IMAGE | carried | gpu_wheels.SKIPPED
    missing = sorted({gpu_wheels.requirement_name(r) for r in wanted} - known)
    assert not missing, f"add to IMAGE, CARRY or SKIPPED in benchmarks/gpu_wheels.py: {missing}"
    assert not (gpu_wheels.IMAGE & carried), "a carried wheel would shadow the image's package"


def _pytest(args: list[str], env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.exhaustive  # (collects the whole tree in a subprocess: ~15 s, the fast tier's longest)
def test_gpu_tests_collect_and_skip_with_the_reason_without_cupy(tmp_path):
    blocker = tmp_path / "cupy"  # CuPy absent, even where it is installed
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('CuPy blocked by test_gpu_suite')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])]))
    env.pop("LAZYARRAY_TEST_DEADLINE", None)
    # The whole tree collects under `-m gpu`; two of its modules run: the device tests skip, the
    # launch-shape tests (no device needed) pass.
    done = _pytest(["tests", "-m", "gpu", "-k", "test_cupy_backend or test_cuda_launch"], env,
                   tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "cupy backend unavailable: CuPy" in done.stdout, done.stdout
    assert " passed" in done.stdout and " skipped" in done.stdout, done.stdout
    assert "error" not in done.stdout.lower().split("short test summary")[0], done.stdout


@pytest.mark.exhaustive  # (a pytest subprocess: ~4 s)
def test_the_suite_time_cap_skips_what_has_not_started_and_chosen_modules_go_first(tmp_path):
    env = dict(os.environ, LAZYARRAY_TEST_DEADLINE=str(time.time() - 1),
               LAZYARRAY_TEST_FIRST="test_cuda_launch")
    # -vv: one line per test (pyproject adds -q)
    done = _pytest(["-vv", "tests/test_cupy_backend.py", "tests/test_cuda_launch.py"], env,
                   tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "time cap reached" in done.stdout and " PASSED" not in done.stdout, done.stdout
    ran = [line.split("::")[0] for line in done.stdout.splitlines() if " SKIPPED" in line]
    assert ran[0] == "tests/test_cuda_launch.py" and ran[-1] == "tests/test_cupy_backend.py", ran


@pytest.mark.exhaustive
def test_carried_wheels_resolve_offline_for_python_312(tmp_path):
    try:
        gpu_wheels.download(tmp_path / "whl")
    except subprocess.CalledProcessError as e:
        pytest.skip(f"pip download failed (no network or index here?): {e}")
    assert gpu_wheels.check(tmp_path / "whl") == []
