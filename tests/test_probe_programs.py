"""Differences found by running published-style NumPy programs with `import lazyarray as np`
(probe45; the programs are in the lead's notes): each test is one class of difference, checked
against NumPy's own answer (type, repr, dtype, shape, value)."""

import numpy as np

import lazyarray as la


def test_host_computed_scalars_stay_numpy_scalars():
    """NumPy's scalar from work done on the host (`unravel_index` of one index, a long
    non-associative `ufunc.reduce`) prints as that scalar and is 0-d; 0-d stayed 1-d before."""
    d = np.arange(12.0).reshape(3, 4)
    got = la.unravel_index(la.argmax(la.asarray(d)), d.shape)
    assert repr(got) == repr(np.unravel_index(np.argmax(d), d.shape))
    assert repr(la.ravel_multi_index((1, 2), (3, 4))) == repr(np.ravel_multi_index((1, 2), (3, 4)))
    x = np.arange(1, 300, dtype=np.int64)
    r = la.subtract.reduce(la.asarray(x))
    assert r.shape == () and repr(r) == repr(np.subtract.reduce(x))
    i, _ = la.unravel_index(7, (3, 4))
    i += 1  # NumPy's scalar: rebinds
    assert repr(i) == "np.int64(2)"
    assert repr(la.unravel_index([1, 5], (3, 4))) == repr(np.unravel_index([1, 5], (3, 4)))
