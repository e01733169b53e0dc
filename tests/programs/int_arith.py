"""Integer and casting arithmetic with NumPy's rules: `//` and `%` with negative operands, divmod,
int32/uint8 wraparound, astype truncation toward zero, np.round half to even, shifts and masks,
Python int scalars against small integer dtypes (NEP 50)."""

import numpy

SIZES = {"small": dict(N=40), "bench": dict(N=500000)}


def inputs(rng, N):
    a = rng.integers(-50, 50, N)
    b = rng.integers(1, 9, N) * rng.choice([-1, 1], N)
    pixels = rng.integers(0, 256, N).astype(numpy.uint8)
    f = rng.standard_normal(N) * 10.0
    return a, b, pixels, f


def kernel(np, a, b, pixels, f):
    q, r = a // b, a % b
    dq, dr = divmod(a, 7)
    neg_mod = -a % 5
    fmod = np.fmod(a, b)
    big = a.astype(np.int32) * np.int32(100_000_000)
    brightened = pixels + 100
    inverted = 255 - pixels
    diff = pixels.astype(np.int16) - pixels[::-1]
    halves = np.round(f * 2.0) / 2.0
    rounded = np.round(np.arange(-5, 6) * 0.5)
    trunc = f.astype(np.int64)
    floor = np.floor(f).astype(np.int64)
    as_u8 = np.clip(f * 10.0, 0, 255).astype(np.uint8)
    bits = (a.astype(np.int64) << 3) ^ (a >> 1) & 0xFF
    pw = np.power(b, 2)
    cum = np.cumsum(pixels, dtype=np.uint8)
    total = pixels.sum()
    mean_int = a.mean()
    return (q, r, dq, dr, neg_mod, fmod, big, brightened, inverted, diff, halves, rounded, trunc,
            floor, as_u8, bits, pw, cum, total, mean_int, a.dtype == np.int64)
