import Foundation
import Glibc
import Posix
import Prometheus

/// The standard Prometheus process metrics (`process_cpu_seconds_total`,
/// `process_resident_memory_bytes`, `process_open_fds`, `process_max_fds`,
/// `process_start_time_seconds`), read from `/proc/self` by the metrics thread just
/// before it renders a scrape: the ingest thread never reads them.
struct ProcessMetrics {
    private let cpuSeconds: Counter
    private let residentBytes: Gauge
    private let openDescriptors: Gauge
    private let maxDescriptors: Gauge
    private let startTime: Gauge
    private let ticksPerSecond: Double
    private let pageSize: Double
    /// The CPU seconds already added to `cpuSeconds` (a counter moves by differences).
    private var cpuCounted = 0.0

    /// Registers the five metrics in `registry`; the start time is read once, here.
    init(registry: PrometheusCollectorRegistry) {
        cpuSeconds = registry.makeCounter(
            descriptor: Self.name("cpu_seconds", "total", "Total user and system CPU time spent in seconds.")
        )
        residentBytes = registry.makeGauge(
            descriptor: Self.name("resident_memory", "bytes", "Resident memory size in bytes.")
        )
        openDescriptors = registry.makeGauge(descriptor: Self.name("open", "fds", "Number of open file descriptors."))
        maxDescriptors = registry.makeGauge(
            descriptor: Self.name("max", "fds", "Maximum number of open file descriptors.")
        )
        startTime = registry.makeGauge(
            descriptor: Self.name("start_time", "seconds", "Start time of the process since unix epoch in seconds.")
        )
        ticksPerSecond = Double(max(sysconf(Int32(_SC_CLK_TCK)), 1))
        pageSize = Double(max(sysconf(Int32(_SC_PAGESIZE)), 1))
        if let stat = Self.statFields(), stat.count > 19, let started = Double(stat[19]), let boot = Self.bootTime() {
            startTime.set(boot + started / ticksPerSecond)
        }
    }

    /// Reads `/proc/self` and sets every metric; a file that cannot be read leaves its metrics as they were.
    mutating func update() {
        if let stat = Self.statFields(), stat.count > 21 {
            // After the command name: state is field 3, utime 14, stime 15, rss 24 (proc(5)).
            if let user = Double(stat[11]), let system = Double(stat[12]) {
                let total = (user + system) / ticksPerSecond
                if total > cpuCounted {
                    cpuSeconds.increment(by: total - cpuCounted)
                    cpuCounted = total
                }
            }
            if let pages = Double(stat[21]) { residentBytes.set(pages * pageSize) }
        }
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            // The listing's own descriptor is among the entries.
            openDescriptors.set(Double(max(entries.count - 1, 0)))
        }
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            maxDescriptors.set(Double(limit.rlim_cur))
        }
    }

    /// `process_<metric>_<unit>`, with its help text.
    private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "process", metricName: metric, unitName: unit, helpText: help)
    }

    /// The fields of `/proc/self/stat` after the command name (which may hold spaces), from the state on.
    private static func statFields() -> [Substring]? {
        guard let text = read("/proc/self/stat"), let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// `btime` of `/proc/stat`: when the machine booted, in seconds since the epoch.
    private static func bootTime() -> Double? {
        guard let text = read("/proc/stat") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// A whole small file of `/proc` as text, or nil if it cannot be read.
    private static func read(_ path: String) -> String? {
        guard let descriptor = try? Posix.open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        defer { try? Posix.close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in (try? Posix.read(descriptor, into: buffer)) ?? nil }
            guard let count else { return nil }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
