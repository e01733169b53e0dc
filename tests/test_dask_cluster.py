"""The dask backend on a real scheduler: a LocalCluster with two worker processes (one cluster for
the module: starting one costs seconds), and out-of-core work over a zarr store in bounded memory."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from lazyarray.runtime import available_backends

import lazyarray as la

if "dask" not in available_backends():
    if os.environ.get("CI"):
        raise RuntimeError("CI installs the dask extra (.ci/run): the dask backend must be available")
    pytest.skip("dask is not installed (pip install 'lazyarray-fusion[dask]')",
                allow_module_level=True)

# Processes and a local cluster: ~12 s, in the exhaustive tier (the fast tier's budget, stop 22).
pytestmark = pytest.mark.exhaustive


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    import distributed  # here, not at collection: ~0.5 s of CPU in every worker

    cache = str(tmp_path_factory.mktemp("kernels"))
    os.environ["LAZYARRAY_CACHE_DIR"] = cache  # workers inherit it: one fresh shared disk cache
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=40)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()
    os.environ.pop("LAZYARRAY_CACHE_DIR", None)


def test_local_cluster_bit_for_bit_and_compiles_once_per_worker(client):
    rng = np.random.default_rng(3)
    a = la.array(rng.standard_normal((64, 4096)).astype(np.float32))
    b = la.array(rng.standard_normal(4096).astype(np.float32))

    def build():
        return [la.exp(a) * b + la.tanh(a), la.mean((a - b) ** 2)]

    with la.config(backend="c"):
        ref = [np.asarray(y) for y in la.eval(*build())]
    with la.config(backend="dask", chunks=8):
        got = [np.asarray(y) for y in la.eval(*build())]
        graph = str(la.explain(*build(), backend="dask"))
    assert "chunk grid 8 x 1, 8 kernel task(s)" in graph
    np.testing.assert_array_equal(got[0].view(np.uint32), ref[0].view(np.uint32))
    np.testing.assert_allclose(got[1], ref[1], rtol=1e-6)
    # Each worker process found each kernel pattern once (compiled, or loaded from the shared
    # disk cache); every later task of the same pattern found it in the process's memory.
    stats = client.run(_compile_stats)
    assert len(stats) == 2
    loaded = sum(s["kernels_compiled"] + s["kernel_disk_hits"] for s in stats.values())
    in_memory = sum(s["kernel_memory_hits"] for s in stats.values())
    tasks = 8 + 8 + 1  # blockwise kernel, tree partials, combine/aggregate (at least)
    assert loaded <= 2 * 4, stats  # 2 workers x (kernel, partial, combine, aggregate)
    assert loaded + in_memory >= tasks, stats


def _compile_stats() -> dict:
    from lazyarray.runtime import compile_stats

    return compile_stats.stats.snapshot()


OUT_OF_CORE = textwrap.dedent("""
    import sys
    import numpy as np, dask, dask.array as da, zarr
    import lazyarray as la, lazyarray.dask

    def reset_peak():  # Linux: writing 5 to clear_refs resets VmHWM (peak RSS) to the current RSS
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
        except OSError:  # not resettable: the process's peak so far counts (over-estimates)
            pass

    def status(field):
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith(field))

    root, n, chunk = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    dask.config.set(scheduler="threads", num_workers=2)
    a = la.from_dask(da.from_zarr(root + "/a.zarr"))
    b = la.from_dask(da.from_zarr(root + "/b.zarr"))
    # warm up: compile the kernels on a small slice, so the compiler is not in the peak
    small = la.from_dask(da.from_zarr(root + "/a.zarr")[:chunk])
    float(la.mean((small - small) ** 2).to_dask().compute())
    (la.exp(small) * small + 1).to_dask().compute()
    reset_peak()
    before = status("VmRSS:")
    mse = float(la.mean((a - b) ** 2).to_dask().compute())
    (la.exp(a) * b + 1).to_dask().to_zarr(root + "/y.zarr")
    grown = status("VmHWM:") - before
    # the control: one input read into memory (and one result of its size) must show in the measure
    reset_peak()
    before = status("VmRSS:")
    whole = np.asarray(da.from_zarr(root + "/a.zarr")) + 1
    control = status("VmHWM:") - before
    print(mse, grown, control)
""")


def test_out_of_core_over_zarr_in_bounded_memory(tmp_path):
    """Two float32 arrays of 2**24 elements (128 MB on disk) stream through fused kernels in
    1 MB chunks; the process's peak RSS (VmHWM, reset before the work) grows by far less than one
    input, while a control that reads one input whole grows it past the same budget."""
    if not os.path.exists("/proc/self/status"):
        pytest.skip("measures peak RSS through Linux's /proc")
    import dask.array as da
    import zarr

    n, chunk = 1 << 24, 1 << 18
    with __import__("dask").config.set(scheduler="threads", num_workers=2):
        for name, seed in (("a", 0), ("b", 1)):
            x = da.random.default_rng(seed).standard_normal(n, chunks=chunk).astype(np.float32)
            x.to_zarr(str(tmp_path / f"{name}.zarr"))
    out = subprocess.run([sys.executable, "-c", OUT_OF_CORE, str(tmp_path), str(n), str(chunk)],
                         capture_output=True, text=True, check=False, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    mse, grown, control = out.stdout.split()
    budget = 40 * 2**20  # one input is 64 MB, both inputs and the output 192 MB
    print(f"out of core: peak memory grew by {int(grown) / 2**20:.0f} MB "
          f"(control, one input in memory: {int(control) / 2**20:.0f} MB more)")
    assert int(grown) < budget, f"peak memory grew by {int(grown) / 2**20:.0f} MB"
    # the measure is not blind: reading one input whole raises the peak past the budget
    assert int(control) > budget, f"the control grew the peak by only {int(control) / 2**20:.0f} MB"
    a = zarr.open(str(tmp_path / "a.zarr"))[:]
    b = zarr.open(str(tmp_path / "b.zarr"))[:]
    np.testing.assert_allclose(float(mse), np.mean((a.astype(np.float64) - b) ** 2), rtol=1e-6)
    y = zarr.open(str(tmp_path / "y.zarr"))[: 1 << 20]
    np.testing.assert_allclose(y, np.exp(a[: 1 << 20]) * b[: 1 << 20] + 1, rtol=1e-6,
                               atol=1e-6)
