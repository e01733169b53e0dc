"""Sizes that overflow intp fail at the building line; out-of-memory names the shape and the line
(issue 10, item 4)."""

import numpy as np
import pytest

import lazyarray as la
from sites import assert_site


@pytest.mark.parametrize("build", [
    lambda: la.ones((2**32, 2**32), "float32").mean(),
    lambda: la.zeros((2**31, 2**31, 4), "uint8").max(),
    lambda: la.full((2**62,), 1.0, "float64"),
    lambda: la.broadcast_to(la.ones(1), (2**62,)),
    lambda: la.ones((2**32, 1), "float32") + la.ones((1, 2**32), "float32"),
])
def test_sizes_beyond_intp_raise_value_error_at_the_building_line(build):
    with pytest.raises(ValueError, match=r"too big") as info:
        build()
    assert_site(info, r"test_sizes.py:1\d")


def test_out_of_memory_names_the_shape_and_the_line(backend):
    y = la.ones((2**43,), "float64") * 2  # 64 TiB: within intp, beyond any machine here
    with pytest.raises(MemoryError, match=r"shape \(8796093022208,\) \(at .*test_sizes.py:2\d\)"):
        np.asarray(y)


def test_large_but_valid_shapes_still_build():
    assert la.ones((2**31, 2**31), "uint8").size == 2**62
