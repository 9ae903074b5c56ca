import LumenPlatform

/// A 3D lookup table read from a `.cube` file (the Adobe / DaVinci Resolve format):
/// `LUT_3D_SIZE N` then N³ lines of "r g b", red changing fastest — the same order as
/// Core Image's cube data, which `data` holds (RGBA Float32, alpha 1).
public struct CubeLUTFile: Sendable {
    /// The file's `TITLE`, when it has one.
    public let title: String?
    /// Entries along each axis (`LUT_3D_SIZE`, 2…256 here).
    public let dimension: Int
    /// dimension³ RGBA Float32 entries, red fastest: `colorCube`'s `cubeData`.
    public let data: Data

    /// Parses the file at `url`; errors name the file and line.
    public init(contentsOf url: URL) throws {
        let name = url.lastPathComponent
        let bytes: Data
        do { bytes = try Data(contentsOf: url) } catch {
            throw LumenError.unreadable(file: name, reason: systemReason(of: error))
        }
        guard bytes.count <= 256 << 20 else { throw LumenError.unsupported(file: name, reason: "a .cube file over 256 MB") }
        try self.init(text: String(decoding: bytes, as: UTF8.self), name: name)
    }

    /// Parses `.cube` text; `name` is used in errors.
    public init(text: String, name: String = "LUT") throws {
        var title: String?, dimension = 0, values: [Float] = []
        func fail(_ line: Int, _ reason: String) -> LumenError { .corrupt(file: name, reason: "line \(line): \(reason)") }
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingSpaces()
            let number = index + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            switch fields[0] {
            case "TITLE":
                var text = Substring(line.dropFirst(5).trimmingSpaces()).drop(while: { $0 == "\"" })
                while text.last == "\"" { text.removeLast() }
                title = String(text)
            case "LUT_3D_SIZE":
                guard fields.count == 2, let n = Int(fields[1]), (2...ColorCubeTable.maximumDimension).contains(n) else {
                    throw fail(number, "LUT_3D_SIZE must be 2…\(ColorCubeTable.maximumDimension)")
                }
                dimension = n
                values.reserveCapacity(n * n * n * 4)
            case "LUT_1D_SIZE":
                throw fail(number, "a 1D LUT: only 3D .cube files are supported")
            case "DOMAIN_MIN", "DOMAIN_MAX":
                let expected: Float = fields[0] == "DOMAIN_MIN" ? 0 : 1
                guard fields.count == 4, fields.dropFirst().allSatisfy({ Float($0) == expected }) else {
                    throw fail(number, "\(fields[0]) other than \(Int(expected)) \(Int(expected)) \(Int(expected)) is not supported")
                }
            case "LUT_3D_INPUT_RANGE":
                guard fields.count == 3, Float(fields[1]) == 0, Float(fields[2]) == 1 else { throw fail(number, "an input range other than 0 1") }
            default:
                guard dimension > 0 else { throw fail(number, "expected LUT_3D_SIZE before the table") }
                guard fields.count == 3, let r = Float(fields[0]), let g = Float(fields[1]), let b = Float(fields[2]),
                      r.isFinite, g.isFinite, b.isFinite else {
                    throw fail(number, "expected three numbers, got '\(line.prefix(60))'")
                }
                guard values.count < dimension * dimension * dimension * 4 else { throw fail(number, "more than \(dimension)³ entries") }
                values += [r, g, b, 1]
            }
        }
        guard dimension > 0 else { throw LumenError.corrupt(file: name, reason: "no LUT_3D_SIZE") }
        let count = values.count / 4
        guard count == dimension * dimension * dimension else {
            throw LumenError.corrupt(file: name, reason: "\(count) entries, LUT_3D_SIZE \(dimension) needs \(dimension * dimension * dimension)")
        }
        self.title = title
        self.dimension = dimension
        data = values.withUnsafeBytes { Data($0) }
    }
}
