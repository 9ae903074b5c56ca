import CHEIF
import LumenPlatform

/// ISO 21496-1 gain maps in HEIF, as Samsung's phones (2024 on) and iOS 18 write them: a
/// `tmap` derived image item whose two inputs (`dimg`) are the base picture — the primary —
/// and the gain-map picture (also the primary's auxiliary image), the item's bytes the
/// standard's metadata: a version, flags (bit 7: one set of values per channel), the base and
/// alternate headrooms, then per channel the map's minimum and maximum (log₂), gamma, and the
/// base and alternate offsets, each a rational of 32-bit numbers. Debian's libheif 1.15
/// exposes neither the item nor its bytes, so the boxes are read here (`HEIFBoxes`) and the
/// map's picture is decoded through libheif's auxiliary-image calls by its item id.
///
/// The parameters are Ultra HDR's (`GainMap`): the alternate rendition's headroom is the
/// capacity at which the map applies fully; the map's samples are its codes.
enum ISOGainMap {
    /// The metadata of a `tmap` item's bytes, with `encoded` for the map's pixels; nil for a
    /// version or layout Lumen does not know.
    static func parameters(_ payload: [UInt8], encoded: GainMap.Encoded) -> GainMap? {
        var at = 0
        func u8() -> Int? { at < payload.count ? Int(payload[postIncrement(&at, 1)]) : nil }
        func u16() -> Int? { guard let a = u8(), let b = u8() else { return nil }; return a << 8 | b }
        func u32() -> Int? { guard let a = u16(), let b = u16() else { return nil }; return a << 16 | b }
        func rational(signed: Bool) -> Double? {
            guard let n = u32(), let d = u32(), d != 0 else { return nil }
            return Double(signed && n >= 1 << 31 ? n - (1 << 32) : n) / Double(d)
        }
        // Flags 3 (one common denominator) and 2 (the backward direction) change the layout
        // or the meaning; such payloads are not read rather than misread.
        guard u8() == 0, u16() == 0, u16() != nil, let flags = u8(), flags & 0x0C == 0,
              let baseHeadroom = rational(signed: false), let alternateHeadroom = rational(signed: false) else { return nil }
        let channels = flags & 0x80 != 0 ? 3 : 1
        var values: [[Double]] = []  // per channel: min, max, gamma, base offset, alternate offset
        for _ in 0..<channels {
            guard let low = rational(signed: true), let high = rational(signed: true), let gamma = rational(signed: false),
                  let base = rational(signed: true), let alternate = rational(signed: true), gamma > 0 else { return nil }
            values.append([low, high, gamma, base, alternate])
        }
        func triple(_ i: Int) -> SIMD3<Double> {
            channels == 3 ? SIMD3(values[0][i], values[1][i], values[2][i]) : SIMD3(repeating: values[0][i])
        }
        guard [baseHeadroom, alternateHeadroom].allSatisfy(\.isFinite), values.joined().allSatisfy(\.isFinite) else { return nil }
        let baseIsHDR = baseHeadroom > alternateHeadroom
        return GainMap(minimum: triple(0), maximum: triple(1), gamma: triple(2),
                       offsetSDR: baseIsHDR ? triple(4) : triple(3), offsetHDR: baseIsHDR ? triple(3) : triple(4),
                       capacityMinimum: min(baseHeadroom, alternateHeadroom), capacityMaximum: max(baseHeadroom, alternateHeadroom),
                       baseIsHDR: baseIsHDR, encoded: encoded)
    }

    /// The `tmap` item of a HEIF file whose base is the primary picture: the gain map's
    /// item id and the metadata's bytes; nil without one.
    static func find(_ bytes: [UInt8]) throws -> (map: Int, metadata: [UInt8])? {
        guard announcesToneMap(bytes.prefix(128)) else { return nil }
        let table = try HEIFBoxes.ItemTable(bytes)
        // The first tmap (by id) over the primary, as libavif takes it: one item's bytes read.
        let images: Set<String> = ["hvc1", "av01", "grid", "iden", "iovl", "jpeg"]
        for id in table.types.filter({ $0.value == "tmap" }).keys.sorted() {
            guard let inputs = table.references.first(where: { $0.type == "dimg" && $0.from == id })?.to,
                  inputs.count == 2, inputs[0] == table.primary else { continue }
            let map = inputs[1]
            guard map != table.primary, map != id, let type = table.types[map], images.contains(type),
                  let metadata = try table.data(of: id, limit: 4096) else { return nil }
            return (map, metadata)
        }
        return nil
    }

    /// Whether the file type box lists the `tmap` brand, which a file with a tone-map item
    /// carries (ISO/IEC 23008-12): the other files are not read further.
    static func announcesToneMap<Bytes: Collection>(_ prefix: Bytes) -> Bool where Bytes.Element == UInt8 {
        let bytes = Array(prefix)
        guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return false }
        let size = min(bytes.count, Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3]))
        return stride(from: 8, to: size - 3, by: 4).contains { bytes[$0..<($0 + 4)].elementsEqual("tmap".utf8) }
    }

    /// Whether a HEIF file's bytes have an ISO 21496-1 gain map for its primary picture
    /// whose metadata Lumen reads (the boxes only: nothing is decoded).
    static func headroom(heic data: Data) -> Double? {
        guard announcesToneMap(data.prefix(128)), let found = try? find([UInt8](data)),
              let map = parameters(found.metadata, encoded: .codes(samples: Data(), width: 0, height: 0, channels: 1)),
              !map.baseIsHDR else { return nil }
        return map.headroom
    }

    /// The gain map of a HEIF file's bytes, its picture decoded (8-bit codes), or nil without one.
    static func read(heic data: Data, path: String) throws -> GainMap? {
        let bytes = [UInt8](data)
        guard announcesToneMap(data.prefix(128)), let found = try? find(bytes),
              parameters(found.metadata, encoded: .codes(samples: Data(), width: 0, height: 0, channels: 1))?.baseIsHDR == false
        else { return nil }
        // A map that cannot be decoded costs the file its HDR rendition, not its picture.
        do {
            return try decoded(data, bytes: bytes, found: found, path: path)
        } catch LumenError.cancelled {
            throw LumenError.cancelled
        } catch {
            try DecodeWarnings.report(file: path, "its HDR gain map cannot be decoded (\(error)); the picture is read without it")
            return nil
        }
    }

    /// The map of `found` decoded, with its parameters.
    private static func decoded(_ data: Data, bytes: [UInt8], found: (map: Int, metadata: [UInt8]), path: String) throws -> GainMap? {
        let heif = try libheif(file: path)
        // Samsung's and Apple's maps are also the primary's auxiliary images; libavif's are
        // hidden items only the tmap points to, which libheif 1.15 decodes once made the primary.
        var size = (width: 0, height: 0)
        var picture: (samples: Data, width: Int, height: Int, channels: Int)? = try HEIFDecoder.withPrimaryHandle(data, path: path) { primary in
            size = (Int(heif.heif_image_handle_get_width!(primary)), Int(heif.heif_image_handle_get_height!(primary)))
            return try AppleGainMap.withAuxiliaryHandle(primary, heif, where: { id, _ in Int(id) == found.map }) { handle in
                try AppleGainMap.decodeMap(handle, largest: size, heif, path: path)
            }
        }
        if picture == nil, let shown = try? HEIFBoxes.ItemTable(bytes).withPrimary(found.map) {
            picture = try HEIFDecoder.withPrimaryHandle(Data(shown), path: path) { handle in
                try AppleGainMap.decodeMap(handle, largest: size, heif, path: path)
            }
        }
        guard let picture, let map = parameters(found.metadata, encoded: .codes(samples: picture.samples, width: picture.width,
                                                                                 height: picture.height, channels: picture.channels)),
              !map.baseIsHDR else { return nil }
        return map
    }
}

/// `at` moved on by `n`, its old value returned.
private func postIncrement(_ at: inout Int, _ n: Int) -> Int {
    defer { at += n }
    return at
}
