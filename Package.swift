// swift-tools-version:6.2
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
// The benchmark is a package of its own in Benchmarks/.

import PackageDescription

/// A rule module: a dynamic library product named `modalwatch-rules-NAME`,
/// built from `Plugins/DIR`, linking only the helper library.
func ruleModule(_ name: String, target: String, dir: String, extra: [Target.Dependency] = []) -> (Product, Target) {
    (
        .library(name: "modalwatch-rules-\(name)", type: .dynamic, targets: [target]),
        .target(name: target, dependencies: ["RuleKit", "ModalwatchABI"] + extra, path: "Plugins/\(dir)")
    )
}

let modules = [
    ruleModule("overuse", target: "OveruseRules", dir: "Overuse"),
    ruleModule("modality", target: "ModalityRules", dir: "Modality"),
    ruleModule("alert-content", target: "AlertContentRules", dir: "AlertContent", extra: ["AlertText"]),
    ruleModule("action-sheet", target: "ActionSheetRules", dir: "ActionSheet", extra: ["AlertText"]),
]

/// What a rule module written in another package builds on (docs/writing-a-rule-module.md):
/// the C header, RuleKit and AlertText (a package depends on modalwatch by URL and tag, or by path).
let moduleAuthorLibraries: [Product] = [
    .library(name: "ModalwatchABI", targets: ["ModalwatchABI"]),
    .library(name: "RuleKit", targets: ["RuleKit"]),
    .library(name: "AlertText", targets: ["AlertText"]),
]

let package = Package(
    name: "modalwatch",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "modalwatchd", targets: ["modalwatchd"]),
        .executable(name: "modalwatch", targets: ["modalwatch"]),
        // For Benchmarks/ and tools in this repository only: not a stable API.
        .library(name: "ModalwatchZeroMQ", targets: ["ZeroMQ"]),
        .library(name: "ModalwatchControlProtocol", targets: ["ControlProtocol"]),
        .library(name: "ModalwatchHistoryStore", targets: ["HistoryStore"]),
        .library(name: "ModalwatchEventDecoding", targets: ["EventDecoding"]),
        .library(name: "ModalwatchSessionEngine", targets: ["SessionEngine", "RuleHost"]),
        // For this repository's tests, fuzzers and benchmarks: not a stable API.
        .library(name: "ModalwatchTesting", targets: ["ModalwatchTesting"]),
        // For apps and tools that publish events (docs/client.md).
        .library(name: "ModalwatchClient", targets: ["ModalwatchClient"]),
        .executable(name: "modalwatch-client-example", targets: ["ClientExample"]),
    ] + modules.map(\.0) + moduleAuthorLibraries,
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `swift package generate-documentation --target RuleKit` (the module author's reference).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libzmq, found through pkg-config (Debian: libzmq3-dev).
        .systemLibrary(
            name: "CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]
        ),
        // A small Swift module over libzmq: context, sockets, options, poll, errors with errno.
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ", "ByteBasics"]),

        // System calls through one wrapper: EINTR retried, errno kept in the error; atomic file replacement.
        .target(name: "Posix"),

        // FNV-1a 64, UTF-8 decoding and validation, JSON string escaping, the event types' wire names:
        // one implementation of each, for the decoder, the engine, RuleKit (and so every rule module),
        // AlertText and the client.
        .target(name: "ByteBasics", dependencies: ["CByteClasses"]),

        // The rule-module C ABI: one header, include/modalwatch_module.h.
        .target(name: "ModalwatchABI"),
        // The catalogue's vocabulary, defined once: severity, edition(s), presentation kind and parameter
        // kind, each with its C value and its one spelling; RuleKit and RuleHost re-export it.
        .target(name: "CatalogueVocabulary", dependencies: ["ModalwatchABI"]),

        // Wire format v1 → mw_event, without JSONDecoder: a scanner over the message bytes.
        .target(name: "EventDecoding", dependencies: ["ModalwatchABI", "ByteBasics", "CByteClasses"]),
        // Classifying JSON text 16 bytes at a time (SSE2 movemask; portable elsewhere): the decoder's
        // quote bitmap. C, header-only (static inline).
        .target(name: "CByteClasses"),

        // Finding, checking and loading rule modules with dlopen.
        .target(
            name: "RuleHost",
            dependencies: [
                "ModalwatchABI", "CatalogueVocabulary", "CRuleGuard", "Posix", "ByteBasics",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The rule-call marker, the fatal-signal handler (C: async-signal-safe) and the sealed
        // in-memory files rule modules are loaded from.
        .target(name: "CRuleGuard"),

        // Sessions, the presentation stack, rule dispatch, firing discipline, violation JSON.
        .target(
            name: "SessionEngine",
            dependencies: ["ModalwatchABI", "EventDecoding", "RuleHost", "ByteBasics", "CRuleGuard", "AlertText"]
        ),

        // Shard buckets and topics (scale.md): FNV-1a 64 of the shard key, which daemon owns what.
        .target(name: "ShardRouting", dependencies: ["ByteBasics"]),
        // The library apps publish events with: typed events, batching, a bounded queue, shard topics.
        .target(
            name: "ModalwatchClient",
            dependencies: [
                "ZeroMQ", "ShardRouting", "ByteBasics", "EventDecoding",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A scripted app session published through ModalwatchClient (docs/client.md; the e2e tests run it).
        .executableTarget(
            name: "ClientExample",
            dependencies: ["ModalwatchClient", .product(name: "Logging", package: "swift-log")],
            path: "Examples/ClientExample"
        ),

        // The CURVE authentication handler (ZAP): which client keys get in, for the daemon and the forwarder.
        .target(
            name: "CurveAuthentication",
            dependencies: ["ZeroMQ", "CZeroMQ", .product(name: "Logging", package: "swift-log")]
        ),

        // The YAML configuration: every error names the file, the line and the key.
        .target(
            name: "ModalwatchConfig",
            dependencies: ["SessionEngine", "RuleHost", "ShardRouting", .product(name: "Yams", package: "Yams")]
        ),

        // The history store: every violation, durably, in SQLite (GRDB, WAL).
        .target(name: "HistoryStore", dependencies: ["ByteBasics", .product(name: "GRDB", package: "GRDB.swift")]),
        // libpq (Debian: libpq-dev), its header included as <postgresql/libpq-fe.h>: pkg-config's
        // flags for it (Kerberos include folders) are ones SwiftPM refuses.
        .systemLibrary(
            name: "CLibPQ",
            providers: [.apt(["libpq-dev"])]
        ),
        // The history store in PostgreSQL: every daemon's violations in one database (scale.md).
        .target(name: "PostgresHistory", dependencies: ["HistoryStore", "CLibPQ", "ByteBasics"]),

        // The control protocol: typed requests and replies, their JSON, the client; the version.
        .target(name: "ControlProtocol", dependencies: ["ZeroMQ", "ByteBasics"]),

        // The HTML report: aggregation in bounded memory (ReportModel) and rendering (HTMLReport, inline SVG).
        .target(name: "Report", dependencies: ["ModalwatchABI", "CatalogueVocabulary", "RuleHost", "ByteBasics"]),

        // The daemon's parts: ingest loop, publisher, control server.
        .target(
            name: "ConnectionLimits",
            dependencies: ["ZeroMQ", "CZeroMQ", "Posix", "ByteBasics", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "DaemonCore",
            dependencies: [
                "ZeroMQ", "CZeroMQ", "ConnectionLimits", "SessionEngine", "RuleHost", "ModalwatchConfig",
                "HistoryStore", "PostgresHistory", "Posix", "ControlProtocol",
                "EventDecoding", "CRuleGuard", "ShardRouting", "CurveAuthentication", "ByteBasics",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "modalwatchd",
            dependencies: [
                "DaemonCore", "ControlProtocol", "ModalwatchConfig", "RuleHost", "Posix", "ZeroMQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "modalwatch",
            dependencies: [
                "ZeroMQ", "ConnectionLimits", "SessionEngine", "RuleHost", "ModalwatchConfig", "EventDecoding",
                "HistoryStore", "PostgresHistory", "ControlProtocol", "Report",
                "ModalwatchClient", "ShardRouting", "ModalwatchABI", "CurveAuthentication", "Posix", "ByteBasics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // What the tests, the fuzzers and the benchmarks share: an EngineOutput that collects and checks,
        // temporary directories, the built-in catalogue, history files of earlier schemas.
        .target(
            name: "ModalwatchTesting",
            dependencies: [
                "SessionEngine", "EventDecoding", "RuleHost", "HistoryStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The thin helper that makes a Swift rule module a few plain types and one @_cdecl.
        .target(name: "RuleKit", dependencies: ["ModalwatchABI", "CatalogueVocabulary", "ByteBasics", "AlertText"]),
        // Text analysis for alert and sheet rules: words, capitalization styles, questions, quotes.
        .target(
            name: "AlertText",
            dependencies: ["ByteBasics", "ModalwatchABI", "CWordBreaks", "CCharacterProperties"]
        ),
        // Words by ICU's word break iterator, dictionaries for scripts without spaces (Debian: libicu-dev).
        .target(name: "CWordBreaks", linkerSettings: [.linkedLibrary("icuuc")]),
        // Unicode character properties by ICU: letters, marks, case, emoji, white space.
        .target(name: "CCharacterProperties", linkerSettings: [.linkedLibrary("icuuc")]),

        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"]),
        .testTarget(
            name: "ConnectionLimitsTests",
            dependencies: ["ConnectionLimits", "ZeroMQ", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "ControlProtocolTests", dependencies: ["ControlProtocol", "ZeroMQ"]),
        .testTarget(
            name: "ModalwatchClientTests",
            dependencies: [
                "ModalwatchClient", "ShardRouting", "ByteBasics", "EventDecoding", "ModalwatchABI", "ZeroMQ",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "AlertTextTests", dependencies: ["AlertText", "ModalwatchABI"]),
        .testTarget(name: "HistoryStoreTests", dependencies: ["HistoryStore", "ModalwatchTesting"]),
        .testTarget(name: "PostgresHistoryTests", dependencies: ["PostgresHistory", "HistoryStore"]),
        .testTarget(name: "ReportTests", dependencies: ["Report", "RuleHost", "EventDecoding", "ModalwatchABI"]),
        .testTarget(
            name: "EventDecodingTests",
            dependencies: ["EventDecoding", "ByteBasics"],
            resources: [.copy("Corpus")]
        ),
        .testTarget(name: "PosixTests", dependencies: ["Posix"]),
        .testTarget(name: "ByteBasicsTests", dependencies: ["ByteBasics"]),
        .testTarget(
            name: "SessionEngineTests",
            dependencies: [
                "SessionEngine", "RuleHost", "EventDecoding", "ByteBasics", "ModalwatchTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "RuleKitTests", dependencies: ["RuleKit", "ModalwatchABI"]),
        .testTarget(
            name: "RuleHostTests",
            dependencies: [
                "RuleHost", "ModalwatchTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ModalwatchConfigTests",
            dependencies: ["ModalwatchConfig", "RuleHost", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "DaemonCoreTests",
            dependencies: [
                "DaemonCore", "SessionEngine", "ControlProtocol", "ModalwatchConfig", "RuleHost", "ZeroMQ",
                "ModalwatchTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ModalwatchCLITests",
            dependencies: [
                "modalwatch", "ControlProtocol", "ModalwatchConfig", "ZeroMQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "RuleModuleTests",
            dependencies: [
                "SessionEngine", "RuleHost", "ModalwatchTesting", .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Streams"]
        ),
        // The fuzz targets' sources (Fuzz/Targets) without their libFuzzer entry files, and a replay of
        // every input in Fuzz/regressions through them (Fuzz/README.md).
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: [
                "ByteBasics", "ControlProtocol", "DaemonCore", "EventDecoding", "ModalwatchABI", "ModalwatchConfig",
                "ModalwatchTesting", "Report", "RuleHost", "SessionEngine", "ZeroMQ",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Fuzz/Targets",
            exclude: [
                "Decoder/DecoderFuzzEntry.swift", "Config/ConfigFuzzEntry.swift",
                "Control/ControlFuzzEntry.swift", "Timeline/TimelineFuzzEntry.swift",
            ]
        ),
    ] + modules.map(\.1)
)

// MARK: - Settings for every target (in the manner of swift-log's Package.swift)

/// Release builds without dynamic exclusivity checks (`swift_beginAccess` on class-property
/// accesses: 5.8% of the per-event instructions when last measured, docs/PERFORMANCE.md) in
/// the per-event targets. Debug builds and the tests keep the checks.
let uncheckedExclusivity: Set<String> = [
    "ZeroMQ", "EventDecoding", "SessionEngine", "DaemonCore",
    "OveruseRules", "ModalityRules", "AlertContentRules", "ActionSheetRules",
]

/// Targets in C: no Swift settings.
let cTargets: Set<String> = ["ModalwatchABI", "CRuleGuard", "CByteClasses", "CWordBreaks", "CCharacterProperties"]

for target in package.targets
where [.executable, .test, .regular].contains(target.type) && !cTargets.contains(target.name) {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    // Require `any` for existential types (SE-0335).
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // A file sees the members of the modules it imports, not of everything the module imports (SE-0444).
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    // Imports are internal unless marked public (SE-0409).
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    // A nonisolated async function runs on its caller's executor unless marked @concurrent (SE-0461).
    settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))
    // Every public type says whether it is Sendable.
    settings.append(.unsafeFlags(["-Xfrontend", "-require-explicit-sendable"]))
    // Warnings are errors in this package's own targets (SE-0480: SwiftPM ignores this setting in a
    // package built as someone else's dependency).
    settings.append(.treatAllWarnings(as: .error))
    if uncheckedExclusivity.contains(target.name) {
        settings.append(.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)))
    }
    target.swiftSettings = settings
}
