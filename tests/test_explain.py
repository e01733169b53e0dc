"""la.explain and la.to_dot on golden examples."""

import numpy as np

import lazyarray as la


def _relu_affine():
    x = la.array(np.ones((4, 3)))
    w = la.array(np.ones((3, 5)))
    b = la.array(np.ones(5))
    return la.nn.relu(x @ w.T.T + b)  # the double transpose is simplified away


def test_explain_fields_on_relu_affine():
    e = la.explain(_relu_affine(), backend="numpy")
    assert isinstance(e, la.Explanation)
    assert (e.num_kernels, e.num_library_calls) == (1, 1)
    assert e.backend == "numpy"
    (k,) = e.kernels
    assert [f.split(" at ")[0] for f in k.fused if not f.startswith("broadcast_to")] == [
        "add", "maximum"]
    assert all(f.split(" at ")[1].startswith(__file__) for f in k.fused)
    assert k.outputs == ["buf4 float64[4, 5] (output 0)"]
    assert k.source is None  # the numpy backend prints no source
    assert e.library_calls[0].startswith("matmul(buf0 float64[4, 3] (input 0)")
    # the matmul writes into the output's buffer and the kernel updates it in place (an in-place
    # chain ending at an output, passes/plan_memory.py): no intermediate
    assert e.peak_bytes == 0
    assert "permute" in e.graph_before and "permute" not in e.graph_after
    assert "matmul input" not in " ".join(e.notes)  # inputs are leaves: nothing materialized


def test_explain_notes_why_fusion_stopped():
    x = la.array(np.ones((4, 3)))
    y = la.exp(x) @ la.array(np.ones((3, 2)))
    e = la.explain(y, backend="numpy")
    assert (e.num_kernels, e.num_library_calls) == (1, 1)
    assert any("matmul input must be materialized" in n for n in e.notes)
    s = la.sum(x, axis=1)
    z = la.reshape(s, (2, 2)).T + la.array(np.ones((2, 2)))
    e2 = la.explain(z, backend="numpy")
    assert any("different index space" in n for n in e2.notes), e2.notes


def test_explain_does_not_evaluate_and_prints():
    y = _relu_affine()
    text = str(la.explain(y, backend="numpy"))
    assert "1 kernel(s), 1 library call(s)" in text and "graph after passes:" in text
    assert y._node.op.name != "input"  # still lazy


def test_to_dot_has_kernel_clusters():
    dot = la.to_dot(_relu_affine())
    assert dot.startswith("digraph lazyarray {") and dot.rstrip().endswith("}")
    assert dot.count("subgraph cluster_") == 1
    assert 'label="k1_add_maximum"' in dot and "matmul" in dot
