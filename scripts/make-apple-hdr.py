#!/usr/bin/env python3
"""Writes testdata/hdr/apple-hdr.heic: a HEIC laid out as iPhones write HDR photos (iOS 14.1
and later), built from Apple's public description ("Applying Apple HDR effect to your
photos"): the SDR picture as the primary image; an auxiliary image of type
urn:com:apple:photo:2020:aux:hdrgainmap, one gray channel at a quarter of the picture's
size, Rec. 709-encoded linear gain; and EXIF whose Apple maker note holds the two values
the headroom comes from (tags 33 and 48). The HDR picture is the formula of
scripts/make-ultrahdr.py, which the Swift tests compute too:

  at column x, row y of 64×48: HDR linear sRGB = (0.02 + x / 16, 0.02 + y / 12, 0.3),
  SDR = min(HDR, 1); maker note 33 = 1.0 and 48 = 1.0, so the headroom is 2^2 = 4 (Apple's
  rule: stops = −0.303 · m48 + 2.303 when m33 ≥ 1 and m48 > 0.01); gain map
  g = (HDR / SDR − 1) / (headroom − 1) of the largest channel, so HDR = SDR · (1 + 3 g).

heif-enc (libheif-examples) encodes the two pictures; this script assembles the container
around their HEVC streams, as scripts/make-heic-grid.py does for grids. heif-info lists the
auxiliary image and exiftool reads the maker note's HDRHeadroom and HDRGain. Needs numpy,
Pillow and heif-enc; run from the repository root."""
import os
import struct
import sys
import subprocess
import tempfile

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heif_boxes import box, coded_parts, heif_file  # noqa: E402

W, H, HEADROOM = 64, 48, 4.0
work = tempfile.mkdtemp()

y, x = np.mgrid[0:H, 0:W].astype(np.float64)
hdr = np.stack([0.02 + x / 16, 0.02 + y / 12, np.full_like(x, 0.3)], axis=-1)
sdr = np.minimum(hdr, 1.0)
encode = lambda v: np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)
rec709 = lambda v: np.where(v < 0.018, 4.5 * v, 1.099 * v ** 0.45 - 0.099)
gain = np.clip(((hdr / sdr).max(axis=-1) - 1) / (HEADROOM - 1), 0, 1)
quarter = Image.fromarray(gain.astype(np.float32), "F").resize((W // 4, H // 4), Image.BILINEAR)
Image.fromarray(np.round(encode(sdr) * 255).astype(np.uint8)).save(f"{work}/sdr.png")
Image.fromarray(np.round(rec709(np.asarray(quarter, dtype=np.float64)) * 255).astype(np.uint8), "L").save(f"{work}/gain.png")
for name in ("sdr", "gain"):
    subprocess.run(["heif-enc", "-q", "98", f"{work}/{name}.png", "-o", f"{work}/{name}.heic"], check=True, capture_output=True)

def exif_with_apple_maker_note(m33, m48):
    """HEIF's Exif item: a 4-byte offset (6) and "Exif\\0\\0", then a big-endian TIFF whose IFD0 points to an
    Exif IFD holding the MakerNote: "Apple iOS\\0", version 1, "MM", then an IFD of
    SRATIONAL tags 33 and 48 whose offsets count from the maker note's start."""
    note_ifd_at = 14
    values_at = note_ifd_at + 2 + 2 * 12 + 4
    note = b"Apple iOS\0" + struct.pack(">H", 1) + b"MM"
    note += struct.pack(">H", 2)
    note += struct.pack(">HHII", 33, 10, 1, values_at) + struct.pack(">HHII", 48, 10, 1, values_at + 8)
    note += struct.pack(">I", 0)
    note += struct.pack(">ii", round(m33 * 1_000_000), 1_000_000) + struct.pack(">ii", round(m48 * 1_000_000), 1_000_000)
    ifd0_at, exif_ifd_at = 8, 8 + 2 + 12 + 4
    note_at = exif_ifd_at + 2 + 12 + 4
    tiff = b"MM\0*" + struct.pack(">I", ifd0_at)
    tiff += struct.pack(">H", 1) + struct.pack(">HHII", 0x8769, 4, 1, exif_ifd_at) + struct.pack(">I", 0)
    tiff += struct.pack(">H", 1) + struct.pack(">HHII", 0x927C, 7, len(note), note_at) + struct.pack(">I", 0)
    tiff += note
    return struct.pack(">I", 6) + b"Exif\0\0" + tiff  # as iPhones and libheif write it


(primary_hvcc, primary), (map_hvcc, coded_map) = coded_parts(f"{work}/sdr.heic"), coded_parts(f"{work}/gain.heic")
exif = exif_with_apple_maker_note(1.0, 1.0)
aux_type = b"urn:com:apple:photo:2020:aux:hdrgainmap\0"
# As heif-enc lays out small pictures (and iPhones large ones): each picture a grid of one
# hidden 64×64 HEVC tile, its descriptor in idat. Items: 1 the picture's grid (primary),
# 2 its tile, 3 the gain map's grid (auxl → 1), 4 its tile, 5 EXIF (cdsc → 1). Properties
# (1-based): 1 the picture's hvcC, 2 the tiles' ispe, 3 the picture's ispe, 4 the map's
# hvcC, 5 the map's ispe, 6 auxC.
ipco = primary_hvcc + box("ispe", struct.pack(">II", 64, 64), 0) + box("ispe", struct.pack(">II", W, H), 0)
ipco += map_hvcc + box("ispe", struct.pack(">II", W // 4, H // 4), 0) + box("auxC", aux_type, 0)
associations = [(1, [(3, False)]), (2, [(1, True), (2, False)]), (3, [(5, False), (6, True)]), (4, [(4, True), (2, False)])]
ipma = struct.pack(">I", len(associations)) + b"".join(
    struct.pack(">HB", item, len(props)) + bytes((0x80 if essential else 0) | index for index, essential in props)
    for item, props in associations)
iprp = box("iprp", box("ipco", ipco) + box("ipma", ipma, 0))
infe = lambda item, kind, hidden: box("infe", struct.pack(">HH4s", item, 0, kind.encode()) + b"\0", 2, 1 if hidden else 0)
iinf = box("iinf", struct.pack(">H", 5) + infe(1, "grid", False) + infe(2, "hvc1", True) + infe(3, "grid", False)
           + infe(4, "hvc1", True) + infe(5, "Exif", True), 0)
reference = lambda kind, source, target: box(kind, struct.pack(">HHH", source, 1, target))
iref = box("iref", reference("dimg", 1, 2) + reference("dimg", 3, 4) + reference("auxl", 3, 1) + reference("cdsc", 5, 1), 0)
descriptors = struct.pack(">BBBBHH", 0, 0, 0, 0, W, H) + struct.pack(">BBBBHH", 0, 0, 0, 0, W // 4, H // 4)
idat = box("idat", descriptors)
pieces = [(2, primary), (4, coded_map), (5, exif)]


os.makedirs("testdata/hdr", exist_ok=True)
with open("testdata/hdr/apple-hdr.heic", "wb") as f:
    f.write(heif_file([(1, 0, 8), (3, 8, 8)], pieces, iinf, iref, iprp, idat))
print(f"apple-hdr.heic: {W}×{H}, gain map {W // 4}×{H // 4}, headroom {HEADROOM}; {os.path.getsize('testdata/hdr/apple-hdr.heic')} bytes")
