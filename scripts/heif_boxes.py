"""ISO base media boxes, for the scripts that assemble HEIF containers around heif-enc's
HEVC streams (make-heic-grid.py, make-apple-hdr.py)."""
import struct


def boxes(data, start, end):
    """(type, payload start, box end) of the boxes in data[start:end]."""
    while start < end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[start + 8:start + 16])[0], 16
        yield kind.decode(), start + header, start + (size or end - start)
        start += size or end - start


def coded_parts(path):
    """The hvcC box (whole) and the coded bytes of heif-enc's HEVC item (item 1: the only
    item, or the tile heif-enc 1.15 wraps a small picture's one-tile grid around)."""
    data = open(path, "rb").read()
    meta = next((s, e) for k, s, e in boxes(data, 0, len(data)) if k == "meta")
    parts = {k: (s, e) for k, s, e in boxes(data, meta[0] + 4, meta[1])}
    ipco = next((s, e) for k, s, e in boxes(data, *parts["iprp"]) if k == "ipco")
    hvcc = next(data[s - 8:e] for k, s, e in boxes(data, *ipco) if k == "hvcC")
    s, _ = parts["iloc"]
    version = data[s]
    offset_size, length_size, base_size = data[s + 4] >> 4, data[s + 4] & 15, data[s + 5] >> 4
    index_size = data[s + 5] & 15 if version in (1, 2) else 0
    p = s + 6 + 2
    assert struct.unpack(">H", data[p:p + 2])[0] == 1, "heif-enc's first item is not its HEVC item"
    p += 2 + (2 if version in (1, 2) else 0) + 2
    read = lambda n, at: int.from_bytes(data[at:at + n], "big") if n else 0
    base = read(base_size, p)
    p += base_size
    extents = struct.unpack(">H", data[p:p + 2])[0]
    p += 2
    coded = b""
    for _ in range(extents):
        p += index_size
        offset, length = read(offset_size, p), read(length_size, p + offset_size)
        p += offset_size + length_size
        coded += data[base + offset:base + offset + length]
    return hvcc, coded


def box(kind, payload, version=None, flags=0):
    """A box; a full box when `version` is given."""
    head = b"" if version is None else struct.pack(">I", version << 24 | flags)
    return struct.pack(">I4s", 8 + len(head) + len(payload), kind.encode()) + head + payload


def heif_file(idat_items, mdat_items, iinf, iref, iprp, idat):
    """A whole HEIC: ftyp, meta (hdlr, pitm naming item 1, a version-1 iloc, then iinf, iref,
    iprp and idat as given) and mdat. `idat_items` are (item, offset, length) inside idat
    (construction method 1); `mdat_items` are (item, payload), laid out in mdat in order."""
    def iloc(mdat_start):
        entries = b"".join(struct.pack(">HHHHII", item, 1, 0, 1, offset, length) for item, offset, length in idat_items)
        offset = mdat_start
        for item, payload in mdat_items:
            entries += struct.pack(">HHHHII", item, 0, 0, 1, offset, len(payload))
            offset += len(payload)
        return box("iloc", bytes([0x44, 0x00]) + struct.pack(">H", len(idat_items) + len(mdat_items)) + entries, 1)

    ftyp = box("ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heic")
    hdlr = box("hdlr", struct.pack(">I4s12x", 0, b"pict") + b"\0", 0)
    pitm = box("pitm", struct.pack(">H", 1), 0)
    meta = lambda table: box("meta", hdlr + pitm + table + iinf + iref + iprp + idat, 0)
    mdat_start = len(ftyp) + len(meta(iloc(0))) + 8
    return ftyp + meta(iloc(mdat_start)) + box("mdat", b"".join(payload for _, payload in mdat_items))
