"""Writes into a large computed array through a view copy nothing they need not.

float32_mix's `w[0] /= np.float64(4.0)` on a (64, 400000) float32 argument cost 55-250 ms (NumPy
0.6): the at-once rule (lazyarray/eager.py `settle`) copied the whole buffer to write the row
into the copy, then found the row's value too large to compute now, left the write lazy and
threw the copy away. tracemalloc sees NumPy's allocations: the peak stays far below the array.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import lazyarray as la


def _program(xp, w, ref):
    w[0] /= np.float64(4.0)  # a float64 value cast back into the float32 row
    w[1] = ref[:w.shape[1]]
    w[2:4] *= 0.5
    return w


@pytest.mark.parametrize("eager_size", [None, 0])
def test_row_updates_of_a_large_array_copy_no_base(backend, backend_does, eager_size):
    rng = np.random.default_rng(0)
    wn = rng.standard_normal((64, 40000)).astype(np.float32)  # 10 MB, rows above eager_size
    ref = rng.standard_normal(40000)
    want = _program(np, wn.copy(), ref)
    settings = {} if eager_size is None else {"eager_size": eager_size}
    with la.config(**settings):
        w = la.array(wn)
        la.eval(w)
        tracemalloc.start()
        try:
            _program(la, w, la.asarray(ref))
            got = np.asarray(w)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    np.testing.assert_array_equal(got, want)
    if backend_does("donation"):
        assert peak < wn.nbytes / 3, f"{peak} bytes traced for a {wn.nbytes}-byte array"
