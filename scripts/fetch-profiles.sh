#!/usr/bin/env bash
# Builds a corpus of real-world ICC profiles from Debian packages, for tests of Lumen's
# colour management against profiles nobody here wrote: v2 and v4, matrix/TRC and LUT,
# gray, CMYK, camera and display profiles, and odd ones from the wild.
#   scripts/fetch-profiles.sh [DEST]   default $LUMEN_PROFILES, else ~/.cache/lumen-profiles
# Packages come from `apt-get download` (installs nothing) and `dpkg -x`. Taken: .icc/.icm
# files; profiles embedded in PNG (iCCP) and JPEG (APP2) files, where HP's 3144-byte
# "sRGB IEC61966-2.1" comes from (imagemagick-6-doc's script.png and logo.png hold the two
# variants libpng calls "known incorrect"); and those zlib'ed into libvips (sRGB, P3, CMYK).
# Named DEST/<package>__<original-basename> (+ ".icc" out of an image, ".<description>.icc"
# out of a library); a profile equal to an earlier one but for its date and ID is skipped.
# Writes DEST/index.tsv (file, bytes, version, space, class, model, description) and the
# packages' Debian copyright files to DEST/licenses/, then prints DEST. About 110 MB of
# packages (krita-data, 54 MB, has the only v4 lutAtoB RGB profile and Elle Stone's v2/v4
# gray set). LUMEN_PROFILE_PACKAGES replaces the list; others with profiles: texlive-base
# (FOGRA39L), mediawiki (Facebook's TINYsRGB), libjxl-testdata, gdk-pixbuf-tests, digikam-data.
set -euo pipefail
dest="${1:-${LUMEN_PROFILES:-$HOME/.cache/lumen-profiles}}"
mkdir -p "$dest"
if [ -f "$dest/.complete" ]; then echo "$dest"; exit 0; fi
# Small ones first: a duplicate keeps the name of the package listed first. imagemagick-6-common
# has no profile: it is there for the copyright file imagemagick-6-doc's doc folder links to.
packages=(${LUMEN_PROFILE_PACKAGES:-icc-profiles-free colord-data colord-tests libgs-common argyll-ref
  weasyprint libvips42 imagemagick-6-doc imagemagick-6-common scribus-data displaycal rawtherapee-data
  krita-data})
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$dest/licenses" "$work/x"
for pkg in "${packages[@]}"; do
  ( cd "$work" && apt-get download "$pkg" >/dev/null 2>&1 ) ||
    { apt-get update >/dev/null 2>&1 || true; ( cd "$work" && apt-get download "$pkg" >/dev/null ); }
  dpkg -x "$work/${pkg}"_*.deb "$work/x/$pkg"
  copyright="$work/x/$pkg/usr/share/doc/$pkg/copyright"
  if [ -f "$copyright" ]; then cp "$copyright" "$dest/licenses/$pkg.copyright"; fi
done
python3 - "$work/x" "$dest" "${packages[@]}" <<'EOF'
import hashlib, os, re, sys, zlib
src, dest, packages = sys.argv[1], sys.argv[2], sys.argv[3:]

def valid(b):  # a profile: 'acsp' at 36 and a size field (bytes 0..3) that fits
    n = int.from_bytes(b[:4], 'big')
    return b[:n] if len(b) >= 132 and b[36:40] == b'acsp' and 132 <= n <= len(b) else None

def png_profiles(b):  # the iCCP chunk: name, NUL, method byte, zlib stream; before IDAT
    i = 8
    while i + 8 <= len(b) and b[i+4:i+8] != b'IDAT':
        n = int.from_bytes(b[i:i+4], 'big')
        if b[i+4:i+8] == b'iCCP':
            c = b[i+8:i+8+n]
            return [zlib.decompress(c[c.index(b'\0') + 2:])]
        i += 12 + n
    return []

def jpeg_profiles(b):  # APP2 "ICC_PROFILE\0" segments, numbered from 1, joined in order
    parts, i = {}, 2
    while i + 4 <= len(b) and b[i] == 0xFF and b[i+1] not in (0xD9, 0xDA):
        n = int.from_bytes(b[i+2:i+4], 'big')
        if b[i+1] == 0xE2 and b[i+4:i+16] == b'ICC_PROFILE\0': parts[b[i+16]] = b[i+18:i+2+n]
        i += 2 + n
    return [b''.join(parts[k] for k in sorted(parts))] if parts else []

def zlib_profiles(b):  # zlib streams inside a binary that inflate to a profile (libvips)
    found = []
    for m in re.finditer(rb'\x78[\x01\x5e\x9c\xda]', b):
        try:
            if zlib.decompressobj().decompress(b[m.start():m.start() + 4096], 40)[36:40] == b'acsp':
                found.append(zlib.decompressobj().decompress(b[m.start():]))
        except zlib.error:
            pass
    return found

def profiles(path):  # [(name, bytes)] for one file
    f = os.path.basename(path)
    with open(path, 'rb') as file: b = file.read()
    if re.search(r'\.ic[cm]$', f, re.I): return [(f, b)]
    try:
        found = png_profiles(b) if b[:8] == b'\x89PNG\r\n\x1a\n' else jpeg_profiles(b) if b[:3] == b'\xff\xd8\xff' \
            else zlib_profiles(b) if b[:4] == b'\x7fELF' else []
    except (zlib.error, ValueError, IndexError):
        return []
    if b[:4] == b'\x7fELF':  # libvips.so.42.16.1 -> libvips.so.sP3C.icc, whatever the version
        return [(re.sub(r'\.so(\.\d+)*$', '.so', f) + '.' + re.sub(r'\W+', '-', row('', p)[6]).strip('-') + '.icc', p) for p in found if valid(p)]
    return [(f + ('.icc' if len(found) == 1 else f'.{k + 1}.icc'), p) for k, p in enumerate(found)]

def description(b, tags):  # 'desc': v2 textDescriptionType (ASCII) or v4 mluc (UTF-16BE)
    o, n = tags.get(b'desc', (0, 0)); t = b[o:o+n]
    if t[:4] == b'desc': return t[12:12 + int.from_bytes(t[8:12], 'big')].split(b'\0')[0].decode('latin-1')
    if t[:4] == b'mluc' and len(t) >= 28:
        k, at = int.from_bytes(t[20:24], 'big'), int.from_bytes(t[24:28], 'big')
        return t[at:at+k].decode('utf-16-be', 'replace')
    return ''

def row(name, b):
    count = int.from_bytes(b[128:132], 'big')
    tags = {b[132+12*i:136+12*i]: (int.from_bytes(b[136+12*i:140+12*i], 'big'), int.from_bytes(b[140+12*i:144+12*i], 'big'))
            for i in range(min(count, (len(b) - 132) // 12))}
    model = 'lut' if b'A2B0' in tags else 'matrix' if b'rXYZ' in tags and b'rTRC' in tags else 'gray-trc' if b'kTRC' in tags else 'other'
    text = ' '.join(description(b, tags).replace('\0', ' ').split())
    return [name, str(len(b)), f'{b[8]}.{b[9] >> 4}', b[16:20].decode('latin-1'), b[12:16].decode('latin-1'), model, text]

seen, rows = set(), [['file', 'bytes', 'version', 'space', 'class', 'model', 'description']]
for pkg in packages:
    for root, dirs, files in sorted(os.walk(os.path.join(src, pkg))):
        for f in sorted(files):
            path = os.path.join(root, f)
            if os.path.islink(path) or not os.path.isfile(path): continue
            for base, data in profiles(path):
                data = valid(data)
                key = data and hashlib.sha256(data[:24] + data[36:84] + data[100:]).digest()
                if not data or key in seen: continue
                seen.add(key)
                name, k = f'{pkg}__{base}', 1
                while name in {r[0] for r in rows}:
                    k += 1; name = f'{pkg}__{k}_{base}'
                with open(os.path.join(dest, name), 'wb') as out: out.write(data)
                rows.append(row(name, data))
with open(os.path.join(dest, 'index.tsv'), 'w') as out:
    out.writelines('\t'.join(r) + '\n' for r in rows)
print(f'{len(rows) - 1} profiles', file=sys.stderr)
EOF
touch "$dest/.complete"
echo "$dest"
