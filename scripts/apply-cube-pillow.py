#!/usr/bin/env python3
"""Applies a .cube 3D LUT to an 8-bit RGB image with Pillow's Color3DLUT (trilinear, on
the encoded values): the independent reference for colorCubeWithColorSpace (sRGB).

usage: apply-cube-pillow.py LUT.cube IN.png OUT.png
"""
import sys

from PIL import Image, ImageFilter

size, table = 0, []
for line in open(sys.argv[1]):
    fields = line.split()
    if not fields or fields[0].startswith("#") or fields[0] in ("TITLE", "DOMAIN_MIN", "DOMAIN_MAX"):
        continue
    if fields[0] == "LUT_3D_SIZE":
        size = int(fields[1])
        continue
    table.extend(float(v) for v in fields)
lut = ImageFilter.Color3DLUT(size, table)  # red fastest, as in .cube files
Image.open(sys.argv[2]).convert("RGB").filter(lut).save(sys.argv[3])
