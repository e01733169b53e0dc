"""The kernel cache degrades but never fails a computation: an unusable directory or a full disk
moves this process to a private temporary cache with one warning; index entries are checked
against their structural key (issue 10, item 3)."""

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lazyarray.runtime.c.backend import CBackend

pytestmark = pytest.mark.skipif(CBackend.unavailable_reason() is not None,
                                reason="no working C compiler")
TESTS = Path(__file__).parent

# Runs one program in a fresh process; `enospc` makes every write under the configured cache fail
# as a full disk does.
SCRIPT = """
import errno, json, os, sys, warnings
sys.path.insert(0, {tests!r})
import numpy as np, c_programs as P
from lazyarray.runtime import compile_stats
from lazyarray.runtime.c import backend as c_backend
program, fault = sys.argv[1], sys.argv[2]
if fault == "enospc":
    real, root = os.replace, os.environ["LAZYARRAY_CACHE_DIR"]
    def full(src, dst, *a, **k):
        if str(dst).startswith(root):
            raise OSError(errno.ENOSPC, "No space left on device", str(dst))
        return real(src, dst, *a, **k)
    os.replace = full
made = P.softmax(4, 8) if program == "softmax" else P.sigmoid(50)
prog, arrays, scalars, expected = made
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    got = c_backend.CBackend().compile(prog).run(arrays, scalars)[0]
assert np.allclose(got, expected[0], rtol=2e-6), "wrong result"
stats = compile_stats.stats.snapshot()
stats["warnings"] = [str(w.message) for w in caught if "kernel cache" in str(w.message)]
print(json.dumps(stats))
"""


def _run(cache: Path, program: str = "sigmoid", fault: str = "none") -> dict:
    env = dict(os.environ, LAZYARRAY_CACHE_DIR=str(cache), LAZYARRAY_EAGER_SIZE="0")
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(tests=str(TESTS)), program, fault],
                         capture_output=True, text=True, env=env, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_file_as_cache_dir_falls_back_to_a_private_cache_with_one_warning(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    stats = _run(blocker / "cache")
    assert stats["kernels_compiled"] >= 1
    (warning,) = stats["warnings"]
    assert "cannot be used" in warning and "Not a directory" in warning


def test_a_read_only_cache_dir_falls_back(tmp_path, monkeypatch):
    from lazyarray.runtime.c import compiler as c_compiler

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(tmp_path))

    monkeypatch.setattr(c_compiler.tempfile, "mkstemp", read_only)
    monkeypatch.setattr(c_compiler, "_usable", {})
    monkeypatch.setattr(c_compiler, "cache_dir_override", str(tmp_path / "ro"))
    with pytest.warns(RuntimeWarning, match="Read-only file system"):
        root = c_compiler.cache_root()
    assert root != tmp_path / "ro" and c_compiler.cache_root() == root  # warned once


def test_a_full_disk_compiles_in_a_private_cache_with_one_warning(tmp_path):
    stats = _run(tmp_path, fault="enospc")
    assert stats["kernels_compiled"] >= 1
    (warning,) = stats["warnings"]
    assert "No space left on device" in warning


@pytest.mark.exhaustive  # (a fresh process, ~7 s cold: the fast tier keeps the other faults)
def test_an_index_entry_naming_another_kernel_is_a_miss_and_is_rewritten(tmp_path):
    _run(tmp_path, "softmax")
    entries = set(tmp_path.glob("c-v2/*/s-*.idx"))
    _run(tmp_path, "sigmoid")
    softmax_entry = sorted(entries)[0]
    other = next(e for e in tmp_path.glob("c-v2/*/s-*.idx") if e not in entries)
    softmax_entry.write_text(other.read_text())  # an existing, wrong kernel: must not be trusted
    stats = _run(tmp_path, "softmax")  # the script asserts the result
    assert stats["kernels_compiled"] == 0 and stats["kernel_disk_hits"] >= 1
    assert softmax_entry.read_text() != other.read_text()  # rewritten
