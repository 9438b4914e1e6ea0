import ModalwatchABI

/// A report's message, evidence and suggestion as `RuleCall` hands them to the host's
/// `report_written` (ABI 1.4): each is built only when the host calls `write` for its part,
/// once the report passed the firing discipline, and goes straight into the violation.
struct WrittenParts {
    /// The host table (its writers).
    let host: UnsafePointer<mw_host>
    /// Builds the message.
    let message: () -> Message
    /// Builds the evidence.
    let evidence: () -> Evidence
    /// Builds the suggestion, if any.
    let suggestion: () -> Message?

    /// The `mw_write_fn`: `state` is a `WrittenParts`.
    static let write: mw_write_fn = { state, writer, part in
        guard let state else { return }
        let parts = state.assumingMemoryBound(to: WrittenParts.self)
        let host = parts.pointee.host.pointee
        switch part {
        case UInt32(MW_PART_MESSAGE.rawValue):
            parts.pointee.message().withUTF8 { host.write_text?(writer, RuleCall.present($0)) }
        case UInt32(MW_PART_EVIDENCE.rawValue):
            parts.pointee.evidence().withJSON { host.write_json?(writer, RuleCall.present($0)) }
        case UInt32(MW_PART_SUGGESTION.rawValue):
            parts.pointee.suggestion()?.withUTF8 { host.write_text?(writer, RuleCall.present($0)) }
        default:
            break
        }
    }
}
