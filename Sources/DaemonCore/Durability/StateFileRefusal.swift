import Posix

/// A file of the state directory that an earlier run wrote and this one reads back, refused
/// because what it holds is not what the daemon writes: the file, the field and why, and the
/// system call's error when one failed. The daemon goes on as if the file were absent.
struct StateFileRefusal: Error, Equatable, CustomStringConvertible {
    /// The file's path.
    let path: String
    /// The field refused (`size`, `magic`, `rule`, `since`, ...), or `file` for the file as a whole.
    let field: String
    /// Why, in a few words, with the value found.
    let why: String
    /// The system call that failed, when one did.
    let underlying: PosixError?

    /// A refusal of `field` of the file at `path`.
    init(_ path: String, field: String, _ why: String, underlying: PosixError? = nil) {
        self.path = path
        self.field = field
        self.why = why
        self.underlying = underlying
    }

    /// `PATH: FIELD: WHY` (and the system call's error).
    var description: String {
        "\(path): \(field): \(why)" + (underlying.map { " (\($0))" } ?? "")
    }
}
