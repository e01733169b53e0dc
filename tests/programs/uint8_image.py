"""8-bit image arithmetic as image-processing tutorials write it (and the NumPy tutorial "X-ray
image processing"): uint8 plus a Python int wraps around, brightness by a widened int16 sum
clipped and cast back, inversion 255 - img, a luminance from float weights truncated with
astype(np.uint8), bit planes by `(img >> k) & 1`, a mask of the high nibble, in-place `img //= 2`
and `img[img > 200] = 255` on the argument, Sobel edges from slices with np.hypot scaled to
uint8, and sums whose dtype NumPy widens (uint8 -> uint64)."""

import numpy

SIZES = {"small": dict(H=8, W=10), "bench": dict(H=600, W=800)}


def inputs(rng, H, W):
    rgb = rng.integers(0, 256, (H, W, 3), dtype=numpy.uint8)
    gray = rng.integers(0, 256, (H, W), dtype=numpy.uint8)
    return rgb, gray


def kernel(np, rgb, gray):
    wrapped = gray + 100
    brighter = np.clip(gray.astype(np.int16) + 60, 0, 255).astype(np.uint8)
    inverted = 255 - gray
    R, G, B = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    luminance = (0.299 * R + 0.587 * G + 0.114 * B).astype(np.uint8)
    planes = np.stack([(gray >> k) & 1 for k in range(8)])
    high = gray & 0xF0
    xor = np.bitwise_xor(R, G)
    diff = R - G  # wraps
    absdiff = np.abs(R.astype(np.int16) - G.astype(np.int16)).astype(np.uint8)
    f = luminance.astype(np.float32) / 255
    gx = f[1:-1, 2:] - f[1:-1, :-2] + 2 * (f[2:, 2:] - f[2:, :-2]) / 2
    gy = f[2:, 1:-1] - f[:-2, 1:-1]
    mag = np.hypot(gx, gy)
    edges = (255 * mag / mag.max()).astype(np.uint8)
    total = gray.sum()
    mean = gray.mean()
    hist = np.bincount(gray.ravel(), minlength=256)
    gray //= 2
    gray[gray > 100] = 255
    rgb[..., 2] = luminance
    rgb += 1
    return (wrapped, brighter, inverted, luminance, planes, high, xor, diff, absdiff, mag, edges,
            total, mean, hist, planes.sum(axis=(1, 2)))
