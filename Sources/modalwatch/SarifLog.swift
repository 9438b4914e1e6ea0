import ControlProtocol
import Foundation
import RuleHost
import SessionEngine

/// `check --format sarif`: the findings as one SARIF 2.1.0 log, for code-scanning tools.
///
/// Each rule is a `reportingDescriptor` (id, short and full description, the guideline as
/// help text, default level and whether it is enabled); each violation a `result` (ruleId,
/// level, message, the NDJSON line of the triggering event as a physical location, the
/// app, session and subject as logical locations, the violation's fingerprint).
struct SarifLog {
    let catalog: RuleCatalog
    let profile: RuleProfile
    let files: [String]
    let found: [CheckCollector.Found]
    let notifications: [String]
    let version: String

    /// The SARIF version and the schema it follows.
    static let sarifVersion = "2.1.0"
    static let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// SARIF's level for a severity.
    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    /// The whole log.
    var object: JSONValue {
        let rules = catalog.rules
        var ruleIndex: [String: Int] = [:]
        for (i, rule) in rules.enumerated() { ruleIndex[rule.id] = i }
        let artifacts = files.filter { $0 != "-" }
        var artifactIndex: [String: Int] = [:]
        for (i, file) in artifacts.enumerated() { artifactIndex[file] = i }
        var run: [String: JSONValue] = [
            "tool": .object([
                "driver": .object([
                    "name": .string("modalwatch"),
                    "version": .string(version),
                    "semanticVersion": .string(version),
                    "informationUri": .string("https://developer.apple.com/design/human-interface-guidelines/"),
                    "rules": .array(rules.map(descriptor)),
                ])
            ]),
            "results": .array(found.map { result($0, ruleIndex: ruleIndex, artifactIndex: artifactIndex) }),
            "properties": .object(["edition": .string(profile.edition.name)]),
        ]
        if !artifacts.isEmpty {
            run["artifacts"] = .array(
                artifacts.map { .object(["location": .object(["uri": .string(Self.uri(for: $0))])]) }
            )
        }
        var invocation: [String: JSONValue] = ["executionSuccessful": .bool(true)]
        if !notifications.isEmpty {
            invocation["toolExecutionNotifications"] = .array(
                notifications.map {
                    .object(["level": .string("warning"), "message": .object(["text": .string($0)])])
                }
            )
        }
        run["invocations"] = .array([.object(invocation)])
        return .object([
            "$schema": .string(Self.schema), "version": .string(Self.sarifVersion), "runs": .array([.object(run)]),
        ])
    }

    /// The log as `check --format sarif` writes it: indented, keys sorted, slashes as they are.
    var bytes: [UInt8] {
        JSONWriter.encode(object, options: [.prettyPrinted, .withoutEscapingSlashes], capacity: 1 << 16)
    }

    private func descriptor(_ rule: RuleDescriptor) -> JSONValue {
        let active = profile.rules.first { $0.descriptor.id == rule.id }
        var help = "\(rule.guideline). Human Interface Guidelines: \(rule.source)."
        if !rule.parameters.isEmpty {
            let values = rule.parameters.map {
                "\($0.name) = \($0.format(active?.value(of: $0.name) ?? $0.defaultValue))"
            }
            help += " Parameters: \(values.joined(separator: ", "))."
        }
        return .object([
            "id": .string(rule.id),
            "name": .string(Self.pascalCase(rule.id)),
            "shortDescription": .object(["text": .string(rule.guideline)]),
            "fullDescription": .object(["text": .string(rule.summary)]),
            "help": .object(["text": .string(help)]),
            "defaultConfiguration": .object([
                "level": .string(Self.level(active?.severity ?? rule.severity)), "enabled": .bool(active != nil),
            ]),
            "properties": .object([
                "module": .string(rule.module), "rev": .int(rule.rev),
                "editions": .array(rule.editions.map { .string($0.name) }),
                "guideline": .string(rule.guideline), "source": .string(rule.source),
                "tags": .array([.string("hig"), .string(rule.module)]),
            ]),
        ])
    }

    private func result(
        _ found: CheckCollector.Found,
        ruleIndex: [String: Int],
        artifactIndex: [String: Int]
    ) -> JSONValue {
        let violation = found.object
        let subject = violation["subject"]?.stringValue
        var logical: [JSONValue] = [
            .object(["name": .string(found.app), "fullyQualifiedName": .string(found.app), "kind": .string("module")]),
            .object([
                "name": .string(found.session), "fullyQualifiedName": .string("\(found.app)/\(found.session)"),
                "kind": .string("namespace"),
            ]),
        ]
        if let subject {
            logical.append(
                .object([
                    "name": .string(subject), "fullyQualifiedName": .string("\(found.app)/\(found.session)/\(subject)"),
                    "kind": .string("object"),
                ])
            )
        }
        var location: [String: JSONValue] = ["logicalLocations": .array(logical)]
        if let place = found.location, let index = artifactIndex[place.file] {
            location["physicalLocation"] = .object([
                "artifactLocation": .object(["uri": .string(Self.uri(for: place.file)), "index": .int(index)]),
                "region": .object(["startLine": .int(place.line)]),
            ])
        }
        let fingerprint = JSONValue.string(violation["fingerprint"]?.stringValue ?? "")
        var result: [String: JSONValue] = [
            "ruleId": .string(found.rule),
            "level": .string(Self.level(found.severity)),
            "message": Self.message(found.message, suggestion: found.suggestion),
            "locations": .array([.object(location)]),
            "fingerprints": .object(["modalwatch/v1": fingerprint]),
            "partialFingerprints": .object(["modalwatchFingerprint/v1": fingerprint]),
            "properties": .object([
                "id": violation["id"] ?? .null, "app": .string(found.app), "session": .string(found.session),
                "subject": .nullable(subject), "ts": .integer(found.ts), "edition": violation["edition"] ?? .null,
                "module": violation["module"] ?? .null, "rev": violation["rev"] ?? .null,
                "guideline": violation["guideline"] ?? .null, "evidence": violation["evidence"] ?? .object([:]),
                "events": violation["events"] ?? .array([]), "suggestion": .nullable(found.suggestion),
            ]),
        ]
        if let index = ruleIndex[found.rule] { result["ruleIndex"] = .int(index) }
        if let locale = violation["locale"], case .object(var properties)? = result["properties"] {
            // The language of the texts judged, as the violation carries it (violations.md).
            properties["locale"] = locale
            result["properties"] = .object(properties)
        }
        return .object(result)
    }

    /// A result's message: the violation's message as text; with a suggestion, also as
    /// Markdown with the suggestion in a paragraph of its own (`result.fixes` is for file
    /// edits). The suggestion is in the result's `properties` too.
    static func message(_ text: String, suggestion: String?) -> JSONValue {
        guard let suggestion else { return .object(["text": .string(text)]) }
        return .object([
            "text": .string(text),
            "markdown": .string("\(markdownEscaped(text))\n\n**Suggestion:** \(markdownEscaped(suggestion))"),
        ])
    }

    /// `text` with the characters Markdown would read as formatting escaped with a backslash.
    static func markdownEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\`*_{}[]()<>#+-!|".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A file name as a URI reference: relative paths stay relative, absolute ones become file: URIs.
    static func uri(for path: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }

    /// `alert-title-too-long` as `AlertTitleTooLong`.
    static func pascalCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
