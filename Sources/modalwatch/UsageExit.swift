import ArgumentParser
import Foundation

/// Bad usage exits 2, as interfaces.md says (ArgumentParser's own code is 64).
enum UsageExit {
    /// The error to exit with: usage errors become a message on stderr and exit code 2.
    static func adjust(_ error: any Error, exitCode: ExitCode, message: String) -> any Error {
        guard exitCode == .validationFailure else { return error }
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return ExitCode(2)
    }
}
