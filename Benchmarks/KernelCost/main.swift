// What a custom kernel costs next to the built-in filter doing the same work: a photo
// decoded, inverted and encoded as JPEG q85 in memory, each variant run interleaved,
// median wall time. Usage: kernel-cost PHOTO [RUNS]
import Foundation
import Lumen

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: kernel-cost PHOTO [RUNS]\n".utf8))
    exit(2)
}
let photo = try Image(contentsOf: URL(fileURLWithPath: arguments[1]))
let runs = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 7) : 7

let pixelInvert = ColorKernel("bench.invert") { p in SIMD4(p.w - p.x, p.w - p.y, p.w - p.z, p.w) }
let rowInvert = ColorKernel("bench.invert.rows", rows: { span in
    let input = span.input(0)
    for i in 0..<span.count {
        let p = input[i]
        span.output[i] = SIMD4(p.w - p.x, p.w - p.y, p.w - p.z, p.w)
    }
})
var unoptimized = RenderContext.Options()
unoptimized.optimizes = false

let variants: [(name: String, image: Image, options: RenderContext.Options)] = [
    ("built-in colorInvert (folded into decode tables)", try photo.applyingFilter("colorInvert"), RenderContext.Options()),
    ("built-in colorInvert (per-pixel pass, rewrites off)", try photo.applyingFilter("colorInvert"), unoptimized),
    ("ColorKernel, per pixel", pixelInvert.apply(extent: photo.extent, arguments: [photo]), RenderContext.Options()),
    ("ColorKernel, row form", rowInvert.apply(extent: photo.extent, arguments: [photo]), RenderContext.Options()),
]

var times = [[Double]](repeating: [], count: variants.count)
for _ in 0..<runs {
    for (index, variant) in variants.enumerated() {
        let context = RenderContext(variant.options)  // a fresh cache: every run decodes
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try context.encode(variant.image, format: .jpeg(quality: 0.85))
        times[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let reference = median(times[1])
for (index, variant) in variants.enumerated() {
    let ms = median(times[index])
    let label = variant.name.padding(toLength: 54, withPad: " ", startingAt: 0)
    print("  \(label) \(String(format: "%7.1f ms  %.2f×", ms, ms / reference)) the per-pixel built-in")
}
