// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "forcelayout",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "forcelayout", targets: ["forcelayout"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        .target(name: "ForceLayout"),
        .target(name: "EventBus"),
        .target(
            name: "LayoutServer",
            dependencies: [
                "CLibWebSockets", "ForceLayout", "EventBus",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The load-test client (`forcelayout load`): libwebsockets clients and their figures,
        // kept out of the server library as HummingbirdTesting is kept out of Hummingbird.
        .target(name: "LoadTool", dependencies: ["CLibWebSockets", "LayoutServer"]),
        .executableTarget(
            name: "forcelayout",
            dependencies: [
                "LayoutServer", "LoadTool", "ForceLayout",
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
    ]
)
