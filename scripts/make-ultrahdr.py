#!/usr/bin/env python3
"""Writes testdata/hdr/ultrahdr.jpg: an Ultra HDR JPEG built from Android's public "Ultra HDR
Image Format v1.0" description (a primary SDR JPEG with hdrgm XMP and an MPF index, then a
gain map JPEG with its hdrgm parameters), from an HDR picture defined by a formula that the
Swift tests compute too:

  at column x, row y of 64×48: HDR linear sRGB = (0.02 + x / 16, 0.02 + y / 12, 0.3) — up to 3.96 and 3.94,
  SDR = min(HDR, 1), gain map at half size (32×24, gray), GainMapMin 0, GainMapMax 2 (log2),
  gamma 1, offsets 1/64, HDRCapacityMin 0, HDRCapacityMax 2.

Needs numpy and Pillow. Run from the repository root; exiftool reads the result's MPF and hdrgm tags."""
import io, struct
import numpy as np
from PIL import Image

W, H = 64, 48
y, x = np.mgrid[0:H, 0:W].astype(np.float64)
hdr = np.stack([0.02 + x / 16, 0.02 + y / 12, np.full_like(x, 0.3)], axis=-1)
sdr = np.minimum(hdr, 1.0)
encode = lambda v: np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)
decode = lambda c: np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)

primary = io.BytesIO()
Image.fromarray(np.round(encode(sdr) * 255).astype(np.uint8)).save(primary, "JPEG", quality=98, subsampling=0)
# The gain is measured against the SDR as decoded, so the recovery is what a reader needs.
sdr_decoded = decode(np.asarray(Image.open(io.BytesIO(primary.getvalue())), dtype=np.float64) / 255)
offset, gmin, gmax, gamma = 1 / 64, 0.0, 2.0, 1.0
ratio = (hdr + offset) / (sdr_decoded + offset)
luminance_gain = np.log2(ratio).max(axis=-1)  # one gray map: the largest channel's gain
recovery = np.clip((luminance_gain - gmin) / (gmax - gmin), 0, 1) ** gamma
half = Image.fromarray(np.round(recovery * 255).astype(np.uint8)).resize((W // 2, H // 2), Image.BILINEAR)
gain = io.BytesIO()
half.save(gain, "JPEG", quality=98)

def app(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload

def xmp(description):
    packet = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
              f'{description}</rdf:RDF></x:xmpmeta>')
    return app(0xE1, b"http://ns.adobe.com/xap/1.0/\0" + packet.encode())

gain_xmp = xmp('<rdf:Description xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0" '
               f'hdrgm:GainMapMin="{gmin}" hdrgm:GainMapMax="{gmax}" hdrgm:Gamma="{gamma}" hdrgm:OffsetSDR="{offset}" '
               f'hdrgm:OffsetHDR="{offset}" hdrgm:HDRCapacityMin="0" hdrgm:HDRCapacityMax="2" hdrgm:BaseRenditionIsHDR="False"/>')
gain_bytes = gain.getvalue()
gain_file = gain_bytes[:2] + gain_xmp + gain_bytes[2:]

primary_xmp = xmp('<rdf:Description xmlns:Container="http://ns.google.com/photos/1.0/container/" '
                  'xmlns:Item="http://ns.google.com/photos/1.0/container/item/" '
                  'xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0"><Container:Directory><rdf:Seq>'
                  '<rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="Primary" Item:Mime="image/jpeg"/></rdf:li>'
                  '<rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="GainMap" Item:Mime="image/jpeg" '
                  f'Item:Length="{len(gain_file)}"/></rdf:li></rdf:Seq></Container:Directory></rdf:Description>')

def mpf(primary_size, gain_offset, gain_size):
    """CIPA DC-007's index: big-endian TIFF header, one IFD (version, count, entries), the entries."""
    entries_at = 8 + 2 + 3 * 12 + 4
    ifd = struct.pack(">H", 3)
    ifd += struct.pack(">HHI4s", 0xB000, 7, 4, b"0100")
    ifd += struct.pack(">HHII", 0xB001, 4, 1, 2)
    ifd += struct.pack(">HHII", 0xB002, 7, 32, entries_at)
    ifd += struct.pack(">I", 0)
    entries = struct.pack(">IIIHH", 0x030000, primary_size, 0, 0, 0) + struct.pack(">IIIHH", 0, gain_size, gain_offset, 0, 0)
    return app(0xE2, b"MPF\0" + b"MM\0*" + struct.pack(">I", 8) + ifd + entries)

body = primary.getvalue()
placeholder = mpf(0, 0, 0)
head = body[:2] + primary_xmp
mpf_tiff_start = len(head) + 4 + 4  # marker and length, then "MPF\0"
primary_size = len(body) + len(primary_xmp) + len(placeholder)
out = head + mpf(primary_size, primary_size - mpf_tiff_start, len(gain_file)) + body[2:] + gain_file
with open("testdata/hdr/ultrahdr.jpg", "wb") as f:
    f.write(out)
