import Benchmark
import EventDecoding
import Foundation
import HistoryStore
import ModalwatchTesting
import RuleHost
import SessionEngine

/// The micro-benchmarks of the per-event path on package-benchmark: the decoder, the engine and the
/// history store, each on its own, with the allocation counts checked against `Thresholds/` (times
/// are printed, not checked). A count is checked to within `allocationTolerance` of its threshold,
/// either way: the harness's own few allocations vary with the environment, while one allocation
/// per event or per row adds 1,000. `swift package benchmark` in Benchmarks/ runs them; `swift package benchmark thresholds
/// check` fails on a count outside that band.
let benchmarks: @Sendable () -> Void = {
    let checked: [BenchmarkMetric] = [.mallocCountTotal]
    let allocationTolerance = 16
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .throughput] + checked,
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: 200,
        thresholds: Dictionary(
            uniqueKeysWithValues: checked.map { ($0, BenchmarkThresholds(absolute: [.p90: allocationTolerance])) }
        )
    )

    // The decoder: 1,000 events of about 180 bytes, one per payload, then as one NDJSON batch.
    Benchmark("Decoder.SingleEvents1000") { benchmark in
        let decoder = EventDecoder()
        let payloads = MicroEvents.decoderEvents.map { Array($0.utf8) }
        var decoded = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for i in 0..<1000 {
                payloads[i % payloads.count].withUnsafeBytes { bytes in
                    decoder.decode(bytes) { item in if case .event = item { decoded &+= 1 } }
                }
            }
        }
        benchmark.stopMeasurement()
        blackHole(decoded)
    }

    Benchmark("Decoder.Batch1000") { benchmark in
        let decoder = EventDecoder()
        let batch = Array(
            (0..<1000).map { MicroEvents.decoderEvents[$0 % MicroEvents.decoderEvents.count] }
                .joined(separator: "\n").utf8
        )
        var decoded = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            batch.withUnsafeBytes { bytes in
                decoder.decode(bytes) { item in if case .event = item { decoded &+= 1 } }
            }
        }
        benchmark.stopMeasurement()
        blackHole(decoded)
    }

    // The engine (decoder, sessions, presentation stacks, journals, dispatch) without rule modules:
    // 1,000 events a run over 100 live sessions, after a first pass that opened them.
    Benchmark("Engine.Events1000Sessions100") { benchmark in
        let output = CollectingOutput(keepsEverything: false)
        let pipeline = EventPipeline(catalog: RuleCatalog(), configuration: .init(), output: output)
        let payloads = MicroEvents.sessionRounds(sessions: 100).map { Array($0.utf8) }
        var observed: Int64 = 1_732_290_000_000
        func feed(_ count: Int, from start: Int) {
            for i in 0..<count {
                payloads[(start + i) % payloads.count].withUnsafeBytes {
                    pipeline.process(payload: $0, observed: observed)
                }
                observed += 1
            }
        }
        feed(payloads.count, from: 0)
        precondition(
            output.diagnosticCount == 0,
            "the engine benchmark's stream has events the decoder or engine refuse"
        )
        var next = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            feed(1000, from: next)
            next = (next + 1000) % payloads.count
        }
        benchmark.stopMeasurement()
        precondition(output.problems.isEmpty, output.problems.first ?? "")
    }

    // The history store: 1,000 violations a run, written as the publishing thread writes them (one
    // transaction, every column bound from bytes), into a file that grows over the run. The writer
    // itself allocates nothing a row; SQLite does, about 14 times a row: Debian's libsqlite3 is
    // built with SQLITE_OMIT_LOOKASIDE, so each of its small allocations is a malloc.
    Benchmark("Store.Transaction1000", configuration: .init(maxIterations: 50)) { benchmark in
        let directory = try TemporaryDirectory(prefix: "mw-micro-store")
        defer { directory.remove() }
        let history = try ViolationHistory(path: directory.file(ViolationHistory.fileName), checkpointsElsewhere: true)
        let json = Array(MicroEvents.violationJSON.utf8)
        let rule = Array("alert-frequency".utf8)
        let app = Array("com.example.mail".utf8)
        let session = Array("4F2C9A7E-1B3D".utf8)
        let severity = Array("warning".utf8)
        var id: UInt64 = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try json.withUnsafeBytes { json in
                try rule.withUnsafeBytes { rule in
                    try app.withUnsafeBytes { app in
                        try session.withUnsafeBytes { session in
                            try severity.withUnsafeBytes { severity in
                                _ = try history.write { writer in
                                    for _ in 0..<1000 {
                                        id &+= 1
                                        try writer.insert(
                                            idHigh: 0x5EED,
                                            idLow: id,
                                            fingerprint: id % 97,
                                            rule: rule,
                                            app: app,
                                            session: session,
                                            severity: severity,
                                            ts: 1_732_290_000_000 + Int64(id),
                                            observed: 1_732_290_000_000 + Int64(id),
                                            json: json
                                        )
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        benchmark.stopMeasurement()
    }
}
