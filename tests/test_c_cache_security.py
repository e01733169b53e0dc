"""Issue 30: the kernel cache loads only code this user compiled. A cache root that is not private
(writable by others, another user's, a symlinked c-v2) moves the process to a private temporary
cache; a library whose bytes differ from what its index recorded, or an index naming anything but
a library of its directory, is rebuilt. Each case: the computation gives NumPy's values and exactly
one warning names the problem. Cases that damage files run in fresh processes (what a library
loaded once stays loaded)."""

import json
import os
import pwd
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from lazyarray.runtime.c import compiler as c_compiler
from lazyarray.runtime import cache_security
from lazyarray.runtime.c.backend import CBackend

import lazyarray as la

pytestmark = pytest.mark.skipif(CBackend.unavailable_reason() is not None,
                                reason="no working C compiler")

# One evaluation in a fresh process: exp(x) * 2 + 1 against NumPy's, the compile counters, the
# lazyarray warnings, and which files of the cache root the process has mapped. `fake_owner`
# (not root: os.chown to nobody needs root) stubs the uid the cache must belong to.
SCRIPT = """
import json, os, sys, warnings
import numpy as np
if os.environ.get("FAKE_OWNER"):
    from lazyarray.runtime import cache_security
    cache_security.os.geteuid = lambda: os.getuid() + 1
import lazyarray as la
x = np.linspace(-3, 3, 301).astype(np.float32)
caught = []  # (not a recording catch_warnings block: lazy ops in one compute at their lines,
warnings.simplefilter("always")  # one kernel each, lazyarray/warning_blocks.py)
warnings.showwarning = lambda message, *rest, **kw: caught.append(message)
with la.config(backend="c"):
    got = np.asarray(la.exp(la.array(x)) * 2 + 1)
np.testing.assert_allclose(got, np.exp(x) * 2 + 1, rtol=2e-6)  # lazyarray's own expf: ulps
info = la.cache_info()
maps = open("/proc/self/maps").read() if os.path.exists("/proc/self/maps") else ""
print(json.dumps({"compiled": info.kernels_compiled, "disk_hits": info.kernel_disk_hits,
                  "warnings": [str(w) for w in caught if str(w).startswith("lazyarray:")],
                  "maps": maps}))
"""


def run(root: Path, fake_owner: bool = False) -> dict:
    env = dict(os.environ, LAZYARRAY_CACHE_DIR=str(root), LAZYARRAY_BACKGROUND_COMPILES="0",
               LAZYARRAY_EAGER_SIZE="0")  # its indexed expression must compile a kernel
    if fake_owner:
        env["FAKE_OWNER"] = "1"
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env,
                         timeout=180, check=False)
    assert out.returncode == 0, out.stderr  # a damaged library loaded: -11 / -4 here
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def populated(tmp_path_factory) -> Path:
    """A cache one process filled (compiled the kernel and the thread team); tests copy it."""
    root = tmp_path_factory.mktemp("populated") / "cache"
    first = run(root)
    assert first["compiled"] == 1 and first["warnings"] == []
    return root


@pytest.fixture
def cache(populated, tmp_path) -> Path:
    root = tmp_path / "cache"
    shutil.copytree(populated, root, symlinks=True)  # modes copied: 0o700 dirs, 0o600 files
    return root


def only_warning(stats: dict) -> str:
    (warning,) = stats["warnings"]
    return warning


def test_a_world_writable_root_is_not_used(cache):
    cache.chmod(0o777)
    stats = run(cache)
    warning = only_warning(stats)
    assert f"{cache} is writable by group and others (mode 0o777)" in warning
    assert "private temporary cache" in warning
    assert stats["compiled"] == 1 and str(cache) not in stats["maps"]  # nothing loaded from it


@pytest.mark.exhaustive  # a fresh process each (~1 s idle): the fast tier keeps one root case
def test_a_root_owned_by_another_user_is_not_used(cache):
    if os.geteuid() == 0:  # CI runs as root: give the root to nobody
        os.chown(cache, pwd.getpwnam("nobody").pw_uid, -1)
        stats = run(cache)
        expected = f"is owned by uid {pwd.getpwnam('nobody').pw_uid}, not by this user (uid 0)"
    else:  # the process's uid stubbed to another one: the cache is then someone else's
        stats = run(cache, fake_owner=True)
        expected = "not by this user"
    warning = only_warning(stats)
    assert str(cache) in warning and expected in warning
    assert stats["compiled"] == 1 and str(cache) not in stats["maps"]


@pytest.mark.exhaustive
def test_a_symlinked_version_dir_is_not_followed(cache, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    (cache / "c-v2").rename(elsewhere)
    (cache / "c-v2").symlink_to(elsewhere)
    stats = run(cache)
    assert f"{cache / 'c-v2'} is a symbolic link" in only_warning(stats)
    assert stats["compiled"] == 1 and str(elsewhere) not in stats["maps"]


@pytest.mark.parametrize("library", [pytest.param("lib", marks=pytest.mark.exhaustive),
                                     pytest.param("team", marks=pytest.mark.exhaustive)])
def test_a_tampered_library_is_rebuilt_not_loaded(cache, library):
    from lazyarray.runtime.c import team as c_team

    if library == "team" and not c_team.supported():
        pytest.skip("no thread team on this platform (runtime/c_team.supported)")
    (path,) = cache.glob(f"c-v2/*/{library}-*.so")
    data = bytearray(path.read_bytes())
    data[len(data) // 3:len(data) // 3 + 16] = b"\xff" * 16  # the damage: SIGILL/SIGSEGV
    path.write_bytes(bytes(data))
    stats = run(cache)
    warning = only_warning(stats)
    assert str(path) in warning and "does not match the sha256 its index recorded" in warning
    if library == "lib":
        assert stats["compiled"] == 1
    again = run(cache)  # rebuilt in place: the next process loads it, silently
    assert again["warnings"] == [] and again["compiled"] == 0 and again["disk_hits"] == 1
    modes = {p.name: p.stat().st_mode & 0o777 for p in [cache, *cache.rglob("*")]}
    assert set(modes.values()) <= {0o700, 0o600}, modes  # dirs 0o700, files 0o600


@pytest.mark.exhaustive
def test_an_index_pointing_elsewhere_is_not_followed(cache, tmp_path):
    (index,) = cache.glob("c-v2/*/k-*.idx")
    name, digest = index.read_text().split()
    outside = tmp_path / "outside"
    outside.mkdir(mode=0o700)
    shutil.copy(index.parent / name, outside / name)  # the right bytes, in the wrong place
    index.write_text(f"{outside / name} {digest}\n")
    stats = run(cache)
    warning = only_warning(stats)
    assert str(index) in warning and str(outside / name) in warning
    assert stats["compiled"] == 1 and str(outside) not in stats["maps"]


@pytest.mark.exhaustive  # ~3 s of processes (test_c_cache.py's concurrency test: 4 at once)
def test_two_processes_sharing_a_private_root_both_work(tmp_path):
    env = dict(os.environ, LAZYARRAY_CACHE_DIR=str(tmp_path / "shared"),
               LAZYARRAY_BACKGROUND_COMPILES="0")
    procs = [subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    outs = [p.communicate(timeout=180) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outs]
    stats = [json.loads(out.strip().splitlines()[-1]) for out, _ in outs]
    assert all(s["warnings"] == [] and s["compiled"] + s["disk_hits"] == 1 for s in stats)
    assert run(tmp_path / "shared")["disk_hits"] == 1


def test_dir_problem_judges_the_link_not_its_target(tmp_path):
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    assert cache_security.dir_problem(private) is None
    (tmp_path / "link").symlink_to(private)
    assert cache_security.dir_problem(tmp_path / "link") == "is a symbolic link"
    (tmp_path / "file").write_text("x")
    assert cache_security.dir_problem(tmp_path / "file") == "is not a directory"
    private.chmod(0o720)
    assert "writable by group (mode 0o720)" in cache_security.dir_problem(private)
    made = tmp_path / "a" / "b"
    assert cache_security.private_dir(made) is None
    assert (made.stat().st_mode & 0o777, made.parent.stat().st_mode & 0o777) == (0o700, 0o700)


def test_a_probe_file_with_foreign_flags_is_probed_again(tmp_path, monkeypatch):
    monkeypatch.setattr(cache_security, "_warned", set())
    command = c_compiler.find_compiler()
    probe = c_compiler._probe_file(command, str(tmp_path))
    probe.parent.mkdir(mode=0o700)
    probe.write_text(json.dumps({"version": "x", "flags": ["-O3", "-fplugin=/tmp/evil.so"],
                                 "openmp": False, "vector_math": False}))
    with pytest.warns(RuntimeWarning, match="probe file .* holds flags") as caught:
        tc = c_compiler._toolchain_for.__wrapped__(command, str(tmp_path))
    assert len([w for w in caught if "probe file" in str(w.message)]) == 1
    assert "-fplugin=/tmp/evil.so" not in tc.flags and "-fno-math-errno" in tc.flags
    assert "-fplugin" not in probe.read_text()  # rewritten with the compiler's own facts


def test_the_dask_path_checks_its_cache_root(tmp_path, monkeypatch):
    """A Dask task loads kernels through the same cache_root (runtime/dask/chunk.py): a worker
    whose root is not private warns once and computes in a private cache."""
    pytest.importorskip("dask")
    import dask

    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    for table in ("_functions", "_libraries", "_symbol_of_key", "_usable"):
        monkeypatch.setattr(c_compiler, table, {})
    monkeypatch.setattr(c_compiler, "_private_dirs", set())
    monkeypatch.setattr(c_compiler, "cache_dir_override", str(shared))
    la.clear_caches()
    x = np.linspace(-2, 2, 64).astype(np.float32)
    with warnings.catch_warnings(record=True) as caught, dask.config.set(scheduler="synchronous"):
        warnings.simplefilter("always")
        with la.config(backend="dask", chunks=16, cache_dir=str(shared)):
            got = np.asarray(la.exp(la.array(x)) * 2 + 1)
    np.testing.assert_allclose(got, np.exp(x) * 2 + 1, rtol=2e-6)
    (warning,) = [str(w.message) for w in caught if str(w.message).startswith("lazyarray:")]
    assert f"{shared} is writable by group and others" in warning
    assert not (shared / "c-v2").exists() or not any((shared / "c-v2").iterdir())
    la.clear_caches()


# --- CuPy's kernel cache (no GPU needed: the check runs before CuPy compiles) ------------------

class _FakeCupy:
    """Stands in for cupy in CupyBackend.module: records where CuPy would cache each compile (the
    generated kernels are compiled by lazyarray's NVRTC call, CuPy's own kernels by CuPy)."""

    def __init__(self) -> None:
        self.cache_dirs: list[str] = []
        self.cuda = type("cuda", (), {"runtime": type("rt", (), {"getDevice": lambda: 0})})

    def load_module(self, cp, source, options):
        self.cache_dirs.append(str(cache_security.cupy_cache_dir()))
        return object(), True


@pytest.mark.parametrize("state", ["private", "world_writable", "missing"])
def test_cupy_compiles_only_into_a_private_cache(tmp_path, monkeypatch, state):
    from lazyarray.runtime.cuda import backend as cupy_backend
    from lazyarray.runtime.cuda.printer import CudaModule

    configured = tmp_path / "cupy" / "kernel_cache"
    if state != "missing":
        configured.mkdir(parents=True, mode=0o700)
        configured.chmod(0o777 if state == "world_writable" else 0o700)
    monkeypatch.setenv("CUPY_CACHE_DIR", str(configured))
    monkeypatch.delenv("CUPY_CACHE_IN_MEMORY", raising=False)
    monkeypatch.setattr(cache_security, "_cupy_checked", False)
    fake = _FakeCupy()
    monkeypatch.setattr(cupy_backend, "cupy", lambda: fake)
    monkeypatch.setattr(cupy_backend, "load_module", fake.load_module)
    backend = cupy_backend.CupyBackend()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for source in ('extern "C" __global__ void a() {}', 'extern "C" __global__ void b() {}'):
            backend.module(CudaModule(source, ()))
    messages = [str(w.message) for w in caught if str(w.message).startswith("lazyarray:")]
    if state == "world_writable":
        (warning,) = messages
        assert f"{configured} is writable by group and others" in warning
        assert fake.cache_dirs[0] != str(configured) and len(set(fake.cache_dirs)) == 1
        assert cache_security.dir_problem(Path(fake.cache_dirs[0])) is None
    else:  # a missing one is created 0o700, parents included
        assert messages == [] and fake.cache_dirs == [str(configured)] * 2
        assert configured.stat().st_mode & 0o777 == 0o700
        if state == "missing":
            assert configured.parent.stat().st_mode & 0o777 == 0o700


@pytest.mark.exhaustive  # builds the helper library: ~6.5 s of compiler CPU (stop 50)
def test_a_tampered_helper_library_is_rebuilt_not_loaded(tmp_path, monkeypatch):
    from lazyarray.runtime.c import helper_library as c_helper_library
    from lazyarray.runtime.c import inline_budget as c_inline_budget

    # Builds and compiles an earlier test in this worker started: done before the tables and the
    # cache directory change (a queued background compile picks its directory when it runs: CI,
    # stop 54, found an earlier test's kernel, which calls no heavy math, among this test's units).
    c_helper_library.wait()
    la.wait_for_compiles()
    for table in ("_functions", "_libraries", "_symbol_of_key", "_usable"):
        monkeypatch.setattr(c_compiler, table, {})
    monkeypatch.setattr(c_compiler, "_private_dirs", set())
    monkeypatch.setattr(c_compiler, "cache_dir_override", str(tmp_path))
    monkeypatch.setattr(cache_security, "_warned", set())
    directory, tc = c_compiler.kernel_dir(), c_compiler.toolchain()
    assert c_helper_library.build(directory, tc)
    (lib,) = directory.glob("helpers-*.so")
    data = bytearray(lib.read_bytes())
    data[len(data) // 2:len(data) // 2 + 16] = b"\xff" * 16
    # A new file renamed over it: this process has the library mapped, and writing its pages in
    # place would change the mapped code too (a fresh process, which these checks are for, has
    # nothing mapped).
    (tmp_path / "tampered").write_bytes(bytes(data))
    os.replace(tmp_path / "tampered", lib)
    monkeypatch.setattr(c_helper_library, "_loaded", {})  # a fresh process's view
    # the report as cache_security.warn is handed it: the process-wide warnings state is not
    # this test's alone (an earlier test's background compile or helper build, still running
    # in this worker, enters and leaves warning blocks of its own: CI, stop 54, lost the record)
    reported: list[str] = []
    real_warn = cache_security.warn
    monkeypatch.setattr(cache_security, "warn", lambda m: (reported.append(m), real_warn(m)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert not c_helper_library.load(directory)
        assert c_helper_library.build(directory, tc)  # rebuilt in place, then loaded
    (warning,) = [m for m in reported if m.startswith("lazyarray:")]
    assert str(lib) in warning and "does not match the sha256" in warning
    monkeypatch.setattr(c_inline_budget, "LIBRARY_BUDGET", 0)  # every heavy call: the library
    la.clear_caches()
    x = np.linspace(0.1, 3, 97).astype(np.float64)
    with la.config(backend="c", cache_dir=str(tmp_path)):
        got = np.asarray(la.exp(la.array(x)) + la.log(la.array(x)) * la.sin(la.array(x)))
    np.testing.assert_allclose(got, np.exp(x) + np.log(x) * np.sin(x), rtol=1e-13)
    la.wait_for_compiles()
    units = {p.name: p.read_text() for p in directory.glob("lib-*.c")}
    heavy = {name: u for name, u in units.items() if c_inline_budget.heavy_calls(u)}
    assert heavy, f"no unit of {sorted(units)} computed exp, log and sin"
    assert all("_ool(double a);" in u for u in heavy.values()), "a unit inlined them"  # the library
    la.clear_caches()


DASK_PROCESSES = """
import numpy as np, dask, lazyarray as la
if __name__ == "__main__":
    x = np.linspace(-2, 2, 4096).astype(np.float32)
    with dask.config.set(scheduler="processes", num_workers=2):
        with la.config(backend="dask", chunks=512):
            got = np.asarray(la.exp(la.array(x)) * 2 + 1)
    np.testing.assert_allclose(got, np.exp(x) * 2 + 1, rtol=2e-6)
    print("values ok")
"""


@pytest.mark.exhaustive  # a process pool: ~3 s idle
def test_dask_worker_processes_check_their_own_root(tmp_path):
    """Worker processes (Dask's process pool; a cluster's workers alike) resolve the root from
    their environment and check it: each warns at most once (stderr is inherited), and the
    chunks' kernels compile into each worker's private cache, never into the shared root."""
    pytest.importorskip("dask")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    script = tmp_path / "main.py"  # spawned workers re-import the main module: a file
    script.write_text(DASK_PROCESSES)
    env = dict(os.environ, LAZYARRAY_CACHE_DIR=str(shared), PYTHONWARNINGS="always")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                         timeout=300, check=False)
    assert out.returncode == 0 and "values ok" in out.stdout, out.stderr
    lines = [ln for ln in out.stderr.splitlines() if "lazyarray: the kernel cache" in ln]
    assert 1 <= len(lines) <= 3, out.stderr  # the client and 2 workers, once each at most
    assert all(f"{shared} is writable by group and others" in ln for ln in lines)
    assert list(shared.iterdir()) == []
