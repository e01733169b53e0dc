"""Idioms of a sixth corpus of published NumPy programs (probe56: Project Euler and Advent of
Code solutions, QuantEcon lectures, image filters and dithering by hand, physics integrators,
hashing on uint64, DSP, Array API style code) that lazyarray answered differently from NumPy,
each against NumPy, on every backend, at the default and on the general path (eager_size=0,
the path a GPU takes)."""

import numpy as np
import pytest

import lazyarray as la

EAGER_SIZES = [0, 4096]


def _same_bits(got, want) -> None:
    """Same dtype and the same bits (NaN and signed zeros included)."""
    got = np.asarray(got)
    assert got.dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want, strict=False)
    assert got.tobytes() == np.asarray(want).tobytes(), (got, want)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_vdot_of_floats_is_blas_dot_as_numpy(backend, eager_size):
    """`np.vdot(psi, psi)` (a quantum state's norm, a complex CG's `r^H r`) summed the products
    in lazyarray's own order: the imaginary part of `vdot(z, z)` came out ~1e-16 where NumPy's
    (BLAS's zdotc) is exactly 0, and real dot products differed in their last bits, at every
    setting. NumPy's float and complex vdot is its dtype's dot (BLAS's), as lazyarray's dot."""
    rng = np.random.default_rng(0)
    z = rng.normal(size=(40, 40)) + 1j * rng.normal(size=(40, 40))
    v = rng.normal(size=1000)
    cases = [(z, z), (z[0], z[1]), (z.T, z), (z.astype(np.complex64), z.astype(np.complex64)),
             (v, v), (v.astype(np.float32), v.astype(np.float32)), (v.astype(np.float32), v),
             (z[0], v[:40]), (v[:40], z[0])]
    with la.config(eager_size=eager_size):
        for a, b in cases:
            _same_bits(la.vdot(la.asarray(a), la.asarray(b)), np.vdot(a, b))
        assert la.vdot(la.asarray(z), la.asarray(z)).imag == 0.0


def test_vdot_of_a_reversed_vector_at_once_is_numpys(backend):
    """At the default, `np.vdot(x[::-1], y)` of computed vectors is np.vdot's own call, whose
    plain loop sums a vector of negative stride (np.dot copies it for BLAS: other last bits)."""
    rng = np.random.default_rng(1)
    v = rng.normal(size=1000)
    z = rng.normal(size=(40, 40)) + 1j * rng.normal(size=(40, 40))
    V, Z = la.asarray(v), la.asarray(z)
    _same_bits(la.vdot(V[::-1], V), np.vdot(v[::-1], v))
    _same_bits(la.vdot(Z[::-1, 0], Z[:, 1]), np.vdot(z[::-1, 0], z[:, 1]))
