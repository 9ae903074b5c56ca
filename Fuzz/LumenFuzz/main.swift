import Foundation
import Lumen

// libFuzzer entry point: one executable, the target chosen by LUMEN_FUZZ_TARGET: a format
// Lumen reads (each codec's own name: jpeg, png, tiff, webp, heic, avif, gif…), chain or
// assets. `lumen-fuzz --targets` lists them with each format's extensions, from the codecs'
// declarations, so scripts/fuzz fuzzes every codec there is. Built and run by scripts/fuzz
// with -sanitize=fuzzer,address; see the README's "Fuzzing" section.

/// Small limits so a fuzzed header cannot ask for gigabytes: what is being tested is
/// that bad input fails cleanly, not that big input decodes. Images are rendered only up
/// to a megapixel: a 382-byte animated WebP with a 32×262168 canvas is legitimate, but
/// takes over 10 s to composite in this sanitized debug build.
let pixelLimit = 4096 * 4096
let renderLimit = 1 << 20
let target = ProcessInfo.processInfo.environment["LUMEN_FUZZ_TARGET"] ?? "jpeg"
let context = RenderContext(.init(threads: 1, pixelLimit: pixelLimit))
let assetFolder = FileManager.default.temporaryDirectory.appendingPathComponent("lumen-fuzz-assets-\(getpid())")

/// Decodes the bytes when they are in one of `formats`: header, metadata, every frame up
/// to the third, and the pixels of a small image.
func decode(_ data: Data, formats: Set<ImageFileFormat>) {
    guard let header = try? ImageFile.header(of: data), formats.contains(header.format) else { return }
    _ = try? ImageFile.metadata(of: data)
    for frame in 0..<min(header.frameCount, 3) {
        guard let image = try? Image(data: data, options: .init(frame: frame)) else { continue }
        guard image.extent.width * image.extent.height <= Double(renderLimit) else { continue }
        _ = try? context.render(image, format: .rgba8)
    }
}

/// Parses and evaluates a chain over a small input and renders what it makes, when that
/// is small; `load`, `chain` and `asset` reach only a scratch folder.
func chain(_ data: Data) {
    guard let text = String(data: data, encoding: .utf8),
          let chain = try? FilterChain(text, file: "<fuzz>", directory: assetFolder) else { return }
    let input = Image(color: Color(red: 0.2, green: 0.5, blue: 0.8)).cropped(to: Rect(x: 0, y: 0, width: 16, height: 16))
    guard let output = try? chain.apply(to: input, settings: [:]) else { return }
    let extent = output.extent.isInfinite ? input.extent : output.extent
    guard extent.width * extent.height <= 4096 else { return }
    _ = try? context.render(output, in: extent, format: .rgba8)
}

/// Reads the bytes as an image set's Contents.json.
func assets(_ data: Data) {
    let set = assetFolder.appendingPathComponent("Fuzz.xcassets/logo.imageset")
    try? FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
    try? data.write(to: set.appendingPathComponent("Contents.json"))
    let catalog = AssetCatalog(directories: [assetFolder])
    _ = try? catalog.variants(named: "logo")
    _ = try? catalog.resolve("logo", traits: AssetTraits(scale: 2, idiom: .pad, appearance: .dark))
}

func fuzz(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    switch target {
    case "chain": chain(data)
    case "assets": assets(data)
    case "heif": decode(data, formats: [.heic, .avif])  // the name earlier corpora were kept under
    default:
        guard let codec = Codecs.codec(for: ImageFileFormat(rawValue: target)), codec.capabilities.reads else {
            fatalError("unknown LUMEN_FUZZ_TARGET \(target)")
        }
        decode(data, formats: [codec.format])
    }
    return 0
}

if CommandLine.arguments.dropFirst().first == "--targets" {
    for codec in Codecs.all where codec.capabilities.reads {
        print(([codec.format.rawValue] + codec.extensions).joined(separator: " "))
    }
    print("chain\nassets")
    exit(0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzz(bytes, count) }

// libFuzzer's driver, called from this executable's own main (SwiftPM gives every
// executable a main of its own, so libFuzzer's is not used).
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
               _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runDriver(&argc, &argv) { bytes, count in fuzz(bytes, count) })
