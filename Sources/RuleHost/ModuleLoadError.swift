import Posix

/// Why a rule module was refused. Each is reported as one line naming the file.
public struct ModuleLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure; the set can grow.
    public enum Reason: Sendable, Equatable {
        /// `dlopen` refused it: not a shared library, a missing dependency, a wrong architecture.
        case notASharedLibrary(String)
        /// It has no `modalwatch_module` symbol.
        case missingEntrySymbol
        /// The entry returned NULL.
        case nullDescription
        /// Built against an ABI this host cannot serve.
        case incompatibleABI(major: UInt32, minor: UInt32, hostMajor: UInt32, hostMinor: UInt32)
        /// A rule id that a module loaded earlier already declares (or that it declares twice).
        case duplicateRuleID(String, firstIn: String)
        /// A module of the same name was loaded earlier.
        case duplicateModuleName(String, firstIn: String)
        /// The description is malformed; the text says which field.
        case badMetadata(String)
        /// The directory could not be read.
        case unreadableDirectory(String)
        /// The module's `on_init` (ABI 1.2) refused to start; `reason` is what it said.
        case initFailed(module: String, reason: String)
        /// Its constructors, `modalwatch_module()` or `on_init` ended the probe child with `signal`.
        case crashedWhileLoading(signal: Int32)
        /// Its constructors, `modalwatch_module()` or `on_init` made the probe child exit with `status`.
        case exitedWhileLoading(status: Int32)
        /// Its constructors, `modalwatch_module()` or `on_init` ran longer than the module load timeout.
        case loadTimedOut(milliseconds: Int64)
        /// Its private copy could not be made (the file could not be read, or no memory).
        case copyFailed(String)
    }

    /// The module file (or directory) concerned.
    public var path: String
    /// What is wrong.
    public var reason: Reason

    /// Creates an error for `path`.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// One line: the file, then the reason and what to do.
    public var description: String {
        switch reason {
        case .notASharedLibrary(let detail):
            return "\(path): not a loadable shared library (\(detail))"
        case .missingEntrySymbol:
            return
                "\(path): no entry symbol 'modalwatch_module'; a rule module must export it (see docs/writing-a-rule-module.md)"
        case .nullDescription:
            return "\(path): modalwatch_module() returned NULL"
        case .incompatibleABI(let major, let minor, let hostMajor, let hostMinor):
            return
                "\(path): built for rule ABI \(major).\(minor), this daemon speaks \(hostMajor).\(hostMinor); rebuild the module against this daemon's modalwatch_module.h"
        case .duplicateRuleID(let id, let first):
            if first == path {
                return "\(path): rule id '\(id)' is declared twice in the module; the module is not loaded"
            }
            return "\(path): rule id '\(id)' is already declared by \(first); the module is not loaded"
        case .duplicateModuleName(let name, let first):
            return "\(path): a module named '\(name)' was already loaded from \(first); the module is not loaded"
        case .badMetadata(let detail):
            return "\(path): bad metadata: \(detail)"
        case .unreadableDirectory(let detail):
            return "\(path): cannot read rules directory (\(detail))"
        case .initFailed(let module, let reason):
            return
                "\(path): module '\(module)' failed to initialize: \(reason); check its settings under modules.\(module) in the config"
        case .crashedWhileLoading(let signal):
            return
                "\(path): crashed with \(Posix.signalName(signal)) while loading (in a constructor, modalwatch_module() or on_init); the module is not loaded"
        case .exitedWhileLoading(let status):
            return
                "\(path): ended the process with exit status \(status) while loading (in a constructor, modalwatch_module() or on_init); the module is not loaded"
        case .loadTimedOut(let milliseconds):
            return
                "\(path): did not finish loading within \(Self.duration(milliseconds)) (a constructor, modalwatch_module() or on_init never returned); the module is not loaded"
        case .copyFailed(let detail):
            return "\(path): could not make the private copy to load (\(detail)); the module is not loaded"
        }
    }

    /// `5 s`, or `1500 ms` when not whole seconds.
    private static func duration(_ milliseconds: Int64) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
