"""Bugs the differential fuzzer (tests/fuzz_numpy.py) found, each pinned against NumPy on every
backend with the smallest program that showed it."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_oracle import assert_matches

import lazyarray as la


@pytest.mark.parametrize("chain", [
    lambda m, x: m.log2(m.log(m.exp(x))),  # log's value at position 2 was named `log2` ...
    lambda m, x: m.log10(m.exp(m.exp(x))),
    lambda m, x: m.exp2(m.exp(m.sin(x))),  # ... and shadowed libm's log2/exp2 after it
])
def test_values_named_like_libm_functions_do_not_shadow_them(backend, chain):
    x = np.array([0.5, 2.0, 8.0, -1.0])
    with np.errstate(all="ignore"):
        want = chain(np, x)
    assert_matches(chain(la, la.asarray(x)), want)
