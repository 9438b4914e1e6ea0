import Foundation
import Glibc
import Yams

/// The configuration as the daemon reads it: the main file, then each `*.yaml` file of the
/// folder beside it named after it with `.d` (`/etc/modalwatch/modalwatchd.yaml.d/`), in name
/// order, each merged over what came before: mappings merged key by key, at every depth; any
/// other value (a list, a scalar, null) replaced whole. Local settings live in drop-in files,
/// so a package's new main file never conflicts with them.
///
/// Errors name the file a value came from: the merge records, for each key path it took from
/// a drop-in, that file (`file(of:)`).
struct ConfigSources {
    /// The merged tree (nil: every file empty).
    private(set) var root: Node?
    /// The files read, main first.
    private(set) var files: [String] = []
    /// The file each key path was last set by, for the paths a drop-in set.
    private var origins: [String: String] = [:]

    /// The drop-in folder of the main file `path`.
    static func dropInFolder(of path: String) -> String { path + ".d" }

    /// Reads `path` and its drop-ins; throws each file's first error (unreadable, an alias,
    /// not valid YAML, a duplicate key), naming the file and the line.
    init(path: String) throws(ConfigErrors) {
        var found: [ConfigError] = []
        for file in [path] + Self.dropIns(of: path) {
            do throws(ConfigError) {
                let tree = try Self.read(file)
                files.append(file)
                guard let tree else { continue }
                if root == nil || file == path {
                    root = tree
                } else {
                    root = merge(root!, tree, path: "", file: file)
                }
            } catch {
                found.append(error)
            }
        }
        if !found.isEmpty { throw ConfigErrors(found) }
    }

    /// Reads text given directly, as one file named `file`.
    init(text: String, file: String) throws(ConfigErrors) {
        do throws(ConfigError) {
            root = try Self.compose(text, file: file)
            files = [file]
        } catch {
            throw ConfigErrors([error])
        }
    }

    /// The file a value at `key` (a dotted path, as errors name keys) came from: the drop-in
    /// that set it or one of its parents, else the main file.
    func file(of key: String) -> String {
        var path = Substring(key)
        while !path.isEmpty {
            if let file = origins[String(path)] { return file }
            guard let dot = path.lastIndex(of: ".") else { break }
            path = path[..<dot]
        }
        return files.first ?? ""
    }

    /// The `*.yaml` files of `path`'s drop-in folder, by name; none when it does not exist.
    static func dropIns(of path: String) -> [String] {
        let folder = dropInFolder(of: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { $0.hasSuffix(".yaml") && !$0.hasPrefix(".") }.sorted().map { folder + "/" + $0 }
    }

    /// The most bytes a configuration file may hold: far more than any configuration needs, and a
    /// bound on the time a parse takes (`/dev/zero` or a runaway generator is refused, not read forever).
    static let maxFileBytes = 1 << 20

    private static func read(_ file: String) throws(ConfigError) -> Node? {
        // Read as bytes: a device or a pipe (`--config /dev/null`) reads as what it gives.
        let data: Data
        do {
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw ConfigError(
                    file: file,
                    line: 0,
                    key: "",
                    message: "cannot read the file (\(String(cString: strerror(errno))))"
                )
            }
            defer { try? handle.close() }
            data = try handle.read(upToCount: maxFileBytes + 1) ?? Data()
            guard data.count <= maxFileBytes else {
                throw ConfigError(
                    file: file,
                    line: 0,
                    key: "",
                    message: "the file holds more than \(maxFileBytes) bytes; a configuration is far smaller"
                )
            }
        } catch let error as ConfigError {
            throw error
        } catch {
            throw ConfigError(
                file: file,
                line: 0,
                key: "",
                message: "cannot read the file (\(error.localizedDescription))"
            )
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: file, line: 0, key: "", message: "the file is not UTF-8 text")
        }
        return try compose(text, file: file)
    }

    /// The tree of one file's text: aliases refused first (`YAMLAliasCheck`), a duplicate key
    /// named with the lines of each of its occurrences.
    static func compose(_ text: String, file: String) throws(ConfigError) -> Node? {
        if let line = YAMLAliasCheck.firstAliasLine(in: text) {
            throw ConfigError(
                file: file,
                line: line,
                key: "",
                message: "a YAML alias (*name): aliases are not accepted in a configuration; write the value out"
            )
        }
        do {
            return try Yams.compose(yaml: text)
        } catch let YamlError.duplicatedKeysInMapping(duplicates, context) {
            let duplicated = duplicates.first ?? ""
            let lines = Self.lines(ofKey: duplicated, column: context.mark.column, in: text)
            let at = lines.count > 1 ? "at lines \(lines.map(String.init).joined(separator: ", "))" : "more than once"
            throw ConfigError(
                file: file,
                line: max(1, lines.first ?? context.mark.line),
                key: Self.keyName(duplicated: duplicated),
                message:
                    "the key is given \(at) of one mapping; keep one (a local setting belongs in a drop-in file of \(dropInFolder(of: file)))"
            )
        } catch let error as YamlError {
            throw ConfigError(
                file: file,
                line: Self.line(of: error),
                key: "",
                message: "not valid YAML: \(Self.oneLine(error))"
            )
        } catch {
            throw ConfigError(file: file, line: 0, key: "", message: "not valid YAML: \(Self.oneLine(error))")
        }
    }

    /// A duplicated key as errors name it (`ConfigLoader.keyName`'s words): Yams gives an empty
    /// key as "" and a key that is not a scalar as "<uncovertable>".
    private static func keyName(duplicated key: String) -> String {
        switch key {
        case "": return "(an empty key)"
        case "<uncovertable>": return "(a key that is not a plain string)"
        default: return key
        }
    }

    /// The 1-based lines on which `key` starts a mapping entry at `column` (1-based, Yams' mark).
    private static func lines(ofKey key: String, column: Int, in text: String) -> [Int] {
        var found: [Int] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indent = line.prefix { $0 == " " }.count
            guard indent == column - 1 else { continue }
            let rest = line.dropFirst(indent)
            let spellings = key.isEmpty ? ["\"\"", "''"] : [key, "\"\(key)\"", "'\(key)'"]
            for spelling in spellings where rest.hasPrefix(spelling + ":") {
                found.append(index + 1)
            }
        }
        return found
    }

    /// `overlay` over `base`: mappings key by key, anything else replaced; records `file` as the
    /// origin of every key path it sets.
    private mutating func merge(_ base: Node, _ overlay: Node, path: String, file: String) -> Node {
        guard case .mapping(var merged) = base, case .mapping(let top) = overlay else {
            origins[path] = file
            return overlay
        }
        for (keyNode, value) in top {
            let name = keyNode.string ?? ""
            let key = path.isEmpty ? name : "\(path).\(name)"
            if let existing = merged[keyNode] {
                merged[keyNode] = merge(existing, value, path: key, file: file)
            } else {
                merged[keyNode] = value
                origins[key] = file
            }
        }
        return .mapping(merged)
    }

    /// The first line of an error's description: Yams adds the source line and a caret below it.
    static func oneLine(_ error: any Error) -> String {
        let text = "\(error)"
        let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
        return first.trimmingCharacters(in: .whitespaces)
    }

    private static func line(of error: YamlError) -> Int {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return mark.line
        default:
            return 0
        }
    }
}
