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

// The engine is optimised in debug builds too: the physics tests (and the e2e suite's debug
// server) step layouts thousands of times, which unoptimised Swift makes many times slower,
// while the rest stays unoptimised for the debugger. -O keeps every precondition and overflow
// check (there is no assert() in ForceLayout). FORCELAYOUT_ENGINE_ONONE=1 swift build gives an
// unoptimised engine to step through.
let engineOnone = ProcessInfo.processInfo.environment["FORCELAYOUT_ENGINE_ONONE"] == "1"
let engineSwift: [SwiftSetting] = engineOnone ? [] : [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "forcelayout",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "forcelayout", targets: ["forcelayout"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // What the server counts and times goes through swift-metrics' API; `serve` bootstraps
        // swift-prometheus's factory behind it, and `GET /metrics` is its registry's exposition.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The load tool's latency percentiles.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
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
        // OpenSSL's libcrypto (libssl-dev, which libwebsockets-dev needs anyway): SHA-256,
        // HMAC and a constant-time compare for room links (Access/). Debian's libwebsockets is
        // built without LWS_WITH_GENCRYPTO, so lws_genhash is not there to use instead.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // zlib's crc32 for the records of a room's history file (History/).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // A whole-mask test for the force loops, which Swift's SIMD types do not inline.
        .target(name: "CVectorMath", cSettings: vectorC),
        // The executable's GNU build ID, for `--version` (`BuildInfo`): <link.h> is not in Glibc's module.
        .target(name: "CBuildID"),
        .target(name: "ForceLayout", dependencies: ["CVectorMath"], swiftSettings: vectorSwift + engineSwift),
        .target(name: "EventBus", dependencies: [.product(name: "DequeModule", package: "swift-collections")]),
        // The pure core: the layout's state, the protocol's values and codecs, the cluster's
        // wire, the state file's format, and the state machines (a connection's life, the
        // session directory, a room's claim). It cannot reach libwebsockets or hiredis: only
        // the server links them.
        .target(
            name: "LayoutCore",
            dependencies: [
                "CCrypto", "CZlib", "ForceLayout", "EventBus",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // The rooms and what keeps them: stepping threads, state files, and the hand-off to the
        // service thread (queue, waker, mailboxes). It reaches neither libwebsockets (the server
        // wakes it through `ServiceWaker`) nor Redis (a cluster is a `RoomCluster` to it).
        .target(
            name: "LayoutRooms",
            dependencies: [
                "ForceLayout", "EventBus", "LayoutCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // Several servers over Redis (hiredis on threads of its own): claims and leases, the
        // owner's replicator, the relay's mirror, the state in Redis.
        .target(
            name: "LayoutCluster",
            dependencies: [
                "CHiredis", "ForceLayout", "EventBus", "LayoutCore", "LayoutRooms",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The libwebsockets glue: the context and its callbacks, connections and sessions,
        // handshakes, HTTP and exports.
        .target(
            name: "LayoutServer",
            dependencies: [
                "CLibWebSockets", "CBuildID", "ForceLayout", "EventBus", "LayoutCore", "LayoutRooms", "LayoutCluster",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The load-test client (`forcelayout load`): libwebsockets clients and their figures,
        // kept out of the server library as HummingbirdTesting is kept out of Hummingbird.
        .target(name: "LoadTool", dependencies: [
            "CLibWebSockets", "LayoutCore", "LayoutServer",
            .product(name: "Histogram", package: "hdrhistogram-swift"),
        ]),
        // `forcelayout import`: reading a graph file (Reading/) and the import's session
        // (Session/, pure), which need only the core, and its libwebsockets client (which
        // borrows the server's CAllocations); the server library knows nothing of it.
        .target(name: "ImportTool", dependencies: ["CLibWebSockets", "LayoutCore", "LayoutServer", "LoadTool", "ForceLayout"]),
        .executableTarget(
            name: "forcelayout",
            dependencies: [
                "LayoutCore", "LayoutRooms", "LayoutCluster", "LayoutServer", "LoadTool", "ImportTool", "ForceLayout",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // libFuzzer target for the client-message path (`make fuzz`); a plain build makes a replayer.
        .executableTarget(name: "forcelayout-fuzz", dependencies: ["LayoutCore", "ForceLayout"]),
        .testTarget(name: "ForceLayoutTests", dependencies: ["ForceLayout"]),
        .testTarget(name: "EventBusTests", dependencies: ["EventBus"]),
        // The core's tests: no socket, no Redis, no file but the fixtures they write.
        .testTarget(name: "LayoutCoreTests", dependencies: ["LayoutCore", "ForceLayout", "EventBus"]),
        // The rooms' tests: real threads and files, a scripted Redis; no libwebsockets.
        .testTarget(name: "LayoutRoomsTests", dependencies: ["LayoutCore", "LayoutRooms", "ForceLayout", "EventBus"]),
        // The cluster's tests: its state against a scripted Redis, the wire, the mirror.
        .testTarget(name: "LayoutClusterTests", dependencies: ["LayoutCore", "LayoutRooms", "LayoutCluster", "ForceLayout", "EventBus"]),
        .testTarget(name: "LayoutServerTests", dependencies: [
            "LayoutCore", "LayoutRooms", "LayoutServer", "ForceLayout", "EventBus",
            .product(name: "CoreMetrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        .testTarget(name: "LoadToolTests", dependencies: ["LoadTool", "LayoutCore"]),
        .testTarget(name: "ImportToolTests", dependencies: ["ImportTool", "LayoutCore", "ForceLayout"]),
    ]
)
