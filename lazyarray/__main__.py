"""`python -m lazyarray`: a tour in a few seconds.

Builds a 2-layer MLP forward pass with softmax and a cross-entropy loss, shows that building it ran
nothing (the Arrays are pending expressions with known shapes and dtypes), prints the graph it
built, evaluates the outputs together as one graph, and compares them with the same computation in
NumPy. Then it shows what the graph lowered to (la.explain) and runs the model in a loop, where
every iteration after the first reuses the cached plan (la.cache_info).
"""

from __future__ import annotations

import time

import numpy as np

import lazyarray as la
from lazyarray.evaluation import options
from lazyarray.graph import Graph
from lazyarray.graph.node import register_user_file

register_user_file(__file__)  # error sites and the graph listing point at this file's lines

BATCH, IN, HIDDEN, CLASSES = 64, 128, 256, 10


def make_data(seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    f32 = np.float32
    return {
        "x": rng.standard_normal((BATCH, IN)).astype(f32),
        "w1": (rng.standard_normal((IN, HIDDEN)) / np.sqrt(IN)).astype(f32),
        "b1": np.zeros(HIDDEN, f32),
        "w2": (rng.standard_normal((HIDDEN, CLASSES)) / np.sqrt(HIDDEN)).astype(f32),
        "b2": np.zeros(CLASSES, f32),
        "labels": rng.integers(0, CLASSES, BATCH),
    }


def forward(xp, p, onehot):
    """The model, written once for both NumPy (`xp=np`) and lazyarray (`xp=la`)."""
    h = xp.tanh(p["x"] @ p["w1"] + p["b1"])
    logits = h @ p["w2"] + p["b2"]
    z = logits - logits.max(axis=-1, keepdims=True)
    log_probs = z - xp.log(xp.exp(z).sum(axis=-1, keepdims=True))
    loss = -(log_probs * onehot).sum(axis=-1).mean()
    return xp.exp(log_probs), loss


def build(data: dict[str, np.ndarray]) -> tuple[la.Array, la.Array]:
    params = {k: la.array(v) for k, v in data.items() if k != "labels"}
    onehot = la.array(np.eye(CLASSES, dtype=np.float32)[data["labels"]])
    return forward(la, params, onehot)


def show_pending(probs: la.Array, loss: la.Array) -> None:
    print("1. Built the model. Nothing has run yet:")
    for name, a in (("probs", probs), ("loss", loss)):
        state = "evaluated" if a.expr.is_evaluated else "pending"
        print(f"   {name}: shape={a.shape} dtype={a.dtype} -> {state}")


def show_graph(probs: la.Array, loss: la.Array) -> None:
    graph = Graph([probs._node, loss._node])
    print(f"\n2. The graph it built ({len(graph)} nodes, both outputs share it):")
    for line in graph.to_text().splitlines():
        print("   " + line)


def show_kernels(probs: la.Array, loss: la.Array) -> None:
    info = la.explain(probs, loss)
    print(f"\n3. It lowers to {info.num_kernels} generated kernel(s) and {info.num_library_calls} "
          f"library call(s) (matmul), peak intermediate memory {info.peak_bytes} bytes:")
    for k in info.kernels:
        print(f"   {k.name}: fuses {len(k.fused)} ops")


def evaluate(probs: la.Array, loss: la.Array) -> None:
    start = time.perf_counter()
    la.eval(probs, loss)  # one graph for both outputs
    ms = (time.perf_counter() - start) * 1e3
    print(f"\n4. Evaluated both outputs as one graph (backend {options().backend}, {ms:.1f} ms):")
    print(f"   loss = {float(loss):.6f}")
    with np.printoptions(precision=3, suppress=True):
        print(f"   probs[:2, :5] = {np.asarray(probs)[:2, :5]}".replace("\n", "\n" + " " * 19))


def compare(data: dict[str, np.ndarray], probs: la.Array, loss: la.Array) -> bool:
    onehot = np.eye(CLASSES, dtype=np.float32)[data["labels"]]
    want_probs, want_loss = forward(np, data, onehot)
    err_p = float(np.max(np.abs(np.asarray(probs) - want_probs)))
    err_l = abs(float(loss) - float(want_loss))
    ok = err_p < 1e-5 and err_l < 1e-5
    print(f"\n5. Against NumPy: max |probs - numpy| = {err_p:.2e}, |loss - numpy| = {err_l:.2e}"
          f" -> {'match' if ok else 'MISMATCH'}")
    return ok


def loop(iterations: int = 20) -> None:
    la.clear_caches()
    start = time.perf_counter()
    for seed in range(iterations):  # a fresh batch each time: same structure, new data
        _, loss = build(make_data(seed))
        float(loss)
    ms = (time.perf_counter() - start) * 1e3 / iterations
    info = la.cache_info()
    print(f"\n6. {iterations} iterations with fresh data: {info.plans_built} plan built, "
          f"{info.plan_hits} cached-plan hits, {ms:.2f} ms per iteration")


def main() -> int:
    data = make_data()
    probs, loss = build(data)
    show_pending(probs, loss)
    show_graph(probs, loss)
    show_kernels(probs, loss)
    evaluate(probs, loss)
    ok = compare(data, probs, loss)
    loop()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
