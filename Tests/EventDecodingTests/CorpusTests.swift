import EventDecoding
import Foundation
import XCTest

/// Runs the decoder and the schema (with Python's jsonschema) on every corpus file and asks for the
/// same verdict. Corpus/README.md describes the folders.
final class CorpusTests: XCTestCase {
    /// The package root: this file is Tests/EventDecodingTests/CorpusTests.swift.
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let schema = packageRoot.appendingPathComponent("docs/spec/event.schema.json")

    private struct CorpusFile {
        var folder: String
        var name: String
        var url: URL
        var bytes: [UInt8]
        /// From `REASON--FIELD--what.json`; FIELD `_` means none.
        var expectedReason: RejectReason? {
            RejectReason(rawValue: name.components(separatedBy: "--")[0])
        }
        var expectedField: String? {
            let parts = name.components(separatedBy: "--")
            return parts.count == 3 && parts[1] != "_" ? parts[1] : nil
        }
    }

    private static let folders = ["valid", "invalid", "limits", "invalid-json"]

    private func corpus() throws -> [CorpusFile] {
        let root = try XCTUnwrap(Bundle.module.url(forResource: "Corpus", withExtension: nil), "Corpus resource")
        var files: [CorpusFile] = []
        for folder in Self.folders {
            let dir = root.appendingPathComponent(folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
                .sorted()
            for name in names {
                let url = dir.appendingPathComponent(name)
                files.append(
                    CorpusFile(
                        folder: folder,
                        name: String(name.dropLast(5)),
                        url: url,
                        bytes: [UInt8](try Data(contentsOf: url))
                    )
                )
            }
        }
        return files
    }

    func testCorpusSize() throws {
        let files = try corpus()
        let count = { (folder: String) in files.filter { $0.folder == folder }.count }
        XCTAssertGreaterThanOrEqual(count("valid"), 60)
        XCTAssertGreaterThanOrEqual(count("invalid"), 80)
        XCTAssertGreaterThanOrEqual(count("limits"), 5)
        XCTAssertGreaterThanOrEqual(count("invalid-json"), 30)
        for file in files where file.folder != "valid" {
            XCTAssertNotNil(
                file.expectedReason ?? (file.folder == "invalid-json" ? .malformedJSON : nil),
                "name of \(file.name)"
            )
        }
    }

    /// The decoder's verdict on each file: one event, or one rejection for the reason (and top-level
    /// field) the file's name gives.
    func testDecoderVerdicts() throws {
        let decoder = EventDecoder()
        for file in try corpus() {
            let items = decoder.outcomes(file.bytes)
            XCTAssertEqual(items.count, 1, "\(file.folder)/\(file.name): items")
            guard let item = items.first else { continue }
            switch file.folder {
            case "valid":
                XCTAssertNotNil(
                    item.event,
                    "\(file.folder)/\(file.name): \(item.rejection.map(String.init(describing:)) ?? "")"
                )
            case "invalid-json":
                XCTAssertEqual(item.rejection?.reason, .malformedJSON, "\(file.folder)/\(file.name)")
            default:
                let name = file.name.components(separatedBy: "--")
                XCTAssertEqual(name.count, 3, "\(file.folder)/\(file.name): REASON--FIELD--what")
                XCTAssertEqual(
                    item.rejection?.reason.rawValue,
                    name.first,
                    "\(file.folder)/\(file.name): \(item.rejection?.detail ?? "accepted")"
                )
                XCTAssertEqual(item.rejection?.field, file.expectedField, "\(file.folder)/\(file.name): field")
            }
        }
    }

    /// The schema's verdict on each file, from one python3 process, against the decoder's.
    func testSchemaAgreesWithDecoder() throws {
        let files = try corpus()
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.schema.path), "schema at \(Self.schema.path)")
        let script = try XCTUnwrap(Bundle.module.url(forResource: "Corpus", withExtension: nil)).appendingPathComponent(
            "verdicts.py"
        )
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, Self.schema.path] + files.map(\.url.path)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, String(decoding: errors, as: UTF8.self))
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            $0.components(separatedBy: "\t")
        }
        XCTAssertEqual(lines.count, files.count, "one verdict per file")

        let decoder = EventDecoder()
        for (file, line) in zip(files, lines) {
            XCTAssertEqual(line[1], file.url.path, "verdicts in order")
            let schemaVerdict = line[0]
            let why = line.count > 2 ? line[2] : ""
            let decoderAccepts = decoder.outcomes(file.bytes).first?.event != nil
            let expected: String =
                switch file.folder {
                case "valid": "valid"
                case "invalid": "invalid"
                case "limits": "valid"  // the schema cannot express these limits: only the decoder rejects
                default: "not-json"
                }
            XCTAssertEqual(
                schemaVerdict,
                expected,
                "\(file.folder)/\(file.name): schema says \(schemaVerdict) (\(why))"
            )
            if file.folder == "valid" || file.folder == "invalid" {
                XCTAssertEqual(
                    decoderAccepts,
                    schemaVerdict == "valid",
                    "\(file.folder)/\(file.name): decoder and schema disagree (\(why))"
                )
            } else {
                XCTAssertFalse(decoderAccepts, "\(file.folder)/\(file.name): the decoder must reject it")
            }
        }
    }

    /// Every one-line file that starts with `{`, as one NDJSON batch: the same verdicts, in order
    /// (one bad line rejects only itself).
    func testCorpusAsOneBatch() throws {
        let decoder = EventDecoder()
        let files = try corpus().filter { file in
            let body = file.bytes.last == 0x0A ? Array(file.bytes.dropLast()) : file.bytes
            return body.first == UInt8(ascii: "{") && !body.contains(0x0A) && !body.contains(0x0D)
        }
        XCTAssertGreaterThan(files.count, 200)
        var batch: [UInt8] = []
        var expected: [String] = []
        for file in files {
            batch += file.bytes
            if batch.last != 0x0A { batch.append(0x0A) }
            let single = decoder.outcomes(file.bytes)
            expected.append(single.first?.event != nil ? "event" : single.first?.rejection?.reason.rawValue ?? "none")
        }
        let items = decoder.outcomes(batch)
        let got = items.map { $0.event != nil ? "event" : $0.rejection?.reason.rawValue ?? "none" }
        XCTAssertEqual(got.count, expected.count)
        for (i, (g, e)) in zip(got, expected).enumerated() where g != e {
            XCTFail("batch item \(i) (\(files[i].folder)/\(files[i].name)): \(g), alone: \(e)")
        }
        for (i, item) in items.enumerated() {
            if let r = item.rejection { XCTAssertEqual(r.index, i) }
        }
    }
}
