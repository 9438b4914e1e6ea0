import CWordBreaks

extension TextSlice {
    /// The number of words as ICU's word break iterator finds them, counted up to `limit`: runs
    /// of letters, kana, ideographs or digits, the words of scripts written without spaces (Han,
    /// Kana, Thai, Lao, Khmer, Myanmar) found with ICU's dictionaries (`エラー` is one word,
    /// `接続できません` four, `Zap失敗` two); nil when ICU fails. Allocates (an iterator per
    /// call): for texts with letters of such scripts; `words` reads every other text.
    public func dictionaryWordCount(upTo limit: Int) -> Int? {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        let count = mw_word_count(start, bytes.count, limit)
        return count < 0 ? nil : count
    }
}
