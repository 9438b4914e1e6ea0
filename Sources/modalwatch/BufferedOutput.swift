import Foundation
import Glibc
import Posix

/// Standard output with a buffer: one write per 64 KiB, not per line.
final class BufferedOutput {
    // One thread, one access at a time: no dynamic exclusivity check per line.
    @exclusivity(unchecked) private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    func write(_ bytes: [UInt8]) {
        buffer += bytes
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes JSON bytes and a newline, with what a terminal would act on escaped (`JSONOutput.escaped`).
    func writeJSONLine(_ json: UnsafeRawBufferPointer) {
        JSONOutput.appendEscaped(json, to: &buffer)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes the buffer to standard output from where it is (no copy), all of it unless a
    /// write fails (then the rest is dropped, as a closed pipe drops it).
    func flush() {
        guard !buffer.isEmpty else { return }
        _ = buffer.withUnsafeBytes { Posix.writeAllOrStop(STDOUT_FILENO, $0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
