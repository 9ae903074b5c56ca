#!/usr/bin/env python3
"""Prints, as JSON, what pillow-heif (its own libheif, 1.23 in pillow-heif 1.8, whose
auxiliary-image API Debian's 1.15 lacks) finds in a HEIF file: the primary picture's size,
and for each auxiliary image of the primary its type, size and 8-bit samples (rows from the
top). The tests use it as an independent reader of the auxiliary images Lumen writes
(Apple's HDR gain map). Usage: heif-aux-reference.py FILE"""
import json
import sys

import numpy as np
import pillow_heif

heif = pillow_heif.open_heif(sys.argv[1])
primary = next(image for image in heif if image.info.get("primary", True))
aux = {}
for kind, ids in (primary.info.get("aux") or {}).items():
    for item in ids:
        image = primary.get_aux_image(item)
        samples = np.asarray(image.to_pillow().convert("L"), dtype=np.uint8)
        aux.setdefault(kind, []).append({"width": image.size[0], "height": image.size[1], "samples": samples.ravel().tolist()})
print(json.dumps({"width": primary.size[0], "height": primary.size[1], "aux": aux}))
