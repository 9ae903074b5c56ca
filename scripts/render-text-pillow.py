#!/usr/bin/env python3
"""Renders text with Pillow's Raqm layout (FriBidi + HarfBuzz) and FreeType: the
independent reference for Lumen's text generator. Writes the ink's coverage as an 8-bit
grayscale PNG cropped to the inked box.

usage: render-text-pillow.py TEXT FONT_FILE PIXEL_SIZE OUT.png
"""
import sys

from PIL import Image, ImageDraw, ImageFont

text, font_file, size, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
font = ImageFont.truetype(font_file, size=size, layout_engine=ImageFont.Layout.RAQM)
canvas = Image.new("L", (int(size * len(text) * 1.5) + 64, int(size * 3)), 0)
ImageDraw.Draw(canvas).text((32, size), text, font=font, fill=255)
canvas.crop(canvas.getbbox()).save(out)
