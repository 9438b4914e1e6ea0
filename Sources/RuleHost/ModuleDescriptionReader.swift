import Glibc
import Logging
import ModalwatchABI

/// Reads and checks a module's C description, field by field, into Swift values.
struct ModuleDescriptionReader {
    let path: String
    let description: UnsafePointer<mw_module>
    let logger: Logger

    /// The ABI minor the module was built against.
    private var moduleABIMinor: UInt32 { description.pointee.abi_minor }

    func read() throws -> RuleModule {
        let raw = description.pointee
        let name = try string(raw.name, "module name")
        try requireIdentifier(name, "module name")
        let version = try string(raw.version, "module version")
        guard raw.rule_count == 0 || raw.rules != nil else {
            throw bad("rule_count is \(raw.rule_count) but rules is NULL")
        }
        guard raw.rule_count <= 4096 else { throw bad("rule_count \(raw.rule_count) is implausible") }
        var rules: [RuleDescriptor] = []
        for index in 0..<Int(raw.rule_count) {
            var descriptor = try rule(raw.rules![index], index: UInt32(index), module: name, state: raw.state)
            descriptor.moduleABIMinor = raw.abi_minor
            rules.append(descriptor)
        }
        var hooks = ModuleHooks(description: description, staticState: raw.state)
        if raw.abi_minor >= 2 {
            // The 1.2 fields exist only in modules built against 1.2 or later.
            hooks.initialize = raw.on_init
            hooks.destroy = raw.on_destroy
        }
        return RuleModule(
            name: name,
            version: version,
            path: path,
            abiMajor: raw.abi_major,
            abiMinor: raw.abi_minor,
            rules: rules,
            runtime: ModuleRuntime(name: name, logger: logger),
            hooks: hooks
        )
    }

    private func rule(
        _ raw: mw_rule,
        index: UInt32,
        module: String,
        state: UnsafeMutableRawPointer?
    ) throws -> RuleDescriptor {
        let id = try string(raw.id, "rules[\(index)].id")
        try requireIdentifier(id, "rule id")
        let at = "rule '\(id)'"
        guard let severity = Severity(rawValue: raw.severity) else {
            throw bad("\(at): unknown severity \(raw.severity)")
        }
        guard raw.editions != 0, raw.editions & ~MW_EDITION_ALL == 0 else {
            throw bad("\(at): editions \(raw.editions) must be a non-empty set of MW_EDITION_* bits")
        }
        guard let fire = FireDiscipline(abiValue: raw.fire) else {
            throw bad("\(at): unknown fire discipline \(raw.fire)")
        }
        guard raw.event_mask != 0 else { throw bad("\(at): event_mask is empty; the rule would never run") }
        guard let entry = raw.on_event else { throw bad("\(at): on_event is NULL") }
        guard raw.rev >= 1 else { throw bad("\(at): rev must be at least 1") }
        guard raw.param_count == 0 || raw.params != nil else { throw bad("\(at): param_count without params") }
        guard raw.param_count <= 64 else { throw bad("\(at): param_count \(raw.param_count) is implausible") }
        var parameters: [RuleParameter] = []
        for p in 0..<Int(raw.param_count) {
            let parameter = try self.parameter(raw.params![p], rule: at)
            if parameters.contains(where: { $0.name == parameter.name }) {
                throw bad("\(at): parameter '\(parameter.name)' is declared twice")
            }
            parameters.append(parameter)
        }
        guard raw.example_count == 0 || raw.examples != nil else { throw bad("\(at): example_count without examples") }
        var examples: [RuleExample] = []
        for e in 0..<Int(min(raw.example_count, 1024)) {
            let example = raw.examples![e]
            guard example.editions != 0, example.editions & ~MW_EDITION_ALL == 0 else {
                throw bad("\(at): example \(e) has no valid editions")
            }
            examples.append(
                RuleExample(
                    name: try string(example.name, "\(at) example \(e) name"),
                    editions: Editions(rawValue: example.editions).members,
                    expected: Int(example.expected),
                    events: try string(example.events, "\(at) example \(e) events")
                )
            )
        }
        var languages = RuleLanguages.undeclared
        if moduleABIMinor >= 5 {
            // `languages` was a reserved field before 1.5: read only from 1.5 modules.
            guard let declared = RuleLanguages(abiValue: raw.languages) else {
                throw bad("\(at): unknown languages \(raw.languages)")
            }
            languages = declared
        }
        var descriptor = RuleDescriptor(
            id: id,
            rev: Int(raw.rev),
            module: module,
            severity: severity,
            editions: Editions(rawValue: raw.editions).members,
            editionMask: raw.editions,
            eventMask: raw.event_mask,
            fire: fire,
            parameters: parameters,
            summary: try string(raw.summary, "\(at) summary"),
            guideline: try string(raw.guideline, "\(at) guideline"),
            source: try string(raw.source, "\(at) source"),
            examples: examples,
            index: index,
            entry: entry,
            moduleState: state,
            parameterDeclarations: raw.param_count == 0 ? nil : raw.params
        )
        descriptor.languages = languages
        return descriptor
    }

    private func parameter(_ raw: mw_param, rule: String) throws -> RuleParameter {
        let name = try string(raw.name, "\(rule) parameter name")
        try requireIdentifier(name, "\(rule) parameter name")
        guard let kind = ParameterKind(rawValue: raw.type) else {
            throw bad("\(rule): parameter '\(name)' has unknown type \(raw.type)")
        }
        guard raw.min_value <= raw.default_value, raw.default_value <= raw.max_value else {
            throw bad(
                "\(rule): parameter '\(name)' default \(raw.default_value) is outside \(raw.min_value)...\(raw.max_value)"
            )
        }
        return RuleParameter(
            name: name,
            kind: kind,
            defaultValue: raw.default_value,
            minimum: raw.min_value,
            maximum: raw.max_value,
            meaning: try string(raw.meaning, "\(rule) parameter '\(name)' meaning")
        )
    }

    private func string(_ pointer: UnsafePointer<CChar>?, _ what: String) throws -> String {
        guard let pointer else { throw bad("\(what) is NULL") }
        guard strnlen(pointer, 1 << 20) < 1 << 20 else { throw bad("\(what) is not a terminated string") }
        guard let value = String(validatingCString: pointer) else { throw bad("\(what) is not UTF-8") }
        return value
    }

    private func requireIdentifier(_ value: String, _ what: String) throws {
        let ok =
            !value.isEmpty && value.utf8.count <= 64
            && value.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F
            }
        guard ok else { throw bad("\(what) '\(value)' must be 1-64 of a-z, 0-9, '-', '_'") }
    }

    private func bad(_ detail: String) -> ModuleLoadError {
        ModuleLoadError(path: path, reason: .badMetadata(detail))
    }
}
