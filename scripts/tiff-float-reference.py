#!/usr/bin/env python3
"""32-bit floating-point TIFFs written and read by tools other than Lumen, for the float-TIFF tests.

  tiff-float-reference.py make DIR   writes the fixtures (testdata/tiff-float):
      rgba-tifffile.tif   48×32 RGBA float32 by tifffile (PyPI), straight alpha, Deflate with
                          the floating-point predictor, from the formula below, with a NaN at
                          (0, 0) red and +inf at (1, 0) green
      gray-tifffile.tif   48×32 gray float32 by tifffile, LZW, the formula's green
      scrgb-vips.tif      a 64×40 crop of testdata/photo.jpg as libvips's scRGB (linear float
                          RGB: `vips colourspace … scrgb`), Deflate
      scrgb-vips.png      vips's own conversion of scrgb-vips.tif back to 8-bit sRGB (the reference)
  tiff-float-reference.py read FILE  prints, as JSON, the file's samples as tifffile reads them
                          (float32, rows top first, interleaved) and its tags: SampleFormat,
                          Predictor, ExtraSamples, Photometric, whether it has an ICC profile

The formula, which the Swift tests compute too: at column x, row y,
  R = x / 8, G = y / 4, B = (x + y) / 32, A = 0.25 + 0.75 * x / 47 (straight),
so values reach 5.9 (R) and 7.75 (G): linear light above 1."""
import json, os, subprocess, sys
import numpy as np
import tifffile

W, H = 48, 32


def formula():
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    return np.stack([x / 8, y / 4, (x + y) / 32, 0.25 + 0.75 * x / 47], axis=-1).astype(np.float32)


if sys.argv[1] == "make":
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    rgba = formula()
    rgba[0, 0, 0] = np.nan
    rgba[0, 1, 1] = np.inf
    tifffile.imwrite(f"{out}/rgba-tifffile.tif", rgba, photometric="rgb", extrasamples=["unassalpha"],
                     compression="zlib", predictor=True)
    tifffile.imwrite(f"{out}/gray-tifffile.tif", np.ascontiguousarray(formula()[..., 1]), photometric="minisblack",
                     compression="lzw")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    crop = f"{out}/.crop.png"
    subprocess.run(["vips", "crop", f"{root}/testdata/photo.jpg", crop, "300", "180", "64", "40"], check=True)
    subprocess.run(["vips", "colourspace", crop, f"{out}/scrgb-vips.tif[compression=deflate]", "scrgb"], check=True)
    subprocess.run(["vips", "colourspace", f"{out}/scrgb-vips.tif", f"{out}/scrgb-vips.png", "srgb"], check=True)
    os.remove(crop)
elif sys.argv[1] == "read":
    with tifffile.TiffFile(sys.argv[2]) as f:
        page = f.pages[0]
        samples = page.asarray().astype(np.float32)
        tags = {name: page.tags[name].value for name in ("SampleFormat", "Predictor", "ExtraSamples", "PhotometricInterpretation")
                if name in page.tags}
        tags = {k: (int(v) if not isinstance(v, tuple) else [int(e) for e in v]) for k, v in tags.items()}
        tags["ICC"] = bool(page.tags.get("InterColorProfile") is not None)
    print(json.dumps({"shape": list(samples.shape), "samples": [float(v) for v in samples.ravel()], "tags": tags}))
