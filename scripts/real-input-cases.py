#!/usr/bin/env python3
"""Test cases from the real-input corpus (scripts/fetch-real-inputs.sh) and from files the
reference tools write, run as users run them, for Lumen's decoders.
Usage: real-input-cases.py CACHE_DIR OUT_DIR    writes OUT_DIR/cases.json, OUT_DIR/written/
(the tools' files) and OUT_DIR/NNN.ref.png, then prints "N cases from M sources".

The tools' files start from nine corpus files: a phone photo with EXIF and GPS
(gdk-pixbuf-tests' issue70.jpg, 3120x4208, brought to 1024 px by `vips thumbnail`), scikit-
image's astronaut (HP's sRGB profile), a photo with alpha, a Display P3 colour ring, a 16-bit
HDR (HLG) PNG with a profile, a gray photo, a PNG whose profile swaps channels and an animated
GIF (those six libjxl-testdata's) and libtiff-doc's gray+alpha leica.png with a gray profile. Then vips
(thumbnail, jpegsave, tiffsave, webpsave, heifsave, pngsave, gifsave, jxlsave, icc_transform),
ImageMagick's own convert (/usr/bin/convert, never a `convert` earlier on PATH), exiftool
(orientation, GPS, XMP written into copies), heif-enc, cwebp, tiffcp and cjxl write one file
each with the options users reach for (cjxl: its defaults, -q/-d, -p, lossless, alpha, gray,
a Display P3 thumbnail, 16-bit HLG, float from a PFM, an animated GIF, JPEGs recompressed
with their EXIF orientation and XMP). One is kept although its tool failed: ImageMagick 6.9.11's `-type Palette` on a
photo exits 1 and leaves a PNG that stops after IHDR, gAMA and cHRM (toolExit says so).

Each case: file, origin (the corpus package and path, or the exact commands and their cwd),
format (from the magic bytes), width and height as the decoder reports them before EXIF
orientation (for HEIF, after the irot/imir transforms that libheif applies), frames,
orientation (the file's EXIF/TIFF orientation, or XMP's when there is no EXIF one; for AVIF
its irot/imir, as Pillow folds them into one; for HEIF the EXIF value, which is not applied:
notes say which), hasAlpha (an alpha channel or a transparent colour), iccProfile (its description),
and the reference: ref, OUT_DIR/NNN.ref.png, the first frame as 8-bit RGBA sRGB with the
orientation applied and an embedded profile converted to sRGB by Little CMS (through Pillow's
ImageCms: relative colorimetric, black-point compensation). refDecoder says what decoded it:
Pillow (pillow-heif for HEIF), djxl for JPEG XL (which Pillow does not read: reference_jxl
below), or, where Pillow refuses the file, `vips copy` to a TIFF (its orientation from
vipsheader) and the same colour path; refNotes list approximations: CMYK
without a profile by Pillow's naive formula ("cmyk-naive"), 16-bit samples cut to their high
byte by Pillow ("16-bit-truncated"; 16-bit gray is rounded here instead), float samples
clipped, PNG gAMA/cHRM ignored, a profile Little CMS refuses ("icc-refused"). A file neither
decodes has "undecodable" with both reasons (djxl's, for JPEG XL) and no ref: Lumen must refuse it cleanly.
pillowError is set where Pillow refused a file that vips decoded; refPartial where vips warned
while doing so (a damaged file it filled in): Lumen may refuse such a file, or match the ref.
Needs vips, ImageMagick, exiftool, heif-enc, cwebp, tiffcp, cjxl/djxl/jxlinfo (libjxl-tools),
Little CMS (liblcms2), Pillow and pillow-heif; runs the
tools and decodes two at a time."""
import csv, io, json, os, re, shlex, shutil, subprocess, sys, time, warnings
import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool

HINT = ('apt-get install libvips-tools imagemagick libimage-exiftool-perl libheif-examples webp libtiff-tools libjxl-tools liblcms2-2; '
        'pip install pillow pillow-heif')
CONVERT = '/usr/bin/convert'


def check_tools():
    missing = [t for t in ('vips', 'vipsheader', 'exiftool', 'heif-enc', 'cwebp', 'tiffcp', 'cjxl', 'djxl', 'jxlinfo') if not shutil.which(t)]
    try:
        if b'ImageMagick' not in subprocess.run([CONVERT, '-version'], capture_output=True, timeout=20).stdout:
            missing.append(f'{CONVERT} (not ImageMagick)')
    except OSError:
        missing.append(CONVERT)
    try:
        import PIL, pillow_heif  # noqa: F401
    except ImportError as error:
        missing.append(error.name)
    if missing:
        sys.exit(f'real-input-cases: missing {", ".join(missing)}\n  {HINT}')


# ---------------------------------------------------------------- reference decodes (workers)

from image_format import sniff  # noqa: E402 (beside this script)

ORIENT = {2: 'FLIP_LEFT_RIGHT', 3: 'ROTATE_180', 4: 'FLIP_TOP_BOTTOM', 5: 'TRANSPOSE', 6: 'ROTATE_270', 7: 'TRANSVERSE', 8: 'ROTATE_90'}




def icc_description(icc):
    from PIL import ImageCms
    try:
        return ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(icc))).strip() or '(no description)'
    except Exception as error:
        return f'(unreadable: {error})'


def to_srgb_rgba(im, notes):
    """The loaded frame as 8-bit RGBA sRGB (orientation not applied)."""
    import numpy as np
    from PIL import Image, ImageCms
    icc = im.info.get('icc_profile') or None
    mode, alpha = im.mode, None
    if mode in ('P', 'PA', '1'):
        im = im.convert('RGBA' if (mode == 'PA' or 'transparency' in im.info) else ('L' if mode == '1' else 'RGB'))
        if mode == 'P' and im.mode == 'RGB' and icc and b'GRAY' == icc[16:20]:
            im = im.convert('L')
    elif mode.startswith('I'):                       # 16-bit (or 32-bit) gray: rounded, not cut
        a = np.asarray(im).astype(np.int64)
        transparent = im.info.get('transparency')
        scale = 65535 if a.max(initial=0) <= 65535 else int(a.max())
        gray = Image.fromarray(((np.clip(a, 0, scale) * 255 + scale // 2) // scale).astype(np.uint8), 'L')
        if isinstance(transparent, int):
            alpha = Image.fromarray(np.where(a == transparent, 0, 255).astype(np.uint8), 'L')
        notes.append('16-bit-gray-rounded' if scale == 65535 else f'32-bit gray scaled by its maximum {scale}')
        im = gray
    elif mode == 'F':
        a = np.asarray(im)
        im = Image.fromarray(np.clip(np.nan_to_num(a) + 0.5, 0, 255).astype(np.uint8), 'L')
        notes.append('float samples taken as 0..255 and clipped')
    elif mode in ('RGBa', 'La', 'YCbCr'):
        im = im.convert('RGBA' if 'a' in mode else 'RGB')
    if im.mode in ('RGB', 'L') and 'transparency' in im.info and alpha is None:
        im = im.convert('RGBA')                      # tRNS colour key
    if im.mode in ('RGBA', 'LA'):
        alpha = im.getchannel('A')
        im = im.convert('RGB' if im.mode == 'RGBA' else 'L')
    srgb = ImageCms.createProfile('sRGB')
    flags = ImageCms.Flags.BLACKPOINTCOMPENSATION
    intent = ImageCms.Intent.RELATIVE_COLORIMETRIC
    if im.mode == 'LAB':
        transform = ImageCms.buildTransform(ImageCms.createProfile('LAB'), srgb, 'LAB', 'RGB', renderingIntent=intent, flags=flags)
        out = ImageCms.applyTransform(im, transform)
        notes.append('lab: Little CMS Lab (D50) to sRGB')
    elif icc and im.mode in ('RGB', 'L', 'CMYK'):
        try:
            # Gray profiles unoptimised: Little CMS's optimised gray curve is coarse near black
            # (a linear gray profile's code 1 comes out 6 instead of 13).
            exact = ImageCms.Flags.NOOPTIMIZE if im.mode == 'L' else 0
            transform = ImageCms.buildTransform(ImageCms.ImageCmsProfile(io.BytesIO(icc)), srgb, im.mode, 'RGB', renderingIntent=intent, flags=flags | exact)
            out = ImageCms.applyTransform(im, transform)
        except Exception as error:
            notes.append(f'icc-refused: {" ".join(str(error).split())[:120]}')
            out = im.convert('RGB')
            if im.mode == 'CMYK': notes.append('cmyk-naive')
    else:
        if im.mode == 'CMYK': notes.append('cmyk-naive')
        out = im.convert('RGB')
    out = out.convert('RGBA')
    if alpha is not None: out.putalpha(alpha)
    return out


def orientation_of(im):
    """(orientation, where it came from) as the file says; HEIF's is informative only."""
    from PIL import Image
    if im.format == 'HEIF':
        return im.info.get('original_orientation'), 'exif, not applied (HEIF: libheif applies irot/imir instead)'
    if im.format == 'AVIF':
        value = im.getexif().get(0x0112)
        return value, 'irot/imir (Pillow folds them into an EXIF orientation)'
    raw = None
    if im.info.get('exif'):
        try:
            e = Image.Exif(); e.load(im.info['exif']); raw = e.get(0x0112)
        except Exception:
            pass
    value = im.getexif().get(0x0112)
    if value is None: return None, None
    if raw is None and im.format != 'TIFF': return value, 'xmp'
    return value, 'tiff' if im.format == 'TIFF' else 'exif'


# JPEG XL: Pillow reads none, so djxl (libjxl's own decoder) decodes them, orientation applied
# as it does by default, to a PNG of the depth Lumen delivers (8 bits for files of up to 8, else
# 16), with --icc_out the profile of the decoded pixels (for a lossy file whose original profile
# libjxl cannot name, linear sRGB). An 8-bit PNG then takes the path every other case takes
# (Pillow ImageCms: Little CMS, relative colorimetric, black-point compensation); a 16-bit one,
# which Pillow would cut to 8 bits, is read by vips and converted by Little CMS itself with the
# same intent and flags, in floating point, so 16-bit, HDR (PQ, HLG) and linear samples are not
# cut to 8 bits before the transform.

def jxl_header(path):
    """What `jxlinfo -v` says: size (as stored, before orientation), bits, float, frames shown,
    orientation, alpha."""
    run = subprocess.run(['jxlinfo', '-v', path], capture_output=True, text=True, timeout=60)
    text = run.stdout
    m = re.search(r'JPEG XL (image|animation), (\d+)x(\d+), [^,]+, (\d+)-bit( float)?', text)
    if run.returncode or not m: raise RuntimeError(_last_line(run.stderr + text))
    orientation = re.search(r'^Orientation: (\d)', text, re.M)
    # Frames shown: a frame of duration 0 is a layer of the next one, except the last
    shown = re.findall(r'^(frame|layer): ', text, re.M)
    return {'width': int(m.group(2)), 'height': int(m.group(3)), 'bits': int(m.group(4)), 'float': bool(m.group(5)),
            'frames': max(1, shown.count('frame') + (shown[-1:] == ['layer'])) if m.group(1) == 'animation' else 1,
            'orientation': int(orientation.group(1)) if orientation else 1,
            'hasAlpha': bool(re.search(r'^\s*type: Alpha', text, re.M)),
            'premultiplied': bool(re.search(r'alpha_premultiplied: 1', text))}


def png_samples(path):
    """(H x W x bands uint8 or uint16 array) of a PNG at its own depth, read by vips (Pillow cuts 16-bit RGB to 8)."""
    import numpy as np
    head = subprocess.run(['vipsheader', '-a', path], capture_output=True, text=True, timeout=60)
    if head.returncode: raise RuntimeError(_vips_errors(head.stderr))
    fields = dict(re.findall(r'^(\w+): (\S+)', head.stdout, re.M))
    raw = path + '.raw'
    run = subprocess.run(['vips', 'rawsave', path, raw], capture_output=True, text=True, timeout=120)
    if run.returncode: raise RuntimeError(_vips_errors(run.stderr))
    dtype = {'uchar': np.uint8, 'ushort': np.uint16}[fields['format']]
    a = np.fromfile(raw, dtype=dtype).reshape(int(fields['height']), int(fields['width']), int(fields['bands']))
    os.remove(raw)
    return a


_lcms = None


def lcms_to_srgb(samples, icc):
    """Float samples (H x W x 1 or 3, 0..1) in the profile `icc` to sRGB floats by Little CMS,
    relative colorimetric with black-point compensation; None for no profile: sRGB already."""
    import ctypes
    import numpy as np
    global _lcms
    if _lcms is None:
        _lcms = ctypes.CDLL('liblcms2.so.2')
        _lcms.cmsOpenProfileFromMem.restype = ctypes.c_void_p
        _lcms.cmsOpenProfileFromMem.argtypes = [ctypes.c_char_p, ctypes.c_uint32]
        _lcms.cmsCreate_sRGBProfile.restype = ctypes.c_void_p
        _lcms.cmsGetColorSpace.restype = ctypes.c_uint32
        _lcms.cmsGetColorSpace.argtypes = [ctypes.c_void_p]
        _lcms.cmsCreateTransform.restype = ctypes.c_void_p
        _lcms.cmsCreateTransform.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32]
        _lcms.cmsDoTransform.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32]
        for f in ('cmsDeleteTransform', 'cmsCloseProfile'): getattr(_lcms, f).argtypes = [ctypes.c_void_p]
    gray = samples.shape[2] == 1
    if icc is None:
        return np.repeat(samples, 3, axis=2) if gray else samples
    source = _lcms.cmsOpenProfileFromMem(icc, len(icc))
    if not source: raise RuntimeError('Little CMS refused the profile')
    srgb = _lcms.cmsCreate_sRGBProfile()
    flt, rgb_flt = 1 << 22 | 4, 1 << 22 | 4 << 16 | 3 << 3 | 4          # FLOAT_SH(1) | BYTES_SH(4); PT_RGB, 3 channels
    space = _lcms.cmsGetColorSpace(source)
    in_format = flt | (3 << 16 | 1 << 3 if space == 0x47524159 else 4 << 16 | 3 << 3)   # 'GRAY': PT_GRAY, 1 channel
    if (space == 0x47524159) != gray: raise RuntimeError(f'a {"gray" if space == 0x47524159 else "colour"} profile on {samples.shape[2]} channels')
    transform = _lcms.cmsCreateTransform(source, in_format, srgb, rgb_flt, 1, 0x2000)   # INTENT_RELATIVE_COLORIMETRIC, BPC
    if not transform: raise RuntimeError('Little CMS could not build the transform')
    src = np.ascontiguousarray(samples, dtype=np.float32)
    out = np.empty(samples.shape[:2] + (3,), dtype=np.float32)
    _lcms.cmsDoTransform(transform, src.ctypes.data, out.ctypes.data, samples.shape[0] * samples.shape[1])
    _lcms.cmsDeleteTransform(transform); _lcms.cmsCloseProfile(source); _lcms.cmsCloseProfile(srgb)
    return out


def reference_jxl(path, ref, result):
    import numpy as np
    from PIL import Image
    notes = []
    try:
        info = jxl_header(path)
    except Exception as error:
        result['undecodable'] = f'jxlinfo: {" ".join(str(error).replace(path, os.path.basename(path)).split())[:200]}'
        return result
    result.update(width=info['width'], height=info['height'], frames=info['frames'], orientation=info['orientation'], hasAlpha=info['hasAlpha'])
    bits = 8 if info['bits'] <= 8 and not info['float'] else 16
    png, icc_file = ref + '.djxl.png', ref + '.djxl.icc'
    run = subprocess.run(['djxl', path, png, f'--bits_per_sample={bits}', f'--icc_out={icc_file}', '--num_threads=1'],
                         capture_output=True, text=True, timeout=300)
    if run.returncode or not os.path.exists(png):
        result['undecodable'] = f'djxl: {_last_line(run.stderr + run.stdout)}'
        return result
    try:
        icc = open(icc_file, 'rb').read() if os.path.exists(icc_file) else None
        result['iccProfile'] = icc_description(icc) if icc else None
        if info['premultiplied']: notes.append('premultiplied alpha as djxl delivers it')
        if bits == 8:
            im = Image.open(png)
            im.load()                                    # an APNG (animation) opens at its first frame
            if icc: im.info['icc_profile'] = icc
            rgba = to_srgb_rgba(im, notes)
            how = 'Little CMS via Pillow ImageCms'
        else:
            a = png_samples(png)
            colour = a.shape[2] - (1 if a.shape[2] in (2, 4) else 0)
            rgb = lcms_to_srgb(a[..., :colour].astype(np.float32) / 65535, icc)
            alpha = a[..., colour] / 65535 if colour < a.shape[2] else np.ones(a.shape[:2])
            out = np.dstack([np.clip(rgb, 0, 1), alpha[..., None]])
            rgba = Image.fromarray(np.round(out * 255).astype(np.uint8), 'RGBA')
            how = 'read by vips, Little CMS float transform'
        rgba.save(ref, compress_level=1)
    finally:
        for f in (png, icc_file):
            if os.path.exists(f): os.remove(f)
    version = subprocess.run(['djxl', '--version'], capture_output=True, text=True).stdout.split('[')[0].strip()
    result.update(ref=ref, refDecoder=f'{version} to {"an 8" if bits == 8 else "a 16"}-bit PNG (orientation applied), {how}', refNotes=notes)
    return result


def reference(job):
    """Decodes one case: the fields to merge into it."""
    n, path, out_dir = job
    import numpy as np  # noqa: F401  (imported once per worker)
    from PIL import Image
    from pillow_heif import register_heif_opener, __version__ as heif_version
    import PIL
    register_heif_opener()
    warnings.simplefilter('ignore')
    ref = os.path.join(out_dir, f'{n:03d}.ref.png')
    data = open(path, 'rb').read(4096)
    result = {'format': sniff(data)}
    if result['format'] == 'jxl': return n, reference_jxl(path, ref, result)
    notes = []
    try:
        im = Image.open(path)
        decoder = f'pillow {PIL.__version__}' + (f' + pillow-heif {heif_version}' if im.format == 'HEIF' else '')
        result.update(width=im.size[0], height=im.size[1], frames=getattr(im, 'n_frames', 1))
        if im.format != 'HEIF': im.seek(0)          # a HEIF opens at its primary image, which is what it shows
        im.load()                                    # a PNG's eXIf may follow its IDAT
        orientation, where = orientation_of(im)
        icc = im.info.get('icc_profile')
        result.update(hasAlpha=im.mode in ('RGBA', 'LA', 'PA', 'RGBa', 'La') or 'transparency' in im.info,
                      orientation=orientation, iccProfile=icc_description(icc) if icc else None)
        if where and where != 'exif' and orientation not in (None, 1): notes.append(f'orientation from {where}')
        if im.format == 'HEIF' and (im.info.get('bit_depth') or 8) > 8: notes.append(f"{im.info['bit_depth']}-bit, brought to 8 by pillow-heif")
        gamma = im.info.get('gamma')
        if im.format == 'PNG' and not icc and im.info.get('srgb') is None and (
                (gamma and abs(gamma - 0.45455) > 0.01) or 'chromaticity' in im.info and gamma is None):
            notes.append(f'png gAMA {gamma} ignored' if gamma else 'png cHRM ignored')
        if im.format in ('PNG', 'TIFF') and im.mode in ('RGB', 'RGBA') and _sixteen_bit(path, im): notes.append('16-bit-truncated')
        rgba = to_srgb_rgba(im, notes)
        if im.format != 'HEIF' and orientation in ORIENT:
            rgba = rgba.transpose(getattr(Image.Transpose, ORIENT[orientation]))
        rgba.save(ref, compress_level=1)
        result.update(ref=ref, refDecoder=decoder + ', Little CMS via Pillow ImageCms', refNotes=notes)
        return n, result
    except Image.DecompressionBombError as error:
        result['undecodable'] = f'pillow: decompression bomb ({" ".join(str(error).split()[:3])})'
        return n, result
    except Exception as error:
        pillow_error = f'{type(error).__name__}: {" ".join(str(error).replace(path, os.path.basename(path)).split())[:160]}'
    # Pillow refused it: vips copy, the same colour path after
    try:
        head = subprocess.run(['vipsheader', '-f', 'width', path], capture_output=True, text=True, timeout=30)
        if head.returncode: raise RuntimeError(_vips_errors(head.stderr))
        width = int(head.stdout)
        height = int(subprocess.run(['vipsheader', '-f', 'height', path], capture_output=True, text=True, timeout=30).stdout)
        if width * height > 200_000_000: raise RuntimeError(f'{width}x{height}: too large to decode here')
        tmp = ref + '.vips.tif'                      # TIFF keeps CMYK, 16 bits, alpha and the profile
        run = subprocess.run(['vips', 'copy', path, tmp], capture_output=True, text=True, timeout=120)
        if run.returncode: raise RuntimeError(_vips_errors(run.stderr))
        warned = _vips_warnings(run.stderr)
        got = subprocess.run(['vipsheader', '-f', 'orientation', path], capture_output=True, text=True, timeout=30).stdout.strip()
        orientation = int(got) if got.isdigit() else None
        pages = subprocess.run(['vipsheader', '-f', 'n-pages', path], capture_output=True, text=True, timeout=30).stdout.strip()
        im = Image.open(tmp); im.load()
        icc = im.info.get('icc_profile')
        result.update(width=width, height=height, frames=int(pages) if pages.isdigit() else 1, orientation=orientation,
                      hasAlpha=im.mode in ('RGBA', 'LA'), iccProfile=icc_description(icc) if icc else None)
        rgba = to_srgb_rgba(im, notes)
        if orientation in ORIENT: rgba = rgba.transpose(getattr(Image.Transpose, ORIENT[orientation]))
        rgba.save(ref, compress_level=1)
        os.remove(tmp)
        version = subprocess.run(['vips', '--version'], capture_output=True, text=True).stdout.strip()
        result.update(ref=ref, refDecoder=f'vips copy ({version}) to TIFF, then Pillow + Little CMS', refNotes=notes + [f'vips: {w}' for w in warned],
                      pillowError=pillow_error, **({'refPartial': True} if warned else {}))
    except Exception as error:
        result['undecodable'] = f'pillow: {pillow_error}; vips: {" ".join(str(error).replace(path, os.path.basename(path)).split())[:200]}'
    return n, result


def _vips_warnings(text):
    found = []
    for line in text.splitlines():
        line = re.sub(r'^\([\w-]+:\d+\): VIPS-WARNING \*\*: [\d:.]+: ', '', line.strip())
        line = re.sub(r'^vips(header)?:\s*', '', line)
        if line and not re.match(r'read gave \d+ warnings?$', line) and line not in found: found.append(line[:120])
    return found


def _vips_errors(text):  # vips prints its error stack oldest first; the first lines say what went wrong
    lines = [l for l in _vips_warnings(text) if 'unable to write to target' not in l]
    return '; '.join(lines[:3]) or 'failed'


def _last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1] if lines else 'failed'


def _sixteen_bit(path, im):
    if im.format == 'PNG':
        with open(path, 'rb') as f: head = f.read(33)
        return len(head) >= 25 and head[24] == 16
    return any(b == 16 for b in (im.tag_v2.get(258) or ())) if hasattr(im, 'tag_v2') else False


# ---------------------------------------------------------------- the tools' files

def tool_cases(cache, written):
    """[(phase, output, [argv...])]: commands run in `written`, phase by phase, two at a time."""
    photo = os.path.join(cache, 'gdk-pixbuf-tests', 'issue70.jpg')
    astronaut = os.path.join(cache, 'pypi-scikit-image', 'astronaut.png')
    alpha = os.path.join(cache, 'libjxl-testdata', 'tmshre_riaphotographs_alpha.png')
    hdr16 = os.path.join(cache, 'libjxl-testdata', 'hdr_room.png')
    p3 = os.path.join(cache, 'libjxl-testdata', 'P3-sRGB-color-ring.png')
    gray = os.path.join(cache, 'libjxl-testdata', 'cvo9xd_keong_macan_grayscale.png')
    gbr = os.path.join(cache, 'libjxl-testdata', 'rgb-to-gbr-test.png')
    animation = os.path.join(cache, 'libjxl-testdata', 'animation_patches.gif')
    gray_alpha = os.path.join(cache, 'libtiff-doc', 'leica.png')
    for needed in (photo, astronaut, alpha, hdr16, p3, gray, gbr, animation, gray_alpha):
        if not os.path.exists(needed): sys.exit(f'real-input-cases: {needed} is not in the corpus')
    C = CONVERT
    cases = [
        # phase 0: the starting points, themselves files vips writes
        (0, 'vips-thumbnail.png', [['vips', 'thumbnail', photo, 'vips-thumbnail.png', '1024']]),
        (0, 'vips-thumbnail.jpg', [['vips', 'thumbnail', photo, 'vips-thumbnail.jpg', '1024']]),
        (0, 'vips-thumbnail-p3.png', [['vips', 'thumbnail', p3, 'vips-thumbnail-p3.png', '512']]),
        # phase 1: from those
        (1, 'vips-q85.jpg', [['vips', 'jpegsave', 'vips-thumbnail.png', 'vips-q85.jpg', '--Q', '85']]),
        (1, 'vips-progressive-strip.jpg', [['vips', 'jpegsave', 'vips-thumbnail.png', 'vips-progressive-strip.jpg', '--Q', '75', '--interlace', '--strip']]),
        (1, 'vips-444-optimized.jpg', [['vips', 'jpegsave', 'vips-thumbnail.png', 'vips-444-optimized.jpg', '--Q', '90', '--subsample-mode', 'off', '--optimize-coding']]),
        (1, 'vips-icc.jpg', [['vips', 'jpegsave', astronaut, 'vips-icc.jpg', '--Q', '90']]),
        (1, 'vips-cmyk.jpg', [['vips', 'icc_transform', astronaut, 'vips-cmyk.jpg', 'cmyk', '--embedded']]),
        (1, 'vips-jpeg-tiled-pyramid.tif', [['vips', 'tiffsave', 'vips-thumbnail.png', 'vips-jpeg-tiled-pyramid.tif', '--compression', 'jpeg', '--Q', '80', '--tile', '--pyramid']]),
        (1, 'vips-deflate-predictor.tif', [['vips', 'tiffsave', 'vips-thumbnail.png', 'vips-deflate-predictor.tif', '--compression', 'deflate', '--predictor', 'horizontal']]),
        (1, 'vips-plain.tif', [['vips', 'copy', 'vips-thumbnail.png', 'vips-plain.tif']]),
        (1, 'vips-q80.webp', [['vips', 'webpsave', 'vips-thumbnail.png', 'vips-q80.webp', '--Q', '80']]),
        (1, 'vips-lossless-alpha.webp', [['vips', 'webpsave', alpha, 'vips-lossless-alpha.webp', '--lossless']]),
        (1, 'vips-p3.webp', [['vips', 'webpsave', 'vips-thumbnail-p3.png', 'vips-p3.webp', '--Q', '90']]),
        (1, 'vips-q50.heic', [['vips', 'heifsave', 'vips-thumbnail.png', 'vips-q50.heic', '--Q', '50']]),
        (1, 'vips-av1.avif', [['vips', 'heifsave', 'vips-thumbnail.png', 'vips-av1.avif', '--compression', 'av1', '--Q', '50']]),
        (1, 'vips-interlaced.png', [['vips', 'pngsave', 'vips-thumbnail.png', 'vips-interlaced.png', '--interlace']]),
        (1, 'vips-palette.png', [['vips', 'pngsave', 'vips-thumbnail.png', 'vips-palette.png', '--palette', '--Q', '80']]),
        (1, 'vips-alpha.gif', [['vips', 'gifsave', alpha, 'vips-alpha.gif']]),
        (1, 'im-q80.jpg', [[C, 'vips-thumbnail.png', '-quality', '80', 'im-q80.jpg']]),
        (1, 'im-progressive.jpg', [[C, 'vips-thumbnail.png', '-interlace', 'Plane', '-quality', '85', 'im-progressive.jpg']]),
        (1, 'im-palette.png', [[C, 'vips-thumbnail.png', '-resize', '384x384', '-strip', '-type', 'Palette', 'im-palette.png']]),
        # ImageMagick 6.9.11 fails here ("Valid palette required for paletted images", exit 1) and
        # leaves a PNG that stops after IHDR, gAMA and cHRM: kept, as users get it
        (1, 'im-palette-failed.png', [[C, astronaut, '-type', 'Palette', 'im-palette-failed.png']], 'may-fail'),
        (1, 'im-gray.png', [[C, 'vips-thumbnail.png', '-colorspace', 'Gray', 'im-gray.png']]),
        (1, 'im-16bit.png', [[C, 'vips-thumbnail.png', '-depth', '16', 'im-16bit.png']]),
        (1, 'im-hdr-16bit.tif', [[C, hdr16, '-depth', '16', '-compress', 'Zip', 'im-hdr-16bit.tif']]),
        (1, 'im-cmyk.jpg', [[C, 'vips-thumbnail.jpg', '-colorspace', 'CMYK', '-quality', '90', 'im-cmyk.jpg']]),
        (1, 'im-cmyk-lzw.tif', [[C, 'vips-thumbnail.png', '-colorspace', 'CMYK', '-compress', 'LZW', 'im-cmyk-lzw.tif']]),
        (1, 'im-orient-righttop.jpg', [[C, 'vips-thumbnail.jpg', '-orient', 'RightTop', '-quality', '90', 'im-orient-righttop.jpg']]),
        (1, 'im-animation.gif', [[C, 'vips-thumbnail.png', '-resize', '200x200', '(', '+clone', '-flop', ')', '(', '+clone', '-negate', ')',
                                  '-delay', '20', '-loop', '0', 'im-animation.gif']]),
        (1, 'im-alpha.gif', [[C, alpha, '-resize', '256x256', 'im-alpha.gif']]),
        (1, 'im-icc.jpg', [[C, astronaut, '-quality', '85', 'im-icc.jpg']]),
        (1, 'heif-enc-default.heic', [['heif-enc', 'vips-thumbnail.jpg', '-o', 'heif-enc-default.heic']]),
        (1, 'heif-enc-q50.heic', [['heif-enc', '-q', '50', 'vips-thumbnail.png', '-o', 'heif-enc-q50.heic']]),
        (1, 'heif-enc-alpha.heic', [['heif-enc', alpha, '-o', 'heif-enc-alpha.heic']]),
        (1, 'heif-enc-icc.heic', [['heif-enc', '-q', '70', 'vips-thumbnail-p3.png', '-o', 'heif-enc-icc.heic']]),
        (1, 'heif-enc-avif.avif', [['heif-enc', '-A', '-q', '50', 'vips-thumbnail.png', '-o', 'heif-enc-avif.avif']]),
        (1, 'cwebp-q80.webp', [['cwebp', '-quiet', '-q', '80', 'vips-thumbnail.png', '-o', 'cwebp-q80.webp']]),
        (1, 'cwebp-lossless.webp', [['cwebp', '-quiet', '-lossless', 'vips-thumbnail.png', '-o', 'cwebp-lossless.webp']]),
        (1, 'cwebp-alpha-q50.webp', [['cwebp', '-quiet', '-q', '80', '-alpha_q', '50', alpha, '-o', 'cwebp-alpha-q50.webp']]),
        (1, 'cwebp-metadata.webp', [['cwebp', '-quiet', '-q', '85', '-metadata', 'all', 'vips-thumbnail.jpg', '-o', 'cwebp-metadata.webp']]),
        # JPEG XL: cjxl 0.7 (libjxl-tools) as users run it, and vips's jxlsave
        (1, 'cjxl-default.jxl', [['cjxl', '--quiet', 'vips-thumbnail.png', 'cjxl-default.jxl']]),
        (1, 'cjxl-q60-progressive.jxl', [['cjxl', '--quiet', '-q', '60', '-p', 'vips-thumbnail.png', 'cjxl-q60-progressive.jxl']]),
        (1, 'cjxl-lossless-icc.jxl', [['cjxl', '--quiet', '-d', '0', astronaut, 'cjxl-lossless-icc.jxl']]),
        (1, 'cjxl-alpha.jxl', [['cjxl', '--quiet', alpha, 'cjxl-alpha.jxl']]),
        (1, 'cjxl-gray.jxl', [['cjxl', '--quiet', gray, 'cjxl-gray.jxl']]),
        (1, 'cjxl-gray-alpha-icc.jxl', [['cjxl', '--quiet', gray_alpha, 'cjxl-gray-alpha-icc.jxl']]),
        (1, 'cjxl-p3-d2.jxl', [['vips', 'thumbnail', p3, 'vips-thumbnail-p3-export.png', '512', '--export-profile', 'p3'],
                               ['cjxl', '--quiet', '-d', '2', 'vips-thumbnail-p3-export.png', 'cjxl-p3-d2.jxl']]),
        (1, 'cjxl-unnamed-icc.jxl', [['cjxl', '--quiet', gbr, 'cjxl-unnamed-icc.jxl']]),
        (1, 'cjxl-hlg-16bit-lossless.jxl', [['cjxl', '--quiet', '-d', '0', hdr16, 'cjxl-hlg-16bit-lossless.jxl']]),
        (1, 'cjxl-float.jxl', [['vips', 'icc_transform', hdr16, 'hdr-srgb16.tif', 'srgb', '--embedded', '--depth', '16'],
                               [C, 'hdr-srgb16.tif', '-define', 'quantum:format=floating-point', '-depth', '32', 'hdr-float.pfm'],
                               ['cjxl', '--quiet', 'hdr-float.pfm', 'cjxl-float.jxl']]),
        (1, 'cjxl-animation.jxl', [['cjxl', '--quiet', animation, 'cjxl-animation.jxl']]),
        (1, 'vips-q75.jxl', [['vips', 'jxlsave', 'vips-thumbnail.png', 'vips-q75.jxl', '--Q', '75']]),
        (1, 'vips-lossless-alpha.jxl', [['vips', 'jxlsave', alpha, 'vips-lossless-alpha.jxl', '--lossless']]),
        # phase 2: from phase 1's files
        (2, 'tiffcp-lzw.tif', [['tiffcp', '-c', 'lzw', 'vips-plain.tif', 'tiffcp-lzw.tif']]),
        (2, 'tiffcp-zip.tif', [['tiffcp', '-c', 'zip', 'vips-plain.tif', 'tiffcp-zip.tif']]),
        (2, 'tiffcp-jpeg.tif', [['tiffcp', '-c', 'jpeg', 'vips-plain.tif', 'tiffcp-jpeg.tif']]),
        (2, 'tiffcp-separate.tif', [['tiffcp', '-p', 'separate', 'vips-plain.tif', 'tiffcp-separate.tif']]),
        (2, 'tiffcp-lzw-predictor-tiled.tif', [['tiffcp', '-c', 'lzw:2', '-t', '-w', '256', '-l', '256', 'vips-plain.tif', 'tiffcp-lzw-predictor-tiled.tif']]),
        (2, 'im-auto-orient.jpg', [[C, 'im-orient-righttop.jpg', '-auto-orient', 'im-auto-orient.jpg']]),
        (2, 'vips-16bit-lzw-tiled.tif', [['vips', 'tiffsave', 'im-16bit.png', 'vips-16bit-lzw-tiled.tif', '--compression', 'lzw', '--tile', '--tile-width', '128', '--tile-height', '128']]),
        (2, 'heif-enc-10bit.heic', [['heif-enc', '-b', '10', 'im-16bit.png', '-o', 'heif-enc-10bit.heic']]),
        (2, 'exiftool-orientation-6.jpg', [['cp', 'vips-q85.jpg', 'exiftool-orientation-6.jpg'],
                                           ['exiftool', '-q', '-n', '-Orientation=6', '-overwrite_original', 'exiftool-orientation-6.jpg']]),
        (2, 'exiftool-gps.jpg', [['cp', 'im-q80.jpg', 'exiftool-gps.jpg'],
                                 ['exiftool', '-q', '-GPSLatitude=48.8583', '-GPSLatitudeRef=N', '-GPSLongitude=2.2945', '-GPSLongitudeRef=E',
                                  '-GPSAltitude=35', '-overwrite_original', 'exiftool-gps.jpg']]),
        (2, 'exiftool-xmp.jpg', [['cp', 'im-q80.jpg', 'exiftool-xmp.jpg'],
                                 ['exiftool', '-q', '-XMP-dc:Title=Lumen real input', '-XMP-dc:Creator=exiftool', '-XMP-xmp:Rating=4',
                                  '-overwrite_original', 'exiftool-xmp.jpg']]),
        (2, 'exiftool-orientation-8.png', [['cp', 'im-palette.png', 'exiftool-orientation-8.png'],
                                           ['exiftool', '-q', '-n', '-Orientation=8', '-overwrite_original', 'exiftool-orientation-8.png']]),
        (2, 'exiftool-orientation-3.webp', [['cp', 'cwebp-q80.webp', 'exiftool-orientation-3.webp'],
                                            ['exiftool', '-q', '-n', '-Orientation=3', '-overwrite_original', 'exiftool-orientation-3.webp']]),
        (2, 'exiftool-orientation-5.tif', [['cp', 'vips-deflate-predictor.tif', 'exiftool-orientation-5.tif'],
                                           ['exiftool', '-q', '-n', '-Orientation=5', '-overwrite_original', 'exiftool-orientation-5.tif']]),
        # phase 3: JPEGs recompressed losslessly (cjxl's default for JPEG input): jbrd box, the
        # EXIF in an Exif box and its orientation in the codestream, the XMP in an xml box
        (3, 'cjxl-jpeg-orientation-6.jxl', [['cjxl', '--quiet', 'exiftool-orientation-6.jpg', 'cjxl-jpeg-orientation-6.jxl']]),
        (3, 'cjxl-jpeg-xmp.jxl', [['cjxl', '--quiet', 'exiftool-xmp.jpg', 'cjxl-jpeg-xmp.jxl']]),
    ]
    return cases


def run_tool_case(case, written):
    """(output, origin, failure, exit status kept when the case expects a failure)."""
    phase, output, steps, *flags = case
    log = []
    for argv in steps:
        log.append(shlex.join(argv))
        if argv[0] == 'cp':
            if not os.path.exists(os.path.join(written, argv[1])): return output, ' && '.join(log), f'no {argv[1]}', None
            shutil.copyfile(os.path.join(written, argv[1]), os.path.join(written, argv[2]))
            continue
        run = subprocess.run(argv, cwd=written, capture_output=True, text=True, timeout=300)
        exists = os.path.exists(os.path.join(written, output))
        if run.returncode and 'may-fail' in flags and exists and argv is steps[-1]:
            return output, ' && '.join(log), None, {'status': run.returncode, 'stderr': _last_line(run.stderr)}
        if run.returncode or (argv is steps[-1] and not exists):
            return output, ' && '.join(log), f'exit {run.returncode}: {_last_line(run.stderr + run.stdout)}', None
    return output, ' && '.join(log), None, None


def references(jobs):
    """reference() of every job in two worker processes, {n: result}. A worker that dies (a
    decoder crashing on a damaged file) breaks the pool: the jobs left are then run one pool
    each, and the one that kills its worker is recorded as undecodable. (multiprocessing.Pool
    waits forever for a task whose worker died.) Workers are spawned, not forked: this
    process runs threads."""
    context = multiprocessing.get_context('spawn')
    results, left = {}, list(jobs)

    def run(batch):
        with ProcessPoolExecutor(2 if len(batch) > 1 else 1, mp_context=context) as pool:
            futures = {pool.submit(reference, job): job for job in batch}
            for future in as_completed(futures):
                try:
                    n, result = future.result()
                    results[n] = result
                except BrokenProcessPool:
                    pass
    run(left)
    left = [job for job in left if job[0] not in results]
    for job in left:
        run([job])
        if job[0] not in results:
            results[job[0]] = {'undecodable': 'the reference decoder crashed on it'}
    return results


def main():
    if len(sys.argv) != 3: sys.exit(__doc__.split('\n\n')[0])
    cache, out = (os.path.abspath(a) for a in sys.argv[1:])
    if not os.path.exists(os.path.join(cache, 'index.tsv')): sys.exit(f'real-input-cases: no {cache}/index.tsv: run scripts/fetch-real-inputs.sh')
    check_tools()
    started = time.time()
    written = os.path.join(out, 'written')
    shutil.rmtree(written, ignore_errors=True)
    os.makedirs(written)
    for f in os.listdir(out):
        if f.endswith('.ref.png') or '.vips.' in f: os.remove(os.path.join(out, f))

    with open(os.path.join(cache, 'index.tsv')) as f:
        rows = list(csv.DictReader(f, delimiter='\t'))
    cases = [{'file': os.path.join(cache, r['file']), 'origin': f"{r['source']} {r['path']}", 'kind': 'corpus',
              'licence': r['licence'], **({'note': r['note']} if r.get('note') else {})} for r in rows]

    # The tools' files and the corpus's references at once: tools in threads (they are processes),
    # decodes in two worker processes.
    tool_failures = []
    with ThreadPoolExecutor(1) as background:
        corpus_refs = background.submit(references, [(n, c['file'], out) for n, c in enumerate(cases)])
        phases = tool_cases(cache, written)
        for phase in sorted({c[0] for c in phases}):
            with ThreadPoolExecutor(2) as threads:
                for output, origin, failure, status in threads.map(lambda c: run_tool_case(c, written), [c for c in phases if c[0] == phase]):
                    if failure:
                        tool_failures.append(f'{origin}: {failure}')
                    else:
                        cases.append({'file': os.path.join(written, output), 'origin': origin, 'cwd': written, 'kind': 'tool',
                                      **({'toolExit': status} if status else {})})
        results = corpus_refs.result()
    first_tool = len(rows)
    results.update(references([(n, cases[n]['file'], out) for n in range(first_tool, len(cases))]))
    for n, case in enumerate(cases):
        case.update(results[n])

    ordered = ['file', 'origin', 'kind', 'format', 'width', 'height', 'frames', 'orientation', 'hasAlpha', 'iccProfile',
               'ref', 'refDecoder', 'refNotes', 'refPartial', 'pillowError', 'toolExit', 'undecodable', 'cwd', 'licence', 'note']
    cases = [{k: c[k] for k in ordered if k in c} for c in cases]
    with open(os.path.join(out, 'cases.json'), 'w') as f:
        json.dump({'corpus': cache, 'cases': cases, 'toolFailures': tool_failures}, f, indent=1)
    for failure in tool_failures: print(f'tool failed: {failure}', file=sys.stderr)
    sources = {c['origin'].split(' ')[0] for c in cases if c['kind'] == 'corpus'}
    tools = {os.path.basename(c['origin'].split(' && ')[-1].split(' ')[0]) for c in cases if c['kind'] == 'tool'}
    undecodable = sum('undecodable' in c for c in cases)
    by_vips = sum('pillowError' in c for c in cases)
    print(f'{len(cases)} cases from {len(sources) + len(tools)} sources ({len(sources)} packages, {len(tools)} tools: '
          f'{", ".join(sorted(tools))}); {undecodable} undecodable, {by_vips} decoded by vips only; {time.time() - started:.0f} s')


if __name__ == '__main__':
    main()
