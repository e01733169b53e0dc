import numpy as np

import lazyarray as la


def test_issue_example_matches_numpy():
    rng = np.random.default_rng(0)
    xn = rng.random((64, 128), dtype=np.float32)
    wn = rng.random((128, 32), dtype=np.float32)
    y = la.tanh(la.array(xn) @ la.array(wn) + la.zeros(32, dtype=la.float32))
    assert y.shape == (64, 32) and y.dtype == la.float32
    np.testing.assert_allclose(np.asarray(y), np.tanh(xn @ wn), rtol=1e-5)
