/// `session.start`'s `device`.
public enum Device: String, Sendable, CaseIterable {
    case phone, pad, mac, tv, vision
}
