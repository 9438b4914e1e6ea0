extension TextSlice {
    /// The first listed pronoun of the text (`Pronouns`), if any.
    public var firstPronoun: Word? {
        for word in words where Pronouns.contains(word) { return word }
        return nil
    }
}
