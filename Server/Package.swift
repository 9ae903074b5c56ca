// swift-tools-version:6.0
import PackageDescription

// The image service, in its own package so that the library and the command line do not
// pull in the server's dependencies: `LumenServer` is a Hummingbird router an app mounts,
// `lumen-serve` runs it. Lumen itself comes from the repository root.
let package = Package(
    name: "LumenServer",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "LumenServer", targets: ["LumenServer"]),
        .executable(name: "lumen-serve", targets: ["lumen-serve"]),
    ],
    dependencies: [
        .package(name: "Lumen", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // For HeaderLimitHandler, a channel handler in Hummingbird's HTTP/1 pipeline.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // SHA-256 and HMAC from OpenSSL's libcrypto (Digests.swift says why not swift-crypto).
        .systemLibrary(name: "COpenSSLCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "LumenServer", dependencies: [
            "COpenSSLCrypto",
            .product(name: "Lumen", package: "Lumen"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
        .executableTarget(name: "lumen-serve", dependencies: [
            "LumenServer",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "LumenServerTests", dependencies: [
            "LumenServer",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ], exclude: ["Fixtures"]),
    ]
)
