"""`.at[]` values are checked when the update is built, by NumPy's assignment rules for Python
scalars, and errors name the user's line (issue 10, item 5)."""

import numpy as np
import pytest

import lazyarray as la


@pytest.mark.parametrize("dtype, value, error", [
    ("uint16", float("nan"), ValueError),
    ("uint16", float("inf"), OverflowError),
    ("uint16", -1, OverflowError),
    ("uint16", 70000, OverflowError),
    ("int8", 2**64, OverflowError),
])
def test_bad_scalars_fail_at_the_building_line_as_numpy_does(dtype, value, error):
    cell = np.zeros(1, dtype)
    with pytest.raises(error):
        cell[0] = value
    x = la.zeros(3, dtype)
    with pytest.raises(error, match=r"test_at_values.py:23"):
        x.at[0].set(value)


def test_valid_scalars_store_as_numpy_does(backend):
    for dtype, value in [("uint64", 2**64 - 1), ("uint16", 1.9), ("int8", -128), ("bool", 2),
                         ("float32", 2**40)]:
        want = np.zeros(3, dtype)
        want[1] = value
        got = la.zeros(3, dtype).at[1].set(value)
        np.testing.assert_array_equal(np.asarray(got), want)
        assert got.dtype == want.dtype
