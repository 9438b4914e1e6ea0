import ByteBasics

/// The kind of device a session runs on (`mw_device`).
public enum Device: Int32, Sendable, CaseIterable {
    /// `WireDevice.phone`
    case phone = 0
    /// `WireDevice.pad`
    case pad = 1
    /// `WireDevice.mac`
    case mac = 2
    /// `WireDevice.tv`
    case tv = 3
    /// `WireDevice.vision`
    case vision = 4

    /// The value's name on the wire, from ByteBasics' `WireDevice` (the one spelling of each value,
    /// numbered the same).
    public var name: String { WireDevice(rawValue: rawValue).unsafelyUnwrapped.string }
}
