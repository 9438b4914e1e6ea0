extension TextSlice {
    /// True when the text, trimmed of whitespace and ending punctuation, is one of `variants`
    /// (a language's standard titles, `StandardTitles`), as `StandardTitles.matches` compares.
    /// Allocates the trimmed text as a `String`.
    public func isTitle(in variants: [String]) -> Bool {
        let title = trimmingEndingPunctuation
        guard !title.isEmpty else { return false }
        return StandardTitles.matches(title.string, variants)
    }

    /// The first of `variants` (a language's standard titles) the text holds: as a whole word
    /// (compared as `StandardTitles.matches` compares) in a text written with spaces, anywhere in
    /// one mostly of a script written without spaces (`isMostlySpaceless`). Allocates.
    public func firstTitle(in variants: [String]) -> String? {
        if isMostlySpaceless {
            let text = string
            return variants.first { !$0.isEmpty && text.contains($0) }
        }
        for word in words {
            let candidate = word.string
            if let variant = variants.first(where: { StandardTitles.matches(candidate, [$0]) }) { return variant }
        }
        return nil
    }
}
