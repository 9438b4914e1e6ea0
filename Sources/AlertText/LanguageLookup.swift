/// How a BCP 47 tag finds its entry in a table of languages (`StandardTitles`, `QuotationMarks`),
/// whose entries are languages ("de"), languages with a script ("zh-Hans") or a region ("pt-BR"),
/// and a few variants ("ca-valencia").
enum LanguageLookup {
    /// The keys to try for `tag`, lowercased, most specific first: the tag as given ("pt-br"), then
    /// language-script ("zh-hans"), language-region ("pt-Latn-BR" → "pt-br"), language-variant
    /// ("ca-ES-valencia" → "ca-valencia"), then the language alone ("de-AT" → "de"); "_" is read
    /// as "-". Chinese without a script goes by its region, Simplified when it has none ("zh-TW" →
    /// "zh-hant", "zh" → "zh-hans"); Portuguese without a region is Brazil's ("pt" → "pt-br", as in
    /// CLDR's likely subtags), with any other region Portugal's ("pt-AO" → "pt-pt", CLDR's parent
    /// locale). The deprecated codes "iw", "in", "no" and "ji" are read as "he", "id", "nb" and
    /// "yi". Empty when the tag does not start with a language subtag.
    static func candidates(_ tag: String) -> [String] {
        let subtags = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        guard let first = subtags.first, first.count >= 2, first.count <= 3, first.allSatisfy(\.isLetter) else {
            return []
        }
        let language = aliases[first] ?? first
        var rest = subtags.dropFirst()
        var script: String?
        if let next = rest.first, next.count == 4, next.allSatisfy(\.isLetter) {
            script = next
            rest = rest.dropFirst()
        }
        var region: String?
        if let next = rest.first,
            next.count == 2 && next.allSatisfy(\.isLetter) || next.count == 3 && next.allSatisfy(\.isNumber)
        {
            region = next
            rest = rest.dropFirst()
        }
        let variants = rest.prefix { $0.count >= 5 || ($0.count == 4 && $0.first?.isNumber == true) }

        var candidates = [([language] + subtags.dropFirst()).joined(separator: "-")]
        if let script { candidates.append(language + "-" + script) }
        if let region { candidates.append(language + "-" + region) }
        for variant in variants { candidates.append(language + "-" + variant) }
        switch language {
        case "zh" where script == nil:
            candidates.append(region.map(traditionalChineseRegions.contains) == true ? "zh-hant" : "zh-hans")
        case "pt":
            candidates.append(region == nil || region == "br" ? "pt-br" : "pt-pt")
        default:
            break
        }
        candidates.append(language)
        return candidates
    }

    /// Deprecated ISO 639 codes and the ones that replaced them.
    private static let aliases = ["iw": "he", "in": "id", "no": "nb", "ji": "yi"]

    /// The regions whose Chinese is written in Traditional characters.
    private static let traditionalChineseRegions: Set<String> = ["tw", "hk", "mo"]
}
