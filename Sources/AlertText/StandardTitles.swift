// Stand-in until the table of standard titles lands: the API it will have, with a few languages.
/// The standard titles of one language.
public struct StandardTitles: Sendable {
    /// The language, e.g. "de", "zh-Hans", "pt-BR".
    public let language: String
    /// Its Cancel titles, the usual one first.
    public let cancel: [String]
    /// Its OK titles.
    public let ok: [String]
    /// Its Yes titles.
    public let yes: [String]
    /// Its No titles.
    public let no: [String]
    /// Its Error titles.
    public let error: [String]

    private static let table: [StandardTitles] = [
        StandardTitles(language: "en", cancel: ["Cancel"], ok: ["OK"], yes: ["Yes"], no: ["No"], error: ["Error"]),
        StandardTitles(language: "de", cancel: ["Abbrechen"], ok: ["OK"], yes: ["Ja"], no: ["Nein"], error: ["Fehler"]),
        StandardTitles(language: "fr", cancel: ["Annuler"], ok: ["OK"], yes: ["Oui"], no: ["Non"], error: ["Erreur"]),
        StandardTitles(language: "es", cancel: ["Cancelar"], ok: ["Aceptar", "OK"], yes: ["Sí"], no: ["No"], error: ["Error"]),
        StandardTitles(language: "ja", cancel: ["キャンセル"], ok: ["OK"], yes: ["はい"], no: ["いいえ"], error: ["エラー"]),
        StandardTitles(language: "zh-Hans", cancel: ["取消"], ok: ["好", "确定"], yes: ["是"], no: ["否"], error: ["错误"]),
        StandardTitles(language: "ar", cancel: ["إلغاء"], ok: ["حسنًا"], yes: ["نعم"], no: ["لا"], error: ["خطأ"]),
    ]

    /// The titles of the language of `tag` ("de-AT" → de), or nil.
    public static func forLanguage(_ tag: String) -> StandardTitles? {
        let language = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        if language == "zh" { return table.first { $0.language == "zh-Hans" } }
        return table.first { $0.language == language }
    }

    /// True when `title` is one of `variants`, ignoring case.
    public static func matches(_ title: String, _ variants: [String]) -> Bool {
        let folded = title.lowercased()
        return variants.contains { $0.lowercased() == folded }
    }

    /// Every language of the table.
    public static var languages: [String] { table.map(\.language) }
}
