import ByteBasics
public import ModalwatchABI

/// The language of an event's texts as the rules need it (rules.md, "Languages"): whether they
/// are judged as English, the language subtag they are counted under, the standard titles of
/// their language. The tag is `mw_event.locale` (normalized by the decoder), or absent.
public enum EventLanguage {
    /// What `undetermined` is counted as.
    public static let undetermined = "und"

    /// The language subtag of `tag` (`de` of `de-AT`), or `undetermined` when it is absent.
    public static func subtag(of tag: mw_str) -> String {
        guard let bytes = bytes(tag) else { return undetermined }
        let end = bytes.firstIndex(of: 0x2D) ?? bytes.count
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
    }

    /// The language subtag of `tag` packed into a word (its bytes, first byte lowest; at most 8
    /// letters), 0 when absent: a key to count by without making a `String`.
    public static func subtagKey(of tag: mw_str) -> UInt64 {
        guard let bytes = bytes(tag) else { return 0 }
        var key: UInt64 = 0
        for index in 0..<min(bytes.count, 8) {
            let byte = bytes[index]
            if byte == 0x2D { break }
            key |= UInt64(byte) << (8 * UInt64(index))
        }
        return key
    }

    /// The subtag a `subtagKey` packs (`undetermined` for 0).
    public static func subtag(ofKey key: UInt64) -> String {
        guard key != 0 else { return undetermined }
        var bytes: [UInt8] = []
        var rest = key
        while rest != 0 {
            bytes.append(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when the tag's language is English (`en`, `en-GB`, …).
    public static func isEnglish(_ tag: mw_str) -> Bool {
        subtagKey(of: tag) == 0x6E65  // "en"
    }

    /// The letters of every text of `event` (title, message, label, the buttons' and the modal
    /// buttons' titles) by script. Walks the bytes without allocating.
    public static func letterScripts(of event: UnsafePointer<mw_event>) -> LetterScripts {
        var counts = LetterScripts()
        forEachText(of: event) { bytes in
            counts.add(TextSlice(bytes).letterScripts)
            return true
        }
        return counts
    }

    /// True when the rules of English wording judge `event`, whose language is `tag`: the tag
    /// is English, or absent and the event's texts are not mostly of a non-Latin script.
    ///
    /// Without a tag the letters are classified only when the bytes cannot tell: a letter of a
    /// script other than Latin takes at least two bytes of UTF-8, so texts with at least half as
    /// many ASCII letters as bytes of 0x80 or above (counted eight at a time) have at least as
    /// many Latin letters as others, and are judged as English (`You’re offline`, one `’` of
    /// three bytes and eleven letters, is decided at its first letter).
    public static func isJudgedAsEnglish(_ tag: mw_str, _ event: UnsafePointer<mw_event>) -> Bool {
        if tag.ptr != nil { return isEnglish(tag) }
        let high = highBytes(of: event)
        if high == 0 || hasASCIILetters(atLeast: high / 2, in: event) { return true }
        return !letterScripts(of: event).isMostlyNonLatin
    }

    /// The bytes of 0x80 or above in every text of `event` (as `letterScripts(of:)` reads them).
    private static func highBytes(of event: UnsafePointer<mw_event>) -> Int {
        var high = 0
        forEachText(of: event) { bytes in
            high += highByteCount(bytes)
            return true
        }
        return high
    }

    /// The bytes of 0x80 or above in `bytes`: eight at a time, then four, two and one, without
    /// a branch on any byte's value.
    @inline(__always)
    private static func highByteCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let base = UnsafeRawPointer(bytes.baseAddress!)
        var offset = 0
        var high = 0
        while offset &+ 8 <= bytes.count {
            high &+=
                (base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080).nonzeroBitCount
            offset &+= 8
        }
        if offset &+ 4 <= bytes.count {
            high &+= (base.loadUnaligned(fromByteOffset: offset, as: UInt32.self) & 0x8080_8080).nonzeroBitCount
            offset &+= 4
        }
        if offset &+ 2 <= bytes.count {
            high &+= (base.loadUnaligned(fromByteOffset: offset, as: UInt16.self) & 0x8080).nonzeroBitCount
            offset &+= 2
        }
        if offset < bytes.count { high &+= Int(bytes[offset] &>> 7) }
        return high
    }

    /// True when the texts of `event` hold at least `needed` ASCII letters (counted until there
    /// are that many).
    private static func hasASCIILetters(atLeast needed: Int, in event: UnsafePointer<mw_event>) -> Bool {
        var found = 0
        forEachText(of: event) { bytes in
            for byte in bytes where (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A {
                found += 1
                if found >= needed { return false }
            }
            return true
        }
        return found >= needed
    }

    /// Calls `body` with the bytes of every non-empty text of `event` (title, message, label, the
    /// buttons' and the modal buttons' titles) until it returns false.
    private static func forEachText(
        of event: UnsafePointer<mw_event>,
        _ body: (UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        if let text = bytes(event.pointee.title), !body(text) { return }
        if let text = bytes(event.pointee.message), !body(text) { return }
        if let text = bytes(event.pointee.label), !body(text) { return }
        if let buttons = event.pointee.buttons {
            for index in 0..<Int(event.pointee.button_count) {
                if let text = bytes(buttons[index].title), !body(text) { return }
            }
        }
        if let buttons = event.pointee.modal_buttons {
            for index in 0..<Int(event.pointee.modal_button_count) {
                if let text = bytes(buttons[index].title), !body(text) { return }
            }
        }
    }

    /// The standard titles of the tag's language (as `StandardTitles.forLanguage` finds them); nil
    /// when it is absent, English, or a language the table lacks. A language the table has one
    /// entry for (every one but Belarusian, Catalan, Portuguese, Serbian, Uzbek and Chinese) is
    /// found by its subtag in an index made once, with no allocation (the subtag is a small
    /// string, kept inline); the others, and languages the table lacks, go through
    /// `forLanguage`, which allocates.
    public static func titles(_ tag: mw_str) -> StandardTitles? {
        guard let bytes = bytes(tag), !isEnglish(tag) else { return nil }
        return StandardTitles.lookup.entry(forBytes: bytes)
    }

    /// The quotation marks of the language of `tag` (`QuotationMarks`), or nil when it is absent,
    /// English, or a language CLDR gives no marks for. Found like `titles`: a language with one
    /// entry by its subtag, without allocating; the others through `forLanguage`.
    public static func quotationMarks(_ tag: mw_str) -> QuotationMarks? {
        guard let bytes = bytes(tag), !isEnglish(tag) else { return nil }
        return QuotationMarks.lookup.entry(forBytes: bytes)
    }

    /// True when `title` is the Cancel of the language of `tag`: `Cancel` in any case in English
    /// and when the tag is absent; otherwise that too, or any of the language's standard Cancel
    /// titles (`StandardTitles.matches`).
    public static func isCancelTitle(_ title: mw_str, _ tag: mw_str) -> Bool {
        guard let bytes = bytes(title) else { return false }
        if bytes.count == 6, isASCIICancel(bytes) { return true }
        guard let titles = titles(tag) else { return false }
        return StandardTitles.matches(String(decoding: bytes, as: UTF8.self), titles.cancel)
    }

    /// True when the 6 bytes are `cancel` in any case (ASCII; `| 0x20` folds the letters' case).
    private static func isASCIICancel(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var folded: UInt64 = 0
        for index in 0..<6 { folded |= UInt64(bytes[index] | 0x20) << (8 * UInt64(index)) }
        return folded == 0x6C65_636E_6163  // "cancel", first byte lowest
    }

    private static func bytes(_ text: mw_str) -> UnsafeBufferPointer<UInt8>? {
        guard let pointer = text.ptr, text.len > 0 else { return nil }
        return UnsafeBufferPointer(
            start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
            count: text.len
        )
    }
}
