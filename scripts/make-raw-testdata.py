#!/usr/bin/env python3
"""Writes testdata/raw: DNG files synthesised from a known picture, for the RAW tests.

The picture is a crop of testdata/photo.jpg in linear sRGB. Each DNG holds its RGGB Bayer
mosaic (12-bit values in 16-bit samples, black 0, white 4095) with the tags a DNG reader
needs: CFA layout, DNG version, ColorMatrix1 = XYZ(D65) → camera, where the "camera" is
linear sRGB itself (so a correct development gives the picture back), D65 as calibration
illuminant, and a neutral AsShotNeutral. `source.png` is the picture (8-bit sRGB), for the
tests to compare developments with; `rotated.dng` says orientation 6; `warm.dng` was
"shot" under light whose white is (1, 0.8, 0.55) in camera RGB, and says so in
AsShotNeutral. Needs numpy, Pillow and tifffile. Run from the repository root."""
import numpy as np
import tifffile
from PIL import Image

out = "testdata/raw"
photo = Image.open("testdata/photo.jpg").convert("RGB").crop((200, 120, 200 + 128, 120 + 96))
photo.save(f"{out}/source.png")
srgb = np.asarray(photo, dtype=np.float64) / 255
linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)

# sRGB (D65) → XYZ, IEC 61966-2-1; ColorMatrix1 is its inverse (XYZ → camera = linear sRGB).
to_xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
color_matrix = np.linalg.inv(to_xyz)

def srational(values):
    return [v for x in values for v in (int(round(x * 10000)), 10000)]

def write(name, picture, orientation=1, neutral=(1, 1, 1)):
    h, w, _ = picture.shape
    mosaic = np.zeros((h, w), dtype=np.uint16)
    codes = np.clip(np.round(picture * 4095), 0, 4095).astype(np.uint16)
    mosaic[0::2, 0::2] = codes[0::2, 0::2, 0]  # R
    mosaic[0::2, 1::2] = codes[0::2, 1::2, 1]  # G
    mosaic[1::2, 0::2] = codes[1::2, 0::2, 1]  # G
    mosaic[1::2, 1::2] = codes[1::2, 1::2, 2]  # B
    tags = [
        (254, "I", 1, 0, True),                     # NewSubfileType: the main image
        (271, "s", 0, "Lumen", True),               # Make
        (272, "s", 0, "Synthetic RGGB", True),      # Model
        (274, "H", 1, orientation, True),           # Orientation
        (33421, "H", 2, (2, 2), True),              # CFARepeatPatternDim
        (33422, "B", 4, (0, 1, 1, 2), True),        # CFAPattern: R G / G B
        (50706, "B", 4, (1, 4, 0, 0), True),        # DNGVersion
        (50707, "B", 4, (1, 1, 0, 0), True),        # DNGBackwardVersion
        (50708, "s", 0, "Lumen Synthetic RGGB", True),  # UniqueCameraModel
        (50714, "I", 1, 0, True),                   # BlackLevel
        (50717, "I", 1, 4095, True),                # WhiteLevel
        (50721, "2i", 9, srational(color_matrix.flatten()), True),  # ColorMatrix1
        (50728, "2I", 3, [v for x in neutral for v in (int(round(x * 10000)), 10000)], True),  # AsShotNeutral
        (50778, "H", 1, 21, True),                  # CalibrationIlluminant1: D65
    ]
    tifffile.imwrite(f"{out}/{name}", mosaic, photometric=32803, compression=None, extratags=tags,
                     metadata=None, software=False)

write("rggb.dng", linear)
write("rotated.dng", linear, orientation=6)
warm = np.array([1.0, 0.8, 0.55])
write("warm.dng", linear * warm, neutral=warm)
