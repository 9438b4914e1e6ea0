import ControlProtocol
import HistoryStore

/// A violation as a CSV record (RFC 4180): the columns of the history's view, in its order
/// (`HistorySchema.columns`, docs/spec/history.md), records ended by CRLF. A field holding a
/// comma, a double quote, CR or LF is quoted, its quotes doubled; the others are written as they
/// are. The columns the view reads from `json` are read from it the same way: a string as it is,
/// another value as JSON, an absent field or `null` empty.
enum HistoryCSV {
    /// The header record.
    static var header: [UInt8] { record(HistorySchema.columns) }

    /// `violation`'s record.
    static func record(_ violation: StoredViolation) -> [UInt8] {
        let object = (try? JSONParser.parse(Array(violation.json.utf8)))?.objectValue ?? [:]
        let fields = HistorySchema.columns.map { column -> String in
            switch column {
            case "seq": String(violation.seq)
            case "id": violation.id
            case "ts": String(violation.ts)
            case "observed": String(violation.observed)
            case "rule": violation.rule
            case "severity": violation.severity
            case "app": violation.app
            case "session": violation.session
            case "fingerprint": violation.fingerprint
            case "json": violation.json
            default: text(object[column])
            }
        }
        return record(fields)
    }

    /// One record of `fields`, CRLF at its end.
    static func record(_ fields: [String]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, field) in fields.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            append(field, to: &out)
        }
        out += [0x0D, 0x0A]
        return out
    }

    /// `field`, quoted when RFC 4180 asks it to be.
    private static func append(_ field: String, to out: inout [UInt8]) {
        let bytes = field.utf8
        guard bytes.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A })
        else {
            out.append(contentsOf: bytes)
            return
        }
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { out.append(byte) }
            out.append(byte)
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A field read from `json`: a string as it is, `null` or absent empty, another value as JSON.
    private static func text(_ value: JSONValue?) -> String {
        guard let value, !value.isNull else { return "" }
        return value.stringValue ?? value.text
    }
}
