"""Per statement of an index loop's body: thread CPU time, NumPy beside lazyarray (C backend).

program_cpu.py says how far a corpus program is from NumPy; this says which of its loop's
statements cost the difference. A body below is the program's own loop (tests/programs/, each
statement checked against the program's source, so a changed program fails here rather than
being timed as it was), run statement by statement with `exec` in one namespace set up as the
program sets it up; each statement's thread time is summed over the loop and the minimum over
`--repeat` runs is kept (the first run of each builds plans and compiles). Per iteration, us.

Run: OPENBLAS_NUM_THREADS=1 python benchmarks/statement_cpu.py --only mnist_mlp,householder_qr
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
import time
from typing import Any, Callable, Iterator

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
os.environ.setdefault("LAZYARRAY_BACKGROUND_COMPILES", "0")

import numpy  # noqa: E402

import lazyarray as la  # noqa: E402
import programs  # noqa: E402
from test_programs import to_lazy  # noqa: E402


def _mnist_setup(np: Any, args: list) -> dict:
    images, labels, w1, w2, dropout = args[:5]
    return dict(np=np, relu=lambda np, x: (x >= 0) * x, relu2deriv=lambda x: x >= 0,
                training_images=images, training_labels=labels, weights_1=w1, weights_2=w2,
                dropout=dropout, training_loss=0.0, training_accurate_predictions=0,
                learning_rate=0.005)


def _mnist_steps(ns: dict) -> Iterator[dict]:
    for j in range(len(ns["dropout"])):
        for i in range(len(ns["training_images"])):
            yield dict(i=i, j=j)


def _householder_setup(np: Any, args: list) -> dict:
    m = args[0].shape[0]
    return dict(np=np, Q=np.eye(m), R=args[0].copy())


def _householder_steps(ns: dict) -> Iterator[dict]:
    for j in range(ns["R"].shape[1]):
        yield dict(j=j)


# name: (the loop body's statements, the namespace before the loop, each iteration's indices,
# the names whose values the program evaluates after the loop)
BODIES: dict[str, tuple[str, Callable, Callable, tuple]] = {
    "mnist_mlp": ("""\
layer_0 = training_images[i]
layer_1 = np.dot(layer_0, weights_1)
layer_1 = relu(np, layer_1)
dropout_mask = dropout[j, i]
layer_1 *= dropout_mask * 2
layer_2 = np.dot(layer_1, weights_2)
training_loss += np.sum((training_labels[i] - layer_2) ** 2)
training_accurate_predictions += int(
    np.argmax(layer_2) == np.argmax(training_labels[i]))
layer_2_delta = training_labels[i] - layer_2
layer_1_delta = np.dot(weights_2, layer_2_delta) * relu2deriv(layer_1)
layer_1_delta *= dropout_mask
weights_1 += learning_rate * np.outer(layer_0, layer_1_delta)
weights_2 += learning_rate * np.outer(layer_1, layer_2_delta)""", _mnist_setup, _mnist_steps,
                  ("weights_1", "weights_2")),
    "householder_qr": ("""\
normx = np.linalg.norm(R[j:, j])
s = -np.sign(R[j, j])
u1 = R[j, j] - s * normx
w = R[j:, j] / u1
w[0] = 1
tau = -s * u1 / normx
R[j:, :] = R[j:, :] - np.outer(tau * w, w @ R[j:, :])
Q[:, j:] = Q[:, j:] - np.outer(Q[:, j:] @ w, tau * w)""", _householder_setup, _householder_steps,
                       ("Q", "R")),
}


def statements(name: str) -> list[str]:
    """The body's statements (a continued line joins its statement), each found in the program."""
    source = inspect.getsource(programs.load(name))
    out: list[str] = []
    for line in BODIES[name][0].splitlines():
        if line.startswith(" ") and out:
            out[-1] += "\n" + line
            continue
        out.append(line)
    for s in out:
        if not all(part.strip() in source for part in s.splitlines()):
            raise SystemExit(f"{name}: `{s}` is not in the program any more")
    return out


def run(name: str, np: Any, args: list, codes: list) -> list[int]:
    """One run of the loop: each statement's thread time, ns, summed over the iterations."""
    _, setup, steps, results = BODIES[name]
    ns = setup(np, args)
    spent = [0] * len(codes)
    clock = time.thread_time_ns
    for indices in steps(ns):
        ns.update(indices)
        for k, code in enumerate(codes):
            start = clock()
            exec(code, ns)
            spent[k] += clock() - start
    if np is la:
        la.eval(*(ns[r] for r in results))
    return spent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default=",".join(BODIES), help="comma-separated names")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    for name in args.only.split(","):
        body = statements(name)
        codes = [compile(s, f"<{name}>", "exec") for s in body]
        inputs = programs.make_inputs(name, "bench")
        steps = sum(1 for _ in BODIES[name][2](BODIES[name][1](numpy, inputs)))
        best_numpy, best_lazy = [float("inf")] * len(codes), [float("inf")] * len(codes)
        with la.config(backend="c"):
            for r in range(args.repeat + 1):
                a = run(name, numpy, [x.copy() if hasattr(x, "copy") else x for x in inputs], codes)
                b = run(name, la, [to_lazy(x) for x in inputs], codes)
                if r:  # (the first run builds the plans)
                    best_numpy = [min(x, y) for x, y in zip(best_numpy, a)]
                    best_lazy = [min(x, y) for x, y in zip(best_lazy, b)]
        print(f"\n{name}, {steps} iterations: us per iteration\n| statement | NumPy | lazyarray |"
              "\n|---|---|---|")
        for s, a, b in zip(body, best_numpy, best_lazy):
            print(f"| `{' '.join(s.split())}` | {a / steps / 1e3:.1f} | {b / steps / 1e3:.1f} |")
        print(f"| all | {sum(best_numpy) / steps / 1e3:.1f} | {sum(best_lazy) / steps / 1e3:.1f} |")


if __name__ == "__main__":
    main()
