import Foundation

/// `cost`: instructions, malloc and retain/release per clean event, per stress event and per
/// violation (callgrind through `bench/engine_cost.sh`).
extension EngineCostBenchmark: Measurement {
    static let name = "cost"

    static func measure(in run: BenchRun) throws {
        let count = run.options.costEvents ?? (run.options.quick ? 50_000 : 100_000)
        ModalwatchBench.say(
            "cost: callgrind on modalwatch check, clean and stress streams of \(count) events (bench/engine_cost.sh; a few minutes)"
        )
        let result = try EngineCostBenchmark(
            root: try run.repositoryRoot(),
            binaries: run.binaries,
            folder: run.folder,
            events: count
        )
        .run(registry: run.registry)
        run.cost = result
        run.table.details.append(
            (
                "cost",
                [("events", "\(count)")]
                    + result.perCleanEvent.sorted { $0.key < $1.key }.map {
                        ("per_clean_event_\($0.key)", Figure.format($0.value, 2))
                    }
                    + result.perStressEvent.sorted { $0.key < $1.key }.map {
                        ("per_stress_event_\($0.key)", Figure.format($0.value, 2))
                    }
                    + result.perViolation.sorted { $0.key < $1.key }.map {
                        ("per_violation_\($0.key)", Figure.format($0.value, 2))
                    }
            )
        )
        let clean = result.perCleanEvent
        let violation = result.perViolation
        func row(_ key: String, _ name: String, _ counts: [String: Double]) {
            guard let value = counts["total"] else { return }
            run.table.add(
                Figure(key: key, name: name, value: value, unit: "instructions", display: Figure.grouped(value))
            )
        }
        row("cost_clean_event_instructions", "callgrind: instructions per clean event", clean)
        row("cost_violation_instructions", "callgrind: instructions per violation, more", violation)
        if let stress = result.perStressEvent["total"] {
            run.table.add(
                Figure(
                    key: "cost_stress_event_instructions",
                    name: "↳ per stress event",
                    value: stress,
                    unit: "instructions",
                    display: Figure.grouped(stress)
                )
            )
        }
        let perEvent = ["malloc", "swift_retain", "swift_release"].compactMap { field in
            clean[field].map { "\(field) \(Figure.format($0, 2))" }
        }
        run.table.add(
            Figure(
                key: "cost_clean_event_malloc",
                name: "callgrind: per clean event, malloc / retain / release",
                value: clean["malloc"],
                unit: "calls",
                display: perEvent.joined(separator: ", ")
            )
        )
    }
}
