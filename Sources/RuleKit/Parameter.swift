/// A rule parameter, declared once with its name, kind, default, bounds and meaning,
/// and read by the rule with its own type: `call[limit]`.
///
/// ```swift
/// enum AlertFrequency: Rule {
///     static let limit = Parameter<Int64>.int("limit", default: 3, min: 1, max: 10_000, "alerts allowed within the window")
///     static let window = Parameter<Int64>.duration("window", defaultMs: 600_000, minMs: 1_000, "the trailing window")
///     static let parameters: [any ParameterDeclaration] = [limit, window]
///     static func judge(_ call: RuleCall) {
///         let limit = call[limit]     // the value in force: the default, or the config's
///         ...
///     }
/// }
/// ```
///
/// The value is found by the parameter's name, never by its position, so reordering
/// `parameters` changes nothing. A parameter the rule does not list in `parameters`
/// reads as its default.
public struct Parameter<Value: ParameterValue>: ParameterDeclaration {
    /// The declaration the module describes to the host (`mw_param`).
    public let declaration: ParameterDescription
    /// FNV-1a of the name: how `RuleCall` finds the value without comparing strings.
    @usableFromInline let nameHash: UInt64

    /// Declares a parameter from its description.
    public init(_ declaration: ParameterDescription) {
        self.declaration = declaration
        self.nameHash = Self.hash(declaration.name)
    }

    /// FNV-1a of a parameter name, as `ModuleExport` records the declared ones.
    static func hash(_ name: String) -> UInt64 {
        var hasher = FNV1a()
        for byte in name.utf8 { hasher.add(byte) }
        return hasher.value
    }

    /// The default value, typed.
    public var defaultValue: Value { Value(parameterValue: declaration.defaultValue) }
}

extension Parameter where Value: BinaryInteger {
    /// A whole-number parameter (`MW_PARAM_INT`): configs write `limit: 5`.
    public static func int(
        _ name: String,
        default value: Value,
        min: Value = 0,
        max: Value = 1_000_000,
        _ meaning: String
    ) -> Parameter {
        Parameter(
            ParameterDescription(
                name: name,
                kind: .int,
                defaultValue: Int64(value),
                minValue: Int64(min),
                maxValue: Int64(max),
                meaning: meaning
            )
        )
    }
}

extension Parameter {
    /// A duration parameter (`MW_PARAM_DURATION_MS`), in ms; configs write `600s`, `15m`, `1000ms`.
    /// An integer `Value` reads milliseconds; `Duration` reads a Swift duration.
    public static func duration(
        _ name: String,
        defaultMs value: Int64,
        minMs: Int64 = 1,
        maxMs: Int64 = 86_400_000,
        _ meaning: String
    ) -> Parameter {
        Parameter(
            ParameterDescription(
                name: name,
                kind: .durationMs,
                defaultValue: value,
                minValue: minMs,
                maxValue: maxMs,
                meaning: meaning
            )
        )
    }
}
