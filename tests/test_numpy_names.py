"""The NumPy names of issue 24 (lazyarray/numpy_index_tricks.py, numpy_sets.py,
numpy_histograms.py, numpy_gradient.py, numpy_floats.py, numpy_polynomial.py, numpy_writes.py,
numpy_selection.py, numpy_windows.py, numpy_products.py, numpy_types.py, emath.py, lib/, the fft
2-D names, linalg's cond/multi_dot/tensor*) against NumPy on every backend: the same dtype and
shape exactly, values to NumPy's tolerance (C may contract a*b+c into FMA), errors of NumPy's
class; hypothesis over shapes and values where those vary."""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import lazyarray as la
from lazyarray.lib.stride_tricks import sliding_window_view
from numpy_oracle import on_device

rng = np.random.default_rng(24)
F = rng.standard_normal((4, 6))
F32 = F.astype(np.float32)
I = rng.integers(-5, 9, (4, 6))  # noqa: E741
V = rng.standard_normal(50)
B = rng.random((3, 13)) > 0.5
FN = F.copy()
FN[1, 2] = np.nan
X = np.array([0.0, 1, 3, 4, 7, 9])


def _mutated(m, make, write):
    a = make(m)
    write(m, a)
    return a


def _stack(parts):
    return [np.asarray(p) for p in parts]


CASES = {
    # index tricks
    "mgrid": lambda m: m.mgrid[0:3, 0:4],
    "mgrid_float": lambda m: m.mgrid[-1:1:0.5, 0:3],
    "mgrid_complex_step": lambda m: m.mgrid[0:1:5j, 2:3:3j],
    "mgrid_1d": lambda m: m.mgrid[1:10:2],
    "mgrid_negative_step": lambda m: m.mgrid[5:0:-2, 0:1:0.25],
    "ogrid_complex_float": lambda m: m.ogrid[-1:1:5j][2:],
    "ogrid": lambda m: m.ogrid[0:2, 0:1:4j][1],
    "ogrid_first": lambda m: m.ogrid[0:5, 0:2][0],
    "r_": lambda m: m.r_[1:4, 0, np.array([7, 8]), 2.5],
    "r_linspace": lambda m: m.r_[0:1:4j, F32[0]],
    "r_directive": lambda m: m.r_["0,2", [1, 2], [3, 4]],
    "r_axis": lambda m: m.r_["-1", F[:2], F[:2]],
    "r_trans": lambda m: m.r_["0,2,0", [1, 2], [3, 4]],
    "c_": lambda m: m.c_[np.array([1, 2]), np.array([3, 4])],
    "c_2d": lambda m: m.c_[F, I],
    "fromfunction": lambda m: m.fromfunction(lambda i, j: i * 10 + j, (3, 4)),
    "fromfunction_int": lambda m: m.fromfunction(lambda i, j: i == j, (3, 3), dtype=int),
    "fromiter": lambda m: m.fromiter((k * k for k in range(5)), dtype=np.float32),
    "fromiter_count": lambda m: m.fromiter(iter(range(10)), np.int64, count=4),
    "ndarray": lambda m: m.ndarray((2, 3), dtype=np.float32) * 0,
    "ndarray_int": lambda m: m.ndarray(4, dtype=m.int32) * 0,
    "put": lambda m: _mutated(
        m, lambda m: m.arange(10.0), lambda m, a: m.put(a, [1, 3, 1], [7, 8, 9])
    ),
    "put_cycle": lambda m: _mutated(
        m, lambda m: m.zeros((2, 3), dtype=np.int64), lambda m, a: m.put(a, [0, 2, 4, 5], [5, 6])
    ),
    "put_wrap": lambda m: _mutated(
        m, lambda m: m.arange(5), lambda m, a: m.put(a, [7, -9], 0, mode="wrap")
    ),
    "put_clip": lambda m: _mutated(
        m, lambda m: m.arange(5), lambda m, a: m.put(a, [7, -9], -1, mode="clip")
    ),
    "flat_read": lambda m: m.asarray(F).flat[[1, 7, 20]],
    "flat_slice": lambda m: m.asarray(F).T.flat[3:9],
    "flat_write": lambda m: _mutated(
        m, lambda m: m.array(I), lambda m, a: a.flat.__setitem__([0, 5], 100)
    ),
    "flat_write_cycle": lambda m: _mutated(
        m, lambda m: m.array(F), lambda m, a: a.flat.__setitem__(slice(2, 9), [1, 2, 3])
    ),
    "flat_assign_all": lambda m: _mutated(
        m, lambda m: m.array(F), lambda m, a: setattr(a, "flat", [1, 2])
    ),
    "flat_0d": lambda m: m.asarray(F[0, 0]).flat[0],
    "apply_along_axis": lambda m: m.apply_along_axis(lambda r: r[::-1] * 2, 0, I),
    "apply_along_axis_scalar": lambda m: m.apply_along_axis(lambda r: (r**2).sum(), 1, F),
    "apply_along_axis_2d": lambda m: m.apply_along_axis(lambda r: m.outer(r, r), 1, F[:, :3]),
    "apply_over_axes": lambda m: m.apply_over_axes(m.sum, np.arange(24).reshape(2, 3, 4), [0, 2]),
    "apply_over_axes_neg": lambda m: m.apply_over_axes(m.mean, F, -1),
    "mask_indices": lambda m: m.stack(m.mask_indices(4, m.triu, 1)),
    # sets, partial sorts
    "union1d": lambda m: m.union1d(I[0], I[1]),
    "intersect1d": lambda m: m.intersect1d(I[0], I[1:3]),
    "intersect1d_indices": lambda m: m.stack(m.intersect1d(I[0], I[1], return_indices=True)[1:]),
    "setdiff1d": lambda m: m.setdiff1d(I, I[1]),
    "setxor1d": lambda m: m.setxor1d(I[0], I[2]),
    "isin": lambda m: m.isin(I, I[0]),
    "isin_invert": lambda m: m.isin(I, [1, 2, 3], invert=True),
    "in1d": lambda m: m.in1d(I, I[0]) if m is la else np.isin(I.ravel(), I[0]),
    "in1d_invert": lambda m: (
        m.in1d(I[:2], [1, 2], invert=True)
        if m is la
        else np.isin(I[:2].ravel(), [1, 2], invert=True)
    ),
    "lexsort": lambda m: m.lexsort((I[0], I[1])),
    "lexsort_2d_keys": lambda m: m.lexsort(np.array([[1, 5, 1, 4, 3], [4, 4, 1, 9, 9]])),
    "lexsort_axis0": lambda m: m.lexsort((I, -I), axis=0),
    "lexsort_one": lambda m: m.lexsort(I[0]),
    # histograms, interp
    "histogram": lambda m: m.histogram(V, 7)[0],
    "histogram_edges": lambda m: m.histogram(V, 7)[1],
    "histogram_range": lambda m: m.histogram(V, 5, range=(-1, 1.5))[0],
    "histogram_int_range": lambda m: m.histogram(V, 6, range=(-3, 3))[0],
    "histogram_int_data_range": lambda m: m.histogram(I, 4, range=(-4, 8))[0],
    "histogram_int8_data": lambda m: m.histogram(I.astype(np.int8) * 16, 5)[0],
    "histogram_f32": lambda m: m.histogram(V.astype(np.float32), 4)[1],
    "histogram_int": lambda m: m.histogram(I, 3)[0],
    "histogram_int_edges": lambda m: m.histogram(I, 3)[1],
    "histogram_weights": lambda m: m.histogram(V, 6, weights=V**2)[0],
    "histogram_int_weights": lambda m: m.histogram(V, 6, weights=np.arange(50))[0],
    "histogram_density": lambda m: m.histogram(V, 6, density=True)[0],
    "histogram_edges_given": lambda m: m.histogram(V, [-2, -0.5, 0, 0.5, 3])[0],
    "histogram_edges_weights": lambda m: m.histogram(V, [-2, -0.5, 0, 0.5, 3], weights=V)[0],
    "histogram_edges_density": lambda m: m.histogram(V, [-2, -0.5, 0, 3], density=True)[0],
    "histogram_auto": lambda m: m.histogram(V, "auto")[0],
    "histogram_constant": lambda m: m.histogram(np.ones(5), 4)[1],
    "histogram_bin_edges": lambda m: m.histogram_bin_edges(V, 5, range=(0, 1)),
    "histogram_bin_edges_sturges": lambda m: m.histogram_bin_edges(V, "sturges"),
    "histogram2d": lambda m: m.histogram2d(V[:25], V[25:], bins=(3, 4))[0],
    "histogram2d_edges": lambda m: m.histogram2d(V[:25], V[25:], bins=3)[2],
    # NumPy stacks the columns to one dtype: a float32 y gets float64 edges beside a float64 x
    "histogram2d_mixed_edges": lambda m: m.histogram2d(V[:25], V[25:].astype(np.float32),
                                                       bins=3)[2],
    "histogram2d_range": lambda m: m.histogram2d(
        V[:25], V[25:], bins=4, range=[[-1, 1], [0, 2]], density=True
    )[0],
    "histogramdd": lambda m: m.histogramdd(V.reshape(-1, 2), bins=(2, [-1, 0, 1]))[0],
    "histogramdd_range": lambda m: m.histogramdd(
        (V[:25], V[25:]), bins=3, range=[(-1, 1), (-2, 0.5)], density=True
    )[0],
    "histogramdd_edges": lambda m: m.histogramdd(V.reshape(-1, 2), bins=(2, 5))[1][1],
    "histogramdd_weights": lambda m: m.histogramdd(
        V.reshape(-1, 5), bins=2, weights=np.arange(10.0)
    )[0],
    "interp": lambda m: m.interp([0.5, 1, 2.5, -1, 9, np.nan], [0, 1, 2, 3], [1, 3, 2, 0]),
    "interp_left_right": lambda m: m.interp(V, X, X**2, left=-7, right=7.5),
    "interp_period": lambda m: m.interp(
        [-180, 0.5, 370, 725], [0, 90, 180, 270], [1, 3, 2, 0], period=360
    ),
    "interp_complex": lambda m: m.interp(V[:5], X, X + 1j * X[::-1]),
    "interp_f32": lambda m: m.interp(F32[0], X, X[::-1]),
    "interp_one_point": lambda m: m.interp([-1.0, 2.0, 3.0], [2.0], [5.0]),
    # gradient, floats, bits
    "gradient": lambda m: m.gradient(F)[0],
    "gradient_axis1": lambda m: m.gradient(F, 0.5, axis=1),
    "gradient_coords": lambda m: m.gradient(F, 2.0, X)[1],
    "gradient_edge2": lambda m: m.gradient(F, edge_order=2)[1],
    "gradient_coords_edge2": lambda m: m.gradient(F, X, axis=-1, edge_order=2),
    "gradient_uniform_coords": lambda m: m.gradient(F32, np.arange(6.0) * 2, axis=1),
    "gradient_int": lambda m: m.gradient(I[0] ** 2),
    "gradient_f32": lambda m: m.gradient(F32, axis=0),
    "around": lambda m: m.around(np.array([0.5, 1.5, 2.675, -0.5]), 2),
    "around_int": lambda m: m.around(I, -1),
    "frexp_m": lambda m: m.frexp(F * 1e10)[0],
    "frexp_e": lambda m: m.frexp(F32 * 1e-20)[1],
    "frexp_int": lambda m: m.frexp(I.astype(np.int32))[0],
    "spacing": lambda m: m.spacing(np.array([0.0, -0.0, 1.0, -1.0, 1e300, np.inf, np.nan])),
    "spacing_f32": lambda m: m.spacing(F32),
    "nanargmax": lambda m: m.nanargmax(FN),
    "nanargmin_axis": lambda m: m.nanargmin(FN, axis=1),
    "nanargmax_keepdims": lambda m: m.nanargmax(FN, axis=0, keepdims=True),
    "nanargmax_int": lambda m: m.nanargmax(I, axis=1),
    "packbits": lambda m: m.packbits(B),
    "packbits_axis": lambda m: m.packbits(B, axis=1, bitorder="little"),
    "packbits_int": lambda m: m.packbits(I, axis=0),
    "unpackbits": lambda m: m.unpackbits(np.packbits(B, axis=1), axis=1),
    "unpackbits_count": lambda m: m.unpackbits(np.arange(6, dtype=np.uint8) * 40, count=-3),
    "unpackbits_count_pad": lambda m: m.unpackbits(
        np.arange(6, dtype=np.uint8).reshape(2, 3) * 40, axis=0, count=20, bitorder="little"
    ),
    "bitwise_count": lambda m: m.bitwise_count(I.astype(np.int8) * 13),
    "bitwise_count_u64": lambda m: m.bitwise_count(np.array([0, 1, 2**64 - 1, 12345], np.uint64)),
    "bitwise_count_min": lambda m: m.bitwise_count(np.array([np.iinfo(np.int64).min, -1, 7])),
    # polynomials
    "polyval": lambda m: m.polyval([3, 0, 1], F),
    "polyval_int": lambda m: m.polyval([1, 2, 3], I),
    "polyval_f32": lambda m: m.polyval(np.array([1.5, -2], np.float32), F32),
    "polyfit": lambda m: m.polyfit(V[:20], 3 * V[:20] ** 2 - V[20:40], 2),
    "polyfit_2d": lambda m: m.polyfit(V[:20], np.stack([V[20:40], V[30:]], 1), 3),
    "polyfit_weighted": lambda m: m.polyfit(V[:20], V[20:40], 1, w=np.abs(V[:20])),
    # NumPy's `rhs *= w` rounds a float32 y's weighted values to float32 (~1e-7 relative)
    "polyfit_weighted_f32": lambda m: m.polyfit(V[:20], V[20:40].astype(np.float32), 2,
                                                w=np.abs(V[:20]) * 3),
    "polyfit_full_resid": lambda m: m.polyfit(V[:20], V[20:40], 2, full=True)[1],
    "vander": lambda m: m.vander(X, 4),
    "vander_inc": lambda m: m.vander(F32[0], increasing=True),
    "poly1d_call": lambda m: m.poly1d([1, -2, 3])(F),
    "poly1d_coeffs": lambda m: m.poly1d([0, 1, 2]).coeffs,
    "roots": lambda m: m.sort_complex(m.roots([1, -3, 2, 5])),
    "poly": lambda m: m.poly([1, 2, 3]),
    "polyadd": lambda m: m.polyadd([1, 2], [3, 4, 5]),
    "polymul": lambda m: m.polymul([1, 2], [3, 4, 5]),
    "polydiv": lambda m: m.polydiv([1, 2, 3, 4], [1, 1])[0],
    "polyder": lambda m: m.polyder([1, 2, 3, 4], 2),
    "polyint": lambda m: m.polyint([1, 2, 3], k=2),
    # writes (rebind the handle)
    "copyto": lambda m: _mutated(m, lambda m: m.zeros((2, 3)), lambda m, a: m.copyto(a, F[0, :3])),
    "copyto_where": lambda m: _mutated(
        m, lambda m: m.array(F), lambda m, a: m.copyto(a, 7, where=F > 0)
    ),
    "copyto_cast": lambda m: _mutated(m, lambda m: m.array(F32), lambda m, a: m.copyto(a, F)),
    "putmask": lambda m: _mutated(
        m, lambda m: m.array(I), lambda m, a: m.putmask(a, I > 2, [-1, -2, -3])
    ),
    "place": lambda m: _mutated(m, lambda m: m.array(F), lambda m, a: m.place(a, F < 0, [10, 20])),
    "put_along_axis": lambda m: _mutated(
        m,
        lambda m: m.array(F),
        lambda m, a: m.put_along_axis(a, np.argmax(F, axis=1)[:, None], -1.0, axis=1),
    ),
    "put_along_axis_0": lambda m: _mutated(
        m,
        lambda m: m.array(I),
        lambda m, a: m.put_along_axis(a, np.array([[0, 1, 2, 3, 0, 1]]), np.arange(6), axis=0),
    ),
    "put_along_axis_none": lambda m: _mutated(
        m, lambda m: m.array(I), lambda m, a: m.put_along_axis(a, np.array([0, 23]), 99, axis=None)
    ),
    "fill_diagonal": lambda m: _mutated(
        m, lambda m: m.zeros((4, 4)), lambda m, a: m.fill_diagonal(a, 5)
    ),
    "fill_diagonal_tall_wrap": lambda m: _mutated(
        m,
        lambda m: m.zeros((7, 3), dtype=np.int64),
        lambda m, a: m.fill_diagonal(a, [1, 2], wrap=True),
    ),
    "fill_diagonal_tall": lambda m: _mutated(
        m, lambda m: m.zeros((7, 3)), lambda m, a: m.fill_diagonal(a, 4)
    ),
    "fill_diagonal_3d": lambda m: _mutated(
        m, lambda m: m.zeros((3, 3, 3)), lambda m, a: m.fill_diagonal(a, 2)
    ),
    # selection, assembly
    "choose": lambda m: m.choose(
        np.array([[0, 1, 2], [2, 1, 0]]), [F[0, :3], F32[1, :3], np.full(3, 9)]
    ),
    "choose_wrap": lambda m: m.choose(I[0], [1, 2, 3], mode="wrap"),
    "choose_clip": lambda m: m.choose(I[0], [F[0], F[1], F[2]], mode="clip"),
    "compress": lambda m: m.compress([True, False, True], F, axis=0),
    "compress_short": lambda m: m.compress([False, True], F, axis=1),
    "compress_flat": lambda m: m.compress(np.arange(24) % 5 == 0, F),
    "extract": lambda m: m.extract(F > 0, I),
    "insert_scalar": lambda m: m.insert(F, 2, 5.5, axis=1),
    "insert_scalar_row": lambda m: m.insert(F, 1, F[0], axis=0),
    "insert_list_one": lambda m: m.insert(F, [1], [[1], [2], [3], [4]], axis=1),
    "insert_many": lambda m: m.insert(I[0], [0, 3, 3, -1, 6], [10, 20, 30, 40, 50]),
    "insert_slice": lambda m: m.insert(I, slice(0, 4, 2), 0, axis=0),
    "insert_flat": lambda m: m.insert(I, 5, 7.9),
    "resize": lambda m: m.resize(F[0], (3, 5)),
    "resize_smaller": lambda m: m.resize(I, 7),
    "resize_empty": lambda m: m.resize(F[:0], (2, 2)),
    "block": lambda m: m.block([[F[:2, :2], F32[:2, :3]], [I[2:, :2], F[2:, :3]]]),
    "block_1d": lambda m: m.block([F[0], 7, F[1]]),
    "block_promote": lambda m: m.block([[F[0]], [F[1]]]),
    "block_3d": lambda m: m.block([[[F[0]]], [[F[1]]]]),
    "piecewise": lambda m: m.piecewise(F, [F < 0, F > 1], [lambda x: -x, lambda x: x * 10, 0.5]),
    "piecewise_scalars": lambda m: m.piecewise(I, [I < 0, I >= 3], [-1, 1]),
    "piecewise_one": lambda m: m.piecewise(F[0], F[0] > 0, [lambda x: x**2]),
    "trim_zeros": lambda m: m.trim_zeros(np.array([0, 0, 1, 0, 2, 0])),
    "trim_zeros_f": lambda m: m.trim_zeros(np.array([0, 0, 1, 0, 2, 0]), "f"),
    "trim_zeros_b": lambda m: m.trim_zeros(np.array([0.0, 3, 0]), trim="b"),
    "trim_zeros_all": lambda m: m.trim_zeros(np.zeros(3)),
    "sort_complex": lambda m: m.sort_complex(F[0] + 1j * F[1]),
    "sort_complex_int8": lambda m: m.sort_complex(I[0].astype(np.int8)),
    "sort_complex_f32": lambda m: m.sort_complex(F32[0]),
    "asanyarray": lambda m: m.asanyarray(F, dtype=np.float32),
    "ascontiguousarray": lambda m: m.ascontiguousarray(3.0),
    "asfortranarray": lambda m: m.asfortranarray(F.T),
    "require": lambda m: m.require(I, dtype=np.float64),
    "asarray_chkfinite": lambda m: m.asarray_chkfinite(F),
    "real_if_close": lambda m: m.real_if_close(F + 1e-20j),
    "real_if_close_not": lambda m: m.real_if_close(F + 1e-3j),
    "real_if_close_f32": lambda m: m.real_if_close((F + 1e-9j).astype(np.complex64)),
    # windows, i0, unwrap
    "hamming": lambda m: m.hamming(7),
    "hanning": lambda m: m.hanning(1),
    "blackman": lambda m: m.blackman(5),
    "bartlett": lambda m: m.bartlett(6),
    "kaiser": lambda m: m.kaiser(6, 14),
    "i0": lambda m: m.i0(np.concatenate([F.ravel() * 6, [0, 8, 8.5, -30, np.nan, 700]])),
    "i0_int": lambda m: m.i0(I),
    "unwrap": lambda m: m.unwrap(np.cumsum(F.ravel() * 3)),
    "unwrap_axis0": lambda m: m.unwrap(F * 5, axis=0, discont=4),
    "unwrap_period_int": lambda m: m.unwrap(np.array([0, 1, 2, -1, 0]), period=4),
    "unwrap_f32": lambda m: m.unwrap(F32 * 4, period=6),
    # products
    "matvec": lambda m: m.matvec(np.stack([F, F]), F[0]),
    "matvec_batch": lambda m: m.matvec(F[:, :3].reshape(2, 2, 3)[:, :, :], F32[:2, :3]),
    "vecmat": lambda m: m.vecmat(F[0, :4], F),
    "vecmat_complex": lambda m: m.vecmat(F[0, :4] + 1j * F[1, :4], F + 0.5j),
    # fft 2-D names, positional NumPy arguments
    "fft2": lambda m: m.fft.fft2(F),
    "fft2_s_axes": lambda m: m.fft.fft2(F, (5, 3), (1, 0), "ortho"),
    "ifft2": lambda m: m.fft.ifft2(F32),
    "rfft2": lambda m: m.fft.rfft2(F),
    "irfft2": lambda m: m.fft.irfft2(np.fft.rfft2(F)),
    "irfft2_s": lambda m: m.fft.irfft2(np.fft.rfft2(F), (4, 6)),
    "fftn_positional": lambda m: m.fft.fftn(F, (3, 8), (0, 1)),
    "rfftn_positional": lambda m: m.fft.rfftn(F32, None, (0,)),
    "fft_n_positional": lambda m: m.fft.fft(F, 8, 0),
    "fft_norm_none": lambda m: m.fft.ifft(F, None, -1, None),
    "fftfreq_d": lambda m: m.fft.fftfreq(8, 0.1),
    # linalg
    "cond": lambda m: m.linalg.cond(F[:, :4]),
    "cond_fro": lambda m: m.linalg.cond(F[:, :4], "fro"),
    "cond_stack": lambda m: m.linalg.cond(np.stack([F[:, :4], F[:, 1:5]]), 1),
    "cond_singular_svd": lambda m: m.linalg.cond(np.ones((3, 3))),
    "multi_dot": lambda m: m.linalg.multi_dot([F, F.T, F, F[0]]),
    "multi_dot_3": lambda m: m.linalg.multi_dot([F[0, :4], F, F.T]),
    "tensorinv": lambda m: m.linalg.tensorinv(
        np.eye(12).reshape(4, 3, 4, 3) + 0.1 * rng.standard_normal((4, 3, 4, 3)) * 0 + 0.1
    ),
    "tensorsolve": lambda m: m.linalg.tensorsolve(np.eye(6).reshape(2, 3, 6) + 0.1, F[:2, :3]),
    # emath
    "emath_sqrt_neg": lambda m: m.emath.sqrt(F),
    "emath_sqrt_pos": lambda m: m.emath.sqrt(np.abs(F32)),
    "emath_sqrt_int16": lambda m: m.emath.sqrt(I[0].astype(np.int16)),
    "emath_log": lambda m: m.emath.log(I[0] + 0.5),
    "emath_log10_pos": lambda m: m.emath.log10(np.arange(1, 5)),
    "emath_log2_f32": lambda m: m.emath.log2(F32),
    "emath_logn": lambda m: m.emath.logn(2, F[0]),
    "emath_power": lambda m: m.emath.power(F[0], 2),
    "emath_power_int_neg": lambda m: m.emath.power([2, 4], [-1, 2]),
    "emath_arccos": lambda m: m.emath.arccos(F),
    "emath_arcsin_in": lambda m: m.emath.arcsin(F / 10),
    "emath_arctanh": lambda m: m.emath.arctanh(F32 * 2),
    "emath_complex": lambda m: m.emath.sqrt(F + 0j),
    # stride tricks
    "sliding_window_view": lambda m: (
        sliding_window_view if m is la else np.lib.stride_tricks.sliding_window_view
    )(F, (2, 3)),
    "sliding_window_view_axis": lambda m: (
        sliding_window_view if m is la else np.lib.stride_tricks.sliding_window_view
    )(V, 5, axis=0).sum(-1),
    "sliding_window_view_same_axis": lambda m: (
        la.lib.stride_tricks.sliding_window_view
        if m is la
        else np.lib.stride_tricks.sliding_window_view
    )(F, (2, 2), axis=(1, 1)),
}


def _as_list(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


# Cases whose value is rounding noise, equal to NumPy's only through the same LAPACK call: the
# condition number of a singular matrix is 1 / (a singular value that is a rounding residue).
ROUNDING_NOISE = frozenset({"cond_singular_svd"})


def test_names_match_numpy(backend):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.RankWarning)
        wants = {k: np.asarray(f(np)) for k, f in CASES.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("error", la.LazyArrayFallbackWarning)
            lazy = {k: f(la) for k, f in CASES.items()}
    arrays = [v for v in lazy.values() if isinstance(v, la.Array)]
    la.eval(*arrays)
    for k, want in wants.items():
        got = np.asarray(lazy[k])
        assert got.dtype == want.dtype and got.shape == want.shape, (
            k,
            got.dtype,
            want.dtype,
            got.shape,
            want.shape,
        )
        if k in ROUNDING_NOISE and on_device():  # LAPACK's noise is not cuSOLVER's
            assert got > 1 / np.finfo(want.dtype).eps, (k, got)
            continue
        tight = 2e-5 if want.dtype in (np.float32, np.complex64) else 1e-11
        np.testing.assert_allclose(got, want, rtol=tight, atol=tight, err_msg=k, equal_nan=True)


def test_names_take_pending_arrays(reference_backend, monkeypatch):
    """The same cases with every input a pending Array (as in a program), evaluated together."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.RankWarning)
        wants = {k: np.asarray(f(np)) for k, f in CASES.items()}
        for name in ("F", "F32", "I", "V", "FN", "X", "B"):
            value = globals()[name]
            monkeypatch.setitem(
                globals(),
                name,
                la.asarray(value) & True if value.dtype == bool else la.asarray(value) + 0,
            )
        with warnings.catch_warnings():
            warnings.simplefilter("error", la.LazyArrayFallbackWarning)
            lazy = {k: f(la) for k, f in CASES.items()}
    la.eval(*[v for v in lazy.values() if isinstance(v, la.Array)])
    for k, want in wants.items():
        got = np.asarray(lazy[k])
        assert got.dtype == want.dtype and got.shape == want.shape, k
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5, err_msg=k, equal_nan=True)


def test_types_and_constructor(reference_backend):
    for name in (
        "ubyte",
        "byte",
        "short",
        "ushort",
        "intc",
        "uintc",
        "long",
        "ulong",
        "longlong",
        "ulonglong",
        "int_",
        "uint",
        "intp",
        "uintp",
        "single",
        "double",
        "csingle",
        "cdouble",
    ):
        # NumPy's scalar type itself (a dtype instance before stop 42: `la.double(3)` raised)
        assert getattr(la, name) is getattr(np, name), name
        assert type(getattr(la, name)(1)) is type(getattr(np, name)(1)), name
    x = la.ndarray((2, 3), dtype=la.ubyte)
    assert (
        isinstance(x, la.Array) and isinstance(x, la.ndarray) and issubclass(la.Array, la.ndarray)
    )
    assert x.dtype == np.uint8 and x.shape == (2, 3) and not np.asarray(x).any()
    assert isinstance(la.ones(3) + 1, la.ndarray) and not isinstance(np.ones(3), la.ndarray)
    assert la.ndarray(5).dtype == np.float64  # NumPy's default dtype
    assert la.issubdtype(la.asarray(F32).dtype, la.floating)
    assert not la.issubdtype(la.asarray(I).dtype, la.inexact)
    with pytest.raises(TypeError, match="buffer"):
        la.ndarray((2,), buffer=b"12345678")
    assert la.s_[1:3, ::2] == np.s_[1:3, ::2] and la.index_exp[2] == np.index_exp[2]
    assert list(la.ndindex(2, 3)) == list(np.ndindex(2, 3))
    assert list(la.ndenumerate(la.asarray(I[:2, :2]))) == list(np.ndenumerate(I[:2, :2]))
    assert [float(v) for v in la.asarray(F).flat] == list(F.flat)
    assert len(la.asarray(F).flat) == F.size


def test_mutating_functions_rebind_the_callers_handle(backend):
    """NumPy's writers change the array the caller holds: so do lazyarray's (the handle)."""

    def kernel(xp, a):
        xp.put(a, [0], 100)
        xp.copyto(a, a * 2, where=a > 50)
        a.flat[1] = -1

    ours, theirs = la.array(I), I.copy()
    kernel(la, ours)
    kernel(np, theirs)
    np.testing.assert_array_equal(np.asarray(ours), theirs)


@pytest.mark.parametrize(
    "call, exc",
    [
        (lambda m: m.put(m.arange(3), [5], 1), IndexError),
        (lambda m: m.copyto(m.arange(3), 1.5), TypeError),
        (lambda m: m.copyto(m.zeros(3), m.ones(4)), ValueError),
        (lambda m: m.histogram(np.array([1.0, np.nan]), 3), ValueError),
        (lambda m: m.histogram(V, 3, range=(2, 1)), ValueError),
        (lambda m: m.histogram(V, [3, 2, 1]), ValueError),
        (lambda m: m.histogram(V, -2), ValueError),
        (lambda m: m.nanargmax(np.array([np.nan, np.nan])), ValueError),
        (lambda m: m.nanargmin(np.array([[1.0, np.nan], [np.nan, np.nan]]), axis=1), ValueError),
        (lambda m: m.partition(np.arange(5), 5), ValueError),
        (lambda m: m.argpartition(np.arange(5), -6), ValueError),
        (lambda m: m.gradient(np.arange(2.0), edge_order=2), ValueError),
        (lambda m: m.gradient(F, [1, 2], axis=0), ValueError),
        (lambda m: m.gradient(F, 1, 2, 3), TypeError),
        (lambda m: m.interp([1.0], [1, 2], [1, 2, 3]), ValueError),
        (lambda m: m.interp([1.0], [1, 2], [1, 2], period=0), ValueError),
        (lambda m: m.unpackbits(np.arange(3)), TypeError),
        (lambda m: m.packbits(np.ones(3)), TypeError),
        (lambda m: m.choose(np.array([0, 3]), [1, 2]), ValueError),
        (lambda m: m.asarray_chkfinite(np.array([1.0, np.inf])), ValueError),
        (lambda m: m.block([(1, 2)]), TypeError),
        (lambda m: m.block([[1], 2]), ValueError),
        (lambda m: m.insert(np.arange(3), 5, 0), IndexError),
        (lambda m: m.fill_diagonal(m.zeros(3), 1), ValueError),
        (lambda m: m.resize(np.arange(3), (-1, 2)), ValueError),
        (lambda m: m.frexp(np.ones(2, complex)), TypeError),
        (lambda m: m.polyfit([1.0, 2.0], [1.0, 2.0], -1), ValueError),
        (lambda m: m.linalg.multi_dot([F]), ValueError),
        (lambda m: m.apply_along_axis(np.sum, 2, F), np.exceptions.AxisError),
        (lambda m: m.lexsort(()), TypeError),
        (lambda m: m.r_["x", 1], ValueError),
    ],
)
def test_errors_match_numpy(reference_backend, call, exc):
    with pytest.raises(exc), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call(np)
    with pytest.raises(exc):
        call(la)


def test_numpy_calls_stay_lazy(reference_backend):
    """np.histogram / np.interp / np.gradient / ... on Arrays dispatch here (NEP 18)."""
    x = la.asarray(V) * 2  # pending
    with warnings.catch_warnings():
        warnings.simplefilter("error", la.LazyArrayFallbackWarning)
        got = [
            np.histogram(x, 5)[0],
            np.interp(x, X, X),
            np.gradient(x),
            np.around(x, 1),
            np.partition(x, 3),
            np.lexsort((x, -x)),
            np.fft.fft2(x.reshape(5, 10)),
            np.polyval([1.0, 2.0], x),
        ]
    assert all(isinstance(g, la.Array) for g in got)
    np.testing.assert_allclose(np.asarray(got[1]), np.interp(V * 2, X, X))


floats = hnp.arrays(
    np.float64,
    hnp.array_shapes(min_dims=1, max_dims=1, min_side=1, max_side=40),
    elements=st.floats(-1e6, 1e6, allow_subnormal=False),
)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=floats,
    bins=st.integers(1, 9),
    use_range=st.sampled_from([None, float, int]),
    weighted=st.booleans(),
)
def test_histogram_equals_numpy(backend, data, bins, use_range, weighted):
    lo, hi = float(np.min(data)), float(np.max(data))
    rng_ = (
        None
        if use_range is None
        else (  # cuts off the top; Python ints or floats
            use_range(np.floor(lo - 1.0)),
            use_range(np.ceil(lo + (hi - lo) * 0.6 + 0.5)),
        )
    )
    w = np.linspace(0.5, 2.0, data.size) if weighted else None
    want_n, want_e = np.histogram(data, bins, range=rng_, weights=w)
    got_n, got_e = la.histogram(data, bins, range=rng_, weights=w)
    np.testing.assert_array_equal(np.asarray(got_e), want_e)
    assert np.asarray(got_n).dtype == want_n.dtype
    np.testing.assert_allclose(np.asarray(got_n), want_n, rtol=1e-12)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    x=floats,
    xp=hnp.arrays(
        np.float64,
        st.integers(1, 8),
        elements=st.floats(-1e3, 1e3, allow_subnormal=False),
        unique=True,
    ),
)
def test_interp_equals_numpy(backend, x, xp):
    xp = np.sort(xp)
    fp = np.cos(xp)
    np.testing.assert_allclose(
        np.asarray(la.interp(x, xp, fp)), np.interp(x, xp, fp), rtol=1e-12, atol=1e-12
    )


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    x=hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6),
        elements=st.floats(-100, 100) | st.just(np.nan),
    ),
    data=st.data(),
)
def test_partition_property(backend, x, data):
    """NumPy's own partition and argpartition (the order inside the parts too; NumPy's
    take_along_axis(x, argpartition) need not equal its partition, so neither is derived)."""
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    n = x.shape[axis]
    kth = data.draw(st.integers(-n, n - 1))
    got = np.asarray(la.partition(x, kth, axis=axis))
    np.testing.assert_array_equal(got, np.partition(x, kth, axis=axis))
    idx = np.asarray(la.argpartition(x, kth, axis=axis))
    np.testing.assert_array_equal(idx, np.argpartition(x, kth, axis=axis))


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    keys=hnp.arrays(
        np.int64, st.tuples(st.integers(1, 3), st.integers(1, 12)), elements=st.integers(-3, 3)
    )
)
def test_lexsort_equals_numpy(backend, keys):
    np.testing.assert_array_equal(np.asarray(la.lexsort(keys)), np.lexsort(keys))


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    x=hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=1, max_dims=3, min_side=3, max_side=6),
        elements=st.floats(-1e3, 1e3),
    ),
    edge=st.sampled_from([1, 2]),
    spacing=st.floats(0.1, 10),
)
def test_gradient_equals_numpy(backend, x, edge, spacing):
    want = np.gradient(x, spacing, edge_order=edge)
    got = la.gradient(x, spacing, edge_order=edge)
    for w, g in zip(
        want if isinstance(want, tuple) else (want,), got if isinstance(got, tuple) else (got,)
    ):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12, atol=1e-9)


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    x=hnp.arrays(np.uint8, hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5)),
    data=st.data(),
)
def test_bits_round_trip_equal_numpy(backend, x, data):
    axis = data.draw(st.none() | st.integers(0, x.ndim - 1))
    order = data.draw(st.sampled_from(["big", "little"]))
    bits = np.unpackbits(x, axis=axis, bitorder=order)
    np.testing.assert_array_equal(np.asarray(la.unpackbits(x, axis=axis, bitorder=order)), bits)
    np.testing.assert_array_equal(
        np.asarray(la.packbits(bits, axis=axis, bitorder=order)),
        np.packbits(bits, axis=axis, bitorder=order),
    )


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    x=hnp.arrays(
        np.float64, st.integers(1, 30), elements=st.floats(allow_nan=True, allow_infinity=True)
    )
)
def test_frexp_spacing_bit_exact(backend, x):
    with np.errstate(all="ignore"):
        m, e = np.frexp(x)
        lm, le = la.frexp(x)
        np.testing.assert_array_equal(np.asarray(lm), m)
        np.testing.assert_array_equal(np.asarray(le), e)
        np.testing.assert_array_equal(np.asarray(la.spacing(x)), np.spacing(x))


def test_host_helpers_are_numpys(reference_backend):
    """vectorize, einsum_path, the dtype and printing helpers give NumPy's answers."""
    f = la.vectorize(lambda a, b: a - b if a > b else a + b)
    np.testing.assert_array_equal(
        np.asarray(f(la.asarray(I), 2)), np.vectorize(lambda a, b: a - b if a > b else a + b)(I, 2)
    )

    @la.vectorize(otypes=[float])
    def g(a):
        return a * 2

    assert np.asarray(g(la.asarray([1, 2]))).dtype == np.float64
    want = np.einsum_path("ij,jk,kl->il", F, F.T, F, optimize="greedy")
    assert la.einsum_path("ij,jk,kl->il", la.asarray(F), F.T, la.asarray(F)) == want
    assert la.common_type(la.asarray(F32), la.asarray(I)) is np.common_type(F32, I)
    assert la.min_scalar_type(300) == np.min_scalar_type(300)
    assert la.promote_types("f4", "i8") == np.promote_types("f4", "i8")
    assert la.base_repr(10, 3) == np.base_repr(10, 3) and la.binary_repr(-3, 5) == "11101"
    assert la.array2string(la.asarray(F32[0])) == np.array2string(F32[0])
    assert la.array_repr(la.asarray(I[0])) == np.array_repr(I[0])
    with la.printoptions(precision=2):
        assert str(la.asarray([1.23456])) == "[1.23]"
    assert la.exceptions.AxisError is np.exceptions.AxisError
    assert la.linalg.LinAlgError is np.linalg.LinAlgError
