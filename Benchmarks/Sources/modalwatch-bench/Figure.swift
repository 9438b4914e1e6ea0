/// One line of the result table: a figure, its value, the target, and whether it is met.
struct Figure: Sendable {
    /// A stable key for the JSON file, e.g. `e2e_single_events_per_second`.
    let key: String
    /// What it is, for a person.
    let name: String
    /// The value as a number in `unit`, if there is one.
    let value: Double?
    /// The unit of `value`.
    let unit: String
    /// The value as printed.
    let display: String
    /// The target as printed; empty when there is none.
    let target: String
    /// Whether the target is met; nil when there is none.
    let met: Bool?

    /// A figure with a target.
    init(
        key: String,
        name: String,
        value: Double?,
        unit: String,
        display: String,
        target: String = "",
        met: Bool? = nil
    ) {
        self.key = key
        self.name = name
        self.value = value
        self.unit = unit
        self.display = display
        self.target = target
        self.met = met
    }

    /// "yes", "NO" or "".
    var metText: String {
        switch met {
        case .some(true): "yes"
        case .some(false): "NO"
        case .none: ""
        }
    }

    /// A rate for people: `1.23 M/s`, `456 k/s`.
    static func rate(_ perSecond: Double, unit: String = "events/s") -> String {
        if perSecond >= 1e6 { return format(perSecond / 1e6, 2) + " M " + unit }
        if perSecond >= 1e3 { return format(perSecond / 1e3, 0) + " k " + unit }
        return format(perSecond, 0) + " " + unit
    }

    /// `value` with `decimals` decimals.
    static func format(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(Int(rounded.rounded(.towardZero)))
        if rounded < 0 && text.first != "-" { text = "-" + text }
        if decimals > 0 {
            let fraction = Int((abs(rounded) * scale).rounded()) % Int(scale)
            var digits = String(fraction)
            while digits.count < decimals { digits = "0" + digits }
            text += "." + digits
        }
        return text
    }

    /// Nanoseconds for people: `412 µs`, `1.27 ms`.
    static func duration(nanoseconds: Double) -> String {
        if nanoseconds >= 1e9 { return format(nanoseconds / 1e9, 2) + " s" }
        if nanoseconds >= 1e6 { return format(nanoseconds / 1e6, 2) + " ms" }
        if nanoseconds >= 1e5 { return format(nanoseconds / 1e3, 0) + " µs" }
        return format(nanoseconds / 1e3, 2) + " µs"
    }
}

extension Figure {
    /// Thousands separators: 13970 → "13,970".
    static func grouped(_ value: Double) -> String {
        var digits = String(Int(value.rounded()))
        var out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return digits + out
    }
}
