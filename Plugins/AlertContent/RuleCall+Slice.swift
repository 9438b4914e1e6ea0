import AlertText
import ModalwatchABI
import RuleKit

extension RuleCall {
    /// `text` as an `AlertText` view (empty when absent), valid during the call, carrying
    /// the words the host read for the event when it is one of the event's texts.
    func slice(_ text: Text) -> TextSlice {
        TextSlice(text.bytes, words: words(of: text).map(WordList.init))
    }
}
