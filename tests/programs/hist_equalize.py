"""Histogram equalisation of an 8-bit image (scikit-image style written in NumPy): np.bincount
histogram, a cumulative distribution, a uint8 lookup table indexed by the image, np.pad and a 3x3
box blur from shifted slices kept in uint16, a threshold by np.where."""

import numpy

SIZES = {"small": dict(H=12, W=10), "bench": dict(H=1200, W=1600)}


def inputs(rng, H, W):
    img = numpy.clip(rng.normal(90, 30, (H, W)), 0, 255).astype(numpy.uint8)
    return (img,)


def kernel(np, img):
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[cdf > 0].min()
    lut = np.round((cdf - cdf_min) / (img.size - cdf_min) * 255).clip(0, 255).astype(np.uint8)
    equalized = lut[img]
    padded = np.pad(img, 1, mode="edge").astype(np.uint16)
    H, W = img.shape
    acc = np.zeros((H, W), dtype=np.uint16)
    for dy in range(3):
        for dx in range(3):
            acc += padded[dy:dy + H, dx:dx + W]
    blurred = (acc // 9).astype(np.uint8)
    mask = np.where(blurred > blurred.mean(), 255, 0).astype(np.uint8)
    img[img > 200] = 200
    return equalized, blurred, mask, hist.argmax(), np.percentile(equalized, 90)
