"""`la.lib.stride_tricks.as_strided` reads the memory NumPy's array would have at the strides
given (it raised AttributeError before stop 55): rolling windows, blocks, Toeplitz matrices and
broadcasts over C, transposed, sliced, reversed, Fortran-ordered and computed arrays give NumPy's
values and strides; the result is a read-only view that follows later writes to the array; reads
NumPy leaves undefined (outside the memory, between items) are a ValueError. On every backend, at
the default and on the general path (eager_size=0)."""

import numpy as np
import pytest

import lazyarray as la


def _toeplitz(m, strided):
    c = m.asarray([1.0, 2.0, 3.0, 4.0])
    values = m.concatenate((c[::-1], c[1:]))
    return strided(values[3:], (4, 4), (-8, 8))


CASES = {
    "rolling": lambda m, s: s(m.arange(10), (8, 3), (8, 8)),
    "rolling_default_args": lambda m, s: s(m.arange(10.0), shape=(4, 3), strides=(16, 8)),
    "blocks": lambda m, s: s(m.arange(16.0).reshape(4, 4), (2, 2, 2, 2), (64, 16, 32, 8)),
    "transposed": lambda m, s: s(m.arange(12.0).reshape(3, 4).T, (4, 2), (8, 32)),
    "sliced": lambda m, s: s(m.arange(12.0).reshape(3, 4)[1:], (3,), (16,)),
    "stepped": lambda m, s: s(m.arange(12.0).reshape(3, 4)[1:, ::2], (2, 2), (32, 8)),
    "reversed": lambda m, s: s(m.arange(12.0)[::-1], (3,), (-16,)),
    "fortran": lambda m, s: s(m.asfortranarray(m.arange(12.0).reshape(3, 4)), (6,), (16,)),
    "broadcast": lambda m, s: s(m.arange(3.0), (2, 3), (0, 8)),
    "int32": lambda m, s: s(m.arange(5, dtype=m.int32), (3, 3), (4, 4)),
    "no_args": lambda m, s: s(m.arange(5.0)),
    "computed": lambda m, s: s(m.arange(6.0).reshape(2, 3) * 2, (3, 2), (8, 8)),
    "empty": lambda m, s: s(m.arange(6.0), (0, 3), (8, 8)),
    "toeplitz": _toeplitz,
}


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_as_strided_reads_numpys_memory(backend, eager_size):
    with la.config(eager_size=eager_size):
        for name, make in CASES.items():
            want = make(np, np.lib.stride_tricks.as_strided)
            got = make(la, la.lib.stride_tricks.as_strided)
            np.testing.assert_array_equal(np.asarray(got), want, err_msg=name)
            assert got.dtype == want.dtype and got.strides == want.strides, name
            assert not got.flags.writeable, name


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_as_strided_follows_writes_and_refuses_its_own(backend, eager_size):
    with la.config(eager_size=eager_size):
        got = []
        for m in (np, la):
            x = m.arange(6.0)
            w = m.lib.stride_tricks.as_strided(x, (4, 3), (8, 8), writeable=False)
            x[3] = 99.0
            with pytest.raises(ValueError, match="read-only"):
                w[0, 0] = 1.0
            got.append((np.asarray(w).tolist(), float(w.sum())))
        assert got[0] == got[1]


def test_undefined_reads_are_refused():
    s = la.lib.stride_tricks.as_strided
    with pytest.raises(ValueError, match="outside the array's memory"):
        s(la.arange(6.0), (4, 3), (8, 16))
    with pytest.raises(ValueError, match="not a multiple of the item size"):
        s(la.arange(6.0), (4,), (12,))
    with pytest.raises(ValueError, match="mismatch in length of strides and shape"):
        s(la.arange(6.0), (2, 3), (8,))
    with pytest.raises(ValueError, match="items of another size"):  # (a float view of complex)
        s(la.asarray(np.arange(4.0) + 1j).real, (2,), (16,))


def test_sliding_window_view_reports_numpys_strides():
    for shape, window, axis in (((10,), 3, None), ((4, 5), (2, 3), None), ((4, 5), 2, 1)):
        x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
        want = np.lib.stride_tricks.sliding_window_view(x, window, axis)
        got = la.lib.stride_tricks.sliding_window_view(la.asarray(x), window, axis)
        assert got.strides == want.strides
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == \
            (want.flags.c_contiguous, want.flags.f_contiguous)
