#!/usr/bin/env python3
"""Decodes barcode images with zxing-cpp (an independent decoder) for the tests.

For each PNG named on the command line prints one line: the file name, the symbology
zxing found and the message bytes in hex ("-" when nothing decodes). Images are scaled
up 4x (nearest) and padded with white, as an app does before showing or printing a
1-pixel-per-module symbol.
"""
import sys

import zxingcpp
from PIL import Image

for path in sys.argv[1:]:
    image = Image.open(path).convert("L")
    image = image.resize((image.width * 4, image.height * 4), Image.NEAREST)
    padded = Image.new("L", (image.width + 64, image.height + 64), 255)
    padded.paste(image, (32, 32))
    results = zxingcpp.read_barcodes(padded)
    if results:
        print(path, results[0].format.name, results[0].bytes.hex())
    else:
        print(path, "-", "-")
