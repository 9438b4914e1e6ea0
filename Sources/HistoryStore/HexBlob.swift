import Foundation
import GRDB

/// The SQL function the v2 migration converts v1's hex TEXT ids and fingerprints with:
/// an even number of hex digits becomes those bytes as a BLOB; anything else (which the
/// daemon never wrote) stays as it was, and `find` reads it back unchanged.
enum HexBlob {
    static let name = "modalwatch_hex_blob"

    static let function = DatabaseFunction(name, argumentCount: 1, pure: true) { values in
        guard case .string(let text) = values[0].storage else { return values[0] }
        return bytes(text).map { Data($0) } ?? values[0]
    }

    /// The bytes the hex digits stand for, or nil.
    static func bytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            result.append(high << 4 | low)
            i += 2
        }
        return result
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
