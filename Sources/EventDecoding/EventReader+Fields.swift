import ByteBasics
import ModalwatchABI

/// Pass 2: the schema's rules for the fields the event's type has, and the `mw_event` they fill.
extension EventReader {
    /// Where a value sits, for an error: a top-level field, or a field of an array item.
    struct Place {
        var field: FieldKey
        var item: Int = -1
        var subfield: ItemKey?

        func error(_ reason: RejectReason, _ problem: DecodeError.Problem, at offset: Int) -> DecodeError {
            DecodeError(
                reason: reason,
                problem: problem,
                offset: offset,
                field: field.name,
                item: item,
                subfield: subfield?.name
            )
        }
    }

    @inline(__always) func has(_ key: FieldKey) -> Bool { present & key.bit != 0 }
    @inline(__always) func slot(_ key: FieldKey) -> FieldSlot { scratch.slots[Int(key.rawValue)] }

    /// Checks the current event's fields (pass 1 recorded them) and fills `scratch.event`.
    mutating func fill() throws(DecodeError) {
        let e = scratch.event
        Self.clearFieldsOfLastType(e)

        guard has(.v) else { throw Place(field: .v).error(.missingField, .missing, at: eventStart) }
        let v = slot(.v)
        guard v.integerValue(in: base) == .value(1) else {
            throw Place(field: .v).error(.badField, .requirement("must be 1"), at: v.start)
        }

        let typeName = try string(.type, required: true, minBytes: 1, maxBytes: limits.maxStringBytes)
        e.pointee.type_name = typeName
        // The type's raw value is its `mw_event_type`.
        let typeValue = typeName.ptr.flatMap { p in
            WireEventType.match(UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), typeName.len)
        }
        let type = typeValue?.rawValue ?? MW_EVENT_UNKNOWN.rawValue
        e.pointee.type = type

        e.pointee.session = try string(.session, required: true, minBytes: 1, maxBytes: limits.maxSessionBytes)

        guard has(.ts) else { throw Place(field: .ts).error(.missingField, .missing, at: eventStart) }
        let ts = try integer(
            .ts,
            minimum: EventTime.minMs,
            maximum: EventTime.maxMs,
            "must be an integer from 0 to 253402300799999 (ms since 1970, at most the end of year 9999)"
        )
        e.pointee.ts = ts
        e.pointee.ts_sent = ts
        e.pointee.seq =
            has(.seq)
            ? try integer(
                .seq,
                minimum: EventSequence.min,
                maximum: EventSequence.max,
                "must be an integer from 1 to 9007199254740991 (2^53 - 1)"
            ) : 0
        e.pointee.app = try string(
            .app,
            required: type == MW_EVENT_SESSION_START.rawValue,
            minBytes: 1,
            maxBytes: limits.maxAppBytes
        )
        if e.pointee.app.ptr != nil { try checkAppCharacters(e.pointee.app) }
        switch type {
        case MW_EVENT_SESSION_START.rawValue, MW_EVENT_ALERT_PRESENTED.rawValue,
            MW_EVENT_SHEET_PRESENTED.rawValue, MW_EVENT_MODAL_PRESENTED.rawValue:
            e.pointee.locale = has(.locale) ? try locale() : mw_str()
        default:
            e.pointee.locale = mw_str()
        }

        switch type {
        case MW_EVENT_SESSION_START.rawValue:
            e.pointee.app_version = try string(.appVersion, minBytes: 0, maxBytes: limits.maxStringBytes)
            e.pointee.os = try string(.os, minBytes: 0, maxBytes: limits.maxStringBytes)
            e.pointee.device = try enumeration(.device, WireDevice.self, .device)
            e.pointee.size_class = try enumeration(.sizeClass, WireSizeClass.self, .sizeClass)
        case MW_EVENT_USER_ACTION.rawValue:
            e.pointee.control = try enumeration(.control, WireControl.self, .control)
            e.pointee.label = try text(.label)
            e.pointee.destructive = try boolean(.destructive)
        case MW_EVENT_TASK_PROGRESS.rawValue:
            e.pointee.task = try string(.task, required: true, minBytes: 1, maxBytes: limits.maxTaskBytes)
            guard has(.state) else { throw Place(field: .state).error(.missingField, .missing, at: eventStart) }
            e.pointee.task_state = try enumeration(.state, WireTaskState.self, .taskState)
        case MW_EVENT_ALERT_PRESENTED.rawValue:
            try presentationID()
            e.pointee.title = try text(.title)
            e.pointee.message = try text(.message)
            if has(.buttons) { try readButtons(modal: false) }
            if has(.textFields) { try readTextFields() }
        case MW_EVENT_ALERT_DISMISSED.rawValue, MW_EVENT_SHEET_DISMISSED.rawValue:
            try presentationID()
            e.pointee.button = try index(.button)
            e.pointee.via = try enumeration(.via, WireVia.self, .via)
        case MW_EVENT_SHEET_PRESENTED.rawValue:
            try presentationID()
            e.pointee.title = try text(.title)
            e.pointee.message = try text(.message)
            if has(.buttons) { try readButtons(modal: false) }
            e.pointee.in_popover = try boolean(.inPopover)
            e.pointee.from_popover = try boolean(.fromPopover)
            e.pointee.background = try string(.background, minBytes: 0, maxBytes: limits.maxBackgroundBytes)
        case MW_EVENT_MODAL_PRESENTED.rawValue:
            try presentationID()
            e.pointee.style = try enumeration(.style, WireModalStyle.self, .modalStyle)
            e.pointee.transition = try enumeration(.transition, WireTransition.self, .transition)
            e.pointee.title = try text(.title)
            if has(.buttons) { try readButtons(modal: true) }
            e.pointee.size_class = try enumeration(.sizeClass, WireSizeClass.self, .sizeClass)
        case MW_EVENT_MODAL_DISMISSED.rawValue:
            try presentationID()
            e.pointee.via = try enumeration(.via, WireVia.self, .via)
            e.pointee.button = try index(.button)
            e.pointee.unsaved_changes = try boolean(.unsavedChanges)
            e.pointee.confirmed = try boolean(.confirmed)
        case MW_EVENT_POPOVER_PRESENTED.rawValue, MW_EVENT_POPOVER_DISMISSED.rawValue:
            try presentationID()
        case MW_EVENT_NAV_PUSH.rawValue, MW_EVENT_NAV_POP.rawValue:
            e.pointee.screen = try text(.screen)
        default:  // session.end, app.background, app.foreground, and unknown types: nothing more
            break
        }
    }

    /// The `locale` field (events.md, "Languages"), present: checked and normalized into the
    /// scratch's locale buffer, where `mw_event.locale` points.
    @inline(never)
    private mutating func locale() throws(DecodeError) -> mw_str {
        let place = Place(field: .locale)
        let s = slot(.locale)
        let tag = try stringValue(s, place, nullable: false, minBytes: 0, maxBytes: limits.maxStringBytes)
        let bytes = UnsafeRawPointer(tag.ptr!).assumingMemoryBound(to: UInt8.self)
        guard let n = LocaleTag.normalize(bytes, tag.len, into: scratch.localeBuffer) else {
            throw place.error(
                .badField,
                .requirement("must be a BCP 47 language tag such as 'de-DE', 'zh-Hans-CN' or 'pt_BR'"),
                at: s.start
            )
        }
        return mw_str(ptr: UnsafeRawPointer(scratch.localeBuffer).assumingMemoryBound(to: CChar.self), len: n)
    }

    /// The required `id` of a presentation event.
    private mutating func presentationID() throws(DecodeError) {
        scratch.event.pointee.id = try string(.id, required: true, minBytes: 1, maxBytes: limits.maxIdBytes)
    }

    // MARK: top-level fields

    /// A string field; absent gives a NULL `mw_str` (or missing_field when required). Inline, the
    /// common case (present, a string without escapes, within its bounds); anything else through
    /// `stringField`, out of line.
    @inline(__always)
    private mutating func string(
        _ key: FieldKey,
        required: Bool = false,
        minBytes: Int,
        maxBytes: Int
    ) throws(DecodeError) -> mw_str {
        let s = slot(key)
        let n = s.end &- s.start
        if has(key), s.kind == .string, !s.escaped, n <= maxBytes, n >= minBytes {
            return mw_str(ptr: UnsafeRawPointer(base + s.start).assumingMemoryBound(to: CChar.self), len: n)
        }
        return try stringField(key, required: required, minBytes: minBytes, maxBytes: maxBytes)
    }

    @inline(never)
    private mutating func stringField(
        _ key: FieldKey,
        required: Bool,
        minBytes: Int,
        maxBytes: Int
    ) throws(DecodeError) -> mw_str {
        guard has(key) else {
            if required { throw Place(field: key).error(.missingField, .missing, at: eventStart) }
            return mw_str()
        }
        return try stringValue(slot(key), Place(field: key), nullable: false, minBytes: minBytes, maxBytes: maxBytes)
    }

    /// A `text` field: a string of at most `maxStringBytes`, or null; absent and null give NULL. The
    /// common case inline, as in `string`.
    @inline(__always)
    private mutating func text(_ key: FieldKey) throws(DecodeError) -> mw_str {
        let s = slot(key)
        let n = s.end &- s.start
        if has(key), s.kind == .string, !s.escaped, n <= limits.maxStringBytes {
            return mw_str(ptr: UnsafeRawPointer(base + s.start).assumingMemoryBound(to: CChar.self), len: n)
        }
        return try textField(key)
    }

    @inline(never)
    private mutating func textField(_ key: FieldKey) throws(DecodeError) -> mw_str {
        guard has(key) else { return mw_str() }
        return try stringValue(
            slot(key),
            Place(field: key),
            nullable: true,
            minBytes: 0,
            maxBytes: limits.maxStringBytes
        )
    }

    /// An enumerated field: its value's index in `enumeration` (`V`'s raw value), or MW_ABSENT when
    /// absent. The common case inline (`knownValue`), as in `string`.
    @inline(__always)
    private mutating func enumeration<V: WireValue & RawRepresentable>(
        _ key: FieldKey,
        _: V.Type,
        _ enumeration: WireEnum
    ) throws(DecodeError) -> Int32 where V.RawValue == Int32 {
        if has(key), let value = knownValue(slot(key), V.self) { return value }
        return try enumerationField(key, enumeration)
    }

    /// The common case of an enumerated value: a string without escapes spelling a value of `V`,
    /// matched by `V`'s own perfect hash; its raw value (the index `enumerationValue` would give),
    /// or nil for anything else, which `enumerationValue` then judges.
    @inline(__always)
    private func knownValue<V: WireValue & RawRepresentable>(_ s: FieldSlot, _: V.Type) -> Int32?
    where V.RawValue == Int32 {
        guard s.kind == .string, !s.escaped else { return nil }
        return V.match(base + s.start, s.end &- s.start)?.rawValue
    }

    @inline(never)
    private mutating func enumerationField(_ key: FieldKey, _ enumeration: WireEnum) throws(DecodeError) -> Int32 {
        guard has(key) else { return MW_ABSENT }
        return try enumerationValue(slot(key), Place(field: key), enumeration)
    }

    /// A boolean field: 0, 1, or MW_ABSENT when absent.
    @inline(__always)
    private func boolean(_ key: FieldKey) throws(DecodeError) -> Int32 {
        guard has(key) else { return MW_ABSENT }
        return try booleanValue(slot(key), Place(field: key))
    }

    /// A present integer field from `minimum` to `maximum`.
    @inline(__always)
    private func integer(
        _ key: FieldKey,
        minimum: Int64,
        maximum: Int64 = .max,
        _ requirement: StaticString
    ) throws(DecodeError) -> Int64 {
        let s = slot(key)
        if case .value(let value) = s.integerValue(in: base), value >= minimum, value <= maximum {
            return value
        }
        throw Place(field: key).error(.badField, .requirement(requirement), at: s.start)
    }

    /// An `index` field (a button index): an integer >= 0 that fits in 32 bits, or null; null and absent
    /// give MW_ABSENT.
    @inline(__always)
    private func index(_ key: FieldKey) throws(DecodeError) -> Int32 {
        guard has(key) else { return MW_ABSENT }
        let s = slot(key)
        if s.kind == .null { return MW_ABSENT }
        if case .value(let value) = s.integerValue(in: base),
            value >= 0, value <= Int64(Int32.max)
        {
            return Int32(value)
        }
        throw Place(field: key).error(
            .badField,
            .requirement("must be null or an integer from 0 to 2147483647"),
            at: s.start
        )
    }

    /// `app` goes into topics (`violation/<app>/<rule>`, `diag/<app>/...`) whose subscribers filter
    /// by prefix: a `/` in it would publish under another app's prefix. So it may hold no `/`, no
    /// space and no control character (C0, DEL, C1). Eight bytes at a time; the bytes are the
    /// string's, already unescaped.
    @inline(__always)
    private func checkAppCharacters(_ app: mw_str) throws(DecodeError) {
        let p = UnsafeRawPointer(app.ptr!).assumingMemoryBound(to: UInt8.self)
        let n = app.len
        var i = 0
        var suspect = false
        while i &+ 8 <= n {
            if AppCharacters.suspectMask(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)) != 0 {
                suspect = true
                break
            }
            i &+= 8
        }
        if !suspect, i < n {
            if n >= 8 {  // the last 8 bytes, overlapping those already seen
                suspect = AppCharacters.suspectMask(UnsafeRawPointer(p + (n &- 8)).loadUnaligned(as: UInt64.self)) != 0
            } else {
                while i < n {
                    if !AppCharacters.isPlain(p[i]) {
                        suspect = true
                        break
                    }
                    i &+= 1
                }
            }
        }
        guard suspect, AppCharacters.firstForbidden(p, n) != nil else { return }
        throw Place(field: .app).error(
            .badField,
            .requirement("must not contain '/', whitespace or control characters (it is part of the topic)"),
            at: slot(.app).start
        )
    }

    // MARK: values

    /// The bytes of a string value: in the payload when it has no escapes, else unescaped into the arena.
    @inline(__always)
    private mutating func bytes(of s: FieldSlot) throws(DecodeError) -> (UnsafePointer<UInt8>, Int) {
        guard s.escaped else { return (base + s.start, s.end - s.start) }
        guard arenaUsed + (s.end - s.start) <= scratch.arenaCapacity else {  // cannot happen: events are smaller
            throw DecodeError(
                reason: .tooLarge,
                problem: .eventTooLarge(size: scanner.end, limit: scratch.arenaCapacity),
                offset: s.start
            )
        }
        let destination = scratch.arena + arenaUsed
        let n = JSONUnescaper.unescape(base, s.start, s.end, into: destination)
        arenaUsed += n
        return (UnsafePointer(destination), n)
    }

    /// A string value of `minBytes...maxBytes` bytes (too_large above), or null when `nullable`.
    @inline(__always)
    private mutating func stringValue(
        _ s: FieldSlot,
        _ place: Place,
        nullable: Bool,
        minBytes: Int,
        maxBytes: Int
    ) throws(DecodeError) -> mw_str {
        guard s.kind == .string else {
            if nullable, s.kind == .null { return mw_str() }
            throw place.error(
                .badField,
                .requirement(nullable ? "must be a string or null" : "must be a string"),
                at: s.start
            )
        }
        let (p, n) = try bytes(of: s)
        if n > maxBytes { throw place.error(.tooLarge, .tooLong(limit: maxBytes), at: s.start) }
        if n < minBytes { throw place.error(.badField, .requirement("must not be empty"), at: s.start) }
        return mw_str(ptr: UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self), len: n)
    }

    /// An enumerated value: its index in `enumeration`.
    @inline(__always)
    private mutating func enumerationValue(
        _ s: FieldSlot,
        _ place: Place,
        _ enumeration: WireEnum
    ) throws(DecodeError) -> Int32 {
        if s.kind == .string {
            let (p, n) = try bytes(of: s)
            if let i = enumeration.index(of: p, n) { return Int32(i) }
        }
        throw place.error(.badField, .oneOf(enumeration), at: s.start)
    }

    /// A boolean value: 0 or 1.
    @inline(__always)
    private func booleanValue(_ s: FieldSlot, _ place: Place) throws(DecodeError) -> Int32 {
        switch s.kind {
        case .trueValue: return 1
        case .falseValue: return 0
        default: throw place.error(.badField, .requirement("must be true or false"), at: s.start)
        }
    }

    // MARK: arrays

    /// Checks that the field `key` is an array (pass 1 then recorded its items).
    @inline(__always)
    private func checkArray(_ key: FieldKey) throws(DecodeError) {
        let s = slot(key)
        guard s.kind == .array else {
            throw Place(field: key).error(.badField, .requirement("must be an array"), at: s.start)
        }
    }

    /// Item `index` of `records`, which must be an object of at most `limit` items: its slots and the
    /// fields it had. The checks and offsets of a scan of the array: too many at the item past the
    /// limit, not an object at the item.
    @inline(__always)
    private func recordedItem(
        _ records: ItemRecords,
        _ index: Int,
        limit: Int,
        _ place: Place
    ) throws(DecodeError) -> (ItemRecords.Item, UnsafeMutablePointer<FieldSlot>) {
        let item = records.items[index]
        if index == limit {
            throw Place(field: place.field).error(.tooLarge, .tooMany(limit: limit), at: item.start)
        }
        guard item.isObject else { throw place.error(.badField, .requirement("must be an object"), at: item.start) }
        return (item, records.slots(of: index))
    }

    /// The enumerated field `key` of an array item: its value's index in `enumeration` (`V`'s raw
    /// value), or MW_ABSENT when the item has none. The common case inline (`knownValue`); anything
    /// else judged by `enumerationValue` at `place` with `key` as its subfield.
    @inline(__always)
    private mutating func itemEnumeration<V: WireValue & RawRepresentable>(
        _ key: ItemKey,
        of item: ItemRecords.Item,
        _ slots: UnsafeMutablePointer<FieldSlot>,
        _: V.Type,
        _ enumeration: WireEnum,
        _ place: Place
    ) throws(DecodeError) -> Int32 where V.RawValue == Int32 {
        guard item.present & key.bit != 0 else { return MW_ABSENT }
        let slot = slots[Int(key.rawValue)]
        if let value = knownValue(slot, V.self) { return value }
        return try itemEnumerationValue(slot, key, enumeration, place)
    }

    /// The rest of `itemEnumeration`, out of line: the validating path, its errors naming `key`.
    @inline(never)
    private mutating func itemEnumerationValue(
        _ slot: FieldSlot,
        _ key: ItemKey,
        _ enumeration: WireEnum,
        _ place: Place
    ) throws(DecodeError) -> Int32 {
        var place = place
        place.subfield = key
        return try enumerationValue(slot, place, enumeration)
    }

    /// `buttons`: alert / sheet buttons (`title`, `style`, `preferred`) or modal buttons (`title`, `role`).
    private mutating func readButtons(modal: Bool) throws(DecodeError) {
        try checkArray(.buttons)
        let records = scratch.buttonItems
        var count = 0
        while count < buttonItemCount {
            var place = Place(field: .buttons, item: count)
            let (item, slots) = try recordedItem(records, count, limit: limits.maxButtons, place)
            place.subfield = .title
            guard item.present & ItemKey.title.bit != 0 else {
                throw place.error(.missingField, .missing, at: item.end)
            }
            let title = try stringValue(
                slots[Int(ItemKey.title.rawValue)],
                place,
                nullable: false,
                minBytes: 0,
                maxBytes: limits.maxStringBytes
            )
            if modal {
                let role = try itemEnumeration(.role, of: item, slots, WireModalRole.self, .modalRole, place)
                scratch.modalButtons[count] = mw_modal_button(title: title, role: role, reserved: 0)
            } else {
                let style = try itemEnumeration(.style, of: item, slots, WireButtonStyle.self, .buttonStyle, place)
                var preferred = MW_ABSENT
                if item.present & ItemKey.preferred.bit != 0 {
                    place.subfield = .preferred
                    preferred = try booleanValue(slots[Int(ItemKey.preferred.rawValue)], place)
                }
                scratch.buttons[count] = mw_button(title: title, style: style, preferred: preferred)
            }
            count += 1
        }
        let e = scratch.event
        e.pointee.has_buttons = 1
        if modal {
            e.pointee.modal_buttons = UnsafePointer(scratch.modalButtons)
            e.pointee.modal_button_count = UInt32(count)
        } else {
            e.pointee.buttons = UnsafePointer(scratch.buttons)
            e.pointee.button_count = UInt32(count)
        }
    }

    /// `text_fields`: objects with an optional boolean `secure`; counted.
    private mutating func readTextFields() throws(DecodeError) {
        try checkArray(.textFields)
        let records = scratch.textFieldItems
        var count = 0
        var secure = 0
        while count < textFieldItemCount {
            var place = Place(field: .textFields, item: count)
            let (item, slots) = try recordedItem(records, count, limit: limits.maxTextFields, place)
            if item.present & ItemKey.secure.bit != 0 {
                place.subfield = .secure
                secure += Int(try booleanValue(slots[Int(ItemKey.secure.rawValue)], place))
            }
            count += 1
        }
        scratch.event.pointee.text_field_count = UInt32(count)
        scratch.event.pointee.secure_text_field_count = UInt32(secure)
    }
}
