// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Lumen",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Lumen", targets: ["Lumen"]),
        .executable(name: "lumen", targets: ["lumen"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Thin C targets: one per codec library, with prefixed shims for what Swift
        // cannot call directly (setjmp/longjmp error recovery, variadic field access).
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
        .target(name: "CTIFF", linkerSettings: [.linkedLibrary("tiff")]),
        .target(name: "CLCMS", linkerSettings: [.linkedLibrary("lcms2")]),
        .target(name: "Lumen", dependencies: ["CJPEG", "CPNG", "CTIFF", "CLCMS"]),
        .executableTarget(
            name: "lumen",
            dependencies: ["Lumen", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "LumenTests", dependencies: ["Lumen"], resources: []),
    ],
    swiftLanguageModes: [.v5]
)
