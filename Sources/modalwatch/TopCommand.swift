import ArgumentParser
import ControlProtocol
import Foundation
import Glibc
import Posix

/// `modalwatch top`: a live, full-screen view of the busiest sessions and the violation rate.
struct TopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top",
        abstract: "A live, refreshing view of the busiest sessions and the violation rate; q quits.",
        discussion: """
            Asks the control socket every --interval and ranks the most recently active sessions by events per \
            second between two looks. Full screen on a terminal: q (or Ctrl-C) quits and restores the terminal; a \
            resize redraws at once. When stdin or stdout is not a terminal, or with --once, it prints one \
            snapshot and exits 0; --json prints one snapshot of two looks --interval apart, with every rate measured between them. Exit status: 0, or 3 when the daemon does not answer the first look within --timeout.
            """
    )

    @OptionGroup var options: ControlOptions

    @Option(name: .long, help: "Seconds between refreshes (0.2 to 60).")
    var interval: Double = 1

    @Flag(name: .long, help: "Print one snapshot and exit, even on a terminal.")
    var once = false

    func validate() throws {
        if !(0.2...60).contains(interval) { throw ValidationError("--interval must be 0.2 to 60 seconds") }
    }

    func run() throws {
        // Before any thread starts: these signals come to this loop, never kill it with the terminal left raw.
        var signals = BlockedSignals([SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP])
        let fleet = options.fleet
        let first: TopSample
        do {
            first = try TopSample.take(fleet, after: nil)
        } catch {
            Terminal.error(error.description)
            throw error.exitCode
        }
        for (endpoint, failure) in first.failures { Terminal.error("\(endpoint): \(failure.description)") }
        let screen = TopScreen(endpoint: options.endpoints.joined(separator: ", "), intervalSeconds: interval)
        if options.json {
            // Two looks --interval apart: every rate in the snapshot is measured between them.
            usleep(useconds_t(interval * 1_000_000))
            do {
                JSONOutput.line(try TopSample.take(fleet, after: first).json)
            } catch {
                Terminal.error(error.description)
                throw error.exitCode
            }
            return
        }
        guard !once, Terminal.isTerminal(STDOUT_FILENO), Terminal.isTerminal(STDIN_FILENO) else {
            for line in screen.lines(first, width: nil, height: nil, problem: nil, interactive: false) {
                Terminal.print(line)
            }
            return
        }
        // Each refresh waits for the daemon at most about one interval, so q is never held up long.
        let refreshFleet = DaemonFleet(
            endpoints: options.endpoints,
            timeoutMs: min(options.timeout, max(200, Int(interval * 1000)))
        )
        let terminal = RawTerminal()
        terminal.enter()
        defer { terminal.leave() }
        var sample = first
        var problem: String?
        var nextLook = TopSample.monotonic() + interval
        var clear = false
        while true {
            let size = Terminal.size() ?? (24, 80)
            let frame = screen.lines(
                sample,
                width: size.columns,
                height: size.rows,
                problem: problem,
                interactive: true
            )
            RawTerminal.write(
                (clear ? "\u{1B}[2J" : "") + "\u{1B}[H" + frame.map(Terminal.visible).joined(separator: "\u{1B}[K\r\n")
                    + "\u{1B}[K\u{1B}[J"
            )
            clear = false
            var redraw = false
            while !redraw {
                let wait = max(0, min(100, Int((nextLook - TopSample.monotonic()) * 1000)))
                var key = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                if poll(&key, 1, Int32(wait)) > 0 {
                    if key.revents & Int16(POLLIN) != 0 {
                        var bytes = [UInt8](repeating: 0, count: 64)
                        let count = read(STDIN_FILENO, &bytes, bytes.count)
                        if count == 0 { return }
                        if count > 0,
                            bytes[0..<count].contains(where: { $0 == UInt8(ascii: "q") || $0 == UInt8(ascii: "Q") })
                        {
                            return
                        }
                    } else if key.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                        return
                    }
                }
                for signal in signals.take() {
                    switch signal {
                    case SIGWINCH:
                        clear = true
                        redraw = true
                    case SIGTSTP:
                        terminal.leave()
                        kill(getpid(), SIGSTOP)
                        terminal.enter()
                        clear = true
                        redraw = true
                    default:
                        return
                    }
                }
                if TopSample.monotonic() >= nextLook {
                    do {
                        sample = try TopSample.take(refreshFleet, after: sample)
                        problem =
                            sample.failures.isEmpty
                            ? nil : "no answer from \(sample.failures.map(\.endpoint).joined(separator: ", "))"
                    } catch {
                        problem = "no answer: \(error.description); showing the last look, retrying"
                    }
                    nextLook = TopSample.monotonic() + interval
                    redraw = true
                }
            }
        }
    }
}
