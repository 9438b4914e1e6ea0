/// Pass 1's reading of an array of objects (`buttons`, `text_fields`): one walk that validates it
/// as `JSONScanner.skipValue` does (the same errors at the same offsets) and records its items for
/// pass 2.
extension EventReader {
    /// Reads the array whose `[` is at the cursor, the value of a member of a container at `depth`
    /// (nesting depth `depth + 1`): each item that is an object through `readMembers` (its fields of
    /// `ItemKey` recorded), any other item validated; up to `records.capacity` items recorded.
    /// Returns the array's slot and the number of items recorded.
    mutating func readItems(into records: ItemRecords, depth: Int) throws(DecodeError) -> (FieldSlot, Int) {
        let start = scanner.pos
        guard depth < limits.maxDepth else { throw .syntax("nested too deep", at: start) }
        scanner.pos &+= 1
        scanner.skipWhitespace()
        var n = 0
        if scanner.peek == UInt8(ascii: "]") {
            scanner.pos &+= 1
        } else {
            while true {
                let itemStart = scanner.pos
                if n < records.capacity {
                    let isObject = scanner.peek == UInt8(ascii: "{")
                    if isObject {
                        try readMembers(ItemKey.self, into: records.slots(of: n), depth: depth + 1)
                    } else {
                        try scanner.skipValue(depth: depth + 1)
                    }
                    records.items[n] = ItemRecords.Item(
                        start: itemStart,
                        end: scanner.pos,
                        present: isObject ? itemPresent : 0,
                        isObject: isObject
                    )
                    n &+= 1
                } else {
                    try scanner.skipValue(depth: depth + 1)
                }
                scanner.skipWhitespace()
                let b = scanner.peek
                if b == UInt8(ascii: ",") {
                    scanner.pos &+= 1
                    scanner.skipWhitespace()
                } else if b == UInt8(ascii: "]") {
                    scanner.pos &+= 1
                    break
                } else {
                    throw scanner.unexpected("expected ',' or ']' in array")
                }
            }
        }
        return (FieldSlot(start: start, end: scanner.pos, kind: .array, escaped: false), n)
    }
}
