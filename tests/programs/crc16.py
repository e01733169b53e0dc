"""CRC-16 (CCITT, poly 0x8408) over a byte array, bit by bit in Python over the array's bytes."""

import numpy

SIZES = {"small": dict(N=16), "bench": dict(N=12000)}


def inputs(rng, N):
    return (rng.integers(0, 256, size=N).astype(numpy.uint8),)


def kernel(np, data, poly=0x8408):
    crc = 0xFFFF
    for b in data:
        cur_byte = 0xFF & int(b)
        for _ in range(8):
            if (crc & 0x0001) ^ (cur_byte & 0x0001):
                crc = (crc >> 1) ^ poly
            else:
                crc >>= 1
            cur_byte >>= 1
    crc = ~crc & 0xFFFF
    crc = (crc << 8) | ((crc >> 8) & 0xFF)
    return crc & 0xFFFF
