"""The kernels' thread team: a parallel region that never waits for a thread that has not started.

A parallel kernel's outer loop is printed as chunks that the threads of its region claim from
one shared counter (`c_printer.CKernelPrinter.parallel_loop`), so whoever runs does the work and
the results do not depend on which thread ran which chunk. Under libgomp the region still ends
in a barrier: the caller waits until every thread of the team has *arrived*, even one that found
no chunk left. On 2 shared vCPUs that wait is the cost: a woken thread whose vCPU runs another
process's work is queued behind it for up to a scheduler slice (0.75-3 ms), and with static
schedules the caller waited for its whole half (LSTM nonlinearity kernel, 2 threads, load 3:
median 0.45 ms, p90 1.5-3.6 ms, against 0.37 ms on one thread). And the kernel's wake-up placed
the woken worker on the caller's own vCPU in 253 of 300 regions (load 2.7): both threads then
shared one vCPU (2 x 205 us of work took 410 us).

This library (built once per cache directory, loaded RTLD_GLOBAL before any kernel library) is
the team each translation unit's `__wrap_GOMP_parallel` (c_compiler.SERIAL_REGION) hands regions
of more than one thread to. Per region the caller

- keeps its helpers off its own current CPU (their affinity: the caller's CPUs minus the one it
  runs on; one syscall per helper, only when the caller has moved),
- posts the region to each helper (one futex word each) and runs it itself,
- then takes back every post no helper has taken yet (a compare-and-swap): a helper that was not
  scheduled in time never runs that region, and the caller waits only for helpers that are
  running a claimed chunk.

So two threads are never much slower than one (the caller claims every chunk a late helper did
not) and twice as fast when the other vCPU is free. A second Python thread calling a kernel while
the team is busy runs its region alone (same chunks, same bits). A forked child starts with no
helpers. Not Linux, no compiler flag for the wrapper, or the library not built (forbidden
compiles): the regions run on libgomp's team, correct as before (the chunk loop is plain OpenMP).

On disk: `team-<source hash>-<sha256[:16]>.so` and its index entry `team-<source hash>.idx`; the
library is loaded only when its bytes match the entry (runtime/cache_security.py), else one warning
and it is built again.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from .. import cache_security, compile_stats

SOURCE = r"""
#define _GNU_SOURCE
#include <fenv.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define LA_TEAM_MAX 63
#define LA_SPIN_NS 2000000L
enum { LA_IDLE, LA_POSTED, LA_TAKEN, LA_DONE };

typedef struct {
    _Atomic unsigned state;          /* the futex word */
    void (*fn)(void *);
    void *data;
    pthread_t thread;
} la_helper;

static la_helper helpers[LA_TEAM_MAX];
static unsigned n_helpers;
static int steered_from = -1;        /* the CPU the helpers were last kept off */
static pthread_mutex_t team_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fork_handler_once = PTHREAD_ONCE_INIT;
static _Atomic unsigned long regions, joined;  /* counters: la_team_counts */

void la_team_counts(unsigned long *out) {
    out[0] = atomic_load(&regions);
    out[1] = atomic_load(&joined);
}

static void la_futex_wait(_Atomic unsigned *word, unsigned value) {
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}

static void la_futex_wake(_Atomic unsigned *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *la_helper_loop(void *arg) {
    la_helper *h = arg;
    /* A thread starts with its creator's floating-point environment, exception flags included:
       the caller's flags of the evaluation that started the helper (a divide by zero) would be
       ORed into a later evaluation by the first region the helper runs (la_fpe_gather). */
    feclearexcept(FE_ALL_EXCEPT);
    for (;;) {
        unsigned st = atomic_load_explicit(&h->state, memory_order_acquire);
        if (st != LA_POSTED) {
            la_futex_wait(&h->state, st);
            continue;
        }
        if (!atomic_compare_exchange_strong(&h->state, &st, LA_TAKEN))
            continue;                /* the caller took the region back */
        h->fn(h->data);
        atomic_store_explicit(&h->state, LA_DONE, memory_order_release);
        la_futex_wake(&h->state);
    }
    return NULL;
}

static void la_after_fork_in_child(void) {  /* the helpers stayed in the parent */
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    team_lock = fresh;
    n_helpers = 0;
    steered_from = -1;
}

static void la_register_fork_handler(void) {
    pthread_atfork(NULL, NULL, la_after_fork_in_child);
}

static int la_start_helper(void) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);  /* signals stay with the caller's threads */
    la_helper *h = &helpers[n_helpers];
    atomic_store(&h->state, LA_IDLE);
    int failed = pthread_create(&h->thread, NULL, la_helper_loop, h);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (failed)
        return 0;
    n_helpers++;
    steered_from = -1;
    return 1;
}

static void la_steer(void) {
    int cpu = sched_getcpu();
    if (cpu < 0 || cpu == steered_from)
        return;
    steered_from = cpu;
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0)
        return;
    CPU_CLR(cpu, &mask);
    if (CPU_COUNT(&mask) == 0)
        return;
    for (unsigned i = 0; i < n_helpers; i++)
        pthread_setaffinity_np(helpers[i].thread, sizeof mask, &mask);
}

/* A helper that took the region is running a chunk: spin (a sleeping caller gives its CPU to
   whatever else waits for it, and gets it back only after that one's scheduler slice), then
   sleep if the helper itself was preempted for long. */
static void la_wait_done(la_helper *h) {
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned spin = 1;; spin++) {
        unsigned st = atomic_load_explicit(&h->state, memory_order_acquire);
        if (st == LA_DONE)
            return;
        __builtin_ia32_pause();
        if (spin % 256)
            continue;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > LA_SPIN_NS)
            la_futex_wait(&h->state, st);
    }
}

void la_team_run(void (*fn)(void *), void *data, unsigned n) {
    if (n < 2 || pthread_mutex_trylock(&team_lock) != 0) {
        fn(data);                    /* the team is busy: this region runs alone */
        return;
    }
    pthread_once(&fork_handler_once, la_register_fork_handler);
    unsigned want = n - 1 < LA_TEAM_MAX ? n - 1 : LA_TEAM_MAX;
    while (n_helpers < want && la_start_helper()) {}
    unsigned k = want < n_helpers ? want : n_helpers;
    la_steer();
    for (unsigned i = 0; i < k; i++) {
        helpers[i].fn = fn;
        helpers[i].data = data;
        atomic_store_explicit(&helpers[i].state, LA_POSTED, memory_order_release);
        la_futex_wake(&helpers[i].state);
    }
    fn(data);
    for (unsigned i = 0; i < k; i++) {
        unsigned st = LA_POSTED;
        if (atomic_compare_exchange_strong(&helpers[i].state, &st, LA_IDLE))
            continue;                /* not started: it never runs this region */
        atomic_fetch_add_explicit(&joined, 1, memory_order_relaxed);
        la_wait_done(&helpers[i]);
        atomic_store_explicit(&helpers[i].state, LA_IDLE, memory_order_relaxed);
    }
    atomic_fetch_add_explicit(&regions, 1, memory_order_relaxed);
    pthread_mutex_unlock(&team_lock);
}
"""

FLAGS = ("-O2", "-std=gnu11", "-fPIC", "-shared", "-pthread")
LIBS = ("-lm",)  # feclearexcept; after the source (--as-needed drops a library named before)

_lock = threading.Lock()
_loaded: ctypes.CDLL | None = None  # one team per process, whichever directory built it


def supported() -> bool:
    """Linux (futex, sched_getcpu) on x86-64 (the spin's `pause`)."""
    return sys.platform.startswith("linux") and platform.machine() in ("x86_64", "AMD64")


def stem() -> str:
    """`team-<hash of source and flags>`: the library's index entry is `<stem>.idx`."""
    return f"team-{hashlib.sha256((SOURCE + repr(FLAGS + LIBS)).encode()).hexdigest()[:16]}"


def _verified_path(directory: Path) -> Path | None:
    """The directory's team library when its bytes match its index entry, else None."""
    record = cache_security.read_record(directory / f"{stem()}.idx",
                                        re.compile(re.escape(stem()) + r"-[0-9a-f]{16}\.so"))
    if record is None or not cache_security.verified(*record):
        return None
    return record[0]


def load(directory: Path, compiler: tuple[str, ...]) -> bool:
    """Load the team (building it into `directory` first if needed) before the first kernel
    library: the libraries' weak reference to `la_team_run` binds when they load. True if a team
    is loaded in this process."""
    global _loaded
    if _loaded is not None:
        return True
    if not supported():
        return False
    with _lock:
        if _loaded is None:
            path = _verified_path(directory) or _build(directory, compiler)
            if path is not None:
                try:
                    _loaded = ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
                except OSError:
                    return False
    return _loaded is not None


def counts() -> tuple[int, int] | None:
    """(regions the team ran, helper joins: regions x helpers that took part), None without a
    team. A region run alone because the team was busy is not counted."""
    if _loaded is None:
        return None
    out = (ctypes.c_ulong * 2)()
    _loaded.la_team_counts(out)
    return out[0], out[1]


def _build(directory: Path, compiler: tuple[str, ...]) -> Path | None:
    """Compile the team into `directory` (temporary file, then `os.replace` and its index entry);
    its path, or None if that failed: the kernels then run their regions on libgomp's team."""
    if compile_stats.forbid_compiles:
        return None
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-team-", suffix=".c")
    except OSError:
        return None
    os.close(fd)
    src = Path(tmp)
    out = src.with_suffix(".so")
    try:
        src.write_text(SOURCE)
        result = subprocess.run([*compiler, *FLAGS, "-o", str(out), str(src), *LIBS],
                                capture_output=True, text=True, check=False,
                                env=dict(os.environ), timeout=120)
        if result.returncode != 0:
            return None
        path, digest = cache_security.store_object(out, directory, stem())
        cache_security.write_record(directory / f"{stem()}.idx", path, digest)
        return path
    except (OSError, subprocess.SubprocessError):
        return None
    finally:
        for leftover in (src, out):
            try:
                leftover.unlink()
            except OSError:
                pass
