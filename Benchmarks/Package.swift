// swift-tools-version:6.2
//
// modalwatch's benchmarks, a package of its own (as swift-nio keeps its Benchmarks/): the root
// package's `swift build` does not build it, and its extra dependencies (HdrHistogram,
// package-benchmark) stay here. It uses the root package by path, through library products
// marked for internal use.
//
//   swift build -c release                                                  # the daemon and its modules (root)
//   swift run -c release --package-path Benchmarks modalwatch-bench --quick # the bench
//   cd Benchmarks && swift package benchmark thresholds check               # the micro-benchmarks' allocation counts
//
// See Benchmarks/README.md.

import PackageDescription

/// The root package's Swift settings (its Package.swift), for the bench's own code.
let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "modalwatch-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "modalwatch", path: "../"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // The micro-benchmarks' harness; its malloc interposer counts allocations (no jemalloc needed).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The benchmark: raw libzmq ceiling, the daemon end to end, latency, memory, start-up, restart,
        // the engine's cost (callgrind), the history store on its own, the control socket's hold.
        .executableTarget(
            name: "modalwatch-bench",
            dependencies: [
                .product(name: "ModalwatchZeroMQ", package: "modalwatch"),
                .product(name: "ModalwatchControlProtocol", package: "modalwatch"),
                .product(name: "ModalwatchHistoryStore", package: "modalwatch"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "Sources/modalwatch-bench",
            swiftSettings: strictSwift
        ),
        // The micro-benchmarks (decoder, engine, history store) on package-benchmark, with the
        // allocation counts checked against Thresholds/: `swift package benchmark thresholds check`.
        .executableTarget(
            name: "ModalwatchMicro",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ModalwatchEventDecoding", package: "modalwatch"),
                .product(name: "ModalwatchSessionEngine", package: "modalwatch"),
                .product(name: "ModalwatchHistoryStore", package: "modalwatch"),
                .product(name: "ModalwatchTesting", package: "modalwatch"),
            ],
            path: "Benchmarks/ModalwatchMicro",
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .treatAllWarnings(as: .error),
            ],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
