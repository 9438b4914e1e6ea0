import Foundation

/// The session view `probe-view` wrote into its evidence: what the engine handed the rule.
struct SessionView {
    /// The evidence object.
    let fields: [String: Any]

    init(_ fields: [String: Any]) { self.fields = fields }

    /// An integer field; nil when absent or null (`INT64_MIN` is written as null).
    func int(_ key: String) -> Int? { fields[key] as? Int }

    /// A string field; nil when absent or null.
    func string(_ key: String) -> String? { fields[key] as? String }

    /// Whether the field is JSON null.
    func isNull(_ key: String) -> Bool { fields[key] is NSNull }

    /// The presentation stack, bottom first.
    var stack: [Presentation] { (fields["stack"] as? [[String: Any]] ?? []).map(Presentation.init) }

    /// The ids of the stack, bottom first.
    var stackIDs: [String] { stack.map(\.id) }

    /// The entry the current dismissal removed, if any.
    var dismissed: Presentation? { (fields["dismissed"] as? [String: Any]).map(Presentation.init) }

    /// One `mw_presentation`.
    struct Presentation {
        let fields: [String: Any]
        init(_ fields: [String: Any]) { self.fields = fields }

        var id: String { fields["id"] as? String ?? "" }
        /// `MW_KIND_*`: 0 alert, 1 sheet, 2 modal, 3 popover.
        var kind: Int { fields["kind"] as? Int ?? -99 }
        func int(_ key: String) -> Int? { fields[key] as? Int }
    }
}
