#!/usr/bin/env python3
"""Regenerates testdata/formats: WebP, GIF, HEIC and AVIF files written by the reference
encoders (cwebp, img2webp, heif-enc, Pillow, ImageMagick) from the patterns of
testdata/codecs, with reference pixels decoded by the reference decoders (dwebp,
heif-convert, Pillow), stored as PAM. Run from the repository root after
scripts/make-testdata.py; needs webp, libheif-examples, imagemagick, libvips-tools and pillow. The
committed files are what the tests use; this script documents them."""
import os, subprocess, tempfile
from PIL import Image, ImageDraw

src = "testdata/codecs"
out = "testdata/formats"
os.makedirs(out, exist_ok=True)
work = tempfile.mkdtemp()
run = lambda *args: subprocess.run(list(args), check=True, capture_output=True)

def save_pam(image, name, depth16=False):
    """Reference pixels as 8-bit RGBA PAM, or 16-bit RGB(A) PAM for deep images."""
    if depth16:
        channels = len(image.getbands())
        import numpy as np
        data = np.asarray(image).astype(">u2").tobytes()
        tupl = {3: "RGB", 4: "RGB_ALPHA"}[channels]
        with open(f"{out}/{name}", "wb") as f:
            f.write(f"P7\nWIDTH {image.width}\nHEIGHT {image.height}\nDEPTH {channels}\nMAXVAL 65535\nTUPLTYPE {tupl}\nENDHDR\n".encode())
            f.write(data)
        return
    image = image.convert("RGBA")
    with open(f"{out}/{name}", "wb") as f:
        f.write(f"P7\nWIDTH {image.width}\nHEIGHT {image.height}\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".encode())
        f.write(image.tobytes())

# WebP: lossy, lossless, with alpha; references decoded by dwebp.
run("cwebp", "-quiet", "-q", "90", f"{src}/rgb8.png", "-o", f"{out}/lossy.webp")
run("cwebp", "-quiet", "-lossless", f"{src}/rgb8.png", "-o", f"{out}/lossless.webp")
run("cwebp", "-quiet", "-q", "90", "-alpha_q", "100", f"{src}/rgba8.png", "-o", f"{out}/alpha-lossy.webp")
run("cwebp", "-quiet", "-lossless", "-exact", f"{src}/rgba8.png", "-o", f"{out}/alpha-lossless.webp")
for name in ["lossy", "lossless", "alpha-lossy", "alpha-lossless"]:
    run("dwebp", "-quiet", f"{out}/{name}.webp", "-pam", "-o", f"{out}/{name}.webp.pam")

# GIF: a palette image, one with a transparent index, an interlaced one (ImageMagick),
# and an animation whose frames are sub-rectangles with transparency and each disposal
# method. Still references are Pillow's; the animation's are libvips's composited pages
# (libnsgif), because Pillow fills a "restore to background" area opaque even when the
# disposed frame had a transparent colour, where libvips, ImageMagick and browsers leave
# it transparent.
rgb = Image.open(f"{src}/rgb8.png")
rgb.quantize(colors=32).save(f"{out}/palette.gif", interlace=False)
pal = rgb.quantize(colors=16)
pal.save(f"{out}/transparent.gif", transparency=5)
run("convert", f"{out}/palette.gif", "-interlace", "GIF", f"{out}/interlaced.gif")
frames = []
for i, colour in enumerate([(230, 40, 40), (40, 200, 60), (40, 60, 220), (240, 200, 40)]):
    frame = Image.new("RGB", (32, 24), (255, 255, 255))
    ImageDraw.Draw(frame).rectangle([i * 5, 3 + i, i * 5 + 12, 16 + i], fill=colour)
    frames.append(frame)
frames[0].save(f"{out}/anim.gif", save_all=True, append_images=frames[1:], duration=[100, 200, 300, 400],
               loop=0, disposal=[1, 2, 3, 1], optimize=True)
for name in ["palette", "transparent", "interlaced"]:
    save_pam(Image.open(f"{out}/{name}.gif"), f"{name}.gif.pam")
for i in range(Image.open(f"{out}/anim.gif").n_frames):
    run("vips", "copy", f"{out}/anim.gif[page={i}]", f"{work}/page.png")
    save_pam(Image.open(f"{work}/page.png"), f"anim.gif.{i}.pam")
# Animated WebP from the GIF (gif2webp), lossless, with references from Pillow's decode.
run("gif2webp", "-quiet", f"{out}/anim.gif", "-o", f"{out}/anim.webp")
animw = Image.open(f"{out}/anim.webp")
for i in range(animw.n_frames):
    animw.seek(i)
    save_pam(animw, f"anim.webp.{i}.pam")

# HEIC and AVIF from heif-enc, references from heif-convert: 8-bit, alpha, 10-bit.
for fmt, flag in [("heic", []), ("avif", ["-A"])]:
    run("heif-enc", *flag, "-q", "90", f"{src}/rgb8.png", "-o", f"{out}/rgb8.{fmt}")
    run("heif-enc", *flag, "-q", "90", f"{src}/rgba8.png", "-o", f"{out}/rgba8.{fmt}")
    # Debian's libaom 3.6 aborts on 10-bit 4:2:0; 4:2:2 works.
    run("heif-enc", *flag, "-b", "10", "-q", "90", *(["-p", "chroma=422"] if fmt == "avif" else []),
        f"{src}/rgb16.png", "-o", f"{out}/rgb10.{fmt}")
    for name in ["rgb8", "rgba8"]:
        run("heif-convert", f"{out}/{name}.{fmt}", f"{work}/{name}.png")
        save_pam(Image.open(f"{work}/{name}.png"), f"{name}.{fmt}.pam")
    run("heif-convert", f"{out}/rgb10.{fmt}", f"{work}/rgb10.png")
    run("convert", f"{work}/rgb10.png", f"{out}/rgb10.{fmt}.pam")

# Metadata: the bundled photo, cropped, turned for EXIF orientation 6, with an sRGB ICC
# profile (Little CMS's, through Pillow), EXIF, XMP and IPTC written by exiftool and a
# JFIF density of 300 dpi.
from PIL import ImageCms
photo = Image.open("testdata/photo.jpg").crop((200, 100, 296, 164)).transpose(Image.Transpose.ROTATE_90)
srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
photo.save(f"{out}/tagged.jpg", quality=92, icc_profile=srgb, dpi=(300, 300))
run("exiftool", "-q", "-overwrite_original", "-n", "-Orientation=6", "-Artist=Ada Lovelace", "-Model=TestCam",
    "-ExifImageWidth=64", "-ExifImageHeight=96", "-XMP-dc:Title=Fallen leaf", "-IPTC:Keywords=autumn",
    "-IPTC:City=Paris", f"{out}/tagged.jpg")

# Wide gamut: a Display P3 profile built by Little CMS itself (ctypes; DCI-P3 primaries,
# D65, the sRGB curve, as Apple's), and images of saturated P3 colours outside sRGB,
# 8-bit PNG and JPEG (4:4:4, q95) and 16-bit PNG (libvips), with the profile embedded.
import ctypes
import numpy as np
import pyvips
lcms = ctypes.CDLL("liblcms2.so.2")
class XYY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]
class Triple(ctypes.Structure):
    _fields_ = [("red", XYY), ("green", XYY), ("blue", XYY)]
for name in ["cmsBuildParametricToneCurve", "cmsCreateRGBProfile", "cmsMLUalloc"]:
    getattr(lcms, name).restype = ctypes.c_void_p
curve = lcms.cmsBuildParametricToneCurve(None, 4, (ctypes.c_double * 5)(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045))
p3 = lcms.cmsCreateRGBProfile(ctypes.byref(XYY(0.3127, 0.3290, 1)),
                              ctypes.byref(Triple(XYY(0.680, 0.320, 1), XYY(0.265, 0.690, 1), XYY(0.150, 0.060, 1))),
                              (ctypes.c_void_p * 3)(curve, curve, curve))
mlu = lcms.cmsMLUalloc(None, 1)
lcms.cmsMLUsetASCII(ctypes.c_void_p(mlu), b"en", b"US", b"Display P3")
lcms.cmsWriteTag(ctypes.c_void_p(p3), 0x64657363, ctypes.c_void_p(mlu))
size = ctypes.c_uint32(0)
lcms.cmsSaveProfileToMem(ctypes.c_void_p(p3), None, ctypes.byref(size))
profile = ctypes.create_string_buffer(size.value)
lcms.cmsSaveProfileToMem(ctypes.c_void_p(p3), profile, ctypes.byref(size))
open(f"{out}/DisplayP3.icc", "wb").write(profile.raw)
patches = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (255, 0, 255),
           (230, 60, 40), (40, 200, 90), (250, 160, 120), (128, 128, 128), (20, 20, 20), (255, 255, 255)]
wide = np.zeros((24, 32, 3), np.uint8)
for i, colour in enumerate(patches):
    wide[(i // 4) * 8:(i // 4) * 8 + 8, (i % 4) * 8:(i % 4) * 8 + 8] = colour
Image.fromarray(wide).save(f"{out}/p3.png", icc_profile=profile.raw)
Image.fromarray(wide).save(f"{out}/p3.jpg", icc_profile=profile.raw, quality=95, subsampling=0)
deep = pyvips.Image.new_from_array((wide.astype(np.int64) * 257 - (wide > 0) * 100).astype(np.uint16), interpretation="rgb16")
deep.set_type(pyvips.GValue.blob_type, "icc-profile-data", profile.raw)
deep.write_to_file(f"{out}/p3-16.png")

# HEIC as phones write it: the rotation in an irot box and EXIF orientation 6 (written by
# pillow-heif from tagged.jpg), and a Display P3 HEIC (heif-enc keeps the PNG's profile);
# references from heif-convert.
import pillow_heif
pillow_heif.register_heif_opener()
tagged = Image.open(f"{out}/tagged.jpg")
tagged.save(f"{out}/irot.heic", quality=90, exif=tagged.getexif().tobytes())
run("heif-enc", "-q", "95", f"{out}/p3.png", "-o", f"{out}/p3.heic")
# A HEIC with an embedded 320-pixel preview (heif-enc -t), for thumbnailing from it.
run("heif-enc", "-q", "60", "-t", "320", "testdata/photo.jpg", "-o", f"{out}/thumbed.heic")
for name in ["irot", "p3"]:
    run("heif-convert", f"{out}/{name}.heic", f"{work}/{name}.png")
    save_pam(Image.open(f"{work}/{name}.png"), f"{name}.heic.pam")
print("ok")

# JPEG XL (libjxl-tools 0.7): cjxl writes the files, djxl decodes the references. The
# animation is cjxl's own conversion of anim.gif (lossless), checked against the GIF's
# frames; recompressed.jxl is cjxl's lossless recompression of a JPEG with EXIF and XMP.
run("cjxl", f"{src}/rgb8.png", f"{out}/lossy.jxl", "-d", "1")
run("cjxl", f"{src}/rgb8.png", f"{out}/lossless.jxl", "-d", "0")
run("cjxl", f"{src}/rgba8.png", f"{out}/alpha-lossy.jxl", "-d", "1")
run("cjxl", f"{src}/rgba8.png", f"{out}/alpha-lossless.jxl", "-d", "0")
run("cjxl", f"{src}/gray8.png", f"{out}/gray.jxl", "-d", "0")
run("cjxl", f"{src}/rgb16.png", f"{out}/rgb16.jxl", "-d", "0")
run("cjxl", f"{out}/anim.gif", f"{out}/anim.jxl")
run("cjxl", "testdata/photo.jpg", f"{out}/recompressed.jxl")
# A JPEG with EXIF orientation 6, recompressed: cjxl moves the orientation into the codestream.
run("cjxl", f"{src}/orient-6.jpg", f"{out}/orient-6.jxl")
run("djxl", f"{out}/orient-6.jxl", f"{work}/orient-6.png")
save_pam(Image.open(f"{work}/orient-6.png"), "orient-6.jxl.pam")
for name in ["lossy", "lossless", "alpha-lossy", "alpha-lossless", "gray"]:
    run("djxl", f"{out}/{name}.jxl", f"{work}/{name}.png")
    save_pam(Image.open(f"{work}/{name}.png"), f"{name}.jxl.pam")
# The animation's frames as djxl composites them (an APNG, split by Pillow). Frame 3
# differs from the GIF's as libvips composites it: cjxl and libvips read that frame's
# disposal differently, so the JPEG XL is checked against djxl.
run("djxl", f"{out}/anim.jxl", f"{work}/anim.png")
from PIL import ImageSequence
for i, frame in enumerate(ImageSequence.Iterator(Image.open(f"{work}/anim.png"))):
    save_pam(frame.convert("RGBA"), f"anim.jxl.{i}.pam")
# 16-bit: djxl writes a 16-bit PPM (Pillow has no 16-bit RGB), kept as PAM.
run("djxl", f"{out}/rgb16.jxl", f"{work}/rgb16.ppm")
with open(f"{work}/rgb16.ppm", "rb") as f:
    fields = f.read().split(b"\n", 3)
    width, height = map(int, fields[1].split())
    assert fields[0] == b"P6" and fields[2] == b"65535"
    with open(f"{out}/rgb16.jxl.pam", "wb") as g:
        g.write(f"P7\nWIDTH {width}\nHEIGHT {height}\nDEPTH 3\nMAXVAL 65535\nTUPLTYPE RGB\nENDHDR\n".encode())
        g.write(fields[3])
