import Foundation

/// A file of allowed CURVE client keys (`modalwatch forward --allowed-clients FILE`):
/// one Z85 public key (40 characters) a line, optionally followed by blanks and a `#` comment;
/// blank lines and lines starting with `#` are skipped. (`#` is a Z85 character too: a line
/// whose first word is a valid key is a key.)
public enum CurveAllowList: Sendable {
    /// The keys in the file at `path`, in order; an unreadable file or a line that is not a
    /// key is one line naming the file and the line.
    public static func read(path: String) throws(CurveKeyFile.Failure) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CurveKeyFile.Failure(description: "\(path): cannot read the list of allowed CURVE client keys")
        }
        return try parse(text, path: path)
    }

    /// The keys in `text` (the contents of the file at `path`, named in errors).
    public static func parse(_ text: String, path: String) throws(CurveKeyFile.Failure) -> [String] {
        var keys: [String] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let first = words.first.map(String.init) else { continue }
            let rest = words.dropFirst()
            if CurveKeyFile.isZ85Key(first), rest.first?.hasPrefix("#") ?? true {
                keys.append(first)
            } else if !first.hasPrefix("#") {
                throw CurveKeyFile.Failure(
                    description:
                        "\(path):\(number + 1): '\(first.prefix(12))…' is not a CURVE public key (40 Z85 characters)"
                )
            }
        }
        return keys
    }
}
