import AlertText
import RuleKit

extension Text {
    /// The text as an `AlertText` view (empty when absent), valid during the call.
    var slice: TextSlice { TextSlice(bytes) }
}
