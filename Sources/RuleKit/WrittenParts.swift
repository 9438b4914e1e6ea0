import ModalwatchABI

/// A report's message, evidence and suggestion as `RuleCall` hands them to the host's
/// `report_written` (ABI 1.4): the host calls `write` for each part while it writes the
/// violation, and each part goes straight into its violation buffer.
struct WrittenParts {
    /// The host table (its writers).
    let host: UnsafePointer<mw_host>
    /// The message's UTF-8.
    let message: mw_str
    /// The evidence object's JSON text.
    let evidence: mw_str
    /// The suggestion's UTF-8, or absent.
    let suggestion: mw_str

    /// The `mw_write_fn`: `state` is a `WrittenParts`.
    static let write: mw_write_fn = { state, writer, part in
        guard let state else { return }
        let parts = state.assumingMemoryBound(to: WrittenParts.self).pointee
        let host = parts.host.pointee
        switch part {
        case UInt32(MW_PART_MESSAGE.rawValue):
            host.write_text?(writer, parts.message)
        case UInt32(MW_PART_EVIDENCE.rawValue):
            host.write_json?(writer, parts.evidence)
        case UInt32(MW_PART_SUGGESTION.rawValue):
            if parts.suggestion.ptr != nil { host.write_text?(writer, parts.suggestion) }
        default:
            break
        }
    }
}
