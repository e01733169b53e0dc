"""Spectral filtering with np.fft: a low-pass filter by zeroing rfft bins, a convolution by
fft products checked against np.convolve, the power spectrum's peak frequency from np.fft.rfftfreq
and a 2-D fft2 with fftshift."""

import numpy

SIZES = {"small": dict(N=64, cutoff=8), "bench": dict(N=262144, cutoff=2000)}


def inputs(rng, N, cutoff):
    t = numpy.arange(N) / N
    sig = numpy.sin(2 * numpy.pi * 5 * t) + 0.5 * rng.standard_normal(N)
    return sig, rng.random(9), cutoff


def kernel(np, sig, taps, cutoff):
    n = sig.shape[0]
    spec = np.fft.rfft(sig)
    spec[cutoff:] = 0
    smooth = np.fft.irfft(spec, n)
    m = n + taps.shape[0] - 1
    conv = np.fft.ifft(np.fft.fft(sig, m) * np.fft.fft(taps, m)).real
    direct = np.convolve(sig, taps)
    freqs = np.fft.rfftfreq(n, d=1.0 / n)
    power = np.abs(np.fft.rfft(sig)) ** 2
    peak = freqs[1:][np.argmax(power[1:])]
    img = sig[:(n // 8) * 8].reshape(8, -1)
    F = np.fft.fftshift(np.fft.fft2(img))
    return smooth, np.abs(conv - direct).max() < 1e-9, peak, np.abs(F), np.angle(F[0, :3])
