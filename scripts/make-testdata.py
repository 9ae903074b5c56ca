#!/usr/bin/env python3
"""Regenerates testdata/codecs: small images with known content, written by independent
encoders (Pillow, ImageMagick, libtiff's tiffcp), and reference pixels decoded by Pillow
(stored as binary PPM/PGM/PAM). Run from the repository root; needs pillow, imagemagick,
libtiff-tools. The committed files are what the tests use; this script documents them."""
import os, subprocess
from PIL import Image

out = "testdata/codecs"
os.makedirs(out, exist_ok=True)
W, H = 23, 17

def pattern_rgb(x, y):
    return ((x * 11) % 256, (y * 15) % 256, (x * 7 + y * 13) % 256)

rgb = Image.new("RGB", (W, H))
rgb.putdata([pattern_rgb(x, y) for y in range(H) for x in range(W)])
rgba = Image.new("RGBA", (W, H))
rgba.putdata([pattern_rgb(x, y) + ((x * 19 + y * 3) % 256,) for y in range(H) for x in range(W)])
gray = Image.new("L", (W, H))
gray.putdata([(x * 11 + y * 5) % 256 for y in range(H) for x in range(W)])

def save_pam(image, name):
    """Reference pixels as PAM (any depth/channels), decoded by Pillow."""
    image = image.convert("RGBA")
    with open(f"{out}/{name}", "wb") as f:
        f.write(f"P7\nWIDTH {image.width}\nHEIGHT {image.height}\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".encode())
        f.write(image.tobytes())

# PNG: every color type and bit depth.
rgb.save(f"{out}/rgb8.png")
rgba.save(f"{out}/rgba8.png")
gray.save(f"{out}/gray8.png")
gray.convert("LA").save(f"{out}/graya8.png")
gray.point(lambda v: 255 if v > 127 else 0).convert("1").save(f"{out}/gray1.png")
subprocess.run(["convert", f"{out}/gray8.png", "-depth", "2", f"PNG8:{out}/tmp.png"], check=True)
subprocess.run(["convert", f"{out}/gray8.png", "-colorspace", "Gray", "-depth", "2", f"{out}/gray2.png"], check=True)
subprocess.run(["convert", f"{out}/gray8.png", "-colorspace", "Gray", "-depth", "4", f"{out}/gray4.png"], check=True)
os.remove(f"{out}/tmp.png")
# 16-bit content that is not a multiple of 257, written as 16-bit PAM then encoded by ImageMagick.
def pattern16(x, y, c):
    return (x * 2851 + y * 977 + c * 12345) % 65536
for name, channels, tupl, target in [("gray16", 1, "GRAYSCALE", "PNG:"), ("rgb16", 3, "RGB", "PNG48:"), ("rgba16", 4, "RGB_ALPHA", "PNG64:")]:
    with open(f"{out}/{name}.source.pam", "wb") as f:
        f.write(f"P7\nWIDTH {W}\nHEIGHT {H}\nDEPTH {channels}\nMAXVAL 65535\nTUPLTYPE {tupl}\nENDHDR\n".encode())
        f.write(b"".join(pattern16(x, y, c).to_bytes(2, "big") for y in range(H) for x in range(W) for c in range(channels)))
    subprocess.run(["convert", f"{out}/{name}.source.pam", "-define", "png:bit-depth=16", f"{target}{out}/{name}.png"], check=True)
pal = rgb.quantize(colors=16)
pal.save(f"{out}/palette8.png", transparency=3)
rgb.quantize(colors=4).save(f"{out}/palette2.png", bits=2)
subprocess.run(["convert", f"{out}/rgba8.png", "-interlace", "PNG", f"{out}/interlaced.png"], check=True)
for name in ["rgb8", "rgba8", "gray8", "graya8", "gray1", "gray2", "gray4", "palette8", "palette2", "interlaced"]:
    save_pam(Image.open(f"{out}/{name}.png"), f"{name}.png.pam")

# JPEG: baseline, progressive, grayscale, CMYK.
rgb.save(f"{out}/baseline.jpg", quality=90)
rgb.save(f"{out}/progressive.jpg", quality=90, progressive=True)
gray.save(f"{out}/gray.jpg", quality=90)
rgb.convert("CMYK").save(f"{out}/cmyk.jpg", quality=95)
for name in ["baseline", "progressive", "gray"]:
    save_pam(Image.open(f"{out}/{name}.jpg"), f"{name}.jpg.pam")

# TIFF: gray/RGB/RGBA/palette, 8/16-bit, strips and tiles, each compression.
for compression, tag in [(None, "none"), ("tiff_lzw", "lzw"), ("tiff_adobe_deflate", "deflate"), ("packbits", "packbits")]:
    rgb.save(f"{out}/rgb-{tag}.tif", compression=compression)
rgb.save(f"{out}/rgb-jpeg.tif", compression="jpeg", quality=95)
rgba.save(f"{out}/rgba.tif", compression="tiff_lzw")
gray.save(f"{out}/gray.tif")
pal.save(f"{out}/palette.tif")
subprocess.run(["convert", f"{out}/gray16.source.pam", "-depth", "16", f"{out}/gray16.tif"], check=True)
subprocess.run(["convert", f"{out}/rgb16.source.pam", "-depth", "16", "-compress", "zip", f"{out}/rgb16.tif"], check=True)
subprocess.run(["tiffcp", "-t", "-w", "16", "-l", "16", "-c", "lzw", f"{out}/rgb-none.tif", f"{out}/rgb-tiled.tif"], check=True)
# Larger TIFFs of the bundled photo for band-by-band decoding: many tile rows and strips.
Image.open("testdata/photo.jpg").crop((200, 100, 400, 250)).save(f"{out}/photo-crop.png")
Image.open(f"{out}/photo-crop.png").save(f"{out}/photo-strips.tif", compression="tiff_adobe_deflate")
subprocess.run(["tiffcp", "-s", "-r", "8", "-c", "zip", f"{out}/photo-strips.tif", f"{out}/photo-strips8.tif"], check=True)
subprocess.run(["tiffcp", "-t", "-w", "32", "-l", "32", "-c", "zip", f"{out}/photo-strips.tif", f"{out}/photo-tiled.tif"], check=True)
subprocess.run(["rm", f"{out}/photo-strips.tif"], check=True)
for name in ["rgb-none", "rgba", "gray", "palette", "rgb-tiled"]:
    save_pam(Image.open(f"{out}/{name}.tif"), f"{name}.tif.pam")

# EXIF orientation 1–8: the stored pixels are the upright picture transformed by the
# inverse of what each orientation asks, so every file displays as orient-upright.png.
upright = Image.new("RGB", (5, 3))
upright.putdata([pattern_rgb(x * 5, y * 5) for y in range(3) for x in range(5)])
upright.save(f"{out}/orient-upright.png")
inverse = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
           5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_90, 7: Image.Transpose.TRANSVERSE,
           8: Image.Transpose.ROTATE_270}
for o in range(1, 9):
    stored = upright if o == 1 else upright.transpose(inverse[o])
    exif = Image.Exif()
    exif[0x0112] = o
    stored.save(f"{out}/orient-{o}.png", exif=exif.tobytes())
    stored.save(f"{out}/orient-{o}.jpg", exif=exif.tobytes(), quality=100, subsampling=0)
# ICC profiles from Debian's colord-data: an image tagged with SwappedRedAndGreen must
# decode with red and green exchanged; one tagged Adobe RGB is checked against Pillow's
# ImageCms conversion to sRGB.
import glob, tempfile
from PIL import ImageCms
work = tempfile.mkdtemp()
subprocess.run(["apt-get", "download", "colord-data"], cwd=work, check=True, capture_output=True)
subprocess.run("dpkg -x colord-data_*.deb x", shell=True, cwd=work, check=True)
icc = lambda name: open(f"{work}/x/usr/share/color/icc/colord/{name}.icc", "rb").read()
rgb.save(f"{out}/icc-swapped.png", icc_profile=icc("SwappedRedAndGreen"))
rgb.save(f"{out}/icc-adobergb.tif", tiffinfo={34675: icc("AdobeRGB1998")})
adobe = ImageCms.ImageCmsProfile(f"{work}/x/usr/share/color/icc/colord/AdobeRGB1998.icc")
converted = ImageCms.profileToProfile(rgb, adobe, ImageCms.createProfile("sRGB"), renderingIntent=1)
save_pam(converted, "icc-adobergb.tif.pam")
print("ok")
