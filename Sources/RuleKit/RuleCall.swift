public import ModalwatchABI

/// Everything a rule gets for one event (`mw_call`), with non-allocating views
/// and the host's services. Valid only during `Rule.judge`.
public struct RuleCall {
    /// The C record.
    public let raw: UnsafePointer<mw_call>
    /// FNV-1a of the rule's parameter names, in declared order (how `self[parameter]` finds a value).
    @usableFromInline let parameterHashes: UnsafeBufferPointer<UInt64>
    /// The module's state, when RuleKit dispatched the call.
    private let owned: UnsafeMutablePointer<ModuleState>?

    /// Wraps the C record. Parameters are then found by name through the host (ABI 1.2).
    public init(_ raw: UnsafePointer<mw_call>) {
        self.raw = raw
        self.parameterHashes = UnsafeBufferPointer(start: nil, count: 0)
        self.owned = nil
    }

    /// Wraps the C record of a call `ModuleExport` dispatched.
    init(
        _ raw: UnsafePointer<mw_call>,
        parameterHashes: UnsafeBufferPointer<UInt64>,
        owned: UnsafeMutablePointer<ModuleState>
    ) {
        self.raw = raw
        self.parameterHashes = parameterHashes
        self.owned = owned
    }

    /// The event being judged (already applied to the session).
    @inlinable
    public var event: Event { Event(raw.pointee.event) }

    /// The session after the event.
    @inlinable
    public var session: Session { Session(raw.pointee.session) }
    /// For a dismissal: the title the dismissed presentation was presented with (ABI 1.3);
    /// absent when it had none or the host is older than 1.3.
    public var dismissedTitle: Text {
        guard let host = raw.pointee.host, host.pointee.abi_minor >= 3 else { return .absent }
        return Text(raw.pointee.session.pointee.dismissed_title)
    }

    /// The words of `text`, one of the event's texts as the event gave it (`event.title`,
    /// `event.message`, `event.label`, a button's `title`), as the host read them once for
    /// every rule of the event (the table `mw_call.texts`, ABI 1.3: read by the field the text
    /// came from, the host asked only when the table is not filled yet); nil for any other
    /// text or under a host without the table (then walk the text yourself). Valid during the call.
    @inlinable @inline(__always)
    public func words(of text: Text) -> mw_words? {
        guard let pointer = text.raw.ptr, text.raw.len > 0, let host = raw.pointee.host, host.pointee.abi_minor >= 3,
            let texts = raw.pointee.texts
        else { return nil }
        if texts.pointee.ready == 0 {
            // The first request of the event: the host fills the whole table.
            guard let fill = host.pointee.words else { return nil }
            var out = mw_words(words: nil, count: 0, flags: 0)
            guard fill(raw.pointee.ctx, text.raw, &out) == 1 else { return nil }
            return out
        }
        // The fields read through the pointer: no copy of the whole event.
        let event = raw.pointee.event!
        let length = text.raw.len
        if event.pointee.title.ptr == pointer && event.pointee.title.len == length { return texts.pointee.title }
        if event.pointee.message.ptr == pointer && event.pointee.message.len == length { return texts.pointee.message }
        if event.pointee.label.ptr == pointer && event.pointee.label.len == length { return texts.pointee.label }
        if let buttons = event.pointee.buttons, let lists = texts.pointee.buttons {
            for index in 0..<Int(event.pointee.button_count)
            where buttons[index].title.ptr == pointer && buttons[index].title.len == length {
                return lists[index]
            }
        }
        if let buttons = event.pointee.modal_buttons, let lists = texts.pointee.modal_buttons {
            for index in 0..<Int(event.pointee.modal_button_count)
            where buttons[index].title.ptr == pointer && buttons[index].title.len == length {
                return lists[index]
            }
        }
        return nil
    }

    /// The session's presentation stack after the event, bottom first (`session.stack`).
    public var stack: CArrayView<mw_presentation, Presentation> { session.stack }

    /// The edition it is judged by (one edition).
    public var edition: Editions { Editions(rawValue: raw.pointee.edition) }

    /// The value in force of `parameter` (the default, or what the config set for the
    /// app), typed as the parameter declares; durations in ms (or a `Duration`).
    /// A parameter the rule does not list in `Rule.parameters` reads as its default.
    @inlinable
    public subscript<Value>(parameter: Parameter<Value>) -> Value {
        // Inlined into the module: a scan of the rule's few name hashes, specialized for `Value`.
        if let params = raw.pointee.params {
            for index in parameterHashes.indices where parameterHashes[index] == parameter.nameHash {
                return Value(parameterValue: params[index])
            }
        }
        return Value(parameterValue: valueByName(parameter.declaration))
    }

    /// A parameter RuleKit's table does not hold (a `RuleCall` made outside `ModuleExport`):
    /// by name through the host's declarations (ABI 1.2), else its default.
    @usableFromInline
    func valueByName(_ declaration: ParameterDescription) -> Int64 {
        guard parameterHashes.isEmpty, let host = raw.pointee.host, host.pointee.abi_minor >= 2,
            let declarations = raw.pointee.param_decls, let params = raw.pointee.params
        else { return declaration.defaultValue }
        for index in 0..<Int(raw.pointee.param_count) {
            if let name = declarations[index].name, String(cString: name) == declaration.name { return params[index] }
        }
        return declaration.defaultValue
    }

    /// The module's state, made by the factory given to `ModuleExport.make(state:)` when the
    /// host loaded the module (ABI 1.2); nil under an older host, or when it is not a `State`.
    public func moduleState<State>(as type: State.Type) -> State? {
        owned?.pointee.state as? State
    }

    /// One line into the daemon's log, attributed to the module and the rule (ABI 1.2;
    /// rate-limited per module; nothing under an older host).
    public func log(_ level: LogLevel, _ message: String) {
        guard let host = raw.pointee.host, host.pointee.abi_minor >= 2, let log = host.pointee.log else { return }
        var message = message
        message.withUTF8 { log(raw.pointee.ctx, level.rawValue, RuleCall.present($0)) }
    }

    /// Reports a non-fatal error of the module (ABI 1.2): the host counts it per module,
    /// shows it in `status` and publishes `diag/-/module_error`; the rule goes on.
    public func reportModuleError(_ detail: String) {
        guard let host = raw.pointee.host, host.pointee.abi_minor >= 2, let report = host.pointee.module_error else {
            return
        }
        var detail = detail
        detail.withUTF8 { report(raw.pointee.ctx, RuleCall.present($0)) }
    }

    /// Adds `delta` to the rule's counter `key` in `scope` and returns the new
    /// value (a counter starts at 0; delta 0 reads). Keys are private to the rule.
    @discardableResult
    public func counterAdd(_ key: UInt64, _ delta: Int64 = 0, scope: CounterScope = .session) -> Int64 {
        let host = raw.pointee.host.pointee
        return host.counter_add!(raw.pointee.ctx, scope.rawValue, key, delta)
    }

    /// Records `ts` in the rule's per-session window `key`, forgets entries older
    /// than `ts - windowMs`, keeps at most `keep` newest, and returns how many remain.
    @discardableResult
    public func windowPush(_ key: UInt64, ts: Int64, windowMs: Int64, keep: UInt32) -> UInt32 {
        let host = raw.pointee.host.pointee
        return host.window_push!(raw.pointee.ctx, key, ts, windowMs, keep)
    }

    /// Reports a violation; the host applies the rule's firing discipline, adds
    /// the metadata and appends the current event to `events`.
    ///
    /// - Parameters:
    ///   - subject: the presentation it is about (`.absent` for none).
    ///   - message: one sentence for a person, with the figures.
    ///   - evidence: the rule's figures (a JSON object).
    ///   - key: for `.oncePerKey` / `.oncePerAppValue`, the value it is about; nil means the subject.
    ///   - quietMs: for `.oncePerWindow`, how long the rule then stays quiet in the session.
    ///   - events: earlier triggering events, oldest first (not the current one).
    ///   - suggestion: what to do instead (violations.md `suggestion`, ABI 1.3): the concrete
    ///     change where the rule can derive it, else the guideline's advice; nil for none.
    public func report(
        subject: Text,
        message: @autoclosure () -> String,
        evidence: @autoclosure () -> Evidence = Evidence(),
        key: String? = nil,
        quietMs: Int64 = 0,
        events: [EventRef] = [],
        suggestion: @autoclosure () -> Message? = nil
    ) {
        // Ask first (ABI 1.1): a report the host would hold back costs no formatting.
        guard shouldReport(subject: subject, key: key) else { return }
        report(
            subject: subject,
            message: Message(message()),
            evidence: evidence(),
            key: key,
            quietMs: quietMs,
            events: events,
            suggestion: suggestion()
        )
    }

    /// Reports a violation whose message is a `Message` (UTF-8 written straight from the
    /// literal, no `String` built); otherwise the same as the `String` form. A message
    /// literal that uses `Message`'s own interpolations (`quoted:`, `duration:`, `count:`,
    /// `ordinal:`) chooses this form.
    ///
    /// `event` is one earlier triggering event given without an array (no allocation); it
    /// follows `events` when both are given.
    public func report(
        subject: Text,
        message: @autoclosure () -> Message,
        evidence: @autoclosure () -> Evidence = Evidence(),
        key: String? = nil,
        quietMs: Int64 = 0,
        events: [EventRef] = [],
        event: EventRef? = nil,
        suggestion: @autoclosure () -> Message? = nil
    ) {
        guard shouldReport(subject: subject, key: key) else { return }
        let message = message()
        let suggestion = suggestion()
        message.withUTF8 { messageBytes in
            guard let suggestion else {
                send(
                    subject: subject,
                    message: messageBytes,
                    suggestion: nil,
                    evidence: evidence(),
                    key: key,
                    quietMs: quietMs,
                    events: events,
                    event: event
                )
                return
            }
            suggestion.withUTF8 { suggestionBytes in
                send(
                    subject: subject,
                    message: messageBytes,
                    suggestion: suggestionBytes,
                    evidence: evidence(),
                    key: key,
                    quietMs: quietMs,
                    events: events,
                    event: event
                )
            }
        }
    }

    /// Hands one report to the host.
    private func send(
        subject: Text,
        message: UnsafeBufferPointer<UInt8>,
        suggestion: UnsafeBufferPointer<UInt8>?,
        evidence: Evidence,
        key: String?,
        quietMs: Int64,
        events: [EventRef],
        event: EventRef? = nil
    ) {
        var keyText = key ?? ""
        let hasKey = key != nil
        let host = raw.pointee.host.pointee
        let ctx = raw.pointee.ctx
        let count = events.count + (event == nil ? 0 : 1)
        // The C references live on the stack for the call: no array is built for them.
        withUnsafeTemporaryAllocation(of: mw_event_ref.self, capacity: max(count, 1)) { refs in
            for (index, event) in events.enumerated() { refs.initializeElement(at: index, to: event.raw) }
            if let event { refs.initializeElement(at: events.count, to: event.raw) }
            evidence.withJSON { evidenceBytes in
                keyText.withUTF8 { keyBytes in
                    var report = mw_report(
                        subject: subject.raw,
                        message: RuleCall.present(message),
                        evidence_json: RuleCall.present(evidenceBytes),
                        key: hasKey ? RuleCall.present(keyBytes) : Text.absent.raw,
                        quiet_ms: quietMs,
                        events: count == 0 ? nil : UnsafePointer(refs.baseAddress),
                        event_count: UInt32(count),
                        reserved: 0,
                        suggestion: suggestion.map(RuleCall.present) ?? Text.absent.raw
                    )
                    host.report!(ctx, &report)
                }
            }
        }
    }

    /// Whether a report with this subject and key would pass the rule's firing discipline
    /// and rate limit now (the host's `should_report`, ABI 1.1). Ask it before building an
    /// expensive message or evidence. A host older than 1.1 cannot tell: then it is true.
    public func shouldReport(subject: Text, key: String? = nil) -> Bool {
        guard let host = raw.pointee.host,
            host.pointee.struct_size >= UInt32(MemoryLayout<mw_host>.offset(of: \mw_host.log)!),
            let ask = host.pointee.should_report
        else { return true }
        guard var key else { return ask(raw.pointee.ctx, subject.raw, Text.absent.raw) != 0 }
        return key.withUTF8 { ask(raw.pointee.ctx, subject.raw, RuleCall.present($0)) != 0 }
    }

    /// A present slice even for an empty string (whose buffer may have no address).
    static func present(_ bytes: UnsafeBufferPointer<UInt8>) -> mw_str {
        if let base = bytes.baseAddress {
            return mw_str(ptr: UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), len: bytes.count)
        }
        let empty: StaticString = ""
        return mw_str(ptr: UnsafeRawPointer(empty.utf8Start).assumingMemoryBound(to: CChar.self), len: 0)
    }
}
