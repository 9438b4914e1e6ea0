/// What a rule lists in `Rule.parameters`: a `Parameter` of any value type.
public protocol ParameterDeclaration: Sendable {
    /// The declaration the module describes to the host.
    var declaration: ParameterDescription { get }
}
