/// Reading the ABI's tri-state fields (0, 1 or `MW_ABSENT`).
public enum Flag {
    /// `false` for 0, `true` for 1, nil otherwise (absent).
    public static func bool(_ value: Int32) -> Bool? {
        switch value {
        case 0: false
        case 1: true
        default: nil
        }
    }

    /// The value, or nil for `MW_ABSENT` (any negative value).
    public static func index(_ value: Int32) -> Int? {
        value < 0 ? nil : Int(value)
    }

    /// The time, or nil for `INT64_MIN` ("never").
    public static func time(_ value: Int64) -> Int64? {
        value == Int64.min ? nil : value
    }
}
