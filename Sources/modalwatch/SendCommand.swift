import ArgumentParser
import ControlProtocol
import Foundation
import Glibc
import ModalwatchConfig
import ZeroMQ

/// `modalwatch send`: publish recorded event streams to a daemon.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Publish recorded event streams (NDJSON) to a daemon, as fast as allowed or at N events/s.")

    @Argument(help: "NDJSON files of events; - reads stdin.")
    var files: [String]

    @Option(name: .long, help: "The daemon's ingest endpoint (it binds; send connects).")
    var events: String = DefaultEndpoints.events

    @Option(name: .long, help: "Events per second (default: as fast as allowed).")
    var rate: Double?

    @Option(name: .long, help: "Events per message: 1 sends single events, more sends NDJSON batches (at most 1024).")
    var batch: Int = 1

    @Option(name: .long, help: "Milliseconds to wait for the daemon to subscribe before giving up (exit 3).")
    var timeout: Int = 5000

    @Flag(name: .long, help: "Print a JSON summary (events, messages, seconds, rate) on stdout.")
    var json = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one NDJSON file, or - for stdin") }
        if batch < 1 || batch > 1024 { throw ValidationError("--batch must be 1 to 1024") }
        if let rate, rate <= 0 || !rate.isFinite { throw ValidationError("--rate must be a number above 0") }
        if timeout < 1 { throw ValidationError("--timeout must be 1 ms or more") }
    }

    func run() throws {
        var lines: [[UInt8]] = []
        for file in files {
            guard let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file) else {
                Terminal.error("cannot read '\(file)'; check the path and permissions")
                throw ExitCode(2)
            }
            for line in data.split(separator: 0x0A) where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
                lines.append([UInt8](line))
            }
        }
        do {
            let context = try ZMQContext(ioThreads: 1)
            defer { context.terminate() }
            // XPUB: we see the daemon's subscription arrive, so nothing is sent into the void.
            // NODROP with a bounded queue: a send waits while the daemon catches up instead of
            // queueing without limit, so the linger at close only has to cover the last few.
            let socket = try ZMQSocket(context, type: .xpub, linger: 30_000)
            defer { socket.close() }
            try socket.set(.sendHighWaterMark, 10_000)
            try socket.set(.xpubNoDrop, true)
            // A daemon that stops taking events must not hang the sender.
            try socket.set(.sendTimeout, 10_000)
            try socket.connect(events)
            try socket.set(.receiveTimeout, Int32(timeout))
            guard try socket.receiveFrame() != nil else {
                Terminal.error("no modalwatchd subscribed at \(events) within \(timeout) ms; is it running? (or pass --events)")
                throw ExitCode(3)
            }
            try publish(lines, on: socket)
        } catch let error as ZMQError where error.isAgain {
            Terminal.error("the daemon at \(events) took no event for 10 s; is it still running?")
            throw ExitCode(3)
        } catch let error as ZMQError {
            Terminal.error("sending to \(events) failed: \(error)")
            throw ExitCode(3)
        }
    }

    private func publish(_ lines: [[UInt8]], on socket: ZMQSocket) throws {
        let showProgress = Terminal.isTerminal(STDERR_FILENO)
        let start = Date()
        var sent = 0
        var messages = 0
        var lastProgress = Date.distantPast
        while sent < lines.count {
            let end = min(sent + batch, lines.count)
            var payload: [UInt8] = []
            for i in sent..<end {
                if i > sent { payload.append(0x0A) }
                payload += lines[i]
            }
            _ = try socket.send(payload)
            messages += 1
            sent = end
            if let rate {
                let due = start.addingTimeInterval(Double(sent) / rate)
                let wait = due.timeIntervalSinceNow
                if wait > 0 { usleep(useconds_t(min(wait, 1) * 1_000_000)) }
            }
            if showProgress && Date().timeIntervalSince(lastProgress) > 0.2 {
                lastProgress = Date()
                let percent = sent * 100 / lines.count
                let elapsed = Date().timeIntervalSince(start)
                let current = elapsed > 0 ? String(format: "%.0f", Double(sent) / elapsed) : "-"
                FileHandle.standardError.write(Data("\rsent \(sent)/\(lines.count) events (\(percent)%), \(current)/s\u{1B}[K".utf8))
            }
        }
        let seconds = Date().timeIntervalSince(start)
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let rateText = seconds > 0 ? String(format: "%.0f", Double(lines.count) / seconds) : "-"
        FileHandle.standardError.write(Data("sent \(lines.count) events in \(String(format: "%.2f", seconds)) s (\(rateText)/s)\n".utf8))
        if json {
            JSONOutput.line([
                "events": .int(lines.count), "messages": .int(messages), "seconds": .number(seconds), "endpoint": .string(events),
                "events_per_second": seconds > 0 ? .number(Double(lines.count) / seconds) : .null,
                "rate_limit": rate.map(JSONValue.number) ?? .null,
            ])
        }
    }
}
