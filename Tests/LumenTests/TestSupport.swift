import Foundation
import Testing
@testable import Lumen

/// Paths into the repository from the tests.
enum Paths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func testdata(_ name: String) -> URL { root.appendingPathComponent("testdata").appendingPathComponent(name) }
    static func codec(_ name: String) -> URL { testdata("codecs/\(name)") }

    /// A fresh temporary directory.
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lumen-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A copy of the bundled photo cut off halfway through its scan (its header ends at
/// 44 KB): its header reads, its pixels do not.
/// An image built on it proves that building decoded nothing (a decode would throw).
func truncatedPhoto() throws -> URL {
    let data = try Data(contentsOf: Paths.testdata("photo.jpg"))
    let url = Paths.temporaryDirectory().appendingPathComponent("truncated.jpg")
    try data.prefix(48_000).write(to: url)
    return url
}

/// Reference pixels stored as PAM (P7), as written by scripts/make-testdata.py.
struct PAM {
    let width: Int
    let height: Int
    let depth: Int
    let maxValue: Int
    let samples: [Int]

    init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        let end = data.range(of: Data("ENDHDR\n".utf8))!
        let header = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        var fields: [String: Int] = [:]
        for line in header.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let v = Int(parts[1]) { fields[String(parts[0])] = v }
        }
        width = fields["WIDTH"]!
        height = fields["HEIGHT"]!
        depth = fields["DEPTH"]!
        maxValue = fields["MAXVAL"]!
        let body = [UInt8](data[end.upperBound...])
        if maxValue > 255 {
            samples = stride(from: 0, to: body.count, by: 2).map { Int(body[$0]) << 8 | Int(body[$0 + 1]) }
        } else {
            samples = body.map(Int.init)
        }
    }

    func sample(x: Int, row: Int, channel: Int) -> Int { samples[(row * width + x) * depth + channel] }
}

/// Renders an image with the default context into 8-bit RGBA.
func render8(_ image: Image, in rect: Rect? = nil, context: RenderContext = RenderContext()) throws -> Bitmap {
    try context.render(image, in: rect, format: .rgba8)
}

/// Largest absolute difference between a bitmap and a reference.
func maxDifference(_ bitmap: Bitmap, _ reference: PAM, channels: Int = 4) -> Int {
    var worst = 0
    for row in 0..<bitmap.height {
        for x in 0..<bitmap.width {
            let p = bitmap.pixel(x: x, row: row)
            for c in 0..<channels { worst = max(worst, abs(Int(p[c]) - reference.sample(x: x, row: row, channel: c))) }
        }
    }
    return worst
}

/// Renders `image` whole and in every schedule the issue names (1×1, 7×13, 64×64 and
/// default tiles; 1 and N threads) and requires identical float pixels.
func expectTileInvariant(_ image: Image, in rect: Rect? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let reference = try RenderContext(.init(threads: 1, tileWidth: 4096, tileHeight: 4096)).render(image, in: rect, format: .rgbaFloat)
    let schedules: [(Int, Int, Int)] = [(1, 1, 2), (7, 13, 1), (7, 13, 3), (64, 64, 2), (256, 128, 4)]
    for (w, h, threads) in schedules {
        let bitmap = try RenderContext(.init(threads: threads, tileWidth: w, tileHeight: h)).render(image, in: rect, format: .rgbaFloat)
        #expect(bitmap == reference, "tiles \(w)×\(h), \(threads) threads differ", sourceLocation: sourceLocation)
    }
}

/// A small synthetic photo-like image: a gradient with a checker overlay (infinite
/// generators cropped to `size`).
func syntheticImage(width: Int = 37, height: Int = 29) -> Image {
    let gradient = try! Filter.descriptor(named: "linearGradient")!.apply([
        "point0": .vector([0, 0]), "point1": .vector([Double(width), Double(height)]),
        "color0": .color(Color(red: 0.9, green: 0.2, blue: 0.1)), "color1": .color(Color(red: 0.1, green: 0.3, blue: 0.8)),
    ])
    let checker = try! Filter.descriptor(named: "checkerboard")!.apply([
        "center": .vector([3, 5]), "width": .number(6), "color0": .color(Color(red: 1, green: 1, blue: 1, alpha: 0.3)),
        "color1": .color(.clear),
    ])
    return checker.composited(over: gradient).cropped(to: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
}

/// Runs a reference tool (`python3 scripts/…`, a command-line decoder) and returns its
/// standard output; throws, naming the tool and `hint`, when it fails.
func runReferenceTool(_ arguments: [String], hint: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw LumenError.unrenderable(reason: "\(arguments.prefix(2).joined(separator: " ")) failed (\(hint))")
    }
    return output
}

/// A script of scripts/ run with python3.
func runScript(_ name: String, _ arguments: [String], hint: String) throws -> String {
    try runReferenceTool(["python3", Paths.root.appendingPathComponent("scripts/\(name)").path] + arguments, hint: hint)
}

/// The chunk types of a PNG file in order ("IHDR", "sRGB", "iCCP"…), read straight from its bytes.
func pngChunkTypes(_ url: URL) throws -> [String] {
    let data = try Data(contentsOf: url)
    var types: [String] = [], offset = 8
    while offset + 8 <= data.count {
        let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        types.append(String(decoding: data[offset + 4..<offset + 8], as: UTF8.self))
        offset += 12 + length
    }
    return types
}
