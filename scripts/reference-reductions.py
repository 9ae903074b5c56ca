#!/usr/bin/env python3
"""numpy reference for Lumen's reduction filters (used by the tests).

Reads W×H RGBA float32 pixels (rows from the top, premultiplied linear, as Lumen's
.rgbaFloat render of the reduced rectangle gives them) from a raw file and prints, as
JSON, what each reduction must output: lists of [r, g, b, a] pixels in output order
(bottom row first, left to right).

usage: reference-reductions.py FILE WIDTH HEIGHT BINS MIN_STOP MAX_STOP
"""
import json
import sys

import numpy as np

path, width, height, bins = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
min_stop, max_stop = float(sys.argv[5]), float(sys.argv[6])
top_first = np.fromfile(path, dtype=np.float32).reshape(height, width, 4)
p = top_first[::-1].astype(np.float64)  # row index = y from the bottom
flat = p.reshape(-1, 4)
n = flat.shape[0]
ys, xs = np.divmod(np.arange(n), width)  # scan order: lowest y, then lowest x


def pick(largest):
    alpha = flat[:, 3]
    target = alpha.max() if largest else alpha.min()
    return flat[np.nonzero(alpha == target)[0][0]].tolist()  # first in scan order


def histogram(values, weights=None):
    index = np.clip(np.floor(values * bins), 0, bins - 1).astype(int)
    return np.bincount(index, weights=weights, minlength=bins)


def hist_all(pixels, weights=None):
    return np.stack([histogram(pixels[:, c], weights) for c in range(4)], axis=1) / n


red = np.nonzero(flat[:, 0] > 0)[0]
bounds = [0, 0, 0, 0]
if red.size:
    bx, by = xs[red], ys[red]
    bounds = [int(bx.min()), int(by.min()), int(bx.max() - bx.min() + 1), int(by.max() - by.min() + 1)]

with np.errstate(divide="ignore", invalid="ignore"):
    log_t = np.where(flat > 0, (np.log2(np.where(flat > 0, flat, 1)) - min_stop) / (max_stop - min_stop), 0)
    alpha = flat[:, 3:4]
    unpremultiplied = np.concatenate([np.where(alpha > 0, flat[:, :3] / np.where(alpha > 0, alpha, 1), 0), alpha], axis=1)

opaque = flat[:, 3] > 0
weighted = np.stack([histogram(unpremultiplied[opaque, c], flat[opaque, 3]) for c in range(4)], axis=1) / n

print(json.dumps({
    "areaAverage": [flat.mean(axis=0).tolist()],
    "areaMaximum": [flat.max(axis=0).tolist()],
    "areaMinimum": [flat.min(axis=0).tolist()],
    "areaMinMax": [flat.min(axis=0).tolist(), flat.max(axis=0).tolist()],
    "areaMinMaxRed": [[flat[:, 0].min(), flat[:, 0].max(), 0, 1]],
    "areaMaximumAlpha": [pick(True)],
    "areaMinimumAlpha": [pick(False)],
    "areaBoundsRed": [bounds],
    "columnAverage": p.mean(axis=0).tolist(),
    "rowAverage": p.mean(axis=1).tolist(),
    "areaHistogram": hist_all(flat).tolist(),
    "areaLogarithmicHistogram": (np.stack([histogram(log_t[:, c]) for c in range(4)], axis=1) / n).tolist(),
    "areaAlphaWeightedHistogram": weighted.tolist(),
}))
