"""The system C compiler and the on-disk kernel cache.

Kernels of one plan that are not cached yet are compiled together as ONE translation unit (an empty
gcc run alone costs ~50 ms). The cache lives under `cache_root()`:

    c-v2/probe-<hash>.json                     the compiler's facts (flags: FLAG_CHOICES only)
    c-v2/<config>/lib-<tu>-<d>.so, lib-<tu>.c  one shared library per translation unit (+ source);
                                               <d>: the first 16 hex digits of the library's sha256
    c-v2/<config>/k-<symbol>.idx               "lib-<tu>-<d>.so <sha256 of the library>"
    c-v2/<config>/s-<key>.idx                  "<symbol> <sha256(key, symbol)>": key → kernel
    c-v2/<config>/helpers-<hash>-<d>.so, .idx  the heavy math wrappers, shared (c_helper_library.py)
    c-v2/<config>/team-<hash>-<d>.so, .idx     the thread team parallel regions run on (c_team.py)

Only a private cache is used and only what was written is loaded (runtime/cache_security.py): the
root, `c-v2` and `<config>` must be this user's, not writable by group or others, and no symlinks
(else one warning and a private temporary cache); every library is loaded only after its bytes
match the sha256 its index entry recorded when it was written (else one warning and a rebuild).

`<config>` hashes the compiler path and version, the flags, the CPU's features and the codegen
version, so a change in any of them can never load a stale library. Every file is written to a
temporary name in the same directory and then `os.replace`d (two processes compiling the same
kernel both succeed; GUIDE.md measured direct writes corrupting 28 of 150). A library whose hash
does not match its index, or that fails to load, is rebuilt. Total size is bounded; the least
recently used libraries (mtime, touched on every hit) are evicted. The cache never fails a
computation: an unusable directory (read-only, a file) or a full disk moves the process to a
private temporary cache with one warning naming the reason; an index entry whose check does not
match its key is a miss. In-process, each library is
loaded once and each kernel symbol looked up once.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import _cffi_backend  # cffi's own C module (cffi >= 1.0): KernelFFI's calls
import cffi

from . import helper_library as c_helper_library, team as c_team
from .. import cache_security, compile_stats
from ..compile_stats import CompileForbidden

# Bump when generated code or the calling convention changes. A kernel's cache key is its own text, not
# the helpers around it, so the helpers' generators (the files below) are hashed in too.
_HELPER_SOURCES = ("prelude.py", "math.py", "trig.py", "philox.py", "complex.py",
                   "complex_cuda.py", "inline_budget.py", "helper_library.py", "erf.py",
                   "inverse.py", "hyper.py", "cbrt.py", "log.py", "pow.py", "float32.py",
                   "select.py")
CODEGEN_VERSION = "4-" + hashlib.sha256(b"".join(
    (Path(__file__).parent / f).read_bytes() for f in _HELPER_SOURCES)).hexdigest()[:12]
# -ffp-contract=off: gcc's default fuses a*b+c into an FMA differently per loop shape, so one value
# recomputed in two stages (x*x in max(x*x) and in x*x - max) would differ in its last bit (issue 9).
BASE_FLAGS = ("-O3", "-std=gnu11", "-fPIC", "-shared", "-fno-math-errno", "-fno-trapping-math",
              "-ffp-contract=off")
MAX_CACHE_BYTES = 512 * 2**20
# The on-disk layout's version: c-v2 added content-addressed library names, index entries for the
# helper and team libraries, and the private-directory rules (issue 30). Older layouts are not read.
VERSION_DIR = "c-v2"
# A parallel region whose `if` clause is false (nt == 1: most kernel calls) runs its body directly:
# libgomp would set up and tear down a team of one for it, ~0.5 us of a 16-element kernel call
# (0.73 -> 0.24 us with this wrapper, the same as the loop without any pragma). The body's
# worksharing (`omp for` static schedules, barriers) is then orphaned, which OpenMP defines as a
# team of one. The linker sends the library's calls to the wrapper (`--wrap`); the compiler probe
# keeps the flag only where it links (GNU ld, lld), and then every translation unit carries it.
SERIAL_REGION_FLAG = "-Wl,--wrap=GOMP_parallel"
# Regions of more threads go to the process's thread team where it is loaded (runtime/c/team.py:
# it never waits for a thread that did not start), else to libgomp.
SERIAL_REGION = """
void __real_GOMP_parallel(void (*)(void *), void *, unsigned, unsigned);
extern void la_team_run(void (*)(void *), void *, unsigned) __attribute__((weak));
__attribute__((visibility("hidden"))) void __wrap_GOMP_parallel(void (*fn)(void *), void *data,
                                                               unsigned n, unsigned flags) {
    if (n == 1) { fn(data); return; }
    if (la_team_run) { la_team_run(fn, data, n); return; }
    __real_GOMP_parallel(fn, data, n, flags);
}
"""
cache_dir_override: str | None = None  # lazyarray sets it from settings.cache_dir


class CompileError(RuntimeError):
    """The compiler rejected generated code: a lazyarray bug. The message names the source file."""


@dataclass(frozen=True)
class Toolchain:
    command: tuple[str, ...]  # compiler and any arguments CC carried
    version: str
    flags: tuple[str, ...]
    openmp: bool
    vector_math: bool
    config_hash: str


def find_compiler() -> tuple[str, ...] | None:
    """`CC` from the environment, else the first of cc, gcc, clang on PATH (remembered per CC and
    PATH: every plan build asks, and searching PATH costs ~0.2 ms)."""
    return _find_compiler(os.environ.get("CC"), os.environ.get("PATH"))


@lru_cache(maxsize=16)
def _find_compiler(cc: str | None, path: str | None) -> tuple[str, ...] | None:
    if cc:
        parts = shlex.split(cc)
        return tuple(parts) if parts and shutil.which(parts[0]) else None
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name, path=path)
        if found:
            return (found,)
    return None


def configured_root() -> Path:
    if cache_dir_override:
        return Path(cache_dir_override)
    env = os.environ.get("LAZYARRAY_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "lazyarray"


# The kernel cache may degrade but never fails a computation: a directory that cannot be written
# (read-only, a file, no permission), that fills up, or that is not private (another user's,
# writable by group or others, a symlink: runtime/cache_security.py) is replaced, for this process,
# by a private temporary cache, with one warning naming the path and the reason.
_usable: dict[Path, Path] = {}  # configured root -> the root this process uses for it
_private_dirs: set[Path] = set()  # <config> directories checked private in this process


def cache_root() -> Path:
    root = configured_root()
    used = _usable.get(root)
    if used is None:
        used = _usable[root] = _checked(root)
    return used


def _checked(root: Path) -> Path:
    versioned = root / VERSION_DIR
    try:
        for directory in (root, versioned):
            problem = cache_security.private_dir(directory)
            if problem is not None:
                return _private_root(root, f"{directory} {problem}; it must be a directory of "
                                     "this user that no one else can write")
        fd, probe = tempfile.mkstemp(dir=versioned, prefix=".tmp-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return _private_root(root, f"{exc.strerror or exc}: {exc.filename or root}")
    return root


def _private_root(root: Path, reason: str) -> Path:
    private = cache_security.temporary_cache("lazyarray-kernels-")  # 0o700, removed at exit
    (private / VERSION_DIR).mkdir(mode=0o700)
    cache_security.warn(f"lazyarray: the kernel cache {root} cannot be used ({reason}); compiling "
                        f"into a private temporary cache {private} for this process")
    return private


def degrade(exc: OSError) -> None:
    """A write into the cache failed (disk full, became read-only): this process moves to a
    private temporary cache (one warning); the caller retries there."""
    root = configured_root()
    if _usable.get(root, root) != root:  # already private: nothing left to fall back to
        raise exc
    _usable[root] = _private_root(root, f"{exc.strerror or exc}: {exc.filename or root}")


def kernel_dir(tc: Toolchain | None = None) -> Path:
    """`<root>/c-v2/<config>`: the C kernels' directory (`private_subdir`)."""
    tc = tc or toolchain()
    return private_subdir(VERSION_DIR, tc.config_hash)


def private_subdir(*parts: str) -> Path:
    """`<root>/<parts...>`, created `0o700` and checked private once per process; one that is
    not (another user's, writable by others, a symlink) moves the process to a private
    temporary cache, as an unusable root does. The cupy backend's cubins use it too."""
    directory = cache_root().joinpath(*parts)
    if directory in _private_dirs:
        return directory
    try:
        problem = cache_security.private_dir(directory)
    except OSError as exc:
        problem = f"cannot be created ({exc.strerror or exc})"
    if problem is not None:
        root = configured_root()
        if _usable.get(root, root) == root:
            _usable[root] = _private_root(root, f"{directory} {problem}; it must be a directory "
                                          "of this user that no one else can write")
        directory = cache_root().joinpath(*parts)
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    _private_dirs.add(directory)
    return directory


def unavailable_reason() -> str | None:
    """None when a working C compiler exists; otherwise why not and how to fix it."""
    cc = find_compiler()
    if cc is None:
        how = "CC names" if os.environ.get("CC") else "no cc, gcc or clang on PATH"
        return (f"no C compiler found ({how}); install gcc or clang, or set CC to a compiler, "
                "or choose backend='numpy'")
    try:
        toolchain()
    except CompileError as exc:
        return f"the C compiler {cc[0]} does not work here ({exc}); set CC to a working compiler"
    return None


@lru_cache(maxsize=16)
def _probe_file(command: tuple[str, ...], root: str) -> Path:
    """Its name hashes the compiler binary's stat: ~0.6 ms, asked by every plan build that must
    not wait for the compiler until the probe has run (a size-generic plan: once per new size)."""
    stat = os.stat(shutil.which(command[0]) or command[0])
    probe_key = hashlib.sha256(repr((command, stat.st_mtime_ns, stat.st_size, CODEGEN_VERSION,
                                     SERIAL_REGION)).encode()).hexdigest()[:16]
    return Path(root) / VERSION_DIR / f"probe-{probe_key}.json"


def toolchain_known() -> bool:
    """Whether `toolchain()` answers without running the compiler (probed in this process, or
    its facts are on disk): a plan build that must not wait for the compiler asks first."""
    command = find_compiler()
    if command is None:
        return True  # toolchain() raises at once
    root = str(cache_root())
    if (command, root) in _probed:
        return True
    try:
        return _probe_file(command, root).is_file()
    except OSError:
        return False


_probed: set[tuple[tuple[str, ...], str]] = set()


@cache
def _toolchain_for(command: tuple[str, ...], root: str) -> Toolchain:
    """Probe the compiler once per machine: the result is cached on disk next to the kernels."""
    probe_file = _probe_file(command, root)
    _probed.add((command, root))
    try:
        facts = json.loads(cache_security.read_private(probe_file))
        if not _valid_facts(facts):
            cache_security.warn_once(str(probe_file), f"lazyarray: the compiler probe file "
                                     f"{probe_file} holds flags or facts lazyarray never writes; "
                                     "it is ignored and the compiler probed again")
            raise ValueError(probe_file)
    except (OSError, ValueError):
        facts = _probe(command)
        try:
            _atomic_write(probe_file, json.dumps(facts).encode())
        except OSError:  # an unwritable cache only costs the probe next time
            pass
    flags = tuple(facts["flags"])
    config = repr((command, facts["version"], flags, _cpu_features(), CODEGEN_VERSION))
    return Toolchain(command, facts["version"], flags, facts["openmp"], facts["vector_math"],
                     hashlib.sha256(config.encode()).hexdigest()[:16])


# Every flag a probe can choose: flags read back from a probe file must be among them (a compiler
# flag such as -fplugin= or -B runs code of the flag's choosing).
FLAG_CHOICES = frozenset((*BASE_FLAGS, "-march=native", "-fopenmp", "-fopenmp-simd",
                          SERIAL_REGION_FLAG))


def _valid_facts(facts: Any) -> bool:
    return (isinstance(facts, dict) and isinstance(facts.get("version"), str)
            and isinstance(facts.get("flags"), list)
            and all(isinstance(f, str) and f in FLAG_CHOICES for f in facts["flags"])
            and isinstance(facts.get("openmp"), bool)
            and isinstance(facts.get("vector_math"), bool))


def toolchain() -> Toolchain:
    command = find_compiler()
    if command is None:
        raise CompileError("no C compiler")
    return _toolchain_for(command, str(cache_root()))


def _probe(command: tuple[str, ...]) -> dict:
    try:
        out = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=60,
                             check=False)
    except OSError as exc:
        raise CompileError(str(exc)) from None
    version = (out.stdout or out.stderr).splitlines()[0] if (out.stdout or out.stderr) else "?"
    flags = list(BASE_FLAGS)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.c"
        parallel = ("#include <math.h>\nint la_probe(int n) {\n  int s = 0;\n  #pragma omp parallel "
                    "for num_threads(n) if (n > 1) reduction(+:s)\n  for (int i = 0; i < 8; i++) "
                    "s += i;\n  return s;\n}\n" + SERIAL_REGION)

        def works(extra: list[str]) -> bool:
            cmd = [*command, *flags, *extra, "-o", str(Path(tmp) / "probe.so"), str(src), "-lm"]
            return subprocess.run(cmd, capture_output=True, timeout=120, check=False).returncode == 0

        # One compiler run where everything works (the usual case: each run costs 50-150 ms,
        # and a fresh cache pays the probe in the foreground, before its first kernel); else
        # flag by flag.
        src.write_text(parallel)
        everything = ["-march=native", "-fopenmp", SERIAL_REGION_FLAG]
        if works(everything):
            flags += everything
            return _facts(out, version, flags, True)
        src.write_text("#include <math.h>\nint la_probe(void) { return 0; }\n")
        if works(["-march=native", "-fopenmp"]):
            flags += ["-march=native", "-fopenmp"]
            openmp = True
        else:
            if not works([]):
                raise CompileError(f"{' '.join(command)} cannot build a shared library")
            if works(["-march=native"]):
                flags.append("-march=native")
            openmp = works(["-fopenmp"])
            if openmp:
                flags.append("-fopenmp")
            elif works(["-fopenmp-simd"]):  # no OpenMP runtime: still honour `omp simd`
                flags.append("-fopenmp-simd")
        if openmp:
            src.write_text(parallel)
            if works([SERIAL_REGION_FLAG]):
                flags.append(SERIAL_REGION_FLAG)
    return _facts(out, version, flags, openmp)


def _facts(out: Any, version: str, flags: list[str], openmp: bool) -> dict:
    is_gcc = "gcc" in version.lower() or "free software foundation" in out.stdout.lower()
    return {"version": version, "flags": flags, "openmp": openmp,
            "vector_math": bool(is_gcc and _glibc_has_libmvec())}


def _glibc_has_libmvec() -> bool:
    if platform.machine() not in ("x86_64", "AMD64"):
        return False
    try:
        lib, version = platform.libc_ver()
    except OSError:
        return False
    if lib != "glibc" or not version:
        return False
    major, minor = (int(x) for x in version.split(".")[:2])
    return (major, minor) >= (2, 35)


@lru_cache(maxsize=1)
def _cpu_features() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("flags", "Features")):
                    return hashlib.sha256(line.encode()).hexdigest()[:16]
    except OSError:
        pass
    return platform.machine() + platform.processor()


def _atomic_write(path: Path, data: bytes) -> None:
    """Write `path` as a new `0o600` file (mkstemp's mode) renamed over the old one."""
    cache_security.private_dir(path.parent)
    cache_security.write_atomic(path, data)


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


# --- the kernel cache ----------------------------------------------------------------------------------
# Libraries load through ctypes (dlopen); kernels are called through cffi function pointers, which
# cost ~1-2.5 us less per call than ctypes (benchmarks/bench_call_overhead.py, docs/c_backend.md).
class KernelFFI:
    """The few cffi calls the kernels need (`from_buffer`, `cast`, `new`, `CData`), made on cffi's
    C backend with types built by it: `cffi.FFI()` imports pycparser to parse C declarations
    (~35 ms of CPU quiet, ~120 ms loaded, in every `import lazyarray`), and nothing here names a
    type by a string."""

    def __init__(self) -> None:
        self._backend = b = _cffi_backend
        self.CData, self.CType = b._get_types()
        self.BCharA = b.new_array_type(b.new_pointer_type(b.new_primitive_type("char")), None)
        self.UINTPTR = b.new_primitive_type("uintptr_t")

    def from_buffer(self, ctype: Any, buffer: Any = None) -> Any:
        """`ffi.from_buffer(buffer)` (a char[]) or `ffi.from_buffer(ctype, buffer)`."""
        if buffer is None:
            return self._backend.from_buffer(self.BCharA, ctype, False)
        return self._backend.from_buffer(self.typeof(ctype), buffer, False)

    def cast(self, ctype: Any, value: Any) -> Any:
        return self._backend.cast(self.typeof(ctype), value)

    def new(self, ctype: Any) -> Any:
        return self._backend.newp(self.typeof(ctype), None)

    def typeof(self, ctype: Any) -> Any:
        """A C type named by a string (`"char *"`) is parsed by a real cffi.FFI, made on first
        use (once per string); a type built on the backend is itself."""
        return _typeof(ctype) if type(ctype) is str else ctype


@lru_cache(maxsize=None)
def _typeof(name: str) -> Any:
    return _full_ffi().typeof(name)


@cache
def _full_ffi() -> Any:
    return cffi.FFI()


ffi = KernelFFI()
KERNEL_SIGNATURE = "void(*)(char **, const int64_t *, const char *, int64_t)"


def _c_types() -> tuple:
    """(kernel function pointer, int64_t[], char *) ctypes, built by cffi's backend directly
    (naming them by string goes through pycparser)."""
    b = ffi._backend
    char_p = b.new_pointer_type(b.new_primitive_type("char"))
    int64 = b.new_primitive_type("int64_t")
    kernel = b.new_function_type((b.new_pointer_type(char_p), b.new_pointer_type(int64),
                                  char_p, int64), b.new_void_type(), False)
    return kernel, b.new_array_type(b.new_pointer_type(int64), None), char_p


KERNEL_TYPE, INT64_ARRAY, CHAR_P = _c_types()
_pointer_arrays: dict[int, object] = {}


def new_pointer_array(n: int):
    """A fresh `char *[n]` (the kernels' buffer-pointer argument)."""
    ctype = _pointer_arrays.get(n)
    if ctype is None:
        ctype = ffi._backend.new_array_type(ffi._backend.new_pointer_type(CHAR_P), n)
        _pointer_arrays[n] = ctype
    return ffi.new(ctype)


_libraries: dict[str, ctypes.CDLL] = {}
_functions: dict[str, object] = {}
_lock = threading.RLock()


_SYMBOL = re.compile(r"la_\w+")
_symbol_of_key: dict[str, str] = {}  # structural key -> symbol, for kernels loaded or compiled here


def load_by_key(key: str):
    """The C function of the kernel with this structural key, from memory or from the disk cache
    without rendering its source (rendering costs ~0.5 ms; `c-v2/<config>/s-<key>.idx` names the
    kernel's symbol), or None: then render it and call `load_kernels` with `keys`."""
    with _lock:
        symbol = _symbol_of_key.get(key)
        if symbol is not None and symbol in _functions:
            compile_stats.count("kernel_memory_hits")
            return _functions[symbol]
        directory = kernel_dir()
        try:
            entry = cache_security.read_private(directory / f"s-{key}.idx")
            symbol, check = entry.decode().split()
        except (OSError, ValueError):
            return None
        if not _SYMBOL.fullmatch(symbol) or check != _key_check(key, symbol):
            return None  # a damaged or foreign entry: a miss, rendered and rewritten
        if symbol in _functions:
            compile_stats.count("kernel_memory_hits")
        elif _load_from_disk(directory, symbol):
            compile_stats.count("kernel_disk_hits")
        else:
            return None
        _symbol_of_key[key] = symbol
        return _functions[symbol]


def _key_check(key: str, symbol: str) -> str:
    """Binds an `s-<key>.idx` entry to its key: an entry naming another (existing) symbol fails."""
    return hashlib.sha256(f"{key}\0{symbol}".encode()).hexdigest()[:16]


def load_kernels(kernels: list[tuple[str, str]], header_source,
                 keys: list[str] | None = None) -> list:
    """C functions for (symbol, function source) pairs: from memory, else disk, else one compile of
    all the missing ones. `header_source(functions)` makes the translation unit around them.
    `keys`: each kernel's structural key ("" or None: none), recorded so `load_by_key` finds it
    next time. The compiler runs without holding the lock: lookups from other threads go on."""
    fns = _load_kernels(kernels, header_source)
    with _lock:
        if keys is not None:
            directory = kernel_dir()
            for key, (symbol, _) in zip(keys, kernels):
                if key and _symbol_of_key.get(key) != symbol:
                    _symbol_of_key[key] = symbol
                    entry = f"{symbol} {_key_check(key, symbol)}\n".encode()
                    try:
                        _atomic_write(directory / f"s-{key}.idx", entry)
                    except OSError:  # the index only saves rendering next time
                        pass
        return fns


def _load_kernels(kernels: list[tuple[str, str]], header_source) -> list:
    tc = toolchain()
    with _lock:
        directory = kernel_dir(tc)
        missing: list[tuple[str, str]] = []
        for symbol, source in dict(kernels).items():
            if symbol in _functions:
                compile_stats.count("kernel_memory_hits")
            elif _load_from_disk(directory, symbol):
                compile_stats.count("kernel_disk_hits")
            else:
                missing.append((symbol, source))
    if missing:  # the compiler runs outside the lock: other threads keep loading and looking up
        try:
            _compile(tc, directory, missing, header_source)
        except OSError as exc:  # disk full, or the directory went away or read-only
            with _lock:
                degrade(exc)
                directory = kernel_dir(tc)
            _compile(tc, directory, missing, header_source)
    with _lock:
        return [_functions[symbol] for symbol, _ in kernels]


_LIBRARY_NAME = re.compile(r"lib-[0-9a-f]{20}-[0-9a-f]{16}\.so")


def _load_from_disk(directory: Path, symbol: str) -> bool:
    """Bind `symbol` from the library its index entry names, loading that library (once per
    process) only after its bytes match the entry's sha256 (cache_security.verified)."""
    index = directory / f"k-{symbol}.idx"
    record = cache_security.read_record(index, _LIBRARY_NAME)
    if record is None:
        return False
    lib_path, digest = record
    try:
        if str(lib_path) not in _libraries:
            if not cache_security.verified(lib_path, digest):
                return False
            _libraries[str(lib_path)] = _open_library(lib_path)
        lib = _libraries[str(lib_path)]
    except OSError:  # e.g. it calls the helper library, which is missing or was not loaded
        return False
    try:
        _functions[symbol] = _bind(lib, symbol)
    except AttributeError:
        cache_security.warn_once(str(index), f"lazyarray: the kernel cache index {index} names "
                                 f"{lib_path.name}, which has no kernel {symbol}; it is rebuilt")
        return False
    try:
        os.utime(lib_path)
    except OSError:
        pass
    return True


def _open_library(path: Path, directory: Path | None = None) -> ctypes.CDLL:
    """Load a kernel library of the cache `directory` (by default the one it lies in)."""
    directory = path.parent if directory is None else directory
    # Sleeping (not spinning) OpenMP workers: on 2 shared cores a spinning worker steals the
    # main thread's core between kernels. Must be set before libgomp loads.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    c_helper_library.load(directory)  # first: a unit past the inlining budget may call it
    c_team.load(directory, toolchain().command)  # first: its regions bind to the team on load
    return ctypes.CDLL(str(path))


open_library = _open_library


def loaded_function(symbol: str) -> Any:
    """The kernel's C function if this process has loaded it, else None (no disk lookup)."""
    return _functions.get(symbol)


def _bind(lib: ctypes.CDLL, symbol: str):
    address = ctypes.cast(getattr(lib, symbol), ctypes.c_void_p).value
    return ffi.cast(KERNEL_TYPE, address)


bind = _bind


def _compile(tc: Toolchain, directory: Path, missing, header_source) -> None:
    if compile_stats.forbid_compiles:
        names = ", ".join(s for s, _ in missing)
        raise CompileForbidden(f"compiles are forbidden (forbid_compiles) but kernels {names} "
                               "are not cached")
    cache_security.private_dir(directory)
    # Heavy math past the budget calls the directory's shared helper library once it is built.
    source = c_helper_library.render_unit(header_source, [src for _, src in missing],
                                          directory, tc)
    if SERIAL_REGION_FLAG in tc.flags:
        source += SERIAL_REGION
    cache_security.private_dir(directory)
    tu = hashlib.sha256((tc.config_hash + source).encode()).hexdigest()[:20]
    src_path = directory / f"lib-{tu}.c"
    _atomic_write(src_path, source.encode())
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".so")
    os.close(fd)
    try:
        cmd = [*tc.command, *tc.flags, "-o", tmp, str(src_path), "-lm"]
        # A copy of the environment: the child then reads an array of its own. With env=None
        # it reads the process's `environ`, which another thread's os.environ change can
        # reallocate under a background compile (exec then failed with EFAULT in the tests).
        result = subprocess.run(cmd, capture_output=True, text=True, check=False,
                                env=dict(os.environ))
        if result.returncode != 0:
            raise CompileError(f"compiling generated kernels failed (a lazyarray bug; source: "
                               f"{src_path}):\n{result.stderr[-4000:]}")
        lib_path, digest = cache_security.store_object(Path(tmp), directory, f"lib-{tu}")
    finally:
        _unlink(Path(tmp))
    compile_stats.count("translation_units")
    compile_stats.count("kernels_compiled", len(missing))
    with _lock:
        lib = _libraries[str(lib_path)] = _open_library(lib_path)
        for symbol, _ in missing:
            _functions[symbol] = _bind(lib, symbol)
            _atomic_write(directory / f"k-{symbol}.idx",
                          cache_security.record_text(lib_path, digest))
        maybe_evict(directory.parent, lib_path.stat().st_size)


# Evicting scans every library in the cache: once per process at its first compile, then again only
# after this process has written another eighth of the bound (so a big cache does not make every
# compile slower; concurrent processes can overshoot the bound by that much each, between scans).
EVICT_EVERY_BYTES = MAX_CACHE_BYTES // 8
_written_since_scan: int | None = None  # None: no scan yet in this process


def maybe_evict(root: Path, new_bytes: int) -> bool:
    """Run `evict` when due; returns whether it ran."""
    global _written_since_scan
    if _written_since_scan is not None and _written_since_scan + new_bytes < EVICT_EVERY_BYTES:
        _written_since_scan += new_bytes
        return False
    _written_since_scan = 0
    evict(root)
    return True


def evict(root: Path, max_bytes: int | None = None) -> int:
    """Delete least recently used libraries until the cache is under `max_bytes`; returns bytes freed."""
    limit = MAX_CACHE_BYTES if max_bytes is None else max_bytes
    entries = []
    for lib in root.glob("*/lib-*.so"):
        try:
            st = lib.stat()
            entries.append((st.st_mtime, lib, st.st_size))
        except OSError:
            continue
    total = sum(size for _, _, size in entries)
    freed = 0
    for _, lib, size in sorted(entries, key=lambda e: (e[0], str(e[1]))):
        if total - freed <= limit:
            break
        _unlink(lib)
        _unlink(lib.with_name(lib.name.rsplit("-", 1)[0] + ".c"))  # lib-<tu>-<d>.so's source
        freed += size
    return freed
