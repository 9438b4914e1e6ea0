/// Why a diagnostic is published on `diag/<app or ->/<reason>` (violations.md).
public enum DiagnosticReason: String, Sendable, CaseIterable {
    /// Not valid JSON or UTF-8, not an object, or a ZeroMQ message of the wrong shape.
    case malformedJSON = "malformed_json"
    /// A required field is missing.
    case missingField = "missing_field"
    /// A field has the wrong type or value, or `app` does not match the session's.
    case badField = "bad_field"
    /// A message, event, string or array over its limit.
    case tooLarge = "too_large"
    /// A dismissal of an id that is not on the session's stack.
    case unknownDismiss = "unknown_dismiss"
    /// An event whose `seq` is not above the session's last.
    case duplicate
    /// A jump in `seq`: events lost.
    case gap
    /// An event earlier than the session's latest `ts`.
    case outOfOrder = "out_of_order"
    /// An event of a session the daemon does not know (no `session.start` seen here, or the
    /// session was released) that names no `app`: refused, never judged under another app.
    case unknownSession = "unknown_session"
    /// A session released to stay within `max_sessions`.
    case sessionEvicted = "session_evicted"
    /// A rule module reported a non-fatal error (`mw_host.module_error`, ABI 1.2); always on `diag/-/`.
    case moduleError = "module_error"
    /// Violations lost because the history could not store them (past the spool's bound); published
    /// by the daemon's publishing thread on `diag/-/`, never emitted by the engine.
    case historyUnavailable = "history_unavailable"
}
