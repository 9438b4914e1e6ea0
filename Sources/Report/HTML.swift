/// Small helpers for writing HTML and SVG text.
enum HTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, for element text and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Control characters other than tab and newline never reach the page.
                if scalar.value < 0x20 && scalar != "\t" && scalar != "\n" {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A number for people: 1234567 → "1,234,567".
    static func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return value < 0 ? "-" + out : out
    }

    /// A fragment id from any text (letters, digits, `-`, `_`, `.` kept; the rest `-`).
    static func slug(_ text: String) -> String {
        String(
            text.unicodeScalars.map { scalar -> Character in
                let ok =
                    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "-_.".unicodeScalars.contains(scalar)
                return ok ? Character(scalar) : "-"
            }
        )
    }

    /// A coordinate with at most one decimal.
    static func coordinate(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
