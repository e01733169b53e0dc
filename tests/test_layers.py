"""The import layers (docs/architecture.md, "Layers"; issue 28) as import-linter contracts.

The contracts live in pyproject.toml (`[tool.importlinter]`). import-linter reads a package from
one directory tree, and graph/, passes/ and runtime/ install into `lazyarray` from beside it
(`[tool.setuptools.package-dir]`), so the test lints a copy of the sources laid out as installed,
in a fresh interpreter (one that has imported lazyarray would find the real package first). The C
extensions (lazyarray/_trace.c, graph/_node.c) import no Python module; each is an empty stand-in.
Imports inside functions count like module-level ones; the last test shows that they do."""

from __future__ import annotations

import ast
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


# Imports inside functions (issue 28), in every package: only of optional or costly dependencies, each with a comment
# saying why. One that dodges an import circle hides a layering bug the contracts above cannot see
# (both ends sit in one layer): cut the circle instead (docs/architecture.md, "Layers").
OPTIONAL_PACKAGES = frozenset({"dask", "networkx", "cupy", "cupyx", "einops", "torch", "jax", "mpmath"})
ALLOWED_MODULES = frozenset({
    "lazyarray._trace", "lazyarray.graph._node",  # the optional C extensions (may be unbuilt)
    "lazyarray",  # the namespace, still executing its own imports when _protocols.py is imported
})


def _imported(node: ast.Import | ast.ImportFrom, module: str) -> list[str]:
    """The absolute names an import statement in `module` (dotted) imports."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not node.level:
        return [node.module]
    base = ".".join(module.split(".")[:-node.level])  # (a package's module is pkg.__init__)
    if node.module:
        return [f"{base}.{node.module}"]
    return [f"{base}.{alias.name}" for alias in node.names]


def function_local_imports(source: str, module: str) -> list[tuple[int, str, bool]]:
    """(line, imported name, whether the line or the one above holds a comment) for each import
    inside a function of `source`."""
    lines = source.splitlines()
    found = []
    for outer in ast.walk(ast.parse(source)):
        if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        for node in ast.walk(outer):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                here = lines[node.lineno - 1] + lines[node.lineno - 2].strip()[:1]
                for name in _imported(node, module):
                    found.append((node.lineno, name, "#" in here))
    return sorted(set(found))


def _allowed(name: str) -> bool:
    return name.split(".")[0] in OPTIONAL_PACKAGES or name in ALLOWED_MODULES


def _lazyarray_local_imports() -> list[tuple[str, int, str, bool]]:
    """Every package as installed: lazyarray/, and graph/, passes/, runtime/ as lazyarray.*."""
    rows = []
    for folder, prefix in (("lazyarray", ("lazyarray",)), ("graph", ("lazyarray", "graph")),
                           ("passes", ("lazyarray", "passes")),
                           ("runtime", ("lazyarray", "runtime"))):
        package = ROOT / folder
        for path in sorted(package.rglob("*.py")):
            module = ".".join(prefix + path.relative_to(package).with_suffix("").parts)
            rows += [(str(path.relative_to(ROOT)), line, name, commented) for line, name, commented
                     in function_local_imports(path.read_text(), module)]
    return rows


def test_imports_inside_functions_are_only_of_optional_or_costly_modules():
    rows = _lazyarray_local_imports()
    assert rows, "the walk found no import inside a function (lazyarray/_bind.py has one)"
    banned = [f"{path}:{line}: {name}" for path, line, name, _ in rows if not _allowed(name)]
    assert not banned, "imports inside functions that are not optional dependencies:\n" + \
        "\n".join(banned)
    silent = [f"{path}:{line}: {name}" for path, line, name, commented in rows if not commented]
    assert not silent, "imports inside functions without a comment saying why:\n" + \
        "\n".join(silent)


def test_the_local_import_walk_finds_what_it_must():
    source = ("import numpy\n"
              "from .graph import node\n"
              "def f():\n"
              "    from .evaluation import to_host\n"
              "    import dask.array as da  # optional\n"
              "class A:\n"
              "    def m(self):\n"
              "        def inner():\n"
              "            from . import _trace\n"
              "        # the namespace\n"
              "        import lazyarray\n")
    found = function_local_imports(source, "lazyarray.array")
    assert found == [(4, "lazyarray.evaluation", False), (5, "dask.array", True),
                     (9, "lazyarray._trace", False), (11, "lazyarray", True)]
    assert [_allowed(name) for _, name, _ in found] == [False, True, True, True]
    init = function_local_imports("def g():\n    from .dask import from_dask\n",
                                  "lazyarray.__init__")
    assert init == [(2, "lazyarray.dask", False)]
    sub = function_local_imports("def g():\n    from ..array import Array\n",
                                 "lazyarray.lib.stride_tricks")
    assert sub == [(2, "lazyarray.array", False)]
