// swift-tools-version:6.0
import Foundation
import PackageDescription

// `make` sets FORCELAYOUT_NATIVE=avx2 on a machine with AVX2 and FMA: the force loops are
// then built for its vector unit (eight lanes a block, `Lanes` in Columns.swift), and the
// binary runs only on such machines. Without it (a plain `swift build`) the build is
// portable: four lanes, SSE on x86-64, NEON on ARM.
let nativeAVX = ProcessInfo.processInfo.environment["FORCELAYOUT_NATIVE"] == "avx2"
let vectorC: [CSetting] = nativeAVX ? [.unsafeFlags(["-mavx2", "-mfma"])] : []
let vectorSwift: [SwiftSetting] = nativeAVX
    ? [.define("FORCELAYOUT_AVX"), .unsafeFlags(["-Xcc", "-mavx2", "-Xcc", "-mfma"])] : []

let package = Package(
    name: "forcelayout",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "forcelayout", targets: ["forcelayout"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        .systemLibrary(
            name: "CHiredis",
            pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        // A whole-mask test for the force loops, which Swift's SIMD types do not inline.
        .target(name: "CVectorMath", cSettings: vectorC),
        .target(name: "ForceLayout", dependencies: ["CVectorMath"], swiftSettings: vectorSwift),
        .target(name: "EventBus", dependencies: [.product(name: "DequeModule", package: "swift-collections")]),
        .target(
            name: "LayoutServer",
            dependencies: [
                "CLibWebSockets", "CHiredis", "ForceLayout", "EventBus",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The load-test client (`forcelayout load`): libwebsockets clients and their figures,
        // kept out of the server library as HummingbirdTesting is kept out of Hummingbird.
        .target(name: "LoadTool", dependencies: ["CLibWebSockets", "LayoutServer"]),
        // `forcelayout import`: reading a graph file (Reading/), the import's session (Session/,
        // pure) and its libwebsockets client; the server library knows nothing of it.
        .target(name: "ImportTool", dependencies: ["CLibWebSockets", "LayoutServer", "LoadTool", "ForceLayout"]),
        .executableTarget(
            name: "forcelayout",
            dependencies: [
                "LayoutServer", "LoadTool", "ImportTool", "ForceLayout",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // libFuzzer target for the client-message path (`make fuzz`); a plain build makes a replayer.
        .executableTarget(name: "forcelayout-fuzz", dependencies: ["LayoutServer", "ForceLayout"]),
        .testTarget(name: "ForceLayoutTests", dependencies: ["ForceLayout"]),
        .testTarget(name: "EventBusTests", dependencies: ["EventBus"]),
        .testTarget(name: "LayoutServerTests", dependencies: ["LayoutServer", "ForceLayout", "EventBus"]),
        .testTarget(name: "LoadToolTests", dependencies: ["LoadTool"]),
        .testTarget(name: "ImportToolTests", dependencies: ["ImportTool", "LayoutServer", "ForceLayout"]),
    ]
)
