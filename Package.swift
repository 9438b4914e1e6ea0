// swift-tools-version:6.1
//
// modalwatch: a daemon that watches UI-event streams over ZeroMQ and reports
// where an app breaks Apple's Human Interface Guidelines on alerts, action
// sheets and modal views.
//
// One event, socket to violation:
//   ZeroMQ (libzmq wrapper) → EventDecoding (hand-written JSON scanner → mw_event)
//   → SessionEngine (per-session state, rule dispatch, firing discipline,
//     violation JSON) → RuleHost (modules loaded with dlopen through the C ABI
//     in ModalwatchABI) → DaemonCore (ingest loop, publisher, control socket).
// Rule modules live in Plugins/ and link only RuleKit + ModalwatchABI.

import PackageDescription

/// Strict settings for every target of ours (in the spirit of swift-log's).
let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The strict settings, and for release builds of the per-event code no dynamic
/// exclusivity checks (`swift_beginAccess` on every class-property access was ~5% of
/// the instructions per event; debug builds and the tests keep the checks on).
/// See docs/PERFORMANCE.md.
let hotPathSwift: [SwiftSetting] = strictSwift + [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

/// A rule module: a dynamic library product named `modalwatch-rules-NAME`,
/// built from `Plugins/DIR`, linking only the helper library.
func ruleModule(_ name: String, target: String, dir: String, extra: [Target.Dependency] = []) -> (Product, Target) {
    (
        .library(name: "modalwatch-rules-\(name)", type: .dynamic, targets: [target]),
        .target(
            name: target,
            dependencies: ["RuleKit", "ModalwatchABI"] + extra,
            path: "Plugins/\(dir)",
            swiftSettings: hotPathSwift
        )
    )
}

let modules = [
    ruleModule("overuse", target: "OveruseRules", dir: "Overuse"),
    ruleModule("modality", target: "ModalityRules", dir: "Modality"),
    ruleModule("alert-content", target: "AlertContentRules", dir: "AlertContent", extra: ["AlertText"]),
    ruleModule("action-sheet", target: "ActionSheetRules", dir: "ActionSheet", extra: ["AlertText"]),
]

let package = Package(
    name: "modalwatch",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "modalwatchd", targets: ["modalwatchd"]),
        .executable(name: "modalwatch", targets: ["modalwatch"]),
        .executable(name: "modalwatch-bench", targets: ["modalwatch-bench"]),
        // For apps and tools that publish events (docs/client.md).
        .library(name: "ModalwatchClient", targets: ["ModalwatchClient"]),
        .executable(name: "modalwatch-client-example", targets: ["ClientExample"]),
    ] + modules.map(\.0),
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // libzmq, found through pkg-config (Debian: libzmq3-dev).
        .systemLibrary(
            name: "CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]
        ),
        // A small Swift module over libzmq: context, sockets, options, poll, errors with errno.
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"], swiftSettings: hotPathSwift),

        // System calls through one wrapper: EINTR retried, errno kept in the error; atomic file replacement.
        .target(name: "Posix", swiftSettings: strictSwift),

        // The rule-module C ABI: one header, include/modalwatch_module.h.
        .target(name: "ModalwatchABI"),

        // Wire format v1 → mw_event, without JSONDecoder: a scanner over the message bytes.
        .target(name: "EventDecoding", dependencies: ["ModalwatchABI"], swiftSettings: hotPathSwift),

        // Finding, checking and loading rule modules with dlopen.
        .target(
            name: "RuleHost",
            dependencies: ["ModalwatchABI", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),

        // Sessions, the presentation stack, rule dispatch, firing discipline, violation JSON.
        .target(
            name: "SessionEngine",
            dependencies: ["ModalwatchABI", "EventDecoding", "RuleHost"],
            swiftSettings: hotPathSwift
        ),

        // Shard buckets and topics (scale.md): FNV-1a 64 of the shard key, which daemon owns what.
        .target(name: "ShardRouting", swiftSettings: strictSwift),
        // The library apps publish events with: typed events, batching, a bounded queue, shard topics.
        .target(
            name: "ModalwatchClient",
            dependencies: ["ZeroMQ", "ShardRouting", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),

        // A scripted app session published through ModalwatchClient (docs/client.md; the e2e tests run it).
        .executableTarget(
            name: "ClientExample",
            dependencies: ["ModalwatchClient", .product(name: "Logging", package: "swift-log")],
            path: "Examples/ClientExample",
            swiftSettings: strictSwift
        ),

        // The YAML configuration: every error names the file, the line and the key.
        .target(
            name: "ModalwatchConfig",
            dependencies: ["SessionEngine", "RuleHost", "ShardRouting", .product(name: "Yams", package: "Yams")],
            swiftSettings: strictSwift
        ),

        // The history store: every violation, durably, in SQLite (GRDB, WAL).
        .target(
            name: "HistoryStore",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSwift
        ),

        // The control protocol: typed requests and replies, their JSON, the client; the version.
        .target(name: "ControlProtocol", dependencies: ["ZeroMQ"], swiftSettings: strictSwift),

        // The daemon's parts: ingest loop, publisher, control server.
        .target(
            name: "DaemonCore",
            dependencies: [
                "ZeroMQ", "CZeroMQ", "SessionEngine", "RuleHost", "ModalwatchConfig", "HistoryStore", "Posix", "ControlProtocol",
                "ShardRouting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: hotPathSwift
        ),
        .executableTarget(
            name: "modalwatchd",
            dependencies: [
                "DaemonCore", "ControlProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "modalwatch",
            dependencies: [
                "ZeroMQ", "SessionEngine", "RuleHost", "ModalwatchConfig", "EventDecoding", "HistoryStore", "ControlProtocol",
                "ModalwatchClient", "ShardRouting", "ModalwatchABI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),

        // The benchmark: raw libzmq ceiling, the daemon end to end, latency, memory, start-up.
        .executableTarget(
            name: "modalwatch-bench",
            dependencies: [
                "ZeroMQ", "SessionEngine", "RuleHost", "EventDecoding", "ControlProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strictSwift
        ),

        // The thin helper that makes a Swift rule module a few plain types and one @_cdecl.
        .target(name: "RuleKit", dependencies: ["ModalwatchABI"], swiftSettings: hotPathSwift),
        // Text analysis for alert and sheet rules: words, capitalization styles, questions, quotes.
        .target(name: "AlertText", swiftSettings: hotPathSwift),

        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"], swiftSettings: strictSwift),
        .testTarget(name: "ControlProtocolTests", dependencies: ["ControlProtocol", "ZeroMQ"], swiftSettings: strictSwift),
        .testTarget(
            name: "ModalwatchClientTests",
            dependencies: ["ModalwatchClient", "ShardRouting", "EventDecoding", "ModalwatchABI", "ZeroMQ", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),
        .testTarget(name: "AlertTextTests", dependencies: ["AlertText"], swiftSettings: strictSwift),
        .testTarget(name: "HistoryStoreTests", dependencies: ["HistoryStore"], swiftSettings: strictSwift),
        .testTarget(name: "PosixTests", dependencies: ["Posix"], swiftSettings: strictSwift),
        .testTarget(
            name: "DaemonCoreTests",
            dependencies: ["DaemonCore", "ZeroMQ", "ModalwatchConfig", "RuleHost", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "EventDecodingTests",
            dependencies: ["EventDecoding"],
            resources: [.copy("Corpus")],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "SessionEngineTests",
            dependencies: ["SessionEngine", "RuleHost", "EventDecoding", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "RuleModuleTests",
            dependencies: ["SessionEngine", "RuleHost", .product(name: "Logging", package: "swift-log")],
            exclude: ["Streams"],
            swiftSettings: strictSwift
        ),
    ] + modules.map(\.1)
)
