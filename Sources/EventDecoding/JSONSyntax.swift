/// JSON syntax checks for text that is not an event, e.g. a rule module's evidence JSON.
public enum JSONSyntax: Sendable {
    /// True when `bytes` is exactly one JSON object (RFC 8259, UTF-8, no byte order mark), with
    /// optional whitespace around it, nested at most `maxDepth` levels (at most 128).
    public static func isValidObject(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 128) -> Bool {
        guard let raw = bytes.baseAddress, bytes.count > 0 else { return false }
        var scanner = JSONScanner(
            base: raw.assumingMemoryBound(to: UInt8.self), end: bytes.count,
            maxDepth: min(maxDepth, JSONScanner.depthCapacity))
        scanner.skipWhitespace()
        guard scanner.peek == UInt8(ascii: "{") else { return false }
        do {
            try scanner.skipValue(depth: 0)
        } catch {
            return false
        }
        scanner.skipWhitespace()
        return scanner.atEnd
    }

    /// `isValidObject` over the UTF-8 of a string.
    public static func isValidObject(_ text: String, maxDepth: Int = 128) -> Bool {
        var text = text
        return text.withUTF8 { isValidObject(UnsafeRawBufferPointer($0), maxDepth: maxDepth) }
    }
}
