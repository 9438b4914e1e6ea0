/// Reads a JSON number as an integer by its exact decimal value: `1`, `1.0`, `1e0` and `10e-1` are the
/// integer 1 (JSON Schema treats any number with a zero fractional part as an integer); `1.5` is not
/// an integer; `1e300` is an integer that does not fit in 64 bits.
enum JSONNumber {
    /// What a number is, read as an integer.
    enum Integer: Equatable {
        case value(Int64)
        case notIntegral
        case outOfRange(negative: Bool)
    }

    /// Reads `base[start..<end]`, which passed `JSONScanner.scanNumber`.
    static func integer(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Integer {
        var i = start
        let negative = base[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        // Fast path: plain digits, at most 18 of them.
        var fast: Int64 = 0
        let digitsStart = i
        while i < end, JSONScanner.isDigit(base[i]), i - digitsStart < 18 {
            fast = fast &* 10 &+ Int64(base[i] &- 0x30)
            i += 1
        }
        if i == end { return .value(negative ? -fast : fast) }
        return exact(base, digitsStart, end, negative: negative)
    }

    /// The general case: `value = digits × 10^scale`, computed exactly.
    private static func exact(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, negative: Bool) -> Integer {
        var i = start
        let intStart = i
        while i < end, JSONScanner.isDigit(base[i]) { i += 1 }
        let intEnd = i
        var fracStart = i
        var fracEnd = i
        if i < end, base[i] == UInt8(ascii: ".") {
            i += 1
            fracStart = i
            while i < end, JSONScanner.isDigit(base[i]) { i += 1 }
            fracEnd = i
        }
        var exponent = 0
        if i < end {  // 'e' or 'E'
            i += 1
            var exponentNegative = false
            if base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-") {
                exponentNegative = base[i] == UInt8(ascii: "-")
                i += 1
            }
            while i < end {
                if exponent < 100_000_000 { exponent = exponent * 10 + Int(base[i] &- 0x30) }
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let intCount = intEnd - intStart
        let total = intCount + (fracEnd - fracStart)
        @inline(__always) func digit(_ k: Int) -> UInt8 {
            (k < intCount ? base[intStart + k] : base[fracStart + k - intCount]) &- 0x30
        }
        var first = 0
        while first < total, digit(first) == 0 { first += 1 }
        if first == total { return .value(0) }
        var last = total - 1
        while digit(last) == 0 { last -= 1 }
        // digits[first...last] has no trailing zeros: the value is integral iff the scale is >= 0.
        let scale = exponent - (total - intCount) + (total - 1 - last)
        if scale < 0 { return .notIntegral }
        if last - first + 1 + scale > 19 { return .outOfRange(negative: negative) }
        var magnitude: UInt64 = 0
        for k in first...last { magnitude = magnitude * 10 + UInt64(digit(k)) }
        for _ in 0..<scale {
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            if overflow { return .outOfRange(negative: negative) }
            magnitude = product
        }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return .value(.min) }
            return magnitude <= UInt64(Int64.max) ? .value(-Int64(magnitude)) : .outOfRange(negative: true)
        }
        return magnitude <= UInt64(Int64.max) ? .value(Int64(magnitude)) : .outOfRange(negative: false)
    }
}
