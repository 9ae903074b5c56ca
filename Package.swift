// swift-tools-version:6.0
import Foundation
import PackageDescription

let package = Package(
    name: "Lumen",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Lumen", targets: ["Lumen"]),
        // Apple's Core Image API on Lumen: `import LumenCoreImage` where CoreImage is missing.
        .library(name: "LumenCoreImage", targets: ["LumenCoreImage"]),
        .executable(name: "lumen", targets: ["lumen"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target Lumen` builds Sources/Lumen/Lumen.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The codec and color libraries (Debian: libjpeg-dev, libpng-dev, libtiff-dev,
        // liblcms2-dev, libwebp-dev, libheif-dev, libgif-dev, libzint-dev). JPEG, PNG, TIFF,
        // Little CMS and giflib are wrapped by thin C targets with prefixed shims for what Swift
        // cannot call directly (setjmp/longjmp error recovery, variadic field access, macro
        // constants, GIF frame compositing); libwebp is called from Swift. libjpeg, libpng,
        // Little CMS and giflib are linked; the others are opened on first use.
        .systemLibrary(name: "LibJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "LibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "LibLCMS", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // libwebp's headers only (no pkg-config, which would link it): CWebP defines the functions.
        .systemLibrary(name: "LibWebP"),
        .systemLibrary(name: "LibGIF", providers: [.apt(["libgif-dev"])]),
        .target(name: "CJPEG", dependencies: ["LibJPEG"]),
        .target(name: "CPNG", dependencies: ["LibPNG"], linkerSettings: [.linkedLibrary("z")]),
        // libtiff and libwebp are opened on first use, not linked (CLazyLibrary says why):
        // their headers come from the system, their functions from forwarders of the same names.
        .target(name: "CLazyLibrary", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CTIFF", dependencies: ["CLazyLibrary"]),
        .target(name: "CWebP", dependencies: ["CLazyLibrary"]),
        .target(name: "CLCMS", dependencies: ["LibLCMS"]),
        .target(name: "CGIF", dependencies: ["LibGIF"], linkerSettings: [.linkedLibrary("gif")]),
        // Barcode symbols (QR, Aztec, PDF417, Code 128) from libzint (Debian libzint-dev).
        // libzint is opened with dlopen on first use (Sources/CZint/shim.c); only its header is needed to build.
        .target(name: "CZint", linkerSettings: [.linkedLibrary("dl")]),
        // Text: fonts found by fontconfig, shaped by HarfBuzz, drawn by FreeType (Debian
        // libharfbuzz-dev, libfreetype-dev, libfontconfig-dev; fonts-dejavu-core as the default font).
        .target(name: "CText", exclude: ["system"],
                cSettings: [.headerSearchPath("system/freetype2"), .headerSearchPath("system/harfbuzz")],
                linkerSettings: [.linkedLibrary("dl")]),
        // libheif (Debian libheif-dev for the header, libheif1 at run time) is opened with
        // dlopen on first use: see Sources/CHEIF/include/CHEIF.h.
        .target(name: "CHEIF"),
        // libjxl 0.7 (Debian libjxl-dev for the headers; libjxl0.7 at run time), opened with
        // dlopen on first use like libheif: Sources/CJXL/include/CJXL.h.
        .target(name: "CJXL", linkerSettings: [.linkedLibrary("dl")]),
        // LibRaw 0.20 (Debian libraw-dev for the headers; libraw20 at run time), opened the same way: Sources/CRAW/include/CRAW.h.
        .target(name: "CRAW", linkerSettings: [.linkedLibrary("dl")]),
        // OpenEXRCore 3.1 (Debian libopenexr-dev for the headers; libopenexr-3-1-30 at run time), the same way: Sources/CEXR/include/CEXR.h.
        .target(name: "CEXR", linkerSettings: [.linkedLibrary("dl")]),
        // AVX2 + FMA and AVX-512 inner loops, chosen at run time (Sources/CKernels/include/CKernels.h).
        .target(name: "CKernels"),
        // What Lumen and the command line take from the platform (Sources/LumenPlatform/Exports.swift):
        // on Linux FoundationEssentials, Dispatch and the C library, not the whole of Foundation
        // (its ICU would double the binary and slow every start).
        .target(name: "LumenPlatform"),
        .target(name: "Lumen", dependencies: ["LumenPlatform", "CJPEG", "CPNG", "CTIFF", "CLCMS", "CGIF", "CZint", "CText", "LibWebP", "CWebP", "CHEIF", "CJXL", "CRAW", "CEXR", "CKernels"]),
        .target(name: "LumenCoreImage", dependencies: ["Lumen"]),
        // The command line as a library (so programs and tests that register their own codecs
        // run it in process), and the `lumen` executable that calls it.
        .target(name: "LumenCLI", dependencies: ["Lumen", "LumenPlatform", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "lumen", dependencies: ["LumenCLI"]),
        // Reference tables of closures, written before Swift 6; the library they test is checked.
        // scripts/bench runs it: a custom kernel's cost beside the built-in filter.
        .executableTarget(name: "kernel-cost", dependencies: ["Lumen"], path: "Benchmarks/KernelCost"),
        // scripts/bench's in-process rows: the library timed inside one process.
        .executableTarget(name: "inprocess-bench", dependencies: ["Lumen"], path: "Benchmarks/InProcess"),
        .testTarget(name: "LumenTests", dependencies: ["Lumen", "LumenCLI", "LumenPlatform"], exclude: ["RealInputs/PROVENANCE.md"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // Imports Lumen without @testable, as a user's package does: the public API only.
        .testTarget(name: "LumenKernelTests", dependencies: ["Lumen", "LumenCLI"]),
        // Core Image code from Apple's documentation, compiled against LumenCoreImage.
        .testTarget(name: "LumenCoreImageTests", dependencies: ["LumenCoreImage", "Lumen"]),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer harness (Fuzz/LumenFuzz) is only part of the package when scripts/fuzz
// builds it with -sanitize=fuzzer,address: it needs libFuzzer's driver to link.
if ProcessInfo.processInfo.environment["LUMEN_FUZZ"] != nil {
    package.targets.append(.executableTarget(name: "lumen-fuzz", dependencies: ["Lumen"], path: "Fuzz/LumenFuzz"))
}
