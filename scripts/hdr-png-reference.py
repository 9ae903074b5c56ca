#!/usr/bin/env python3
"""Reads an HDR PNG (16-bit, cICP chunk) without Lumen, for the HDR PNG tests:

  hdr-png-reference.py FILE   prints, as JSON, the chunk types in order, the cICP chunk's four
                              bytes, and the pixels as linear light relative to SDR white
                              (rows top first, RGB interleaved): OpenCV reads the 16-bit codes,
                              and numpy undoes SMPTE ST 2084 (PQ, 10000 cd/m² peak) or ARIB
                              STD-B67 (HLG's inverse OETF), with SDR white at ITU-R BT.2408's
                              203 cd/m² (PQ) and 75 % of the HLG signal."""
import json, struct, sys
import cv2
import numpy as np

data = open(sys.argv[1], "rb").read()
chunks, cicp, at = [], None, 8
while at + 12 <= len(data):
    size, kind = struct.unpack(">I4s", data[at:at + 8])
    chunks.append(kind.decode())
    if kind == b"cICP":
        cicp = list(data[at + 8:at + 12])
    at += 12 + size
codes = cv2.imread(sys.argv[1], cv2.IMREAD_UNCHANGED)
rgb = codes[..., 2::-1] if codes.ndim == 3 else codes  # OpenCV's BGR(A) to RGB
e = rgb.astype(np.float64) / 65535
if cicp and cicp[1] == 16:
    m1, m2 = 2610 / 16384, 2523 / 4096 * 128
    c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
    p = e ** (1 / m2)
    linear = (np.maximum(p - c1, 0) / (c2 - c3 * p)) ** (1 / m1) * 10000 / 203
elif cicp and cicp[1] == 18:
    a = 0.17883277
    b, c = 1 - 4 * a, 0.5 - a * np.log(4 * a)
    scene = np.where(e <= 0.5, e * e / 3, (np.exp((e - c) / a) + b) / 12)
    white = (np.exp((0.75 - c) / a) + b) / 12
    linear = scene / white
else:
    linear = np.where(e <= 0.04045, e / 12.92, ((e + 0.055) / 1.055) ** 2.4)
print(json.dumps({"chunks": chunks, "cicp": cicp, "shape": list(linear.shape), "linear": [float(v) for v in linear.ravel()]}))
