internal import EventDecoding
import Glibc

/// The interface language of this process, as `startSession` sends it by default: the POSIX
/// locale of messages (the first set of `LC_ALL`, `LC_MESSAGES`, `LANG`), its charset and
/// modifier dropped (`de_DE.UTF-8` → `de-DE`), normalized as the daemon normalizes `locale`.
/// nil for `C`, `POSIX`, none set, or a value that is not a well-formed BCP 47 tag, which the
/// daemon would refuse as `bad_field` (events.md, "Languages").
public enum ProcessLanguage: Sendable {
    /// The language now (the environment read at each call).
    public static var current: String? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let raw = getenv(name), raw.pointee != 0 else { continue }
            return tag(fromPOSIXLocale: String(cString: raw))
        }
        return nil
    }

    /// The BCP 47 tag of a POSIX locale name (`pt_BR.UTF-8`, `sr_RS@latin`), or nil.
    public static func tag(fromPOSIXLocale name: String) -> String? {
        let base = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
        let language = base.split(separator: "@", maxSplits: 1).first.map(String.init) ?? base
        guard language != "C", language != "POSIX", !language.isEmpty else { return nil }
        return LocaleTag.normalized(language)
    }
}
