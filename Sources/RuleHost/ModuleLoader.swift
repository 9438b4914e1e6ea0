import Foundation
public import Logging
import ModalwatchABI

/// Finds rule modules, checks them, and loads them with `dlopen` through the C ABI.
///
/// A module that fails is reported by file and reason; the others still load. With a
/// `ModuleProbe`, each module's constructors and entry point run in a child process first,
/// so that one that crashes or hangs while loading is refused too. Each module is loaded
/// from a sealed in-memory copy of its file (`ModuleFile`), so that the file overwritten in
/// place cannot change the code that runs. Nothing is ever unloaded: Swift code must not be
/// `dlclose`d, and a module's descriptions must outlive every call into it.
public struct ModuleLoader: Sendable {
    /// The ABI this host speaks.
    public static let hostABI = (major: UInt32(MW_ABI_MAJOR), minor: UInt32(MW_ABI_MINOR))

    private let logger: Logger
    private let probe: ModuleProbe?

    /// Creates a loader that logs what it loads to `logger` and, with `probe`, tries each
    /// module in a child process before it loads it.
    public init(logger: Logger, probe: ModuleProbe? = nil) {
        self.logger = logger
        self.probe = probe
    }

    /// Loads the built-in modules, then every module in `directories`, in order.
    ///
    /// - Parameters:
    ///   - includeBuiltins: false to load only `directories`.
    ///   - settings: each module's settings (`modules:` in the config), by module name,
    ///     for the `on_init` of 1.2 modules.
    public func load(
        directories: [String],
        includeBuiltins: Bool = true,
        settings: [String: [(key: String, value: String)]] = [:]
    ) -> RuleCatalog {
        var catalog = RuleCatalog()
        var files: [String] = []
        if includeBuiltins, let exe = BuiltinModules.executableDirectory() {
            for location in BuiltinModules.searchLocations(executableDirectory: exe) {
                let found = listModules(in: location.directory, prefixOnly: location.prefixOnly)
                if case .success(let paths) = found, !paths.isEmpty {
                    files += paths
                    break
                }
            }
        }
        for directory in directories {
            switch listModules(in: directory, prefixOnly: false) {
            case .success(let paths): files += paths
            case .failure(let error): catalog.failures.append(error)
            }
        }
        // The child probes the next files while this process loads the ones it is past.
        var probe = self.probe
        probe?.settings = settings
        let run = probe?.start(files, logger: logger)
        defer { run?.finish() }
        for (index, path) in files.enumerated() {
            if let failure = run?.verdict(index) {
                refuse(failure, into: &catalog)
            } else {
                load(path: path, into: &catalog, settings: settings, probed: true)
            }
        }
        return catalog
    }

    /// Loads one module file into `catalog`, or records why not. A 1.2 module's `on_init`
    /// runs once it passed every check, with its entry of `settings`.
    public func load(
        path: String,
        into catalog: inout RuleCatalog,
        settings: [String: [(key: String, value: String)]] = [:]
    ) {
        load(path: path, into: &catalog, settings: settings, probed: false)
    }

    private func load(
        path: String,
        into catalog: inout RuleCatalog,
        settings: [String: [(key: String, value: String)]],
        probed: Bool
    ) {
        var probe = self.probe
        probe?.settings = settings
        if !probed, let failure = probe?.probe([path], logger: logger)[0] {
            refuse(failure, into: &catalog)
            return
        }
        do {
            let file = try ModuleFile.copy(of: path)
            if let problem = file.copyProblem {
                logger.warning(
                    "no private copy of the rule module; loading the file itself, so overwriting it in place changes the code that runs",
                    metadata: [
                        "path": "\(path)", "error": "\(problem)",
                    ]
                )
            }
            var module = try loadModule(path: path, from: file.loadPath)
            module.file = file
            try checkUnique(module, against: catalog)
            try ModuleInitializer(path: path, description: module.hooks.description!, hooks: module.hooks)
                .initialize(module.runtime, settings: settings[module.name] ?? [])
            for index in module.rules.indices {
                module.rules[index].moduleState = module.runtime.state
                module.rules[index].runtime = module.runtime
            }
            catalog.modules.append(module)
            logger.info(
                "loaded rule module",
                metadata: [
                    "module": "\(module.name)", "version": "\(module.version)",
                    "rules": "\(module.rules.count)", "path": "\(path)", "abi": "\(module.abiMajor).\(module.abiMinor)",
                ]
            )
        } catch let error as ModuleLoadError {
            refuse(error, into: &catalog)
        } catch {
            refuse(ModuleLoadError(path: path, reason: .badMetadata("\(error)")), into: &catalog)
        }
    }

    private func refuse(_ failure: ModuleLoadError, into catalog: inout RuleCatalog) {
        catalog.failures.append(failure)
        logger.error(
            "rule module not loaded",
            metadata: ["path": "\(failure.path)", "error": "\(failure.description)"]
        )
    }

    private func listModules(in directory: String, prefixOnly: Bool) -> Result<[String], ModuleLoadError> {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            return .failure(
                ModuleLoadError(path: directory, reason: .unreadableDirectory("\(error.localizedDescription)"))
            )
        }
        let modules =
            names
            .filter { $0.hasSuffix(".so") && (!prefixOnly || $0.hasPrefix(BuiltinModules.buildTreePrefix)) }
            .sorted()
            .map { directory.hasSuffix("/") ? directory + $0 : directory + "/" + $0 }
        return .success(modules)
    }

    /// Opens the module `path` (from `loadPath`, its private copy, when given) and reads and
    /// checks its description; what the probe child does for each file too.
    func loadModule(path: String, from loadPath: String? = nil) throws -> RuleModule {
        guard let handle = dlopen(loadPath ?? path, RTLD_NOW | RTLD_LOCAL) else {
            var detail = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            if let loadPath { detail = detail.replacingOccurrences(of: loadPath, with: path) }
            throw ModuleLoadError(path: path, reason: .notASharedLibrary(detail))
        }
        // Never dlclose: the module may be Swift code, and a failed check leaves it inert.
        guard let symbol = dlsym(handle, MW_ENTRY_SYMBOL) else {
            throw ModuleLoadError(path: path, reason: .missingEntrySymbol)
        }
        let entry = unsafeBitCast(symbol, to: mw_entry_fn.self)
        guard let description = entry() else {
            throw ModuleLoadError(path: path, reason: .nullDescription)
        }
        // The version fields come first in every ABI version: read them before anything else.
        let major = description.pointee.abi_major
        let minor = description.pointee.abi_minor
        guard major == Self.hostABI.major, minor <= Self.hostABI.minor else {
            throw ModuleLoadError(
                path: path,
                reason: .incompatibleABI(
                    major: major,
                    minor: minor,
                    hostMajor: Self.hostABI.major,
                    hostMinor: Self.hostABI.minor
                )
            )
        }
        return try ModuleDescriptionReader(path: path, description: description, logger: logger).read()
    }

    private func checkUnique(_ module: RuleModule, against catalog: RuleCatalog) throws {
        if let other = catalog.modules.first(where: { $0.name == module.name }) {
            throw ModuleLoadError(path: module.path, reason: .duplicateModuleName(module.name, firstIn: other.path))
        }
        var seen = Set<String>()
        for rule in module.rules {
            if !seen.insert(rule.id).inserted {
                throw ModuleLoadError(path: module.path, reason: .duplicateRuleID(rule.id, firstIn: module.path))
            }
            for other in catalog.modules where other.rules.contains(where: { $0.id == rule.id }) {
                throw ModuleLoadError(path: module.path, reason: .duplicateRuleID(rule.id, firstIn: other.path))
            }
        }
    }
}
