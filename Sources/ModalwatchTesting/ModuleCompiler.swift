public import Foundation

/// Compiles C rule modules with the system C compiler, at test time, into a temporary directory:
/// `cc -shared -fPIC -O1 -I <package>/Sources/ModalwatchABI/include file.c -o <dir>/name.so`.
///
/// Each test class compiles what it needs once, into a fresh directory of its own (see `compileOnce`),
/// and removes the directory in its `class func tearDown()`.
public struct ModuleCompiler: Sendable {
    /// Why a module could not be built.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// No C compiler: `$CC` unset and `cc` not on `PATH`.
        case compilerMissing(searched: String)
        /// The compiler ran and failed.
        case compileFailed(source: String, status: Int32, output: String)
        /// A file or directory operation failed.
        case fileSystem(String)

        /// The failure for a person: what failed and what to do.
        public var description: String {
            switch self {
            case .compilerMissing(let searched):
                return "no C compiler (searched \(searched)): set CC or put 'cc' on PATH; "
                    + "the tests build their rule-module fixtures with it (e.g. apt-get install gcc)"
            case .compileFailed(let source, let status, let output):
                return "cc failed (exit \(status)) on \(source):\n\(output)"
            case .fileSystem(let detail):
                return detail
            }
        }
    }

    /// The package root, found from this file's path (`<root>/Sources/ModalwatchTesting/ModuleCompiler.swift`).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Tests/Fixtures/modules`.
    public static let fixturesDirectory = packageRoot.appendingPathComponent("Tests/Fixtures/modules")
    /// The directory of `modalwatch_module.h`.
    public static let abiIncludeDirectory = packageRoot.appendingPathComponent("Sources/ModalwatchABI/include")

    /// Where the modules go.
    public let directory: String
    private let compiler: String

    /// A compiler writing into a fresh temporary directory named after `label`.
    public init(label: String) throws(Failure) {
        compiler = try Self.findCompiler()
        var template = Array((NSTemporaryDirectory() + "/mw-\(label)-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .fileSystem("mkdtemp failed: \(String(cString: strerror(errno))) (errno \(errno))")
        }
        directory = String(cString: made)
    }

    /// Compiles `source` into `<directory>/<name>.so` and returns that path.
    public func compile(source: URL, name: String) throws(Failure) -> String {
        let output = directory + "/" + name + ".so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = [
            "-shared", "-fPIC", "-O1", "-Wall", "-I", Self.abiIncludeDirectory.path, source.path, "-o", output,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            throw .fileSystem("cannot run \(compiler): \(error)")
        }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .compileFailed(source: source.path, status: process.terminationStatus, output: text)
        }
        return output
    }

    /// Compiles `Tests/Fixtures/modules/<name>.c` into `<directory>/<name>.so`.
    public func compileFixture(_ name: String) throws(Failure) -> String {
        try compile(source: Self.fixturesDirectory.appendingPathComponent(name + ".c"), name: name)
    }

    /// Writes `text` to `<directory>/<name>` (e.g. a text file posing as a `.so`).
    public func write(_ text: String, as name: String) throws(Failure) -> String {
        let path = directory + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            throw .fileSystem("cannot write \(path)")
        }
        return path
    }

    /// Compiles the fixtures `fixtures` (names under `Tests/Fixtures/modules`, without `.c`) and the
    /// sources `sources` into one fresh directory, and returns it. Meant for a `static let` per test class.
    public static func compileOnce(label: String, fixtures: [String], sources: [URL] = []) -> Result<String, Failure> {
        do throws(Failure) {
            let compiler = try ModuleCompiler(label: label)
            for name in fixtures { _ = try compiler.compileFixture(name) }
            for source in sources {
                _ = try compiler.compile(source: source, name: source.deletingPathExtension().lastPathComponent)
            }
            return .success(compiler.directory)
        } catch {
            return .failure(error)
        }
    }

    /// Removes a directory `compileOnce` made.
    public static func remove(_ result: Result<String, Failure>) {
        if case .success(let directory) = result { try? FileManager.default.removeItem(atPath: directory) }
    }

    private static func findCompiler() throws(Failure) -> String {
        let environment = ProcessInfo.processInfo.environment
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        if let cc = environment["CC"], !cc.isEmpty {
            if cc.hasPrefix("/") {
                guard FileManager.default.isExecutableFile(atPath: cc) else {
                    throw .compilerMissing(searched: "CC=\(cc)")
                }
                return cc
            }
            guard let found = search(cc, in: path) else { throw .compilerMissing(searched: "CC=\(cc) on PATH \(path)") }
            return found
        }
        if let found = search("cc", in: path) { return found }
        throw .compilerMissing(searched: "PATH \(path)")
    }

    private static func search(_ name: String, in path: String) -> String? {
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
