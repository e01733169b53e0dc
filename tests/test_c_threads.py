"""When the c backend uses threads: by work (elements weighted by ops per element), not size alone."""

import os

import numpy as np
import pytest
from lazyarray.graph import Graph
from lazyarray.passes import optimize
from lazyarray.runtime.c import backend as c_backend

import lazyarray as la

pytestmark = pytest.mark.skipif(c_backend.CBackend.unavailable_reason() is not None,
                                reason="no C compiler")


@pytest.fixture(autouse=True)
def _team_idle():
    """A kernel abandoned by Ctrl-C (tests/test_interrupt.py, when it ran earlier in this process,
    as pytest-xdist may order it) finishes on the team in the background, and regions that find
    the team busy run alone, uncounted: wait for it, so these tests see the team as a fresh process
    does."""
    for threads, _ in list(c_backend._abandoned):
        for thread in threads:
            thread.join()


def _kernel(*arrays):
    (kernel,) = optimize(Graph([a._node for a in arrays])).kernels
    return kernel


def test_compute_heavy_kernels_go_parallel_on_fewer_elements():
    B, H = 256, 1024  # 2**18 elements: below the plain threshold
    gates, c = la.zeros((B, 4 * H), dtype=la.float32), la.ones((B, H), dtype=la.float32)
    i, f, g, o = (gates[:, k * H:(k + 1) * H] for k in range(4))
    new_c = la.nn.sigmoid(f) * c + la.nn.sigmoid(i) * la.tanh(g)
    lstm = _kernel(new_c, la.nn.sigmoid(o) * la.tanh(new_c))
    add = _kernel(la.array(np.ones((B, H), np.float32)) + 1.0)
    n = B * H
    assert n < c_backend.PARALLEL_THRESHOLD
    assert c_backend.parallel_work(lstm, n) >= c_backend.PARALLEL_THRESHOLD
    assert c_backend.parallel_work(add, n) < c_backend.PARALLEL_THRESHOLD
    assert c_backend.parallel_work(add, c_backend.PARALLEL_THRESHOLD) >= c_backend.PARALLEL_THRESHOLD


def test_a_team_of_one_runs_the_region_directly_with_the_same_bits():
    """With nt == 1 a kernel's parallel region runs its body directly (c_compiler.SERIAL_REGION,
    linked with --wrap where the linker has it): elementwise and reduction kernels, on one thread
    and on two or three, give the same bits (more threads go through the thread team,
    runtime/c/team.py, where it is loaded: chunks claimed in whatever order the threads run)."""
    import sys

    from lazyarray.runtime.c import compiler as c_compiler

    tc = c_compiler.toolchain()
    if tc.openmp and sys.platform.startswith("linux"):
        assert c_compiler.SERIAL_REGION_FLAG in tc.flags
    rng = np.random.default_rng(3)
    x = la.array(rng.standard_normal((64, 257)).astype(np.float32))
    for make in (lambda: la.tanh(x) * 2.0 + x, lambda: la.sum(la.exp(x), axis=1),
                 lambda: la.max(x * x, axis=0), lambda: la.nn.softmax(x, axis=-1)):
        compiled = c_backend.CBackend().compile(optimize(Graph([make()._node])))
        got = {}
        for threads in (1, 2, 3):
            for call in compiled.calls:
                call.nt = threads
            plan = c_backend.CPlan(compiled.program, compiled.calls)
            got[threads] = plan.run([x._node.data], [2.0] * len(plan.program.scalars))[0]
        np.testing.assert_array_equal(got[1], got[2])
        np.testing.assert_array_equal(got[1], got[3])


def _plan_with_threads(make, threads: int):
    compiled = c_backend.CBackend().compile(optimize(Graph([make()._node])))
    for call in compiled.calls:
        call.nt = threads
    return c_backend.CPlan(compiled.program, compiled.calls)


def test_parallel_kernels_claim_chunks_instead_of_omp_worksharing():
    """The outer loop is chunks claimed from a shared counter inside a plain parallel region: no
    `omp for` (static halves that one late thread holds up) and no barrier to wait at."""
    x = la.array(np.ones((64, 300), np.float32))
    for make in (lambda: la.tanh(x) + x, lambda: la.nn.softmax(x, axis=-1),
                 lambda: la.exp(la.array(np.ones(5000, np.float32)))):
        (kernel,) = optimize(Graph([make()._node])).kernels
        source = c_backend.CBackend().kernel_source(kernel)
        assert "#pragma omp parallel num_threads(nt) if (nt > 1)" in source
        assert "__atomic_fetch_add(&la_next, la_step" in source
        assert "omp for" not in source and "schedule(" not in source


def _team_runs_here() -> bool:
    from lazyarray.runtime.c import compiler as c_compiler, team as c_team

    tc = c_compiler.toolchain()
    return c_team.supported() and tc.openmp and c_compiler.SERIAL_REGION_FLAG in tc.flags


@pytest.mark.skipif(not _team_runs_here(), reason="no thread team on this platform")
def test_regions_of_several_threads_run_on_the_team():
    """Kernel libraries load after the team, so their regions of nt > 1 bind to it (its counter
    moves); nt == 1 never reaches it."""
    from lazyarray.runtime.c import team as c_team

    x = la.array(np.random.default_rng(0).standard_normal((128, 200)).astype(np.float32))
    plan = _plan_with_threads(lambda: la.tanh(x) * x, 2)
    before = c_team.counts()
    assert before is not None
    want = np.tanh(x._node.data) * x._node.data
    for _ in range(5):
        np.testing.assert_allclose(plan.run([x._node.data], [])[0], want, rtol=2e-6, atol=1e-6)
    assert c_team.counts()[0] == before[0] + 5
    serial = _plan_with_threads(lambda: la.tanh(x) * x, 1)
    serial.run([x._node.data], [])
    assert c_team.counts()[0] == before[0] + 5


def test_kernels_of_several_python_threads_at_once():
    """A region that finds the team busy runs alone: four Python threads calling parallel
    kernels at once all get their bits."""
    import threading

    rng = np.random.default_rng(1)
    data = [rng.standard_normal((64, 513)).astype(np.float32) for _ in range(4)]
    x = la.array(data[0])
    plan = _plan_with_threads(lambda: la.nn.softmax(la.tanh(x), axis=-1), 2)
    want = [plan.run([d], [])[0].copy() for d in data]
    errors = []

    def work(k: int) -> None:
        for _ in range(30):
            got = plan.run([data[k]], [])[0]
            if not np.array_equal(got, want[k]):
                errors.append(k)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_a_forked_child_runs_parallel_kernels():
    """The team's helpers stay in the parent: a child forked after the team ran starts without
    them (pthread_atfork) and still runs nt > 1 kernels instead of waiting for them forever."""
    import time

    x = la.array(np.arange(4096, dtype=np.float32).reshape(64, 64))
    plan = _plan_with_threads(lambda: x * 2.0 + 1.0, 2)
    want = plan.run([x._node.data], [2.0, 1.0])[0].copy()
    pid = os.fork()
    if pid == 0:  # the child: exit status says whether the kernel gave the bits
        ok = np.array_equal(plan.run([x._node.data], [2.0, 1.0])[0], want)
        os._exit(0 if ok else 1)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    raise AssertionError("the forked child hung in a parallel kernel")


def test_without_the_team_libgomp_runs_the_chunk_loops():
    """Where the team is not loaded (another platform, forbidden compiles) the regions of
    nt > 1 go to libgomp, whose threads run the same chunk loop: same bits as one thread."""
    import subprocess
    import sys

    code = """
import numpy as np
import lazyarray as la
from lazyarray.graph import Graph
from lazyarray.passes import optimize
from lazyarray.runtime.c import backend as c_backend, team as c_team
c_team.supported = lambda: False  # before any kernel library loads
x = la.array(np.random.default_rng(2).standard_normal((96, 130)).astype(np.float32))
got = []
for threads in (1, 2):
    compiled = c_backend.CBackend().compile(optimize(Graph([la.nn.softmax(la.tanh(x), axis=-1)._node])))
    for call in compiled.calls:
        call.nt = threads
    plan = c_backend.CPlan(compiled.program, compiled.calls)
    got.append(plan.run([x._node.data], [])[0])
assert c_team.counts() is None
assert np.array_equal(got[0], got[1])
print("ok")
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                            text=True, timeout=300, check=False)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-2000:]


@pytest.mark.skipif(not _team_runs_here(), reason="no thread team on this platform")
def test_a_helper_does_not_carry_its_creators_floating_point_flags():
    """A thread starts with its creator's floating-point flags: a helper started while the
    caller's evaluation had raised divide by zero, and that did not take that region, ORed the
    flag into the first later region it ran: a spurious 'divide by zero' warning in another
    evaluation (tests/test_fuzz_at_once.py seed 82555 in CI's worker order). The helper starts
    with its flags cleared."""
    import subprocess
    import sys

    code = """
import ctypes, threading, time
import numpy as np
import lazyarray as la
from lazyarray.graph import Graph
from lazyarray.passes import optimize
from lazyarray.runtime.c import backend as c_backend, team as c_team
x = la.array(np.ones((64, 64), np.float32))
c_backend.CBackend().compile(optimize(Graph([(x * 2.0)._node])))  # loads the team, no region
libm, main, seen = ctypes.CDLL("libm.so.6"), threading.get_ident(), []
FE_ALL = 0x3D  # x86-64's <fenv.h>: the team runs only there

@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def region(data):
    if threading.get_ident() != main:
        seen.append(libm.fetestexcept(FE_ALL))
    else:
        time.sleep(0.01)  # lets the helper take its post

c_team._loaded.la_team_run.argtypes = [type(region), ctypes.c_void_p, ctypes.c_uint]
libm.feraiseexcept(4)  # the caller's divide by zero when the helper starts
for _ in range(300):
    c_team._loaded.la_team_run(region, None, 2)
    libm.feclearexcept(FE_ALL)
    if seen:
        break
print(seen[:1])
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                            text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "[0]", result.stdout
