"""The README's example runs as written."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_readme_example_runs(capsys):
    text = (ROOT / "README.md").read_text()
    (code,) = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    exec(compile(code, "README.md", "exec"), {})  # noqa: S102  (our own README)
    assert "LazyExpr:" in capsys.readouterr().out
