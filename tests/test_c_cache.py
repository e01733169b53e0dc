"""The on-disk kernel cache: a second process compiles nothing, corrupted entries are rebuilt, two
processes compiling the same kernel at once both succeed, the size bound evicts LRU, forbid_compiles
raises, and a compile error names the source file."""

import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fresh_process import modules_imported
from lazyarray.runtime.c import compiler as c_compiler
from lazyarray.runtime import compile_stats
from lazyarray.runtime.c.backend import CBackend
from lazyarray.runtime.compile_stats import CompileForbidden

pytestmark = pytest.mark.skipif(CBackend.unavailable_reason() is not None,
                                reason="no working C compiler")
TESTS = Path(__file__).parent

# Compiles the sigmoid program (n from argv) in a fresh process; prints the compile counters.
SCRIPT = """
import json, sys
sys.path.insert(0, {tests!r})
import numpy as np, c_programs as P
from lazyarray.runtime import compile_stats
from lazyarray.runtime.c.backend import CBackend
prog, arrays, scalars, expected = P.sigmoid(int(sys.argv[1]))
got = CBackend().compile(prog).run(arrays, scalars)[0]
assert np.allclose(got, expected[0], rtol=2e-6), "wrong result"
print(json.dumps(compile_stats.stats.snapshot()))
"""


def run_fresh_process(cache: Path, n: int = 1000) -> dict:
    env = dict(os.environ, LAZYARRAY_CACHE_DIR=str(cache))
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(tests=str(TESTS)), str(n)],
                         capture_output=True, text=True, env=env, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_second_process_hits_disk_cache(tmp_path):
    first = run_fresh_process(tmp_path)
    assert first["kernels_compiled"] == 1 and first["translation_units"] == 1
    second = run_fresh_process(tmp_path, n=77)  # another size: the same compiled kernel
    assert second["kernels_compiled"] == 0 and second["kernel_disk_hits"] == 1


@pytest.mark.parametrize("damage", [  # one fresh process each (~8 s cold): all exhaustive
    pytest.param("garble_library", marks=pytest.mark.exhaustive),
    pytest.param("truncate_library", marks=pytest.mark.exhaustive),
    pytest.param("truncate_index", marks=pytest.mark.exhaustive)])
def test_corrupted_entry_is_rebuilt(tmp_path, damage):
    run_fresh_process(tmp_path)
    (lib,) = tmp_path.glob("c-v2/*/lib-*.so")
    (index,) = tmp_path.glob("c-v2/*/k-*.idx")
    if damage == "truncate_library":
        lib.write_bytes(lib.read_bytes()[:100])
    elif damage == "garble_library":
        data = bytearray(lib.read_bytes())
        data[len(data) // 2] ^= 0xFF
        lib.write_bytes(bytes(data))
    else:
        index.write_text("lib-")
    stats = run_fresh_process(tmp_path)
    assert stats["kernels_compiled"] == 1
    assert run_fresh_process(tmp_path)["kernel_disk_hits"] == 1


def _compile_in_child(cache: str) -> dict:
    return run_fresh_process(Path(cache), n=500)


@pytest.mark.exhaustive  # ~5 s of processes compiling at once (the fast tier's budget)
def test_concurrent_compiles_of_one_kernel(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        stats = pool.map(_compile_in_child, [str(tmp_path)] * 4)
    assert all(s["kernels_compiled"] + s["kernel_disk_hits"] == 1 for s in stats)
    assert not list(tmp_path.glob("c-v2/*/.tmp-*"))  # no temporary files left behind
    assert run_fresh_process(tmp_path)["kernel_disk_hits"] == 1


def test_lru_eviction(tmp_path):
    d = tmp_path / "c-v2" / "cfg"
    d.mkdir(parents=True)
    for k, age in enumerate((300, 100, 200)):
        lib = d / f"lib-{k}.so"
        lib.write_bytes(b"x" * 1000)
        os.utime(lib, (1e9 + age, 1e9 + age))
    freed = c_compiler.evict(tmp_path / "c-v2", max_bytes=1500)
    assert freed == 2000
    assert [p.name for p in d.glob("lib-*.so")] == ["lib-0.so"]  # the most recently used


def test_forbid_compiles_raises(tmp_path, monkeypatch):
    import c_programs as P
    monkeypatch.setattr(c_compiler, "cache_dir_override", str(tmp_path))
    monkeypatch.setattr(compile_stats, "forbid_compiles", True)
    prog = P.elementwise_program("hypot", ["float64", "float64"], "float64", 3)
    with pytest.raises(CompileForbidden, match="forbid"):
        CBackend().compile(prog)


def test_compile_error_names_the_source(tmp_path, monkeypatch):
    monkeypatch.setattr(c_compiler, "cache_dir_override", str(tmp_path))
    bad = [("la_broken_0", "void la_broken_0(char **p) { this is not C; }")]
    with pytest.raises(c_compiler.CompileError, match=r"lib-[0-9a-f]+\.c"):
        c_compiler.load_kernels(bad, lambda fns: "\n".join(fns))


def test_probe_is_cached_on_disk(tmp_path):
    run_fresh_process(tmp_path)
    (probe,) = tmp_path.glob("c-v2/probe-*.json")
    facts = json.loads(probe.read_text())
    assert "-fno-math-errno" in facts["flags"] and "-ffast-math" not in facts["flags"]


def test_eviction_scans_once_per_process_then_per_written_eighth(tmp_path, monkeypatch):
    scans = []
    monkeypatch.setattr(c_compiler, "evict", lambda root, max_bytes=None: scans.append(root))
    monkeypatch.setattr(c_compiler, "_written_since_scan", None)
    step = c_compiler.EVICT_EVERY_BYTES // 4
    ran = [c_compiler.maybe_evict(tmp_path, step) for _ in range(5)]
    assert ran == [True, False, False, False, True] and len(scans) == 2


def test_the_probe_is_one_compile_where_every_flag_works(monkeypatch):
    """A fresh cache directory probes the compiler in the foreground: `--version` and one
    compile with every optional flag; flag by flag (the old sequence) only when that fails."""
    command = c_compiler.find_compiler()
    if command is None:
        pytest.skip("no C compiler")
    real = c_compiler.subprocess.run
    runs = []

    def counted(cmd, *args, **kwargs):
        runs.append(list(cmd))
        return real(cmd, *args, **kwargs)

    monkeypatch.setattr(c_compiler.subprocess, "run", counted)
    facts = c_compiler._probe(command)
    if c_compiler.SERIAL_REGION_FLAG not in facts["flags"]:
        pytest.skip("this linker cannot --wrap: the flag-by-flag path")
    assert len(runs) == 2 and facts["openmp"]
    assert facts["flags"][-3:] == ["-march=native", "-fopenmp", c_compiler.SERIAL_REGION_FLAG]

    def no_wrap(cmd, *args, **kwargs):  # a linker without --wrap: the flags found one by one
        runs.append(list(cmd))
        if c_compiler.SERIAL_REGION_FLAG in cmd:
            return real(["false"], *args, **kwargs)
        return real(cmd, *args, **kwargs)

    monkeypatch.setattr(c_compiler.subprocess, "run", no_wrap)
    runs.clear()
    facts = c_compiler._probe(command)
    assert facts["flags"][-2:] == ["-march=native", "-fopenmp"] and facts["openmp"]
    assert len(runs) == 4  # --version, everything, the two flags, --wrap alone


def test_import_and_a_c_evaluation_never_parse_c_declarations():
    """The kernels' cffi calls go to cffi's C backend (runtime/c/compiler.py `KernelFFI`):
    `cffi.FFI()` imported pycparser, ~35-120 ms of CPU in every `import lazyarray`."""
    loaded = modules_imported()  # a fresh interpreter (tests/fresh_process.py)
    assert "pycparser" not in loaded["import"] and "pycparser" not in loaded["evaluation"]
