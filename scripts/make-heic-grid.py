#!/usr/bin/env python3
"""Writes testdata/formats/grid.heic: a HEIC whose primary image is a grid of HEVC tiles,
as iPhones write their photos (a 'grid' item referring by 'dimg' to hidden 'hvc1' tile
items, an 'irot' on the grid, tiles covering more than the picture, the picture cropped
from them), and its reference pixels grid.heic.pam from heif-convert.

Debian's heif-enc 1.15 writes no grids and no phone photo can be fetched here, so each
tile is encoded by heif-enc on its own and this script assembles the container around
the tiles' HEVC streams (ISO/IEC 23008-12 §6.6.2.3: the grid's 8-byte descriptor in
'idat', one 'hvcC' per tile). heif-convert — libheif's own grid decoder — is the
reference. Run from the repository root; needs libheif-examples and Pillow."""
import os
import struct
import sys
import subprocess
import tempfile

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heif_boxes import box, coded_parts, heif_file  # noqa: E402

TILE, COLUMNS, ROWS = 256, 3, 2
out = "testdata/formats"
work = tempfile.mkdtemp()

# The picture: testdata/photo.jpg (640×400); tiles cover 768×512, edges repeated outwards.
photo = Image.open("testdata/photo.jpg").convert("RGB")
width, height = photo.size
canvas = Image.new("RGB", (TILE * COLUMNS, TILE * ROWS))
canvas.paste(photo, (0, 0))
canvas.paste(photo.crop((width - 1, 0, width, height)).resize((canvas.width - width, height)), (width, 0))
canvas.paste(canvas.crop((0, height - 1, canvas.width, height)).resize((canvas.width, canvas.height - height)), (0, height))


tiles = []
for row in range(ROWS):
    for column in range(COLUMNS):
        png = os.path.join(work, f"tile-{row}-{column}.png")
        canvas.crop((column * TILE, row * TILE, (column + 1) * TILE, (row + 1) * TILE)).save(png)
        subprocess.run(["heif-enc", "-q", "90", png, "-o", png + ".heic"], check=True, capture_output=True)
        tiles.append(coded_parts(png + ".heic"))

# Items: 1 the grid (primary), 2… the tiles (hidden). Properties (1-based): one hvcC per
# tile, the tiles' ispe, the grid's ispe, and the grid's irot (90° anticlockwise).
ids = list(range(2, 2 + len(tiles)))
ipco = b"".join(hvcc for hvcc, _ in tiles)
tile_ispe, grid_ispe, irot = len(tiles) + 1, len(tiles) + 2, len(tiles) + 3
ipco += box("ispe", struct.pack(">II", TILE, TILE), 0)
ipco += box("ispe", struct.pack(">II", width, height), 0)
ipco += box("irot", bytes([1]))
associations = [(1, [(grid_ispe, False), (irot, True)])]
associations += [(item, [(i + 1, True), (tile_ispe, False)]) for i, item in enumerate(ids)]
ipma = struct.pack(">I", len(associations)) + b"".join(
    struct.pack(">HB", item, len(props)) + bytes((0x80 if essential else 0) | index for index, essential in props)
    for item, props in associations)
iprp = box("iprp", box("ipco", ipco) + box("ipma", ipma, 0))
infe = lambda item, kind, hidden: box("infe", struct.pack(">HH4s", item, 0, kind.encode()) + b"\0", 2, 1 if hidden else 0)
iinf = box("iinf", struct.pack(">H", 1 + len(ids)) + infe(1, "grid", False) + b"".join(infe(i, "hvc1", True) for i in ids), 0)
iref = box("iref", box("dimg", struct.pack(">HH", 1, len(ids)) + b"".join(struct.pack(">H", i) for i in ids)), 0)
descriptor = struct.pack(">BBBBHH", 0, 0, ROWS - 1, COLUMNS - 1, width, height)
idat = box("idat", descriptor)


with open(f"{out}/grid.heic", "wb") as f:
    f.write(heif_file([(1, 0, len(descriptor))], [(item, coded) for item, (_, coded) in zip(ids, tiles)], iinf, iref, iprp, idat))

# The reference: libheif's own grid decoding, through heif-convert.
subprocess.run(["heif-convert", f"{out}/grid.heic", f"{work}/grid.png"], check=True, capture_output=True)
reference = Image.open(f"{work}/grid.png").convert("RGBA")
assert reference.size == (height, width), reference.size  # the irot turned it
with open(f"{out}/grid.heic.pam", "wb") as f:
    f.write(f"P7\nWIDTH {reference.width}\nHEIGHT {reference.height}\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".encode())
    f.write(reference.tobytes())
print(f"grid.heic: {COLUMNS}×{ROWS} tiles of {TILE}, picture {width}×{height}, turned by irot; {os.path.getsize(f'{out}/grid.heic')} bytes")
