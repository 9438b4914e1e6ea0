import ByteBasics
import CByteClasses
import ModalwatchABI

/// Reads the events of one payload: pass 1 frames an event object, validates all of its JSON and
/// records where each known top-level field's value is, and the items of `buttons` and
/// `text_fields` (`EventReader+Arrays.swift`); pass 2 (`EventReader+Fields.swift`) checks the
/// fields the event's type has from those records, without scanning again, and fills the `mw_event`.
///
/// Pass 1 classifies the line 16 bytes at a time first (`classify(from:)`, `CByteClasses`): a
/// bitmap of its quotes, up to the first byte that needs the validating scanner (a backslash, a
/// control character such as the line's end, or a byte that is not ASCII). Compact members over
/// those plain bytes are read from the bitmap (`fastMembers`); any other goes by the validating path.
///
/// Made afresh for each payload, on the stack; all storage is the decoder's `EventScratch`, referred
/// to through a pointer.
struct EventReader {
    var scanner: JSONScanner
    /// The decoder's scratch storage.
    let storage: UnsafeMutablePointer<EventScratch>
    /// Top-level fields recorded so far in the current event (`FieldKey.bit`).
    var present: UInt32 = 0
    /// Fields recorded in the current array item (`ItemKey.bit`).
    var itemPresent: UInt32 = 0
    /// Items of the last `buttons` and `text_fields` arrays recorded in `scratch` (valid when the
    /// field's slot is an array).
    var buttonItemCount = 0
    var textFieldItemCount = 0
    /// Bytes of the arena used by the current event.
    var arenaUsed = 0
    /// Where the next event starts looking once this one is framed (its line's end), or -1 while the
    /// event's JSON has not been framed.
    var resumeAt = -1
    /// Offset of the current event's `{`.
    var eventStart = 0
    /// The payload offset of `scratch.tail`'s first byte.
    let tailStart: Int
    /// Where the quote bitmap (`scratch.quotes`) starts: the offset its bit 0 stands for.
    var classStart = 0
    /// The end of the plain bytes classified from `classStart`: the first byte that needs attention,
    /// or the end of what was classified. Every byte of `classStart..<plainEnd` is printable ASCII
    /// other than `\`, and its quotes are the bitmap's.
    var plainEnd = 0

    init(base: UnsafePointer<UInt8>, count: Int, storage: UnsafeMutablePointer<EventScratch>) {
        self.storage = storage
        let scratch = storage.pointee
        scanner = JSONScanner(base: base, end: count, maxDepth: scratch.limits.maxDepth)
        tailStart = max(0, count &- EventScratch.tailBytes)
        // Two words copied and two zeroed (a short payload byte by byte): no call to memcpy or memset.
        let tail = UnsafeMutableRawPointer(scratch.tail)
        tail.storeBytes(of: 0, toByteOffset: 16, as: UInt64.self)
        tail.storeBytes(of: 0, toByteOffset: 24, as: UInt64.self)
        if count >= EventScratch.tailBytes {
            let last = UnsafeRawPointer(base + tailStart)
            tail.storeBytes(of: last.loadUnaligned(as: UInt64.self), as: UInt64.self)
            tail.storeBytes(
                of: last.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                toByteOffset: 8,
                as: UInt64.self
            )
        } else {
            tail.storeBytes(of: 0, as: UInt64.self)
            tail.storeBytes(of: 0, toByteOffset: 8, as: UInt64.self)
            var i = 0
            while i < count {
                scratch.tail[i] = base[i]
                i &+= 1
            }
        }
    }

    /// The decoder's scratch storage, read in place.
    @inline(__always) var scratch: EventScratch { unsafeAddress { UnsafePointer(storage) } }
    /// The limits in force.
    @inline(__always) var limits: EventLimits { storage.pointee.limits }

    @inline(__always) var base: UnsafePointer<UInt8> { scanner.base }

    /// The eight payload bytes from offset `i` (at most the payload's end), as a little-endian word:
    /// zero bytes stand for those past the end.
    @inline(__always)
    func word(at i: Int) -> UInt64 {
        if i &+ 8 <= scanner.end { return UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) }
        return UnsafeRawPointer(scratch.tail + (i &- tailStart)).loadUnaligned(as: UInt64.self)
    }

    /// Reads the event at the cursor into `scratch.event`. `index` is its index in the payload.
    mutating func readEvent(index: Int) throws(DecodeError) {
        present = 0
        arenaUsed = 0
        resumeAt = -1
        eventStart = scanner.pos
        guard scanner.peek == UInt8(ascii: "{") else {
            throw .syntax("an event must be a JSON object", at: scanner.pos)
        }
        try readMembers(FieldKey.self, into: scratch.slots, depth: 0)
        let size = scanner.pos - eventStart
        // The rest of the line may hold only whitespace.
        while scanner.pos < scanner.end {
            let b = base[scanner.pos]
            guard b == 0x20 || b == 0x09 || b == 0x0D else { break }
            scanner.pos += 1
        }
        if scanner.pos < scanner.end, base[scanner.pos] != 0x0A {
            throw .syntax("unexpected bytes after the event object (one event per line)", at: scanner.pos)
        }
        resumeAt = scanner.pos
        if size > limits.maxEventBytes {
            throw DecodeError(
                reason: .tooLarge,
                problem: .eventTooLarge(size: size, limit: limits.maxEventBytes),
                offset: eventStart
            )
        }
        if index >= limits.maxBatchEvents {
            throw DecodeError(reason: .tooLarge, problem: .batchFull(limit: limits.maxBatchEvents), offset: eventStart)
        }
        try fill()
    }

    /// Reads an object whose `{` is at the cursor, at nesting depth `depth + 1`: records the values of
    /// the keys of `K` in `slots` (the last of duplicate keys wins) and validates the other values.
    mutating func readMembers<K: WireKey>(
        _: K.Type,
        into slots: UnsafeMutablePointer<FieldSlot>,
        depth: Int
    ) throws(DecodeError) {
        if !K.isTopLevel { itemPresent = 0 }
        guard depth < limits.maxDepth else { throw .syntax("nested too deep", at: scanner.pos) }
        scanner.pos += 1
        scanner.skipWhitespace()
        if scanner.peek == UInt8(ascii: "}") {
            scanner.pos += 1
            return
        }
        // The guess index (`KeyGuess`) of the member read last.
        var previous = K.guessFirst
        while true {
            // Compact members, as many as come, in the fast lane; it stops at a member start or after
            // a value, or has read the closing brace.
            let lane = fastMembers(K.self, into: slots, previous: &previous)
            if lane == .closed { return }
            if lane == .atMember, let index = try readMember(K.self, into: slots, depth: depth) {
                previous = index
            }
            // The common separator, `,"` right after the value: the next key's quote, without a look
            // for whitespace.
            let after = scanner.pos
            if after &+ 2 <= scanner.end,
                UnsafeRawPointer(base + after).loadUnaligned(as: UInt16.self) == Self.commaQuote
            {
                scanner.pos = after &+ 1
                continue
            }
            scanner.skipWhitespace()
            let b = scanner.peek
            if b == UInt8(ascii: ",") {
                scanner.pos += 1
                scanner.skipWhitespace()
            } else if b == UInt8(ascii: "}") {
                scanner.pos += 1
                return
            } else {
                throw scanner.unexpected("expected ',' or '}' in object")
            }
        }
    }

    /// Where `fastMembers` stopped.
    enum Lane {
        /// At the start of a member it did not take (the cursor on its first byte).
        case atMember
        /// Right after a member's value, before a separator it did not take.
        case afterValue
        /// After the object's closing brace.
        case closed
    }

    /// The fast lane of `readMembers`: members of the compact form `"key":"plain text"`, `"key":123`
    /// or `"key":true` (a key of `K`, no whitespace, a string over plain bytes, an integer
    /// `quickInteger` reads), separated by `,"` and ended by `}`, with the cursor kept in a register
    /// and stored once. A key is first tried as `KeyGuess`'s guess (the key that followed the
    /// previous one last time: two word compares), else found by the bitmap and matched by
    /// length. Strings end at the next quote of the bitmap (`nextQuote`); the line is
    /// classified again when the cursor has passed what was classified. It reads exactly what the
    /// general path would and records the same slots; at the first member of another shape it stops
    /// at that member's start, unread.
    @inline(__always)
    private mutating func fastMembers<K: WireKey>(
        _: K.Type,
        into slots: UnsafeMutablePointer<FieldSlot>,
        previous: inout Int
    ) -> Lane {
        var p = scanner.pos
        // Classified again past what was classified, or before it (the next event after a
        // rejection may start inside the bad one's lines).
        if p >= plainEnd || p < classStart { classify(from: p) }
        let b = base
        let e = scanner.end
        let plain = plainEnd
        let bits = UnsafeRawPointer(scratch.quotes)
        let bitsStart = classStart
        let guesses = scratch.keyGuess.next
        let patterns = scratch.keyGuess.patterns
        var seen: UInt32 = 0
        var lane = Lane.atMember
        while p < plain, b[p] == 0x22 {
            let start = p &+ 1
            var found: K?
            var v: Int
            // The guess: the key that followed the previous one last time, if its name, quote and
            // colon are the bytes here.
            let guess = Int(guesses[previous])
            if guess != Int(KeyGuess.none), start &+ 16 <= e {
                let pattern = patterns[guess]
                let x0 = (UnsafeRawPointer(b + start).loadUnaligned(as: UInt64.self) ^ pattern.w0) & pattern.mask0
                let x1 =
                    (UnsafeRawPointer(b + (start &+ 8)).loadUnaligned(as: UInt64.self) ^ pattern.w1) & pattern.mask1
                if x0 | x1 == 0 {
                    // A guess is the index of a key of `K` (only they are stored for `K`'s
                    // indexes), and the keys are one-byte enums numbered from 0: its raw value.
                    found = unsafeBitCast(UInt8(truncatingIfNeeded: guess &- K.guessBase), to: K.self)
                }
                v = start &+ pattern.count
            } else {
                v = 0
            }
            if found == nil {
                let close = Self.nextQuote(bits, bitsStart, from: start)
                let count = close &- start
                // The key, its closing quote, the `:` and the value's first byte are plain bytes.
                v = close &+ 2
                guard v < plain, count < KeyWords.capacity, b[close &+ 1] == UInt8(ascii: ":") else { break }
                let w0 = start &+ 8 <= e ? UnsafeRawPointer(b + start).loadUnaligned(as: UInt64.self) : word(at: start)
                if count < 8 {
                    found = K.match(KeyWords(count: count, w0: w0 & KeyWords.lowBytes(count), w1: 0))
                } else {
                    let w1 =
                        start &+ 16 <= e
                        ? UnsafeRawPointer(b + (start &+ 8)).loadUnaligned(as: UInt64.self) : word(at: start &+ 8)
                    found = K.match(KeyWords(count: count, w0: w0, w1: w1 & KeyWords.lowBytes(count &- 8)))
                }
                guard let key = found else { break }
                let index = K.guessBase &+ Int(key.rawValue)
                guesses[previous] = patterns[index].count != 0 ? UInt8(truncatingIfNeeded: index) : KeyGuess.none
            } else if v >= plain {
                break
            }
            guard let key = found else { break }
            previous = K.guessBase &+ Int(key.rawValue)
            let first = b[v]
            let slot: FieldSlot
            let next: Int
            if first == 0x22 {
                let q = Self.nextQuote(bits, bitsStart, from: v &+ 1)
                guard q < plain else { break }
                slot = FieldSlot(start: v &+ 1, end: q, kind: .string, escaped: false)
                next = q &+ 1
            } else if first &- 0x30 < 10, v &+ 1 < e, Self.endsOneDigitInteger(b[v &+ 1]) {
                slot = FieldSlot(start: v, end: v &+ 1, kind: .integer, escaped: false, integer: Int64(first &- 0x30))
                next = v &+ 1
            } else if first &- 0x31 < 9 {
                scanner.pos = v
                guard let integer = scanner.quickInteger() else { break }
                next = scanner.pos
                slot = FieldSlot(start: v, end: next, kind: .integer, escaped: false, integer: integer)
            } else if v &+ 5 <= e,
                let kind = Self.literal(UnsafeRawPointer(b + v).loadUnaligned(as: UInt32.self), b[v &+ 4])
            {
                next = v &+ (kind == .falseValue ? 5 : 4)
                slot = FieldSlot(start: v, end: next, kind: kind, escaped: false)
            } else {
                break
            }
            slots[Int(key.rawValue)] = slot
            seen |= 1 &<< UInt32(key.rawValue)
            if next &+ 2 <= e, UnsafeRawPointer(b + next).loadUnaligned(as: UInt16.self) == Self.commaQuote {
                p = next &+ 1
                continue
            }
            if next < e, b[next] == UInt8(ascii: "}") {
                p = next &+ 1
                lane = .closed
            } else {
                p = next
                lane = .afterValue
            }
            break
        }
        scanner.pos = p
        if K.isTopLevel { present |= seen } else { itemPresent |= seen }
        return lane
    }

    /// Classifies the payload from `start` (`mw_classify_plain`): the quote bitmap from there, and
    /// `plainEnd`.
    @inline(__always)
    mutating func classify(from start: Int) {
        let scratch = self.scratch
        plainEnd = mw_classify_plain(
            base,
            start,
            scanner.end,
            EventScratch.classifiedBytes,
            scratch.tail,
            tailStart,
            scratch.quotes
        )
        classStart = start
    }

    /// The offset of the first quote at or after `p` by the quote bitmap `bits` whose bit 0 stands
    /// for offset `bitsStart` (`classStart`), for `p` in `classStart...plainEnd`: exact below
    /// `plainEnd`; at or after it when the plain bytes have none (the bitmap's sentinel ends the
    /// search).
    @inline(__always)
    static func nextQuote(_ bits: UnsafeRawPointer, _ bitsStart: Int, from p: Int) -> Int {
        let rel = p &- bitsStart
        var k = rel &>> 3
        let w = bits.loadUnaligned(fromByteOffset: k, as: UInt64.self) &>> UInt64(truncatingIfNeeded: rel & 7)
        if w != 0 { return p &+ w.trailingZeroBitCount }
        while true {
            k &+= 8
            let w = bits.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            if w != 0 { return bitsStart &+ k &* 8 &+ w.trailingZeroBitCount }
        }
    }

    /// The literal (`true`, `null`, `false`) whose first four bytes, loaded little-endian, are
    /// `word` and whose fifth, for `false`, is `fifth`; nil for anything else.
    @inline(__always)
    private static func literal(_ word: UInt32, _ fifth: UInt8) -> FieldSlot.Kind? {
        switch word {
        case 0x6575_7274: .trueValue  // "true"
        case 0x6c6c_756e: .null  // "null"
        case 0x736c_6166: fifth == UInt8(ascii: "e") ? .falseValue : nil  // "fals"
        default: nil
        }
    }

    /// One member at the cursor by the general path (`"key":"plain string"` or `"key":123` still
    /// without a call: the word paths of keys, strings and integers inline, anything else through
    /// `readKey` and `readValue`); the cursor ends after its value. Returns the key's guess index
    /// (`KeyGuess`), or nil for a key not of `K`.
    @inline(__always)
    private mutating func readMember<K: WireKey>(
        _: K.Type,
        into slots: UnsafeMutablePointer<FieldSlot>,
        depth: Int
    ) throws(DecodeError) -> Int? {
        var found = quickKey(K.self)
        if found == nil { found = try readKey(K.self) }
        if let key = found {
            let valueStart = scanner.pos
            let b = scanner.peek
            if let string = quickString() {
                slots[Int(key.rawValue)] = string
            } else if b &- 0x30 < 10, valueStart &+ 1 < scanner.end,
                Self.endsOneDigitInteger(base[valueStart &+ 1])
            {
                // One digit (`"v":1`, a small `seq`): its value is the digit.
                scanner.pos = valueStart &+ 1
                slots[Int(key.rawValue)] = FieldSlot(
                    start: valueStart,
                    end: valueStart &+ 1,
                    kind: .integer,
                    escaped: false,
                    integer: Int64(b &- 0x30)
                )
            } else if b &- 0x31 < 9, let integer = scanner.quickInteger() {
                slots[Int(key.rawValue)] = FieldSlot(
                    start: valueStart,
                    end: scanner.pos,
                    kind: .integer,
                    escaped: false,
                    integer: integer
                )
            } else if K.isTopLevel, b == UInt8(ascii: "["), key.rawValue == FieldKey.buttons.rawValue {
                let (array, count) = try readItems(into: scratch.buttonItems, depth: depth + 1)
                slots[Int(key.rawValue)] = array
                buttonItemCount = count
            } else if K.isTopLevel, b == UInt8(ascii: "["), key.rawValue == FieldKey.textFields.rawValue {
                let (array, count) = try readItems(into: scratch.textFieldItems, depth: depth + 1)
                slots[Int(key.rawValue)] = array
                textFieldItemCount = count
            } else {
                slots[Int(key.rawValue)] = try readValue(depth: depth + 1)
            }
            if K.isTopLevel { present |= 1 &<< UInt32(key.rawValue) } else { itemPresent |= 1 &<< UInt32(key.rawValue) }
            return K.guessBase &+ Int(key.rawValue)
        } else {
            try scanner.skipValue(depth: depth + 1)
            return nil
        }
    }

    /// `,"` as two bytes loaded little-endian.
    private static let commaQuote = UInt16(UInt8(ascii: ",")) | UInt16(0x22) &<< 8

    /// True when `b`, the byte after a digit, ends the number there (no digit, fraction or exponent).
    @inline(__always)
    private static func endsOneDigitInteger(_ b: UInt8) -> Bool {
        b &- 0x30 >= 10 && b != UInt8(ascii: ".") && b != UInt8(ascii: "e") && b != UInt8(ascii: "E")
    }

    /// The fast path of `readKey`, which cannot fail: a key of `K` (one or two words loaded, the first
    /// quote found in them, the bytes before it matched) with `:` right after it. Then the cursor is
    /// on the value after the `:`; else nil, and the cursor has not moved.
    @inline(__always)
    private mutating func quickKey<K: WireKey>(_: K.Type) -> K? {
        let quote = scanner.pos
        guard quote < scanner.end, base[quote] == 0x22 else { return nil }
        let start = quote &+ 1
        let w0 = word(at: start)
        let q0 = StringBytes.quoteMask(w0)
        var key: K?
        var count = 0
        if q0 != 0 {
            count = q0.trailingZeroBitCount &>> 3
            key = K.match(KeyWords(count: count, w0: w0 & KeyWords.lowBytes(count), w1: 0))
        } else {
            let w1 = word(at: start &+ 8)
            let q1 = StringBytes.quoteMask(w1)
            guard q1 != 0 else { return nil }
            let n = q1.trailingZeroBitCount &>> 3
            count = 8 &+ n
            key = K.match(KeyWords(count: count, w0: w0, w1: w1 & KeyWords.lowBytes(n)))
        }
        let colon = start &+ count &+ 1
        guard let key, colon < scanner.end, base[colon] == UInt8(ascii: ":") else { return nil }
        scanner.pos = colon &+ 1
        scanner.skipWhitespace()
        return key
    }

    /// The fast path of `readValue` for a string, which cannot fail: plain printable ASCII from an
    /// opening quote at the cursor to the closing quote, 8 bytes at a time. Then the cursor is after
    /// the closing quote; else nil, and the cursor has not moved.
    @inline(__always)
    private mutating func quickString() -> FieldSlot? {
        let quote = scanner.pos
        guard quote < scanner.end, base[quote] == 0x22 else { return nil }
        let contentStart = quote &+ 1
        let i = firstAttention(from: contentStart)
        guard i < scanner.end, base[i] == 0x22 else { return nil }
        scanner.pos = i &+ 1
        return FieldSlot(start: contentStart, end: i, kind: .string, escaped: false)
    }

    /// The offset of the first byte from `i` on that is a control character, `"`, `\` or not ASCII,
    /// 8 bytes at a time: loaded from the payload while 8 remain, then from the tail copy (whose
    /// zero bytes stop the scan at the payload's end at the latest).
    @inline(__always)
    private func firstAttention(from start: Int) -> Int {
        var i = start
        let end = scanner.end
        while i &+ 8 <= end {
            let mask = StringBytes.attentionMask(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            if mask != 0 { return i &+ mask.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
        while true {
            let mask = StringBytes.attentionMask(word(at: i))
            if mask != 0 { return i &+ mask.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
    }

    /// Scans `"key"` and the `:` after it with `JSONScanner.scanKey`, validating all of it, and says
    /// which key of `K` it is: the general path, for what `quickKey` does not take (unknown or long
    /// keys, escapes, whitespace before the `:`).
    @inline(__always)
    private mutating func readKey<K: WireKey>(_: K.Type) throws(DecodeError) -> K? {
        matchKey(K.self, try scanner.scanKey())
    }

    /// The key of `K` a key string names, unescaping it first when it holds escapes.
    @inline(__always)
    private func matchKey<K: WireKey>(_: K.Type, _ span: JSONScanner.StringSpan) -> K? {
        let count = span.end - span.start
        guard span.escaped else { return K.match(base + span.start, count) }
        guard count <= EventScratch.keyCapacity else { return nil }
        let n = JSONUnescaper.unescape(base, span.start, span.end, into: scratch.keyBuffer)
        return K.match(scratch.keyBuffer, n)
    }

    /// Scans the value at the cursor (inside a container at `depth`) and says where it is.
    @inline(__always)
    private mutating func readValue(depth: Int) throws(DecodeError) -> FieldSlot {
        let start = scanner.pos
        let kind: FieldSlot.Kind
        switch scanner.peek {
        case 0x22:
            // The fast path: plain printable ASCII up to the closing quote, 8 bytes at a time.
            let contentStart = start &+ 1
            let i = firstAttention(from: contentStart)
            if i < scanner.end, base[i] == 0x22 {
                scanner.pos = i &+ 1
                return FieldSlot(start: contentStart, end: i, kind: .string, escaped: false)
            }
            storage.pointee.validatedStrings &+= 1
            let s = try scanner.scanString()  // escapes, UTF-8, errors: the validating scan, from the quote
            return FieldSlot(start: s.start, end: s.end, kind: .string, escaped: s.escaped)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let value = try scanner.scanInteger() {
                return FieldSlot(start: start, end: scanner.pos, kind: .integer, escaped: false, integer: value)
            }
            kind = .number
        case UInt8(ascii: "t"):
            try scanner.scanLiteral("true")
            kind = .trueValue
        case UInt8(ascii: "f"):
            try scanner.scanLiteral("false")
            kind = .falseValue
        case UInt8(ascii: "n"):
            try scanner.scanLiteral("null")
            kind = .null
        case UInt8(ascii: "["):
            try scanner.skipValue(depth: depth)
            kind = .array
        case UInt8(ascii: "{"):
            try scanner.skipValue(depth: depth)
            kind = .object
        default:
            throw scanner.unexpected("expected a value")
        }
        return FieldSlot(start: start, end: scanner.pos, kind: kind, escaped: false)
    }

    /// Where to go on after the current event failed with a syntax error: the start of the next line,
    /// after the event's first line, whose first non-blank byte is `{`. Lines in between belong to
    /// the bad event (e.g. the rest of a pretty-printed object) and are not reported again.
    func resynchronize() -> Int {
        var p = eventStart
        let end = scanner.end
        while true {
            while p < end, base[p] != 0x0A { p += 1 }
            guard p < end else { return end }
            p += 1
            var q = p
            while q < end, base[q] == 0x20 || base[q] == 0x09 || base[q] == 0x0D { q += 1 }
            if q < end, base[q] == UInt8(ascii: "{") { return q }
        }
    }

    /// The current event's `session` and `app`, when recorded and valid: for a rejection.
    func sessionAndApp() -> (session: String?, app: String?) {
        (copyString(.session, maxBytes: limits.maxSessionBytes), copyString(.app, maxBytes: limits.maxAppBytes))
    }

    private func copyString(_ key: FieldKey, maxBytes: Int) -> String? {
        guard present & key.bit != 0 else { return nil }
        let slot = scratch.slots[Int(key.rawValue)]
        guard slot.kind == .string, slot.end > slot.start else { return nil }
        let bytes = [UInt8](unsafeUninitializedCapacity: slot.end - slot.start) { buffer, count in
            count = JSONUnescaper.unescape(base, slot.start, slot.end, into: buffer.baseAddress!)
        }
        guard (1...maxBytes).contains(bytes.count) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
