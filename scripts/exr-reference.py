#!/usr/bin/env python3
"""OpenEXR files written and read by OpenEXR's own Python bindings (PyPI `OpenEXR`), for
the EXR tests.

  exr-reference.py make DIR    writes the fixtures (testdata/exr): a 48×32 picture defined by
                               a formula (below), as half RGBA scanline/ZIP, float RGB
                               scanline/PIZ, half RGBA tiled 16×16, half luminance (Y), and half
                               RGB with a depth channel Z (a render pass Lumen does not read), whole
                               and subsampled 2×2; and a luminance/chroma file (Y, RY, BY)
  exr-reference.py read FILE   prints the file's R, G, B(, A) channels as JSON (float32, rows top first)

The formula, which the Swift tests compute too: at column x, row y,
  R = x / 8, G = y / 4, B = (x + y) / 32, A = 0.25 + 0.75 * x / 47 (premultiplied into RGB),
so values reach 5.9 (R), 7.75 (G): high dynamic range, linear light."""
import json, sys
import numpy as np
import OpenEXR

W, H = 48, 32

def picture():
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    a = 0.25 + 0.75 * x / 47
    r, g, b = x / 8, y / 4, (x + y) / 32
    return r * a, g * a, b * a, a, (r, g, b)

def write(path, channels, tiled=None, compression=OpenEXR.ZIP_COMPRESSION):
    header = {"compression": compression, "type": OpenEXR.tiledimage if tiled else OpenEXR.scanlineimage}
    if tiled:
        tiles = OpenEXR.TileDescription()
        tiles.xSize, tiles.ySize = tiled, tiled
        tiles.mode, tiles.roundingMode = OpenEXR.ONE_LEVEL, OpenEXR.ROUND_DOWN
        header["tiles"] = tiles
    with OpenEXR.File(header, channels) as f:
        f.write(path)

if sys.argv[1] == "make":
    out = sys.argv[2]
    r, g, b, a, straight = picture()
    half = lambda v: np.ascontiguousarray(v.astype(np.float16))
    write(f"{out}/rgba-half.exr", {"R": half(r), "G": half(g), "B": half(b), "A": half(a)})
    write(f"{out}/rgb-float-piz.exr", {"R": straight[0], "G": straight[1], "B": straight[2]}, compression=OpenEXR.PIZ_COMPRESSION)
    write(f"{out}/rgba-tiled.exr", {"R": half(r), "G": half(g), "B": half(b), "A": half(a)}, tiled=16)
    write(f"{out}/luminance.exr", {"Y": half(straight[1])})
    depth = np.float32(1) + np.mgrid[0:H, 0:W][1].astype(np.float32) / 16
    write(f"{out}/rgb-depth-half.exr", {"R": half(straight[0]), "G": half(straight[1]), "B": half(straight[2]), "Z": half(depth)})
    # The same with the depth subsampled 2×2 (the bindings store every other sample).
    write(f"{out}/rgb-subsampled-z.exr", {"R": OpenEXR.Channel(half(straight[0])), "G": OpenEXR.Channel(half(straight[1])),
                                          "B": OpenEXR.Channel(half(straight[2])), "Z": OpenEXR.Channel(half(depth), 2, 2)})
    # Luminance with subsampled chroma (RY, BY), as OpenEXR's RgbaOutputFile writes YC files.
    write(f"{out}/luminance-chroma.exr", {"Y": OpenEXR.Channel(half(straight[1])), "RY": OpenEXR.Channel(half(straight[0] * 0), 2, 2),
                                          "BY": OpenEXR.Channel(half(straight[2] * 0), 2, 2)})
elif sys.argv[1] == "read":
    with OpenEXR.File(sys.argv[2]) as f:
        planes = {}
        for key, channel in f.channels().items():  # the bindings group R, G, B(, A) as "RGB"/"RGBA"
            pixels = channel.pixels.astype(np.float32)
            if key in ("RGB", "RGBA"):
                for i, name in enumerate(key):
                    planes[name] = pixels[..., i].flatten().tolist()
            else:
                planes[key] = pixels.flatten().tolist()
        print(json.dumps({n: planes[n] for n in ("R", "G", "B", "A") if n in planes}))
