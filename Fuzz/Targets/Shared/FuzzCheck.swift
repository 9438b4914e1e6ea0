/// The targets' invariant checks. Unlike `precondition`, whose message an `-O` build drops, these
/// say what broke (through `fatalError`), so a crash report names the invariant.
enum FuzzCheck {
    /// Traps with `message` unless `condition` holds.
    @inline(__always)
    static func require(
        _ condition: @autoclosure () -> Bool,
        _ message: @autoclosure () -> String,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        if !condition() { fatalError(message(), file: file, line: line) }
    }

    /// Traps with `message`.
    static func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError(message, file: file, line: line)
    }
}
