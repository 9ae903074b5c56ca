#!/usr/bin/env python3
"""Compares what Lumen made from the real-input corpus with the independent references
(Tests/LumenTests/RealInputs/RealInputTests): each output Lumen wrote is decoded here by
Pillow (pillow-heif for HEIC) and compared with the case's reference (scripts/real-input-cases.py:
Pillow's or vips's decode, upright, converted to sRGB by Little CMS).
Usage: real-input-check.py MANIFEST   reads a JSON list of
  {"ref": REF_PNG, "output": FILE, "kind": "decode"|"convert"|"thumbnail", "region": [x, y, w, h]}
(region in the reference's pixels, top-left origin; a thumbnail covers the whole reference)
and prints one JSON list of results in the same order: width, height (of the output), and
for pixels compared: meanDiff, p99Diff, maxDiff (8-bit levels of premultiplied RGB and of
alpha), psnr (premultiplied RGB, dB), or error. Pixels are compared premultiplied: a colour
under alpha 0 is no colour, and resamplers that weigh by alpha (Lumen, libvips) and those
that do not (Pillow) differ only there.
For a lossy output ("convert" to .jpg, .webp, .heic) refPsnr is what Pillow's own encoder
(pillow-heif's for HEIC) reaches on the same region at the same settings (JPEG quality 90
4:2:0, WebP 75, HEIC 50): the yardstick for Lumen's. For a thumbnail the reference is the
reference picture resized by Pillow's Lanczos in linear light (as Lumen resamples), alpha
premultiplied."""
import functools, json, sys
import numpy as np
from PIL import Image
from pillow_heif import register_heif_opener

register_heif_opener()
Image.MAX_IMAGE_PIXELS = None


def rgba(path):
    image = Image.open(path)
    image.load()
    return np.asarray(image.convert("RGBA")).astype(np.float64)


@functools.lru_cache(maxsize=1)
def reference(path):
    """The case's reference, decoded once for its several outputs (a manifest lists a case's
    outputs one after another, and a worker takes them in runs of 8). Read-only: shared."""
    pixels = rgba(path)
    pixels.flags.writeable = False
    return pixels


def premultiplied(p):
    return p[..., :3] * (p[..., 3:4] / 255.0)


def compare(ours, theirs):
    rgb = np.abs(premultiplied(ours) - premultiplied(theirs))
    alpha = np.abs(ours[..., 3] - theirs[..., 3])
    diffs = np.concatenate([rgb.ravel(), alpha.ravel()])
    mse = float(np.mean(rgb ** 2))
    return {"meanDiff": float(diffs.mean()), "p99Diff": float(np.percentile(diffs, 99)), "maxDiff": float(diffs.max()),
            "psnr": 99.0 if mse == 0 else float(10 * np.log10(255 ** 2 / mse))}


def linear(v):
    v = v / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


# linear() of each 8-bit level: the same values, looked up instead of raised to 2.4 per pixel.
LINEAR_LEVELS = linear(np.arange(256, dtype=np.float64))


def encoded(v):
    v = np.clip(v, 0, 1)
    return 255.0 * np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def linear_lanczos(ref, width, height):
    """The reference resized by Lanczos in linear light, premultiplied, back to 8-bit sRGB RGBA."""
    alpha = ref[..., 3] / 255.0
    channels = [LINEAR_LEVELS[ref[..., c].astype(np.uint8)] * alpha for c in range(3)] + [alpha]
    small = [np.asarray(Image.fromarray(c.astype(np.float32), "F").resize((width, height), Image.LANCZOS)) for c in channels]
    a = np.clip(small[3], 0, 1)
    safe = np.where(a > 0, a, 1)
    rgb = [encoded(small[c] / safe) for c in range(3)]
    return np.stack(rgb + [a * 255.0], axis=-1)


def pillow_roundtrip(region, extension):
    """`region` (RGBA, opaque) through Pillow's encoder at Lumen's default settings, decoded again."""
    import io
    buffer = io.BytesIO()
    image = Image.fromarray(region.astype(np.uint8), "RGBA").convert("RGB")
    if extension == "jpg":
        image.save(buffer, "JPEG", quality=90, subsampling=2)
    elif extension == "webp":
        image.save(buffer, "WEBP", quality=75)
    else:
        image.save(buffer, "HEIF", quality=50)
    buffer.seek(0)
    return rgba(buffer)


def check(entry):
    try:
        ours = rgba(entry["output"])
        ref = reference(entry["ref"])
        result = {"width": ours.shape[1], "height": ours.shape[0]}
        if entry["kind"] == "thumbnail":
            # Pillow's Lanczos of the reference to the same size: another resampler (in sRGB,
            # where Lumen's works in linear light), so only gross differences show.
            result.update(compare(ours, linear_lanczos(ref, ours.shape[1], ours.shape[0])))
        else:
            x, y, w, h = entry["region"]
            theirs = ref[y:y + h, x:x + w]
            if theirs.shape[:2] != ours.shape[:2]:
                result["error"] = f"size {ours.shape[1]}x{ours.shape[0]}, reference region {theirs.shape[1]}x{theirs.shape[0]}"
            else:
                result.update(compare(ours, theirs))
                extension = entry["output"].rsplit(".", 1)[-1]
                if entry["kind"] == "convert" and extension in ("jpg", "webp", "heic"):
                    result["refPsnr"] = compare(pillow_roundtrip(theirs, extension), theirs)["psnr"]
        return result
    except Exception as error:  # a file Pillow cannot read is a result too
        return {"error": f"{type(error).__name__}: {error}"}


if __name__ == "__main__":
    # The checks are independent: one process per core (the results keep the manifest's order).
    # Spawned, not forked: pillow-heif's libheif and numpy start threads, which a fork does
    # not survive (a forked worker hung). An executor, not multiprocessing.Pool: when a worker
    # dies, Pool.map waits for its tasks for ever (a killed worker shows it; the likeliest
    # cause of a CI run that hung as this ran), where the executor raises BrokenProcessPool
    # and this exits non-zero.
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor
    entries = json.load(open(sys.argv[1]))
    with ProcessPoolExecutor(min(4, os.cpu_count() or 1), mp_context=multiprocessing.get_context("spawn")) as pool:
        print(json.dumps(list(pool.map(check, entries, chunksize=8))))
