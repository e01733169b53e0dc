"""A one-operand einsum that sums nothing is NumPy's view of its operand, writable where the
operand is: `np.einsum('ii->i', A)[:] = v` sets A's diagonal (a known idiom). It raised "read-only"
here before stop 56 (the diagonal's view is np.diagonal's, which NumPy makes read-only)."""

import numpy as np
import pytest

import lazyarray as la

CASES = [("ii->i", (3, 3)), ("iji->ij", (3, 2, 3)), ("ij->ji", (2, 3)), ("...ii->...i", (2, 3, 3)),
         ("i->i", (4,)), ("jii->ij", (2, 3, 3))]


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_writes_through_an_einsum_view_reach_the_operand(backend, eager_size):
    with la.config(eager_size=eager_size):
        for subscripts, shape in CASES:
            ours = la.arange(float(np.prod(shape))).reshape(shape)
            theirs = np.arange(float(np.prod(shape))).reshape(shape)
            la.einsum(subscripts, ours)[...] = -1
            np.einsum(subscripts, theirs)[...] = -1
            assert np.array_equal(np.asarray(ours), theirs), subscripts


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_an_einsum_view_of_a_read_only_array_stays_read_only(backend, eager_size):
    with la.config(eager_size=eager_size):
        r = la.arange(9.0).reshape(3, 3)
        r.flags.writeable = False
        with pytest.raises(ValueError, match="read-only"):
            la.einsum("ii->i", r)[0] = 5
        # a host array is copied in: writes to its view could not reach it, so they raise
        with pytest.raises(ValueError, match="read-only"):
            la.einsum("ii->i", np.zeros((2, 2)))[:] = 3
