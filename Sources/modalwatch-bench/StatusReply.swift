/// A `status` reply, read without a JSON decoder: the bench needs only a few whole
/// numbers, at top level, whose keys occur once in the reply.
struct StatusReply {
    /// The reply's bytes.
    let bytes: [UInt8]

    /// The whole number after `"key":`, or nil.
    func integer(_ key: String) -> Int? {
        let needle = Array("\"\(key)\":".utf8)
        guard let start = find(needle) else { return nil }
        var i = start + needle.count
        while i < bytes.count, bytes[i] == 0x20 { i += 1 }
        var value = 0, digits = 0
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            value = value * 10 + Int(bytes[i] - 0x30)
            digits += 1
            i += 1
        }
        return digits > 0 ? value : nil
    }

    /// The whole number after `"key":`, or 0.
    subscript(key: String) -> Int { integer(key) ?? 0 }

    /// Whether the reply contains `text` as it is.
    func contains(_ text: String) -> Bool {
        find(Array(text.utf8)) != nil
    }

    /// The reply as text, for messages.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    private func find(_ needle: [UInt8]) -> Int? {
        guard needle.count <= bytes.count, let first = needle.first else { return nil }
        var i = 0
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == first {
                var j = 1
                while j < needle.count && bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}
