"""The demo (`python -m lazyarray`) runs, shows pending outputs and the graph, and matches NumPy."""

import runpy

import pytest


def test_demo_runs_and_matches_numpy(backend, capsys):
    with pytest.raises(SystemExit) as done:
        runpy.run_module("lazyarray", run_name="__main__")
    out = capsys.readouterr().out
    assert done.value.code == 0, out
    assert "-> pending" in out and "-> evaluated" not in out.split("2. The graph")[0]
    assert "matmul(" in out and "-> out1" in out and "__main__.py:" in out
    assert "-> match" in out
