// swift-tools-version:6.1
//
// house-rules: a modalwatch rule module written outside the modalwatch repository.
// It depends on modalwatch only for RuleKit and the C header (the library products
// `RuleKit` and `ModalwatchABI`), and builds one dynamic library that modalwatchd
// loads with --rules-dir:
//
//     swift build --package-path Examples/swift-module
//     modalwatch rules --verify --module Examples/swift-module/.build/debug/libmodalwatch-rules-house.so
//
// In a repository of your own, depend on modalwatch by URL and tag instead of by path:
//     .package(url: "https://github.com/OWNER/modalwatch", from: "1.0.0")

import PackageDescription

let package = Package(
    name: "house-rules",
    platforms: [.macOS(.v15)],
    products: [
        // modalwatchd loads every .so in a --rules-dir folder; the name is yours to choose.
        .library(name: "modalwatch-rules-house", type: .dynamic, targets: ["HouseRules"])
    ],
    dependencies: [
        .package(name: "modalwatch", path: "../..")
    ],
    targets: [
        .target(
            name: "HouseRules",
            dependencies: [
                .product(name: "RuleKit", package: "modalwatch"),
                .product(name: "ModalwatchABI", package: "modalwatch"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
