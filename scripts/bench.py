#!/usr/bin/env python3
"""The benchmark behind scripts/bench: each workload's commands run interleaved RUNS
times; wall time and peak RSS come from wait4 on the child process."""
import json, os, statistics, subprocess, sys, tempfile, time
import numpy as np
from PIL import Image

photos, runs = sys.argv[1], int(sys.argv[2])
# The binary scripts/bench built (statically linked, as scripts/install ships it).
lumen = os.path.abspath(os.environ.get("LUMEN_BINARY", ".build/release/lumen"))
# LUMEN_BASELINE=path/to/an/older/lumen adds a "lumen-before" row to every workload, so a
# change to the core is measured before and after in the same run.
baseline = os.environ.get("LUMEN_BASELINE")
only = os.environ.get("LUMEN_BENCH_ONLY")  # e.g. "W1,W2,L" runs only workloads whose id starts so
out = tempfile.mkdtemp(prefix="lumen-bench-")
p = lambda name: os.path.join(photos, name)
Image.MAX_IMAGE_PIXELS = None

def run(command, limit=None):
    """Runs a shell command under GNU time (a small process, so the child's peak RSS is
    its own, not inherited from this Python process); returns (seconds, peak RSS in MiB),
    or (None, None) when it runs past `limit` seconds."""
    with tempfile.NamedTemporaryFile(mode="r") as stats:
        start = time.perf_counter()
        try:
            result = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", stats.name, "timeout", str(limit or 3600), "sh", "-c", command],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except subprocess.TimeoutExpired:
            return None, None
        seconds = time.perf_counter() - start
        if limit and result.returncode != 0:
            return None, None  # the older binary timed out or cannot run this workload
        if result.returncode != 0:
            raise SystemExit(f"failed ({result.returncode}): {command}\n{result.stderr.decode()}")
        return seconds, int(stats.read().split()[-1]) / 1024

def pixels(path):
    """RGB pixels of an output; JPEG XL through djxl (Pillow cannot read it)."""
    if path.endswith(".jxl"):
        png = path + ".png"
        subprocess.run(["djxl", path, png], check=True, capture_output=True)
        path = png
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.float64)

def psnr(a, b):
    x, y = pixels(a), pixels(b)
    if x.shape != y.shape:
        return float("nan")
    mse = np.mean((x - y) ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255 ** 2 / mse)

twelve = sorted(f for f in os.listdir(photos) if f.endswith("-2560x1600.jpg"))[:12]
pyvips_w4 = f"""python3 -c '
import pyvips, sys, os
from concurrent.futures import ThreadPoolExecutor
def one(name):
    im = pyvips.Image.new_from_file(os.path.join("{photos}", name), access="sequential")
    im = im.resize(0.5, kernel="lanczos3")
    w, h = im.width, im.height
    # vignette: darken beyond radius min(w,h)/2 with a smoothstep band, like vignetteEffect
    xy = pyvips.Image.xyz(w, h) - [w / 2, h / 2]
    d = (xy[0] ** 2 + xy[1] ** 2) ** 0.5
    r = min(w, h) / 2
    t = ((d - r) / r).max_pair(0).min_pair(1) if hasattr(pyvips.Image, "max_pair") else ((d - r) / r)
    t = (t > 0).ifthenelse(t, 0); t = (t < 1).ifthenelse(t, 1)
    s = t * t * (3 - 2 * t)
    im = (im * 1.1 - 12.8) * (1 - 0.8 * s)
    im.cast("uchar").write_to_file(os.path.join("{out}", "pv-" + name), Q=85)
with ThreadPoolExecutor(2) as pool: list(pool.map(one, sys.argv[1:]))
' {' '.join(twelve)}"""
w4_chain = "lanczosScale scale=0.5 | colorControls contrast=1.1 | vignetteEffect center=input.center radius=input.minSide/2 intensity=0.8 falloff=0.5"

# A 90-megapixel JPEG (9999×9000, SafeLanding enlarged with vips) for the streaming rows.
huge = os.path.join(photos, "huge-9999x9000.jpg")
if not os.path.exists(huge):
    subprocess.run(["vips", "resize", p("SafeLanding-5120x2880.jpg"), huge + "[Q=90]", "1.953", "--vscale", "3.125"], check=True)

# A 40960×40000 tiled, deflated TIFF of smooth ramps (made once with pyvips, 48 MB).
giant = os.path.join(photos, "giant-40960x40000.tif")
if not os.path.exists(giant):
    subprocess.run(["python3", "-c", f"""
import pyvips
xy = pyvips.Image.xyz(40960, 40000)
r = (xy[0] / 160).cast("uchar"); g = (xy[1] / 157).cast("uchar"); b = ((xy[0] + xy[1]) / 320).cast("uchar")
r.bandjoin([g, b]).copy(interpretation="srgb").tiffsave("{giant}", tile=True, tile_width=256, tile_height=256,
                                                        compression="deflate", predictor="horizontal")
"""], check=True)

# The same picture as scanners and libvips write it: JPEG-compressed YCbCr tiles of 128, and
# as a pyramid (vips tiffsave --pyramid), made once with vips.
giant_jpeg = os.path.join(photos, "giant-jpeg-tiles-40960x40000.tif")
if not os.path.exists(giant_jpeg):
    subprocess.run(["vips", "tiffsave", giant, giant_jpeg, "--tile", "--tile-width", "128", "--tile-height", "128",
                    "--compression", "jpeg", "--Q", "90"], check=True)
giant_pyramid = os.path.join(photos, "giant-pyramid-40960x40000.tif")
if not os.path.exists(giant_pyramid):
    subprocess.run(["vips", "tiffsave", giant, giant_pyramid, "--tile", "--tile-width", "128", "--tile-height", "128",
                    "--compression", "jpeg", "--Q", "90", "--pyramid"], check=True)

w5_chain = os.path.join(out, "w5.chain")
with open(w5_chain, "w") as f:
    f.write("board = checkerboard center=[0, 0] width=256\n"
            "mask = radialGradient center=[8192, 8192] radius0=1000 radius1=8000\n"
            "blendWithMask image=board mask=mask background=#336699\n")

codec = p("FallenLeaf-2560x1600.jpg")
pillow_roundtrip = f"python3 -c 'from PIL import Image; Image.open(\"{codec}\").save(\"{out}/c-pil.jpg\", quality=85)'"
workloads = [
    ("C1 codec overhead: FallenLeaf JPEG → decode → encode JPEG q85 (same libjpeg-turbo)", [
        ("lumen", f"{lumen} convert {codec} -o {out}/c-lumen.jpg --quality 85", f"{out}/c-lumen.jpg"),
        ("djpeg | cjpeg", f"djpeg {codec} | cjpeg -quality 85 > {out}/c-djpeg.jpg", f"{out}/c-djpeg.jpg"),
        ("Pillow", pillow_roundtrip, f"{out}/c-pil.jpg"),
    ]),
    ("C2 codec overhead: Kay 5120×2880 RGBA PNG → decode → encode PNG", [
        ("lumen", f"{lumen} convert {p('Kay-5120x2880.png')} -o {out}/c2-lumen.png", f"{out}/c2-lumen.png"),
        ("Pillow", f"python3 -c 'from PIL import Image; Image.open(\"{p('Kay-5120x2880.png')}\").save(\"{out}/c2-pil.png\", compress_level=6)'", f"{out}/c2-pil.png"),
    ]),
    ("W1 SafeLanding 5120×2880 → lanczosScale 0.25 → JPEG q85", [
        ("lumen", f"{lumen} apply -e 'lanczosScale scale=0.25' {p('SafeLanding-5120x2880.jpg')} -o {out}/w1-lumen.jpg --quality 85", f"{out}/w1-lumen.jpg"),
        ("vips resize", f"vips resize {p('SafeLanding-5120x2880.jpg')} {out}/w1-vips.jpg[Q=85] 0.25 --kernel lanczos3", f"{out}/w1-vips.jpg"),
        ("vipsthumbnail", f"vipsthumbnail {p('SafeLanding-5120x2880.jpg')} -s 1280 -o {out}/w1-thumb.jpg[Q=85]", f"{out}/w1-thumb.jpg"),
        ("ImageMagick", f"convert {p('SafeLanding-5120x2880.jpg')} -filter Lanczos -resize 25% -quality 85 {out}/w1-im.jpg", f"{out}/w1-im.jpg"),
    ]),
    ("W2 FallenLeaf 2560×1600 → gaussianBlur 8 → JPEG q85", [
        ("lumen", f"{lumen} apply -e 'gaussianBlur radius=8 | crop rectangle=[0, 0, 2560, 1600]' {p('FallenLeaf-2560x1600.jpg')} -o {out}/w2-lumen.jpg --quality 85", f"{out}/w2-lumen.jpg"),
        ("vips gaussblur", f"vips gaussblur {p('FallenLeaf-2560x1600.jpg')} {out}/w2-vips.jpg[Q=85] 8", f"{out}/w2-vips.jpg"),
        ("ImageMagick", f"convert {p('FallenLeaf-2560x1600.jpg')} -blur 0x8 -quality 85 {out}/w2-im.jpg", f"{out}/w2-im.jpg"),
    ]),
] + [
    (f"B{sigma} FallenLeaf → gaussianBlur {sigma} → JPEG q85 (blur cost against radius)", [
        ("lumen", f"{lumen} apply -e 'gaussianBlur radius={sigma} | crop rectangle=[0, 0, 2560, 1600]' {p('FallenLeaf-2560x1600.jpg')} -o {out}/b{sigma}-lumen.jpg --quality 85", f"{out}/b{sigma}-lumen.jpg"),
        ("vips gaussblur", f"vips gaussblur {p('FallenLeaf-2560x1600.jpg')} {out}/b{sigma}-vips.jpg[Q=85] {sigma}", f"{out}/b{sigma}-vips.jpg"),
    ]) for sigma in (2, 32, 100)
] + [
    ("W3 FallenLeaf → vignetteEffect → JPEG q85", [
        ("lumen", f"{lumen} apply -e 'vignetteEffect center=[1280, 800] radius=600' {p('FallenLeaf-2560x1600.jpg')} -o {out}/w3-lumen.jpg --quality 85", f"{out}/w3-lumen.jpg"),
        ("vips copy (codec floor)", f"vips copy {p('FallenLeaf-2560x1600.jpg')} {out}/w3-vips.jpg[Q=85]", f"{out}/w3-vips.jpg"),
    ]),
    (f"W4 {len(twelve)} photos 2560×1600 → lanczosScale 0.5, colorControls, vignetteEffect → JPEG, 2 jobs", [
        ("lumen", f"{lumen} batch -e '{w4_chain}' {' '.join(p(f) for f in twelve)} -o {out}/w4 --jobs 2 --quality 85", None),
        ("pyvips", pyvips_w4, None),
    ]),
    ("W5 16384×16384 checkerboard blended with a radial gradient → JPEG", [
        ("lumen", f"{lumen} render {w5_chain} --size 16384x16384 -o {out}/w5.jpg", None),
    ]),
    ("L1 huge 9999×9000 JPEG → colorInvert → JPEG q85 (streamed source; Lumen inverts linear light, vips sRGB codes)", [
        ("lumen", f"{lumen} apply -e colorInvert {huge} -o {out}/l1-lumen.jpg --quality 85", None),
        ("vips invert", f"vips invert {huge} {out}/l1-vips.jpg[Q=85]", None),
    ]),
    ("L2 huge 9999×9000 JPEG → gaussianBlur 4 → JPEG q85 (streamed source)", [
        ("lumen", f"{lumen} apply -e 'gaussianBlur radius=4 | crop rectangle=[0, 0, 9999, 9000]' {huge} -o {out}/l2-lumen.jpg --quality 85", f"{out}/l2-lumen.jpg"),
        ("vips gaussblur", f"vips gaussblur {huge} {out}/l2-vips.jpg[Q=85] 4", f"{out}/l2-vips.jpg"),
    ]),
]
everyday = sorted(os.path.join(photos, f) for f in os.listdir(photos)
                  if f.endswith(".jpg") and not f.startswith(("huge", "giant")))
workloads.append(
    (f"T1 thumbnails of {len(everyday)} photos, 800×600 box → JPEG", [
        ("lumen", f"{lumen} thumbnail {' '.join(everyday)} -s 800x600 -o {out}/t1-lumen --jobs 2", None),
        ("vipsthumbnail", f"mkdir -p {out}/t1-vips && vipsthumbnail {' '.join(everyday)} -s 800x600 -o {out}/t1-vips/%s.jpg", None),
    ]))
workloads.append(
    ("L3 giant 40960×40000 tiled TIFF → 1000-pixel thumbnail JPEG (target: under 256 MiB)", [
        ("lumen", f"{lumen} apply -e 'lanczosScale scale=0.0244140625' {giant} -o {out}/l3-lumen.jpg --pixel-limit 2G", f"{out}/l3-lumen.jpg"),
        ("vipsthumbnail", f"vipsthumbnail {giant} -s 1000 -o {out}/l3-thumb.jpg", f"{out}/l3-thumb.jpg"),
    ]))
workloads.append(
    ("L4 giant 40960×40000 JPEG-tiled TIFF (YCbCr, 128² tiles) → 1000-pixel thumbnail (target: ≤ 256 MiB, ≤ 1.0× vipsthumbnail)", [
        ("lumen", f"{lumen} thumbnail {giant_jpeg} -s 1000 -o {out}/l4-lumen --pixel-limit 2G", None),
        ("vipsthumbnail", f"vipsthumbnail {giant_jpeg} -s 1000 -o {out}/l4-thumb.jpg", f"{out}/l4-thumb.jpg"),
    ]))
workloads.append(
    ("L5 the same as a pyramid (vips tiffsave --pyramid) → 1000-pixel thumbnail (target: ≤ 0.2 s)", [
        ("lumen", f"{lumen} thumbnail {giant_pyramid} -s 1000 -o {out}/l5-lumen --pixel-limit 2G", None),
        ("vipsthumbnail", f"vipsthumbnail {giant_pyramid} -s 1000 -o {out}/l5-thumb.jpg", f"{out}/l5-thumb.jpg"),
    ]))
# HEIC and AVIF made once from the photos with heif-enc (HEIC at iPhone size, q50).
heic = os.path.join(photos, "photo-4032x3024.heic")
if not os.path.exists(heic):
    subprocess.run(f"vips resize {p('SafeLanding-5120x2880.jpg')} {out}/heic-src.png 0.7875 --vscale 1.05 && "
                   f"heif-enc -q 50 {out}/heic-src.png -o {heic}", shell=True, check=True, stdout=subprocess.DEVNULL)
avif = os.path.join(photos, "FallenLeaf-2560x1600.avif")
if not os.path.exists(avif):
    subprocess.run(["heif-enc", "-A", "-q", "50", codec, "-o", avif], check=True, stdout=subprocess.DEVNULL)
workloads += [
    ("F1 HEIC 4032×3024 → 800-pixel thumbnail JPEG (target ≤ 1.0× vipsthumbnail)", [
        ("lumen", f"{lumen} thumbnail {heic} -s 800 -o {out}/f1-lumen --format jpeg", None),
        ("vipsthumbnail", f"vipsthumbnail {heic} -s 800 -o {out}/f1-thumb.jpg", None),
    ]),
    ("F2 FallenLeaf JPEG → WebP q80 (target ≤ 1.05× of the codec floor)", [
        ("lumen", f"{lumen} convert {codec} -o {out}/f2-lumen.webp --quality 80 --strip", f"{out}/f2-lumen.webp"),
        ("cwebp -q 80", f"cwebp -quiet -q 80 {codec} -o {out}/f2-cwebp.webp", f"{out}/f2-cwebp.webp"),
        ("vips copy [Q=80]", f"vips copy {codec} {out}/f2-vips.webp[Q=80,strip]", f"{out}/f2-vips.webp"),
    ]),
    ("F3 AVIF 2560×1600 decode → PNG", [
        ("lumen", f"{lumen} convert {avif} -o {out}/f3-lumen.png", f"{out}/f3-lumen.png"),
        ("heif-convert", f"heif-convert {avif} {out}/f3-heif.png", f"{out}/f3-heif.png"),
    ]),
    # JPEG XL (issue 26) against libjxl's own tools, same library (0.7) on both sides.
    ("F4 FallenLeaf JPEG → JPEG XL q90 effort 7 (pixels re-encoded; cjxl -j 0)", [
        ("lumen", f"{lumen} convert {codec} -o {out}/f4-lumen.jxl --quality 90 --strip", f"{out}/f4-lumen.jxl"),
        ("cjxl -q 90", f"cjxl {codec} {out}/f4-cjxl.jxl -q 90 -j 0 --quiet", f"{out}/f4-cjxl.jxl"),
    ]),
    ("F5 FallenLeaf JPEG → JPEG XL, lossless recompression (the JPEG comes back bit for bit)", [
        ("lumen", f"{lumen} convert {codec} -o {out}/f5-lumen.jxl --lossless-jpeg", f"{out}/f5-lumen.jxl"),
        ("cjxl", f"cjxl {codec} {out}/f5-cjxl.jxl --quiet", f"{out}/f5-cjxl.jxl"),
    ]),
    ("F6 JPEG XL 2560×1600 (F4's cjxl file) decode → PNG", [
        ("lumen", f"{lumen} convert {out}/f4-cjxl.jxl -o {out}/f6-lumen.png", f"{out}/f6-lumen.png"),
        ("djxl", f"djxl {out}/f4-cjxl.jxl {out}/f6-djxl.png --quiet", f"{out}/f6-djxl.png"),
    ]),
]
# Camera RAW and OpenEXR (issue 26), made once from a photo: a 16-bit RGGB DNG of SafeLanding
# (5120×2880, the synthetic-DNG recipe of scripts/make-raw-testdata.py) and a half-float EXR.
big_dng = os.path.join(photos, "SafeLanding-5120x2880.dng")
if not os.path.exists(big_dng):
    subprocess.run([sys.executable, "-c", f"""
import numpy as np, tifffile
from PIL import Image
s = np.asarray(Image.open("{p('SafeLanding-5120x2880.jpg')}").convert("RGB"), dtype=np.float64) / 255
lin = np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)
m = np.zeros(lin.shape[:2], np.uint16); c = np.round(lin * 4095).astype(np.uint16)
m[0::2, 0::2] = c[0::2, 0::2, 0]; m[0::2, 1::2] = c[0::2, 1::2, 1]; m[1::2, 0::2] = c[1::2, 0::2, 1]; m[1::2, 1::2] = c[1::2, 1::2, 2]
xyz = np.linalg.inv(np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]))
tags = [(254, "I", 1, 0, True), (33421, "H", 2, (2, 2), True), (33422, "B", 4, (0, 1, 1, 2), True), (50706, "B", 4, (1, 4, 0, 0), True),
        (50708, "s", 0, "Lumen bench", True), (50714, "I", 1, 0, True), (50717, "I", 1, 4095, True),
        (50721, "2i", 9, [v for x in xyz.flatten() for v in (int(round(x * 10000)), 10000)], True),
        (50728, "2I", 3, [10000, 10000] * 3, True), (50778, "H", 1, 21, True)]
tifffile.imwrite("{big_dng}", m, photometric=32803, extratags=tags, metadata=None, software=False)
"""], check=True)
leaf_exr = os.path.join(photos, "FallenLeaf-2560x1600.exr")
if not os.path.exists(leaf_exr):
    subprocess.run([lumen, "convert", codec, "-o", leaf_exr], check=True)
workloads += [
    ("R1 5120×2880 DNG (16-bit RGGB) → 16-bit TIFF, AHD, sRGB: LibRaw on both sides", [
        ("lumen", f"{lumen} convert {big_dng} -o {out}/r1-lumen.tif --depth 16 --tiff-compression none", f"{out}/r1-lumen.tif"),
        ("dcraw_emu", f"cp {big_dng} {out}/r1.dng && dcraw_emu -w -o 1 -g 2.4 12.92 -W -6 -T {out}/r1.dng", f"{out}/r1.dng.tiff"),
    ]),
    ("E1 OpenEXR half 2560×1600 → JPEG q85 (oiiotool: sRGB-encoded as Lumen does)", [
        ("lumen", f"{lumen} convert {leaf_exr} -o {out}/e1-lumen.jpg --quality 85", f"{out}/e1-lumen.jpg"),
        ("oiiotool", f"oiiotool {leaf_exr} --colorconvert linear sRGB --compression jpeg:85 -o {out}/e1-oiio.jpg", f"{out}/e1-oiio.jpg"),
    ]),
]
# The catalogue's anchors (issue 13): sharpening, a 33³ LUT, morphology, QR codes.
def film(c):
    """A warm S-curve on sRGB-encoded values: the look both LUT files encode."""
    s = c * c * (3 - 2 * c)
    out = 0.7 * s + 0.3 * c
    out[..., 0] = np.clip(out[..., 0] * 1.04 + 0.01, 0, 1)
    out[..., 2] = np.clip(out[..., 2] * 0.92, 0, 1)
    return out
cube = os.path.join(out, "film33.cube")
grid = np.linspace(0, 1, 33)
b_, g_, r_ = np.meshgrid(grid, grid, grid, indexing="ij")  # red fastest, as .cube files list it
with open(cube, "w") as f:
    f.write("LUT_3D_SIZE 33\n")
    np.savetxt(f, film(np.stack([r_, g_, b_], axis=-1).reshape(-1, 3)), fmt="%.6f")
hald = os.path.join(out, "film-hald8.png")  # ImageMagick's form of the same look: HALD level 8, 64 steps a channel
subprocess.run(["convert", "hald:8", "-depth", "16", os.path.join(out, "identity-hald8.png")], check=True)
identity = np.asarray(Image.open(os.path.join(out, "identity-hald8.png")).convert("RGB"), dtype=np.float64) / 255
Image.fromarray((film(identity) * 255 + 0.5).astype(np.uint8)).save(hald)
disc = os.path.join(out, "disc11.mor")  # vips morph: 255 must be set, 128 don't care
with open(disc, "w") as f:
    f.write("11 11\n" + "\n".join(" ".join("255" if i * i + j * j <= 25 else "128" for i in range(-5, 6)) for j in range(-5, 6)) + "\n")
mask = os.path.join(out, "leaf-mask.png")  # the leaf's bright parts as a one-band 0/255 mask
Image.fromarray(np.where(np.asarray(Image.open(p("FallenLeaf-2560x1600.jpg")).convert("L")) > 128, 255, 0).astype(np.uint8)).save(mask)
qr_messages = os.path.join(out, "qr-messages.txt")
with open(qr_messages, "w") as f:
    f.write("\n".join(f"https://example.com/ticket/{i:05d}" for i in range(10000)) + "\n")
os.makedirs(os.path.join(out, "qr-lumen"), exist_ok=True); os.makedirs(os.path.join(out, "qr-qrencode"), exist_ok=True)
qr_lumen, qr_qrencode = os.path.join(out, "qr-lumen.sh"), os.path.join(out, "qr-qrencode.sh")
with open(qr_lumen, "w") as f:  # one symbol per process, named after the ticket number
    f.write(f'exec {lumen} render -e "qrCodeGenerator message=\\"$1\\"" -o "{out}/qr-lumen/${{1##*/}}.png"\n')
with open(qr_qrencode, "w") as f:
    f.write(f'exec qrencode -l M -s 1 -m 1 -o "{out}/qr-qrencode/${{1##*/}}.png" "$1"\n')
qr_chain, qr_manifest = os.path.join(out, "ticket.chain"), os.path.join(out, "tickets.jsonl")
with open(qr_chain, "w") as f:
    f.write('param message = "none"\nqrCodeGenerator message=message\n')
with open(qr_manifest, "w") as f:  # the input is not used by a generator chain; any small image does
    for i in range(10000):
        f.write(json.dumps({"input": p("FallenLeaf-2560x1600.jpg"), "output": f"{out}/qr-batch/{i:05d}.png",
                            "set": {"message": f"https://example.com/ticket/{i:05d}"}}) + "\n")
leaf = p("FallenLeaf-2560x1600.jpg")
workloads += [
    ("N1 FallenLeaf → unsharpMask radius 2.5 intensity 0.5 → JPEG q85 (vips sharpens L* with its own response curve)", [
        ("lumen", f"{lumen} apply -e 'unsharpMask radius=2.5 intensity=0.5' {leaf} -o {out}/n1-lumen.jpg --quality 85", f"{out}/n1-lumen.jpg"),
        ("vips sharpen", f"vips sharpen {leaf} {out}/n1-vips.jpg[Q=85] --sigma 2.5", f"{out}/n1-vips.jpg"),
        ("ImageMagick -unsharp", f"convert {leaf} -unsharp 0x2.5+0.5+0 -quality 85 {out}/n1-im.jpg", f"{out}/n1-im.jpg"),
    ]),
    ("N2 FallenLeaf → 33³ colour cube (.cube) in sRGB → JPEG q85 (ImageMagick: the same look as a 64-step HALD)", [
        ("lumen", f"{lumen} apply -e 'colorCubeWithColorSpace lut=load(\"{cube}\") colorSpace=\"sRGB\"' {leaf} -o {out}/n2-lumen.jpg --quality 85", f"{out}/n2-lumen.jpg"),
        ("ImageMagick -hald-clut", f"convert {leaf} {hald} -hald-clut -quality 85 {out}/n2-im.jpg", f"{out}/n2-im.jpg"),
    ]),
    # vips rank is timed but its RGB result is not a maximum filter (mean |Δ| 11 codes from
    # numpy's, Lumen's 0.9 — JPEG noise), so its PSNR says nothing about Lumen.
    ("N3 FallenLeaf → maximum over an 11×11 square → JPEG q85 (max commutes with the sRGB curve)", [
        ("lumen", f"{lumen} apply -e 'morphologyRectangleMaximum width=11 height=11 | crop rectangle=[0, 0, 2560, 1600]' {leaf} -o {out}/n3-lumen.jpg --quality 85", f"{out}/n3-lumen.jpg"),
        ("ImageMagick dilate Square:5", f"convert {leaf} -morphology Dilate Square:5 -quality 85 {out}/n3-im.jpg", f"{out}/n3-im.jpg"),
        ("vips rank (max of 121)", f"vips rank {leaf} {out}/n3-vips.jpg[Q=85] 11 11 120", f"{out}/n3-vips.jpg"),
    ]),
    ("N4 a 2560×1600 binary mask → dilation by a radius-5 disc → PNG (vips morph is binary morphology)", [
        ("lumen", f"{lumen} apply -e 'morphologyMaximum radius=5 | crop rectangle=[0, 0, 2560, 1600]' {mask} -o {out}/n4-lumen.png", f"{out}/n4-lumen.png"),
        ("vips morph dilate", f"vips morph {mask} {out}/n4-vips.png {disc} dilate", f"{out}/n4-vips.png"),
    ]),
    ("Q1 10,000 QR codes (level M, one pixel a module, quiet zone 1) → PNG files, one process each, 2 at a time", [
        ("lumen", f"xargs -P 2 -n 1 sh {qr_lumen} < {qr_messages}", None),
        ("qrencode", f"xargs -P 2 -n 1 sh {qr_qrencode} < {qr_messages}", None),
        # The same 10,000 symbols as one Lumen batch: a manifest line per ticket, 2 jobs.
        ("lumen batch --from manifest", f"{lumen} batch {qr_chain} --from {qr_manifest} -o {out}/qr-batch --jobs 2", None),
    ]),
]

if baseline:
    # The same command lines with the older binary, where it can run them (it may time out
    # on workloads the change fixes: those are reported as such).
    for title, commands in workloads:
        first = commands[0]
        commands.insert(1, ("lumen-before", first[1].replace(lumen, os.path.abspath(baseline)).replace("-lumen.", "-before."), None))
if only:
    workloads = [w for w in workloads if any(w[0].startswith(prefix) for prefix in only.split(","))]

print(f"{runs} runs each, interleaved; median wall time; peak RSS = max over runs\n")
for title, commands in workloads:
    times = {name: [] for name, _, _ in commands}
    rss = {name: 0.0 for name, _, _ in commands}
    timed_out = set()
    for _ in range(runs):
        for name, command, _ in commands:
            if name in timed_out:
                continue
            seconds, peak = run(command, limit=30 if name == "lumen-before" else None)
            if seconds is None:
                timed_out.add(name)
                continue
            times[name].append(seconds)
            rss[name] = max(rss[name], peak)
    base = statistics.median(times["lumen"])
    print(title)
    lumen_output = commands[0][2]
    for name, _, output in commands:
        if name in timed_out:
            print(f"  {name:26s}  over 30 s or failed (cannot run this workload)")
            continue
        median = statistics.median(times[name])
        ratio = "" if name == "lumen" else f"  lumen/{name} = {base / median:.2f}×"
        quality = ""
        if output and name != "lumen" and lumen_output:
            quality = f"  PSNR(lumen vs {name}) = {psnr(lumen_output, output):.1f} dB"
        if output and output.endswith(".jxl"):
            quality += f"  {os.path.getsize(output) / 1024:.0f} KiB"
        print(f"  {name:26s} {median * 1000:8.0f} ms  {rss[name]:7.0f} MiB{ratio}{quality}")
    print()

# In process (issue 24): each side reads, decodes, processes and encodes in memory inside
# one long-lived process, as a Swift server embedding Lumen or a Python one embedding
# libvips 8.18 (pyvips-binary, in the virtual environment scripts/bench made) sees it.
# Processes alternate (Lumen, libvips, Lumen, …), 4 runs inside each of which the first
# (a warm-up: tables built, threads started) is not counted; instructions per run come from
# callgrind (two counts, 1 and 3 runs, differenced: set-up and imports cancel).
inprocess_jobs = [
    ("I1", "copy", "FallenLeaf 2560×1600 decode → encode JPEG q85 (the floor)"),
    ("I2", "vignette", "… → vignetteEffect → JPEG (target ≤ 1.25× the floor: libvips 8.18's decode → encode, as the issue's table has it)"),
    ("I3", "blur", "… → gaussianBlur σ 8 → JPEG (target ≤ 1.0×, ≥ 50 dB from the exact Gaussian)"),
    ("I10", "hugeblur", "huge 9999×9000 JPEG → gaussianBlur σ 4 → JPEG (streamed; target ≤ 1.0×)"),
    ("I4", "lanczos", "SafeLanding 5120×2880 → ¼ Lanczos-3 → JPEG (target ≤ 0.8×)"),
    ("I5", "thumbnail", "SafeLanding → 1280 px thumbnail → JPEG (target ≤ 0.8×)"),
    ("I6", "png-fast", "FallenLeaf → PNG: Lumen zlib 2 + up filter, libvips's default (target ≤ 1.1× at ≤ size)"),
    ("I7", "motionblur", "FallenLeaf → motionBlur radius 20 (vips conv, 41×1 mask) → JPEG (target ≤ 1.0×)"),
    ("I8", "morphology", "FallenLeaf → dilation by a radius-5 disc (vips morph) → JPEG (target ≤ 1.0×)"),
    ("I9", "resample", "16 MP working-space pixels in memory → 852×639 Lanczos-3, one thread (Lumen only)"),
]
inprocess_lumen = os.path.abspath(".build/release/inprocess-bench")
pyvips_python = os.path.abspath(".build/pyvips-venv/bin/python")
def inprocess(side, job, count):
    command = [inprocess_lumen, photos, job, str(count)] if side == "lumen" else [pyvips_python, "scripts/bench_inprocess.py", photos, job, str(count)]
    result = subprocess.run(command, capture_output=True, text=True)
    return json.loads(result.stdout) if result.returncode == 0 and result.stdout.strip() else None
def instructions(side, job):
    """Instructions of one run by callgrind: (count at 3 runs − count at 1 run) / 2."""
    binary = os.path.join(out, "inprocess-bench-stripped")
    if not os.path.exists(binary):  # valgrind 3.19 cannot read Swift's debug information
        subprocess.run(["strip", "-o", binary, inprocess_lumen], check=True)
    counts = []
    for n in (1, 3):
        command = [binary, photos, job, str(n)] if side == "lumen" else [pyvips_python, "scripts/bench_inprocess.py", photos, job, str(n)]
        result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg.%p"] + command,
                                capture_output=True, text=True)
        total = [line for line in result.stderr.splitlines() if "Collected :" in line]
        if result.returncode != 0 or not total:
            return None
        counts.append(int(total[-1].split(":")[-1].strip().replace(",", "")))
    return (counts[1] - counts[0]) / 2
if (not only or any(prefix.startswith("I") for prefix in only.split(","))) and os.path.exists(pyvips_python):
    version = inprocess("vips", "copy", 1)
    print(f"In process, {runs} rounds of 3 runs (after a warm-up) each side, alternating; median ms; peak = resident memory the process grew by; "
          f"instructions per run by callgrind. Lumen: InstructionSet {inprocess('lumen', 'copy', 1)['simd']}; libvips {version['vips'] // 100}.{version['vips'] % 100} (pyvips-binary)\n")
    for code, job, title in inprocess_jobs:
        if only and not any(code.startswith(prefix) for prefix in only.split(",")):
            continue
        times = {"lumen": [], "libvips": []}
        peaks = {"lumen": 0.0, "libvips": 0.0}
        # vignetteEffect has no libvips counterpart. Its target is a ratio to the decode →
        # encode floor: the issue's table divides by libvips 8.18's (41.2 / 23.4 ms = 1.76×);
        # Lumen's own floor (I1's job), the stricter reading, is reported beside it. All three
        # are timed here in turns, so the machine's drift between rows (on a shared machine,
        # tens of percent over minutes) does not enter the ratios.
        floor_times, cpu = {"vignette": [], "copy": [], "libvips copy": []}, {"vignette": [], "copy": []}
        for _ in range(runs):
            if job == "vignette":
                for turn in ("vignette", "copy", "libvips copy"):
                    result = inprocess("libvips", "copy", 4) if turn == "libvips copy" else inprocess("lumen", turn, 4)
                    if result:
                        floor_times[turn] += result["ms"][1:]
                        if turn in cpu:
                            cpu[turn] += result.get("cpu_ms", [])[1:]
                        if turn == "vignette":
                            peaks["lumen"] = max(peaks["lumen"], result["peak_mib"])
                times["lumen"] = floor_times["vignette"]
                continue
            for side in ("lumen", "libvips"):
                result = inprocess(side, job, 4)
                if result:
                    times[side] += result["ms"][1:]
                    peaks[side] = max(peaks[side], result["peak_mib"])
        print(f"{code} {title}")
        medians = {side: statistics.median(t) for side, t in times.items() if t}
        # Under callgrind the 90 MP row takes many minutes a run: it is timed, not counted.
        counted = {side: instructions(side, job) for side in medians} if job != "hugeblur" else {}
        for side, median in medians.items():
            ratio = f"  lumen/libvips = {medians['lumen'] / median:.2f}×" if side == "libvips" else ""
            count = f"  {counted[side] / 1e6:8.0f} M instructions" if counted.get(side) else ""
            print(f"  {side:10s} {median:8.1f} ms  {peaks[side]:6.1f} MiB{count}{ratio}")
        if counted.get("lumen") and counted.get("libvips"):
            print(f"  instructions lumen/libvips = {counted['lumen'] / counted['libvips']:.2f}×")
        if job == "vignette" and floor_times["libvips copy"]:
            floor = statistics.median(floor_times["libvips copy"])
            print(f"  lumen / the floor (libvips's decode → encode, {floor:.1f} ms in these turns) = "
                  f"{statistics.median(floor_times['vignette']) / floor:.2f}× wall")
        if job == "vignette" and floor_times["copy"]:
            wall = statistics.median(floor_times["vignette"]) / statistics.median(floor_times["copy"])
            line = f"  lumen / Lumen's own floor (I1's job, timed in turns with this one) = {wall:.2f}× wall"
            if cpu["vignette"] and cpu["copy"]:
                line += f", {statistics.median(cpu['vignette']) / statistics.median(cpu['copy']):.2f}× CPU"
            print(line + f" (the floor {statistics.median(floor_times['copy']):.1f} ms in these turns)")
        print()

if not only or any(prefix.startswith("K") for prefix in only.split(",")):
    print("K1 FallenLeaf 2560×1600 → invert → JPEG q85 in memory, in process (kernel-cost, median of 9)")
    subprocess.run([os.path.abspath(".build/release/kernel-cost"), codec, "9"], check=True)

if not only or any(prefix.startswith("S") for prefix in only.split(",")):
    print("\nS1 scale-out: the same chain over the photos three times (72 inputs with the 24 photos of fetch-photos.sh), lumen-ray on a 2-node loopback cluster vs lumen batch --jobs 2 (medians)")
    subprocess.run(["unshare", "-n", "bash", "-c",
                    f"ip link set lo up && PYTHONPATH=integrations/ray RAY_USAGE_STATS_ENABLED=0 python3 "
                    f"integrations/ray/tests/bench_scaleout.py {lumen} {photos} {min(runs, 5)} 2>/dev/null"], check=True)

if not only or any(prefix.startswith("H") for prefix in only.split(",")):
    print("\nH1 lumen serve against thumbor 7.8 over HTTP (scripts/bench-serve: wrk at 1, 8 and 64 connections, 15 s a row)")
    subprocess.run([sys.executable, "scripts/bench-serve", "15"], check=True)
