"""Fetch the wheels the lent GPU machine lacks, and check here that they install there offline.

    python benchmarks/gpu_wheels.py            # download into .whl/ (ignored), then check
    python benchmarks/gpu_wheels.py --check    # only check an existing .whl/

The lent machine (docs/cuda_backend.md, "Running on a lent GPU") reaches no package index. Its image
has CPython 3.12 with NumPy, CuPy for CUDA 13, NVRTC, pytest, hypothesis, pytest-xdist, networkx,
JAX and PyTorch (IMAGE below); the rest of what pyproject.toml asks for travels as wheels in `.whl/`
(CARRY), installed there by `benchmarks/gpu_suite.sh` with `pip install --no-index --no-deps
--target`. SKIPPED names what the GPU run does without: the dask extra (its tests skip with the
reason; the dask backend runs the C kernels, nothing of the GPU's) and the bench extra's numexpr.

The check is what the lent machine will do, rehearsed for CPython 3.12 x86-64 from this host:
every wheel's tags fit, `pip install --no-index --no-deps --target` into a scratch folder succeeds,
every requirement of every carried wheel (markers evaluated for Linux CPython 3.12) is met by
another carried wheel (version included) or by a package of the image, and the folder is small
enough to travel (the tree and the wheels share 64 MiB).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Distributions in the lent machine's image that pyproject.toml's install (`.[test,nvrtc,cuda13]`)
# and bench_gpu.py use (/work/.library/device/KINDS.md lists the image; `pip show` there gives
# versions). Names are normalized (PEP 503).
IMAGE = frozenset({
    "numpy", "networkx", "pytest", "hypothesis", "pytest-xdist", "execnet", "pluggy", "iniconfig",
    "packaging", "attrs", "sortedcontainers", "cupy-cuda13x", "cuda-pathfinder",
    "nvidia-cuda-nvrtc", "jax", "jaxlib", "jax-cuda13-plugin", "jax-cuda13-pjrt", "ml-dtypes",
    "opt-einsum", "scipy", "torch", "pytest-timeout", "einops",
})
# What travels: pyproject's dependencies and test extra that the image lacks. setuptools builds the
# tracing extension there (pyproject's `license = "MIT"` needs >= 77; the image's version is not
# known); typing-extensions because pydantic needs a recent one and the image's version is not known
# (the carried one shadows it on PYTHONPATH, a superset).
CARRY = ("pydantic>=2.0", "cffi>=1.15", "array-api-strict>=2.3", "array-api-extra>=0.7",
         "setuptools>=77", "typing-extensions>=4.14", "mpmath>=1.3", "import-linter>=2.17")
# pyproject requirements the GPU run does without (see the module docstring).
SKIPPED = frozenset({"dask", "distributed", "zarr", "numexpr", "cupy-cuda12x",
                     "nvidia-cuda-nvrtc-cu12",
                     # tests/test_consumers.py skips without it (its ~9 MB wheel and threadpoolctl
                     # and joblib would crowd the 16 MiB budget; the consumers run on the CPU CI)
                     "scikit-learn"})

PYTHON = "3.12"
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_17_x86_64",
             "manylinux2014_x86_64", "manylinux1_x86_64")
TARGET_FLAGS = ["--only-binary=:all:", "--python-version", PYTHON, "--implementation", "cp",
                *[f for p in PLATFORMS for f in ("--platform", p)]]
BUDGET = 16 << 20  # bytes of wheels: the tree (~10 MiB) and the wheels travel within 64 MiB


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    return normalize(re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1))


def download(folder: Path) -> None:
    """Download CARRY and what it needs (for CPython 3.12 manylinux x86-64) into an emptied
    `folder`, then delete what the image already has (NumPy comes along: array-api-strict needs
    it)."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", *TARGET_FLAGS, "-d", str(folder),
                    *CARRY], check=True)
    for wheel in folder.glob("*.whl"):
        if normalize(wheel.name.split("-")[0]) in IMAGE:
            wheel.unlink()


def _metadata(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        return z.read(name).decode()


def check(folder: Path) -> list[str]:
    """The problems with `folder` as the lent machine would meet them (empty: none)."""
    from packaging.requirements import Requirement
    from packaging.utils import parse_wheel_filename
    from packaging.version import Version

    wheels = sorted(folder.glob("*.whl"))
    if not wheels:
        return [f"no wheels in {folder} (run python benchmarks/gpu_wheels.py)"]
    problems = []
    versions: dict[str, Version] = {}
    for wheel in wheels:
        name, version, _, _ = parse_wheel_filename(wheel.name)
        if name in versions:
            problems.append(f"two versions of {name}: pip --no-deps would install both")
        versions[str(name)] = version
    carried = {requirement_name(r) for r in CARRY}
    problems += [f"{n} is in CARRY but no wheel of it is in {folder}"
                 for n in sorted(carried - set(versions))]
    env = {"python_version": PYTHON, "python_full_version": PYTHON + ".3", "sys_platform": "linux",
           "platform_system": "Linux", "platform_machine": "x86_64", "os_name": "posix",
           "implementation_name": "cpython", "platform_python_implementation": "CPython",
           "extra": ""}
    for wheel in wheels:
        for line in _metadata(wheel).splitlines():
            if not line.startswith("Requires-Dist:"):
                continue
            req = Requirement(line.split(":", 1)[1].strip())
            if req.marker is not None and not req.marker.evaluate(env):
                continue  # an extra, or another platform's
            name = normalize(req.name)
            if name in versions:
                if not req.specifier.contains(versions[name], prereleases=True):
                    problems.append(f"{wheel.name} needs {req}, carried {versions[name]}")
            elif name not in IMAGE:
                problems.append(f"{wheel.name} needs {req}: neither carried nor in the image")
    size = sum(w.stat().st_size for w in wheels)
    if size > BUDGET:
        problems.append(f"{size / 2**20:.1f} MiB of wheels: over the {BUDGET >> 20} MiB budget")
    with tempfile.TemporaryDirectory() as scratch:  # what gpu_suite.sh runs there, for 3.12
        done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index",
                               "--no-deps", "--no-compile", *TARGET_FLAGS, "--target", scratch,
                               *map(str, wheels)], capture_output=True, text=True)
        if done.returncode:
            problems.append(f"pip install --no-index --target failed: {done.stderr.strip()}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", default=str(ROOT / ".whl"), help="wheel folder (default .whl/)")
    parser.add_argument("--check", action="store_true", help="check the folder, download nothing")
    args = parser.parse_args()
    folder = Path(args.dir)
    if not args.check:
        download(folder)
    problems = check(folder)
    for p in problems:
        print("PROBLEM:", p, file=sys.stderr)
    size = sum(w.stat().st_size for w in folder.glob("*.whl"))
    print(f"{len(list(folder.glob('*.whl')))} wheels, {size / 2**20:.1f} MiB in {folder}: "
          + ("NOT ready" if problems else "ready (resolves offline for CPython 3.12 x86-64)"))
    return 1 if problems else 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
