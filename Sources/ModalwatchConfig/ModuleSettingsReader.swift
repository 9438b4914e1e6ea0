import Foundation
import RuleHost
import Yams

/// Reads `modules:`: for each rule module by name, its settings (`key: scalar`), which a
/// module built against ABI 1.2 receives in its `on_init`. The settings are read before the
/// modules load (`peek`) and checked against the loaded modules with the rest of the file.
struct ModuleSettingsReader {
    /// The file a key's value came from.
    let file: (String) -> String
    private(set) var errors: [ConfigError] = []

    init(file: @escaping (String) -> String) {
        self.file = file
    }

    /// The settings under `node` (the value of `modules`), in the file's order. With a
    /// catalog, a module it does not hold is an error.
    mutating func read(_ node: Node, catalog: RuleCatalog?) -> [String: [(key: String, value: String)]] {
        if node.null != nil { return [:] }
        guard let mapping = node.mapping else {
            fail(node, "modules", "must be a mapping of module name to its settings")
            return [:]
        }
        var result: [String: [(key: String, value: String)]] = [:]
        for (nameNode, value) in mapping {
            let name = nameNode.scalar?.string ?? ""
            let path = "modules.\(name)"
            if let catalog, !catalog.modules.contains(where: { $0.name == name }) {
                let known = catalog.modules.map(\.name).joined(separator: ", ")
                fail(
                    nameNode,
                    path,
                    "no rule module named '\(name)' is loaded (loaded: \(known.isEmpty ? "none" : known))"
                )
                continue
            }
            if value.null != nil {
                result[name] = []
                continue
            }
            guard let settings = value.mapping else {
                fail(value, path, "must be a mapping of setting to value")
                continue
            }
            var entries: [(key: String, value: String)] = []
            for (keyNode, settingValue) in settings {
                let key = keyNode.scalar?.string ?? ""
                guard let scalar = settingValue.scalar else {
                    fail(settingValue, "\(path).\(key)", "must be a single value (a number, a word or a quoted text)")
                    continue
                }
                entries.append((key, scalar.string))
            }
            result[name] = entries
        }
        return result
    }

    private mutating func fail(_ node: Node, _ key: String, _ message: String) {
        errors.append(ConfigError(file: file(key), line: node.mark?.line ?? 0, key: key, message: message))
    }
}

extension ConfigLoader {
    /// Each module's settings a config file gives (`modules:`), read before the modules
    /// load so that their `on_init` gets them. Problems are left to `load`.
    public static func peekModuleSettings(path: String) -> [String: [(key: String, value: String)]] {
        moduleSettings(in: try? ConfigSources(path: path), path: path)
    }

    /// Each module's settings of configuration sources already read from `path`.
    static func moduleSettings(in sources: ConfigSources?, path: String) -> [String: [(key: String, value: String)]] {
        guard let modules = sources?.root?.mapping?["modules"] else { return [:] }
        var reader = ModuleSettingsReader { _ in path }
        return reader.read(modules, catalog: nil)
    }
}
