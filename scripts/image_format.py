"""The image format a file's first bytes announce (its magic), as the real-input scripts
record it: jpeg, png, apng, gif, tiff, bigtiff, webp, heic, avif, heif, jxl, bmp, empty or unknown."""


def sniff(b):
    if b[:3] == b'\xff\xd8\xff': return 'jpeg'
    if b[:8] == b'\x89PNG\r\n\x1a\n':
        i = 8
        while i + 8 <= len(b):
            n, kind = int.from_bytes(b[i:i + 4], 'big'), b[i + 4:i + 8]
            if kind == b'acTL': return 'apng'
            if kind == b'IDAT': break
            i += 12 + n
        return 'png'
    if b[:6] in (b'GIF87a', b'GIF89a'): return 'gif'
    if b[:4] in (b'II*\0', b'MM\0*'): return 'tiff'
    if b[:4] in (b'II+\0', b'MM\0+'): return 'bigtiff'
    if b[:4] == b'RIFF' and b[8:12] == b'WEBP': return 'webp'
    if b[4:8] == b'ftyp':
        n = int.from_bytes(b[:4], 'big')
        brands = [b[8:12]] + [b[i:i + 4] for i in range(16, min(n, 64), 4)]
        if b[8:12] in (b'avif', b'avis'): return 'avif'
        if any(x in (b'heic', b'heix', b'hevc', b'hevx', b'heim', b'heis') for x in brands): return 'heic'
        if any(x in (b'avif', b'avis') for x in brands): return 'avif'
        return 'heif'
    if b[:2] == b'\xff\x0a' or b[:12] == b'\0\0\0\x0cJXL \r\n\x87\n': return 'jxl'   # codestream, container
    if b[:2] == b'BM': return 'bmp'
    return 'empty' if not b else 'unknown'
