/// Checks that a rule's evidence is a JSON object before it goes into a violation.
enum EvidenceCheck {
    static func isObject(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x0A || bytes[start] == 0x09 || bytes[start] == 0x0D { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0D { end -= 1 }
        return end - start >= 2 && bytes[start] == 0x7B && bytes[end - 1] == 0x7D
    }
}
