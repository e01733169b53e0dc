"""Peak memory of a 20-op elementwise chain over N float32 (default 2**26, 256 MB), each engine in
a fresh process: NumPy eager, lazyarray's numpy backend (fused kernel IR run by NumPy: the automatic
fallback without a compiler), the node-by-node reference (optimize=False) and the C backend.
Prints peak resident memory above the process's state after the input was made, and the ratio to
NumPy eager's. Usage: python benchmarks/bench_memory.py [log2 N]
"""

from __future__ import annotations

import json
import subprocess
import sys

CHILD = """
import json, resource, sys
import numpy as np
log2n, engine = int(sys.argv[1]), sys.argv[2]
x = np.random.default_rng(0).random(2**log2n, dtype=np.float32)

def chain(m, v):
    for k in range(5):
        v = m.tanh(v * 1.5 + 0.25) - v * 0.5   # 4 ops per round: 20 ops in all
    return v

if engine != "numpy-eager":
    import lazyarray as la
    backend, optimize = {"la-numpy": ("numpy", True), "la-reference": ("numpy", False),
                         "la-c": ("c", True)}[engine]
    la.config(backend=backend, optimize=optimize)
    small = np.asarray(chain(la, la.asarray(x[:1024])))  # warm: plan, kernels, imports
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    xa = la.asarray(x, copy=False)
    out = np.asarray(chain(la, xa))
else:
    chain(np, x[:1024])
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out = chain(np, x)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"peak_mb": (peak - base) / 1024, "check": float(out[:10].sum())}))
"""


def main() -> None:
    log2n = int(sys.argv[1]) if len(sys.argv) > 1 else 26
    rows = {}
    for engine in ("numpy-eager", "la-numpy", "la-reference", "la-c"):
        out = subprocess.run([sys.executable, "-c", CHILD, str(log2n), engine],
                             capture_output=True, text=True, check=True)
        rows[engine] = json.loads(out.stdout.strip().splitlines()[-1])
    eager = rows["numpy-eager"]["peak_mb"]
    print(f"20-op float32 chain over 2**{log2n} elements ({4 * 2**log2n / 2**20:.0f} MB input); "
          "peak RSS above the state after the input was made")
    print(f"{'engine':<14}{'peak MB':>10}{'vs eager':>10}")
    for engine, r in rows.items():
        print(f"{engine:<14}{r['peak_mb']:>10.0f}{r['peak_mb'] / max(eager, 1e-9):>10.2f}")


if __name__ == "__main__":
    main()
