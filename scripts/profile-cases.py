#!/usr/bin/env python3
"""Writes test images carrying each profile of the real-world corpus (scripts/fetch-profiles.sh)
and Little CMS's own conversion of their pixels to sRGB, through Pillow (its bundled lcms2),
for Tests/LumenTests/IO/RealProfileTests.
Usage: profile-cases.py PROFILES_DIR OUT_DIR   writes OUT_DIR/cases.json and the images.
Each profile goes into the formats that can hold its colour space: RGB into JPEG (4:4:4,
quality 100), PNG, TIFF, lossless WebP and HEIC (heif-enc from libheif-examples, lossless
4:4:4 RGB, as its manual says, keeping the input's profile; its pixels as pillow-heif, with its own newer libheif, decodes them); gray into JPEG, PNG and TIFF; CMYK into JPEG and
TIFF. The expected pixels are the file's decoded values (Pillow) converted to sRGB with the
relative colorimetric intent and black-point compensation, as 8-bit RGB. RGB matrix/curves
profiles, which Lumen evaluates exactly in floating point, are compared with Little CMS's
unoptimised evaluation (cmsFLAGS_NOOPTIMIZE): its optimised 8-bit matrix-shaper path holds
the matrix in 1.14 fixed point, which wraps for the large coefficients of Sigma's SD1 camera
profiles (pure green comes out cyan). Lumen converts every other profile through Little
CMS's own optimised transform, and is compared with that."""
import csv, io, json, os, subprocess, sys
from PIL import Image, ImageCms
from pillow_heif import register_heif_opener

register_heif_opener()

profiles_dir, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
W, H = 16, 8

def pattern(mode):
    pixels = []
    for i in range(W * H):
        a, b, c = (i * 37) % 256, (i * 91 + 40) % 256, (i * 53 + 200) % 256
        if i < 16: a = b = c = i * 17                      # a grey ramp
        if mode == "L": pixels.append(a)
        elif mode == "CMYK": pixels.append((a, b, c, (i * 29) % 128))
        else: pixels.append((a, b, c))
    image = Image.new(mode, (W, H))
    image.putdata(pixels)
    return image

srgb = ImageCms.createProfile("sRGB")
cases = []
with open(os.path.join(profiles_dir, "index.tsv")) as f:
    rows = list(csv.DictReader(f, delimiter="\t"))
for row in rows:
    space, klass = row["space"].strip(), row["class"].strip()
    if klass not in ("mntr", "prtr", "scnr") or space not in ("RGB", "GRAY", "CMYK"): continue
    icc = open(os.path.join(profiles_dir, row["file"]), "rb").read()
    mode = {"RGB": "RGB", "GRAY": "L", "CMYK": "CMYK"}[space]
    formats = {"RGB": ["jpg", "png", "tif", "webp", "heic"], "L": ["jpg", "png", "tif"], "CMYK": ["jpg", "tif"]}[mode]
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        # Unoptimised where Little CMS's optimisation is coarse: matrix/TRC RGB profiles, and
        # every gray one (its optimised gray curve is interpolated so coarsely near black that a
        # linear gray profile's code 1 comes out 6 instead of 13).
        exact = (space == "RGB" and row["model"].strip() == "matrix") or space == "GRAY"
        transform = ImageCms.buildTransform(source, srgb, mode, "RGB", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION | (ImageCms.Flags.NOOPTIMIZE if exact else 0))
    except Exception as error:          # Little CMS refuses it: Lumen must refuse it cleanly or read it
        transform, refusal = None, str(error)
    for ext in formats:
        name = f"{len(cases):03d}.{ext}"
        path = os.path.join(out, name)
        options = {"icc_profile": icc}
        if ext == "jpg": options.update(quality=100, subsampling=0)
        if ext == "webp": options.update(lossless=True)
        if ext == "tif": options.update(compression="tiff_deflate")
        if ext == "heic":
            # From a JPEG: heif-enc reads PNGs through libpng, which refuses HP's sRGB profile.
            pattern(mode).save(path + ".jpg", icc_profile=icc, quality=100, subsampling=0)
            subprocess.run(["heif-enc", "-L", "-p", "chroma=444", "--matrix_coefficients=0", "-o", path, path + ".jpg"],
                           check=True, stdout=subprocess.DEVNULL)
        else:
            pattern(mode).save(path, **options)
        case = {"file": name, "profile": row["file"], "space": space, "model": row["model"].strip(),
                "description": row["description"].strip(), "width": W, "height": H}
        if transform is not None:
            decoded = Image.open(path)
            decoded.load()
            converted = ImageCms.applyTransform(decoded, transform)
            case["expected"] = list(converted.convert("RGB").tobytes())
        else:
            case["refusedByLittleCMS"] = refusal
        cases.append(case)
json.dump(cases, open(os.path.join(out, "cases.json"), "w"))
print(f"{len(cases)} cases from {len(set(c['profile'] for c in cases))} profiles in {out}")
