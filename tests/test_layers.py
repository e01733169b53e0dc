"""The import layers (docs/architecture.md, "Layers"; issue 28) as import-linter contracts.

The contracts live in pyproject.toml (`[tool.importlinter]`). import-linter reads a package from
one directory tree, and graph/, passes/ and runtime/ install into `lazyarray` from beside it
(`[tool.setuptools.package-dir]`), so the test lints a copy of the sources laid out as installed,
in a fresh interpreter (one that has imported lazyarray would find the real package first). The C
extensions (lazyarray/_trace.c, graph/_node.c) import no Python module; each is an empty stand-in.
Imports inside functions count like module-level ones; the last test shows that they do."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("importlinter", reason="import-linter (the test extra) checks the contracts")

ROOT = Path(__file__).resolve().parent.parent
_LINT = ("import sys\n"
         "from importlinter.cli import lint_imports\n"
         "sys.exit(lint_imports(sys.argv[1], no_cache=True, no_logo=True))\n")


def _installed_layout(dest: Path) -> Path:
    """The package's .py files under `dest` as the install lays them out."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    dirs = config["tool"]["setuptools"]["package-dir"]
    sub_dirs = {Path(folder).resolve() for package, folder in dirs.items() if package != "lazyarray"}
    for package, folder in dirs.items():
        base = (ROOT / folder).resolve()
        for source in base.rglob("*.py"):
            if package == "lazyarray" and any(d in source.parents for d in sub_dirs):
                continue
            target = dest.joinpath(*package.split("."), source.relative_to(base))
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    for extension in config["tool"]["setuptools"]["ext-modules"]:  # C: an empty stand-in each
        dest.joinpath(*extension["name"].split(".")).with_suffix(".py").write_text("")
    return dest


def _lint(tree: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "300"}  # one line per contract
    return subprocess.run([sys.executable, "-c", _LINT, str(ROOT / "pyproject.toml")], cwd=tree,
                          env=env, capture_output=True, text=True, timeout=120)


def test_the_import_layers_hold(tmp_path):
    result = _lint(_installed_layout(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" not in result.stdout.lower().replace("0 broken", "")


# (module, import inside a function, the chain import-linter reports, the contract it breaks)
CROSSINGS = [
    ("runtime/c/layout.py", "from ...array import Array",
     "lazyarray.runtime.c.layout -> lazyarray.array", "above passes/ and runtime/"),
    ("runtime/dask/views.py", "from ..cuda import printer",
     "lazyarray.runtime.dask.views -> lazyarray.runtime.cuda.printer", "cuda/ and dask/ above c/"),
    ("runtime/plan_cache.py", "from .c import backend",
     "lazyarray.runtime.plan_cache -> lazyarray.runtime.c.backend", "cuda/ and dask/ above c/"),
    ("graph/node.py", "from ..passes import pipeline",
     "lazyarray.graph.node -> lazyarray.passes.pipeline", "above passes/ and runtime/"),
    # the core reaching up to an API module; an API module to the methods attached last
    ("cache.py", "from .manipulation import reshape",
     "lazyarray.cache -> lazyarray.manipulation", "methods over the API over the core"),
    ("reductions.py", "from ._methods import _method",
     "lazyarray.reductions -> lazyarray._methods", "methods over the API over the core"),
]


def test_imports_inside_functions_that_cross_a_layer_break_the_contracts(tmp_path):
    tree = _installed_layout(tmp_path)
    for module, line, _, _ in CROSSINGS:
        path = tree / "lazyarray" / module
        path.write_text(path.read_text() + f"\n\ndef _crossing():\n    {line}  # noqa: F401\n")
    result = _lint(tree)
    assert result.returncode == 1, result.stdout + result.stderr
    for _, _, chain, contract in CROSSINGS:
        assert chain in result.stdout, f"{chain} not reported:\n{result.stdout}"
        assert any(contract in row and "BROKEN" in row for row in result.stdout.splitlines()), \
            result.stdout
