// swift-tools-version:6.0
// A small command-line tool written against Core Image's API. On macOS it builds with
// Apple's Core Image; on Linux with LumenCoreImage from this repository (the only change
// is the import at the top of main.swift).
import PackageDescription

let package = Package(
    name: "CoreImageTool",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Lumen", path: "../..")],
    targets: [
        .executableTarget(name: "ci-card", dependencies: [
            .product(name: "LumenCoreImage", package: "Lumen", condition: .when(platforms: [.linux])),
        ]),
    ]
)
