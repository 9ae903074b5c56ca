#!/usr/bin/env python3
"""OpenCV's Otsu threshold for Lumen's colorThresholdOtsu test.

Reads W×H RGBA float32 pixels (premultiplied linear, as Lumen's .rgbaFloat render gives
them), quantises Rec. 709 luma of the unpremultiplied colour to the 256 bins Lumen uses
(floor(l·256), clamped), and prints the threshold cv2.threshold(…, THRESH_OTSU) picks:
OpenCV sets the pixels above it, i.e. bins > t.

usage: otsu-opencv.py FILE WIDTH HEIGHT
"""
import sys

import cv2
import numpy as np

path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
p = np.fromfile(path, dtype=np.float32).reshape(height, width, 4).astype(np.float64)
alpha = p[..., 3]
luma = np.where(alpha > 0, (0.2126 * p[..., 0] + 0.7152 * p[..., 1] + 0.0722 * p[..., 2]) / np.where(alpha > 0, alpha, 1), 0)
bins = np.clip(np.floor(np.nan_to_num(luma) * 256), 0, 255).astype(np.uint8)
t, _ = cv2.threshold(bins, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
print(int(t))
