"""la.fft against numpy.fft on every backend. The transforms need complex dtypes: where lazyarray
has none yet, they must say so (NotImplementedError); the frequency and shift helpers work now."""

from __future__ import annotations

import numpy as np
import pytest

import lazyarray as la

FFT_TESTS = ("fftn", "ifftn", "rfftn", "irfftn", "hfft", "ihfft")  # registry ops covered here
HAS_COMPLEX = np.dtype(np.complex128) in la.graph.SUPPORTED


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_frequencies_and_shifts_match_numpy(backend, dtype):
    x = np.arange(24.0).reshape(4, 6).astype(dtype)
    cases = {
        "fftfreq8": (la.fft.fftfreq(8, d=0.5, dtype=dtype), np.fft.fftfreq(8, 0.5)),
        "fftfreq7": (la.fft.fftfreq(7, dtype=dtype), np.fft.fftfreq(7)),
        "rfftfreq8": (la.fft.rfftfreq(8, d=2.0, dtype=dtype), np.fft.rfftfreq(8, 2.0)),
        "rfftfreq9": (la.fft.rfftfreq(9, dtype=dtype), np.fft.rfftfreq(9)),
        "fftshift": (la.fft.fftshift(la.array(x)), np.fft.fftshift(x)),
        "fftshift_axis": (la.fft.fftshift(la.array(x), axes=1), np.fft.fftshift(x, axes=1)),
        "ifftshift": (la.fft.ifftshift(la.array(x[:3, :5])), np.fft.ifftshift(x[:3, :5])),
        "roundtrip": (la.fft.ifftshift(la.fft.fftshift(la.array(x[:, :5]))), x[:, :5]),
    }
    la.eval(*[got for got, _ in cases.values()])
    for name, (got, want) in cases.items():
        assert got.dtype == dtype, name
        np.testing.assert_allclose(np.asarray(got), want.astype(dtype), rtol=1e-6, err_msg=name)


def test_fftfreq_is_computed_in_the_kernel(reference_backend):
    report = la.explain(la.fft.fftfreq(16) * 2.0)
    assert report.num_kernels == 1 and report.num_library_calls == 0
    assert report.kernels[0].inputs == []  # computed from the index: reads no memory


@pytest.mark.skipif(HAS_COMPLEX, reason="complex dtypes exist: the transforms are tested below")
def test_transforms_say_they_need_complex(reference_backend):
    x = la.array(np.ones((4, 4)))
    for fn in (la.fft.fft, la.fft.ifft, la.fft.fftn, la.fft.ifftn, la.fft.rfft, la.fft.irfft,
               la.fft.rfftn, la.fft.irfftn, la.fft.hfft, la.fft.ihfft):
        with pytest.raises(NotImplementedError, match="complex"):
            fn(x)


def test_transforms_run_numpy_fft_in_their_reference():
    """The registered library calls are numpy.fft's (what the transforms run once complex exists)."""
    from lazyarray.graph import get_op

    x = np.random.default_rng(0).standard_normal((3, 8))
    c = np.fft.fft(x)
    checks = [("fftn", x, ((8,), (1,), "backward"), np.fft.fft(x), np.complex128),
              ("ifftn", c, ((8,), (1,), "ortho"), np.fft.ifft(c, norm="ortho"), np.complex128),
              ("rfftn", x, ((3, 8), (0, 1), "backward"), np.fft.rfftn(x), np.complex128),
              ("irfftn", np.fft.rfft(x), ((8,), (1,), "forward"),
               np.fft.irfft(np.fft.rfft(x), norm="forward"), np.float64),
              ("hfft", c[:, :5], ((8,), (1,), "backward"), np.fft.hfft(c[:, :5], 8), np.float64),
              ("ihfft", x, ((8,), (1,), "backward"), np.fft.ihfft(x), np.complex128)]
    for name, arg, attrs, want, dt in checks:
        got = get_op(name).reference((arg,), attrs, np.dtype(dt))
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=name)


@pytest.mark.skipif(not HAS_COMPLEX, reason="lazyarray has no complex dtypes yet")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_transforms_match_numpy(backend, dtype):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 4, 6)).astype(dtype)
    X = la.array(x)
    spec = np.fft.fft(x)
    half = np.fft.rfft(x)
    cases = {
        "fft": (la.fft.fft(X), np.fft.fft(x)),
        "fft_n_axis": (la.fft.fft(X, n=5, axis=1), np.fft.fft(x, n=5, axis=1)),
        "ifft": (la.fft.ifft(la.array(spec), norm="ortho"), np.fft.ifft(spec, norm="ortho")),
        "fftn": (la.fft.fftn(X), np.fft.fftn(x)),
        "ifftn": (la.fft.ifftn(la.array(spec), axes=(0, 2)), np.fft.ifftn(spec, axes=(0, 2))),
        "rfft": (la.fft.rfft(X), half),
        "irfft": (la.fft.irfft(la.array(half)), np.fft.irfft(half)),
        "rfftn": (la.fft.rfftn(X, axes=(1, 2)), np.fft.rfftn(x, axes=(1, 2))),
        "irfftn": (la.fft.irfftn(la.array(np.fft.rfftn(x)), s=x.shape, axes=(0, 1, 2)),
                   np.fft.irfftn(np.fft.rfftn(x), s=x.shape, axes=(0, 1, 2))),
        "hfft": (la.fft.hfft(la.array(spec[..., :4])), np.fft.hfft(spec[..., :4])),
        "ihfft": (la.fft.ihfft(X), np.fft.ihfft(x)),
        "filter": (la.fft.irfft(la.fft.rfft(X) * 0.5, n=6), np.fft.irfft(half * 0.5, n=6)),
    }
    la.eval(*[got for got, _ in cases.values()])
    tol = 1e-4 if dtype == np.float32 else 1e-10
    for name, (got, want) in cases.items():
        assert got.shape == want.shape, name
        np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol, err_msg=name)


def test_namespace_is_complete():
    want = {"fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
            "fftfreq", "rfftfreq", "fftshift", "ifftshift"}
    assert want <= set(dir(la.fft))


class _NumpyAsDevice:
    """numpy under another name: runs the ops' CuPy code paths without a GPU."""

    def __getattr__(self, name):
        return getattr(np, name)


@pytest.mark.gpu
def test_cupy_paths_agree_with_the_references(monkeypatch):
    from lazyarray.graph import get_op, ops_fft

    monkeypatch.setattr(ops_fft, "_cupy", _NumpyAsDevice)
    x = np.random.default_rng(2).standard_normal((3, 8))
    c = np.fft.fft(x)
    for name, arg, attrs, dt in [("fftn", x, ((8,), (1,), "backward"), np.complex128),
                                 ("ifftn", c, ((3, 8), (0, 1), "ortho"), np.complex128),
                                 ("rfftn", x, ((8,), (1,), "forward"), np.complex128),
                                 ("irfftn", c[:, :5], ((8,), (1,), "backward"), np.float64),
                                 ("hfft", c[:, :5], ((8,), (1,), "backward"), np.float64),
                                 ("ihfft", x, ((8,), (1,), "backward"), np.complex128)]:
        op = get_op(name)
        want = op.reference((arg,), attrs, np.dtype(dt))
        np.testing.assert_allclose(op.cupy((arg,), attrs, np.dtype(dt)), want, err_msg=name)
