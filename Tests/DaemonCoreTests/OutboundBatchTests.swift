import RuleHost
import XCTest

@testable import DaemonCore
@testable import SessionEngine

/// A violation the engine writes straight into the batch (`appendViolation(_:writingJSON:)`)
/// is the same record, byte for byte, as one whose JSON was written first and copied in,
/// and reads back whole, between records of either kind.
final class OutboundBatchTests: XCTestCase {
    private func violation(
        _ json: UnsafeRawBufferPointer,
        topic: UnsafeRawBufferPointer,
        session: UnsafeRawBufferPointer,
        n: Int
    ) -> EmittedViolation {
        EmittedViolation(
            topic: topic,
            json: json,
            rule: "test-rule",
            ruleSeed: 0,
            module: "test",
            severity: .warning,
            app: "com.example.app",
            session: session,
            ts: Int64(n),
            observed: 1_000 + Int64(n),
            idHigh: UInt64(n),
            idLow: 0x5eed,
            fingerprint: UInt64(n) &* 31
        )
    }

    func testAViolationWrittenIntoTheBatchIsTheRecordOfOneCopiedIn() throws {
        let topic = Array("violation/com.example.app/test-rule".utf8)
        let session = Array("s-1".utf8)
        var copied = OutboundBatch()
        var written = OutboundBatch()
        let diagnostic = Array(#"{"v":1,"reason":"bad_field"}"#.utf8)
        for n in 0..<50 {
            // JSON of growing length (past the batch's first capacity at the end), with a multi-byte character.
            let message = String(repeating: "é", count: n * 40)
            let json = Array(#"{"v":1,"n":\#(n),"message":"\#(message)"}"#.utf8)
            topic.withUnsafeBytes { t in
                session.withUnsafeBytes { s in
                    json.withUnsafeBytes { j in
                        copied.appendViolation(violation(j, topic: t, session: s, n: n))
                        written.appendViolation(
                            violation(UnsafeRawBufferPointer(start: nil, count: 0), topic: t, session: s, n: n)
                        ) { buffer in
                            buffer.raw(#"{"v":1,"n":"#)
                            buffer.integer(Int64(n))
                            buffer.raw(#","message":"#)
                            buffer.string(message)
                            buffer.byte(0x7D)
                        }
                    }
                }
            }
            if n % 7 == 0 {
                topic.withUnsafeBytes { t in
                    diagnostic.withUnsafeBytes { d in
                        copied.appendDiagnostic(topic: t, payload: d)
                        written.appendDiagnostic(topic: t, payload: d)
                    }
                }
            }
        }
        XCTAssertEqual(written.records, copied.records)
        XCTAssertEqual(written.bytes, copied.bytes)
        var payloads: [String] = []
        written.withBytes { bytes in
            var reader = OutboundBatchReader(bytes)
            while let record = reader.next() {
                if case .violation(_, let payload, let columns) = record {
                    payloads.append(String(decoding: payload, as: UTF8.self))
                    XCTAssertEqual(columns.observed, 1_000 + columns.ts)
                }
            }
            XCTAssertEqual(reader.offset, bytes.count, "every record read")
        }
        XCTAssertEqual(payloads.count, 50)
        XCTAssertEqual(payloads[3], #"{"v":1,"n":3,"message":"\#(String(repeating: "é", count: 120))"}"#)
    }
}
