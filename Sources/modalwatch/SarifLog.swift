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
    var object: [String: Any] {
        let rules = catalog.rules
        var ruleIndex: [String: Int] = [:]
        for (i, rule) in rules.enumerated() { ruleIndex[rule.id] = i }
        let artifacts = files.filter { $0 != "-" }
        var artifactIndex: [String: Int] = [:]
        for (i, file) in artifacts.enumerated() { artifactIndex[file] = i }
        var run: [String: Any] = [
            "tool": ["driver": [
                "name": "modalwatch",
                "version": version,
                "semanticVersion": version,
                "informationUri": "https://developer.apple.com/design/human-interface-guidelines/",
                "rules": rules.map(descriptor),
            ] as [String: Any]],
            "artifacts": artifacts.map { ["location": ["uri": Self.uri(for: $0)]] },
            "results": found.map { result($0, ruleIndex: ruleIndex, artifactIndex: artifactIndex) },
            "properties": ["edition": profile.edition.rawValue],
        ]
        if artifacts.isEmpty { run["artifacts"] = nil }
        var invocation: [String: Any] = ["executionSuccessful": true]
        if !notifications.isEmpty {
            invocation["toolExecutionNotifications"] = notifications.map { ["level": "warning", "message": ["text": $0]] }
        }
        run["invocations"] = [invocation]
        return ["$schema": Self.schema, "version": Self.sarifVersion, "runs": [run]]
    }

    private func descriptor(_ rule: RuleDescriptor) -> [String: Any] {
        let active = profile.rules.first { $0.descriptor.id == rule.id }
        var help = "\(rule.guideline). Human Interface Guidelines: \(rule.source)."
        if !rule.parameters.isEmpty {
            let values = rule.parameters.map { "\($0.name) = \($0.format(active?.value(of: $0.name) ?? $0.defaultValue))" }
            help += " Parameters: \(values.joined(separator: ", "))."
        }
        return [
            "id": rule.id,
            "name": Self.pascalCase(rule.id),
            "shortDescription": ["text": rule.guideline],
            "fullDescription": ["text": rule.summary],
            "help": ["text": help],
            "defaultConfiguration": [
                "level": Self.level(active?.severity ?? rule.severity), "enabled": active != nil,
            ] as [String: Any],
            "properties": [
                "module": rule.module, "rev": rule.rev, "editions": rule.editions.map(\.rawValue),
                "guideline": rule.guideline, "source": rule.source, "tags": ["hig", rule.module],
            ] as [String: Any],
        ]
    }

    private func result(_ found: CheckCollector.Found, ruleIndex: [String: Int], artifactIndex: [String: Int]) -> [String: Any] {
        let violation = found.object
        let subject = violation["subject"] as? String
        var logical: [[String: Any]] = [
            ["name": found.app, "fullyQualifiedName": found.app, "kind": "module"],
            ["name": found.session, "fullyQualifiedName": "\(found.app)/\(found.session)", "kind": "namespace"],
        ]
        if let subject {
            logical.append(["name": subject, "fullyQualifiedName": "\(found.app)/\(found.session)/\(subject)", "kind": "object"])
        }
        var location: [String: Any] = ["logicalLocations": logical]
        if let place = found.location, let index = artifactIndex[place.file] {
            location["physicalLocation"] = [
                "artifactLocation": ["uri": Self.uri(for: place.file), "index": index] as [String: Any],
                "region": ["startLine": place.line],
            ]
        }
        var result: [String: Any] = [
            "ruleId": found.rule,
            "level": Self.level(found.severity),
            "message": ["text": found.message],
            "locations": [location],
            "fingerprints": ["modalwatch/v1": violation["fingerprint"] as? String ?? ""],
            "partialFingerprints": ["modalwatchFingerprint/v1": violation["fingerprint"] as? String ?? ""],
            "properties": [
                "id": violation["id"] ?? NSNull(), "app": found.app, "session": found.session,
                "subject": subject ?? NSNull(), "ts": found.ts, "edition": violation["edition"] ?? NSNull(),
                "module": violation["module"] ?? NSNull(), "rev": violation["rev"] ?? NSNull(),
                "guideline": violation["guideline"] ?? NSNull(), "evidence": violation["evidence"] ?? [:],
                "events": violation["events"] ?? [],
            ] as [String: Any],
        ]
        if let index = ruleIndex[found.rule] { result["ruleIndex"] = index }
        return result
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
