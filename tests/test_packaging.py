"""The non-editable install ships every subpackage: pyproject's explicit `packages` list (needed for
the package-dir mapping of graph/, passes/, runtime/) must name each directory that has an
`__init__.py` (lazyarray/lib/ was missing: `pip install .` then failed at `import lazyarray`)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    dirs = config["tool"]["setuptools"]["package-dir"]
    found = set()
    for package, folder in dirs.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base).parts
            found.add(".".join((package, *rel)))
    assert found <= listed, f"missing from [tool.setuptools] packages: {sorted(found - listed)}"
