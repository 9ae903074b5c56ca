// Lumen timed inside one process, as a Swift server or program embedding the library sees
// it: no process start-up, no argument parsing. scripts/bench runs it beside
// scripts/bench_inprocess.py, which does the same jobs with libvips 8.18 (pyvips-binary).
//
// Usage: inprocess-bench PHOTOS JOB RUNS
// Prints one JSON line: the job, every run's milliseconds (wall, and CPU over all threads),
// and the process's peak resident memory (VmHWM) over what it held before the first run
// (MiB). Each run reads the file's bytes and decodes them anew, renders with a fresh
// context (an empty cache) and encodes in memory.
import Foundation
import Lumen

let arguments = CommandLine.arguments
guard arguments.count == 4, let runs = Int(arguments[3]), runs > 0 else {
    FileHandle.standardError.write(Data("usage: inprocess-bench PHOTOS JOB RUNS\n".utf8))
    exit(2)
}
let photos = URL(fileURLWithPath: arguments[1]), job = arguments[2]
func photo(_ name: String) -> URL { photos.appendingPathComponent(name) }
func load(_ name: String) throws -> Image { try Image(data: Data(contentsOf: photo(name))) }
let jpeg85 = OutputFormat.jpeg(quality: 0.85)

/// One run of the job: what it computes is returned, so nothing is optimised away.
let body: () throws -> Int
switch job {
case "copy":        // decode → encode: the floor of every row below
    body = { try RenderContext().encode(load("FallenLeaf-2560x1600.jpg"), format: jpeg85).count }
case "vignette":
    body = {
        let image = try load("FallenLeaf-2560x1600.jpg").applyingFilter("vignetteEffect", parameters: ["center": [1280.0, 800.0], "radius": 600.0])
        return try RenderContext().encode(image, format: jpeg85).count
    }
case "blur":
    body = {
        let photo = try load("FallenLeaf-2560x1600.jpg")
        return try RenderContext().encode(photo.applyingGaussianBlur(sigma: 8), format: jpeg85, in: photo.extent).count
    }
case "hugeblur":     // 90 MP, streamed (scripts/bench makes huge-9999x9000.jpg)
    body = {
        let photo = try load("huge-9999x9000.jpg")
        return try RenderContext().encode(photo.applyingGaussianBlur(sigma: 4), format: jpeg85, in: photo.extent).count
    }
case "lanczos":
    body = { try RenderContext().encode(load("SafeLanding-5120x2880.jpg").applyingFilter("lanczosScale", parameters: ["scale": 0.25]), format: jpeg85).count }
case "thumbnail":
    body = {
        let context = RenderContext()
        let small = try Thumbnail(width: 1280, height: 1280, crop: .none, size: .both).apply(to: load("SafeLanding-5120x2880.jpg"), context: context)
        return try context.encode(small, format: jpeg85).count
    }
case "png", "png-fast":
    // png: the default (zlib 6, libpng's adaptive row filters: smallest files); png-fast:
    // zlib 2 with the "up" filter, which still writes smaller files than libvips's default.
    var format = OutputFormat.png
    if job == "png-fast" { format.compressionLevel = 2; format.pngFilter = .up }
    body = { [format] in try RenderContext().encode(load("FallenLeaf-2560x1600.jpg"), format: format).count }
case "motionblur":
    body = {
        let photo = try load("FallenLeaf-2560x1600.jpg")
        let blurred = try photo.applyingFilter("motionBlur", parameters: ["radius": 20.0, "angle": 0.0])
        return try RenderContext().encode(blurred, format: jpeg85, in: photo.extent).count
    }
case "morphology":
    body = {
        let photo = try load("FallenLeaf-2560x1600.jpg")
        let opened = try photo.applyingFilter("morphologyMaximum", parameters: ["radius": 5.0])
        return try RenderContext().encode(opened, format: jpeg85, in: photo.extent).count
    }
case "resample":
    // The resampler alone, on one thread, on pixels already in memory (the working
    // space): 16 MP (4608×3456) → 852×639 Lanczos-3, as fast_image_resize's published
    // benchmark does (its 852×567 is the same scale on a 4928×3279 picture).
    let width = 4608, height = 3456
    var pixels = [SIMD4<Float>](repeating: .zero, count: width * height)
    for y in 0..<height {
        for x in 0..<width {
            let v = Float((x ^ y) & 255) / 255
            pixels[y * width + x] = SIMD4(v, Float(x % 251) / 251, Float(y % 241) / 241, 1)
        }
    }
    let source = try Image(workingSpacePixels: pixels, width: width, height: height)
    pixels = []
    body = {
        let small = try source.applyingFilter("lanczosScale", parameters: ["scale": 852.0 / 4608.0])
        return try RenderContext(.init(threads: 1)).render(small, format: .rgbaFloat).width
    }
default:
    FileHandle.standardError.write(Data("unknown job \(job)\n".utf8))
    exit(2)
}

/// VmRSS or VmHWM (the peak) of this process from /proc/self/status, in MiB. (getrusage's
/// peak is not used: after fork and exec it can still hold the parent's.)
func statusMiB(_ field: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
          let kB = Double(line.split(separator: " ", omittingEmptySubsequences: true)[1]) else { return 0 }
    return kB / 1024
}

/// CPU milliseconds this process's threads have used.
func processCPUms() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) * 1e3 + Double(now.tv_nsec) / 1e6
}

let before = statusMiB("VmRSS")
var times: [Double] = [], cpu: [Double] = []
var check = 0
for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds, cpuStart = processCPUms()
    check &+= try body()
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    cpu.append(processCPUms() - cpuStart)
}
let peak = statusMiB("VmHWM") - before
print("{\"job\": \"\(job)\", \"ms\": \(times), \"cpu_ms\": \(cpu), \"peak_mib\": \(String(format: "%.1f", peak)), \"simd\": \"\(InstructionSet.current)\", \"check\": \(check)}")
