"""Only code this user compiled is loaded from an on-disk kernel cache (issue 30).

The C backend `dlopen`s shared objects from its cache and CuPy loads cubins from its own: anyone
who can write a cache directory can put code into the user's process, and a shared object damaged
on disk crashes it (16 bytes overwritten in a cached library: SIGILL/SIGSEGV, no Python error).
Two rules:

- **Private directories.** A cache root and every directory under it that lazyarray reads must be a
  real directory (`lstat`: a symlink is refused, never followed), owned by this user (effective
  uid) and not writable by group or others. `dir_problem` says why one is not; the callers then
  warn once and use a private temporary cache for the process. Directories lazyarray creates are
  `0o700` (`private_dir`), files `0o600` (`tempfile.mkstemp`'s mode; built objects are `chmod`ed).
- **What is loaded is what was written.** Each shared object is stored under a name that carries
  its content hash (`<stem>-<sha256[:16]>.so`), and an index entry, written after it, records the
  full sha256 (`write_record`). Before a load the entry is read, its name checked to be an object
  of the same directory (no paths), and the object's bytes (opened `O_NOFOLLOW`) hashed and
  compared (`verified`). A mismatch or a foreign name is a miss, warned about once per file; the
  caller rebuilds. Content-addressed names keep concurrent writers consistent: a name always holds
  the bytes its hash says, so an entry never describes another process's different build.

Hashing costs 15.6 us for a 15.4 KiB library, 22.8 us for 27.4 KiB (`verified`, min of 200;
benchmarks/bench_cache_security.py), paid once per library per process: a library is loaded once
per process and its kernels are bound from memory after, with no stat and no hash.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import re
import shutil
import stat
import sys
import tempfile
import threading
import warnings
from pathlib import Path

DIGEST_CHARS = 16  # of the sha256 in an object's name; the index records all 64
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_warned: set[str] = set()
_lock = threading.Lock()


def dir_problem(path: Path) -> str | None:
    """Why `path` is not a private directory of this user, or None when it is. `lstat`: the link
    itself is judged, so a symlink is refused whatever it points at."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        return f"cannot be checked ({exc.strerror or exc})"
    if stat.S_ISLNK(st.st_mode):
        return "is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a directory"
    if not hasattr(os, "geteuid"):  # Windows: no uids or mode bits to judge (ACLs are not read)
        return None
    uid = os.geteuid()
    if st.st_uid != uid:
        return f"is owned by uid {st.st_uid}, not by this user (uid {uid})"
    if st.st_mode & 0o022:
        who = " and ".join(w for w, bit in (("group", 0o020), ("others", 0o002))
                           if st.st_mode & bit)
        return f"is writable by {who} (mode {stat.S_IMODE(st.st_mode):#o})"
    return None


def private_dir(path: Path) -> str | None:
    """Create `path` (and missing parents) as `0o700` and check it: None when it is private, else
    why not. Raises OSError when it cannot be created (the caller's degrade path)."""
    missing = []
    parent = path
    while not os.path.lexists(parent) and parent != parent.parent:
        missing.append(parent)
        parent = parent.parent
    for p in reversed(missing):
        try:
            os.mkdir(p, 0o700)
        except FileExistsError:  # another process made it meanwhile: checked below
            pass
    return dir_problem(path)


def temporary_cache(prefix: str) -> Path:
    """A fresh private directory (mkdtemp: `0o700`, this user's) for this process's kernels,
    removed when the process that made it exits (not by a forked child, which may still use it
    from the parent's side)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(_remove_if_mine, path, os.getpid())
    return path


def _remove_if_mine(path: Path, pid: int) -> None:
    if os.getpid() == pid:
        shutil.rmtree(path, ignore_errors=True)


def _own_dirs() -> tuple[str, ...]:
    """lazyarray's source directories (in a source checkout its subpackages live beside it)."""
    names = ("lazyarray", "lazyarray.runtime", "lazyarray.graph", "lazyarray.passes")
    files = [getattr(sys.modules.get(n), "__file__", None) for n in names]
    return tuple(os.path.dirname(f) + os.sep for f in files if f)


def warn(message: str) -> None:
    """A RuntimeWarning attributed to the first frame outside lazyarray (the user's line that
    evaluated), not to the cache code that noticed."""
    own = _own_dirs() or (os.path.dirname(__file__) + os.sep,)
    level, frame = 2, sys._getframe(1)  # stacklevel 2: the caller of warn()
    while frame is not None and frame.f_code.co_filename.startswith(own):
        level, frame = level + 1, frame.f_back
    warnings.warn(message, RuntimeWarning, stacklevel=level)


def warn_once(key: str, message: str) -> None:
    """One RuntimeWarning per `key` per process (a damaged file is reported once, not per load)."""
    with _lock:
        if key in _warned:
            return
        _warned.add(key)
    warn(message)


def object_name(stem: str, digest: str) -> str:
    return f"{stem}-{digest[:DIGEST_CHARS]}.so"


def store_object(built: Path, directory: Path, stem: str) -> tuple[Path, str]:
    """Move the freshly built shared object `built` (in `directory`) to its content-addressed name,
    `0o600`; returns (path, sha256). Readers only reach it through an index entry written after."""
    data = built.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    os.chmod(built, 0o600)  # the linker made it 0o755 & ~umask
    path = directory / object_name(stem, digest)
    os.replace(built, path)
    return path, digest


def record_text(path: Path, digest: str) -> bytes:
    """An index entry: the object's name in its directory and its full sha256."""
    return f"{path.name} {digest}\n".encode()


def write_record(index: Path, path: Path, digest: str) -> None:
    """Write the index entry for the object at `path` (a new `0o600` file renamed over the old)."""
    write_atomic(index, record_text(path, digest))


def write_atomic(path: Path, data: bytes) -> None:
    """Write `path` as a new `0o600` file (mkstemp's mode) renamed over the old one: a reader sees
    the old bytes or the new, never a part (two processes writing one entry both succeed)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_record(index: Path, pattern: re.Pattern[str]) -> tuple[Path, str] | None:
    """(object path, sha256) from the index entry `index`, or None: absent or unreadable (a plain
    miss), or naming something that is not one of its directory's objects (`pattern`, with the
    digest in the name matching the recorded one): warned once, a miss."""
    try:
        text = read_private(index).decode()
    except (OSError, UnicodeDecodeError):
        return None
    parts = text.split()
    if (len(parts) != 2 or not pattern.fullmatch(parts[0])
            or not re.fullmatch(r"[0-9a-f]{64}", parts[1])
            or not parts[0].endswith(f"-{parts[1][:DIGEST_CHARS]}.so")):
        warn_once(str(index), f"lazyarray: the kernel cache index {index} names {text.strip()!r}, "
                  "not a library of its directory; it is ignored and the kernels are rebuilt")
        return None
    return index.parent / parts[0], parts[1]


def read_private(path: Path) -> bytes:
    """A cache file's bytes, refusing a symlink (`O_NOFOLLOW`) and anything but a regular file."""
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def verified(path: Path, digest: str) -> bool:
    """Whether the object at `path` holds exactly the bytes whose sha256 its index recorded. A
    missing file is a plain miss (evicted, or a concurrent writer's entry came first); different
    bytes are warned once, then a miss the caller rebuilds."""
    try:
        data = read_private(path)
    except OSError:
        return False
    if hashlib.sha256(data).hexdigest() == digest:
        return True
    warn_once(str(path), f"lazyarray: the cached library {path} does not match the sha256 its "
              "index recorded when it was written (damaged or changed on disk); it is not loaded "
              "and is rebuilt")
    return False


# --- CuPy's kernel cache -----------------------------------------------------------------------
# The cupy backend compiles through cupy.RawModule, whose cubins CuPy caches on disk itself
# (CUPY_CACHE_DIR, default ~/.cupy/kernel_cache; each file carries an MD5 of its cubin, which CuPy
# checks: a damaged file is recompiled). lazyarray holds that directory to the same rule as its own.
_cupy_checked = False


def cupy_cache_dir() -> Path:
    """The directory CuPy reads cached cubins from (its `get_cache_dir()`, read at each compile)."""
    return Path(os.environ.get("CUPY_CACHE_DIR") or os.path.expanduser("~/.cupy/kernel_cache"))


def check_cupy_cache() -> None:
    """Once per process, before CuPy's first compile for lazyarray: CuPy's cache directory must be
    private (created `0o700` when missing). One that is not moves CuPy, for this process, to a
    private temporary directory (`CUPY_CACHE_DIR`, which CuPy reads at each compile), with one
    warning; set once, before any compile, never toggled (other threads read the environment)."""
    global _cupy_checked
    if _cupy_checked:
        return
    with _lock:
        if _cupy_checked:
            return
        _cupy_checked = True
        if os.environ.get("CUPY_CACHE_IN_MEMORY") == "1":  # CuPy writes and reads no files
            return
        configured = cupy_cache_dir()
        try:
            problem = private_dir(configured)
        except OSError as exc:
            problem = f"cannot be created ({exc.strerror or exc})"
        if problem is None:
            return
        private = str(temporary_cache("lazyarray-cupy-"))
        os.environ["CUPY_CACHE_DIR"] = private
    warn(f"lazyarray: CuPy's kernel cache {configured} cannot be used ({configured} {problem}; "
         "it must be a directory of this user that no one else can write); CuPy compiles into a "
         f"private temporary cache {private} for this process")
