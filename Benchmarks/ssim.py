#!/usr/bin/env python3
"""SSIM of two 8-bit RGB pictures stored as raw interleaved bytes (vips rawsave), on Rec. 601 luma, with Gaussian
windows (sigma 1.5, 11 taps; K1 0.01, K2 0.03: Wang et al. 2004). Needs numpy.

    ssim.py REFERENCE.raw TEST.raw WIDTH HEIGHT
"""
import sys

import numpy as np


def luma(path, width, height):
    pixels = np.fromfile(path, dtype=np.uint8).astype(np.float64).reshape(height, width, -1)
    return 0.299 * pixels[:, :, 0] + 0.587 * pixels[:, :, 1] + 0.114 * pixels[:, :, 2]


def blur(plane):
    taps = np.exp(-0.5 * (np.arange(-5, 6) / 1.5) ** 2)
    taps /= taps.sum()
    rows = sum(t * np.roll(plane, k - 5, axis=0) for k, t in enumerate(taps))
    return sum(t * np.roll(rows, k - 5, axis=1) for k, t in enumerate(taps))[5:-5, 5:-5]


def ssim(a, b):
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    ma, mb = blur(a), blur(b)
    va, vb, cov = blur(a * a) - ma * ma, blur(b * b) - mb * mb, blur(a * b) - ma * mb
    return float((((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))).mean())


if __name__ == "__main__":
    w, h = int(sys.argv[3]), int(sys.argv[4])
    print(f"{ssim(luma(sys.argv[1], w, h), luma(sys.argv[2], w, h)):.5f}")
