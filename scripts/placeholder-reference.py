#!/usr/bin/env python3
"""Reference placeholders for the BlurHash and ThumbHash tests, from the PyPI packages
(blurhash-python 1.2.2, which wraps Wolt's C encoder and decoder; thumbhash 0.1.2, a port
of Evan Wallace's encoder):

  placeholder-reference.py encode PIXELS.rgba W H XC YC   → JSON {"blurhash": "…", "thumbhash": [bytes] or null}
  placeholder-reference.py decode HASH W H OUT.rgb        → the BlurHash's W×H RGB pixels, raw

The thumbhash port raises on images with transparency (its alpha line unpacks a tuple
wrongly); "thumbhash" is then null."""
import json, sys
from PIL import Image
import blurhash, thumbhash

if sys.argv[1] == "encode":
    path, w, h, xc, yc = sys.argv[2], *map(int, sys.argv[3:7])
    rgba = open(path, "rb").read()
    image = Image.frombytes("RGBA", (w, h), rgba).convert("RGB")  # the C encoder ignores alpha
    try:
        thumb = thumbhash.rgba_to_thumb_hash(w, h, list(rgba))
    except TypeError:
        thumb = None
    print(json.dumps({"blurhash": blurhash.encode(image, xc, yc), "thumbhash": thumb}))
elif sys.argv[1] == "decode":
    hash_, w, h, out = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    open(out, "wb").write(blurhash.decode(hash_, w, h).tobytes())
