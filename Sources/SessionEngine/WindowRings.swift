/// The rules' sliding windows of one session (`mw_host.window_push`): for each key, the
/// event times still inside its window, oldest first, in a ring kept in place.
///
/// The first two rings and eight times live in the value itself (no allocation: most sessions'
/// windows never need more); the rest in one pool of times. A ring that fills moves to a region
/// twice its size at the pool's end (its old region is left unused until `removeAll`).
/// `removeAll` keeps the pool, so a session that has its windows allocates nothing per event.
/// Non-copyable: it owns its memory.
struct WindowRings: ~Copyable {
    private struct Ring {
        /// Where its times start: in the inline times when negative (`inlineTimes + offset + 8`),
        /// else in the pool.
        var offset: Int32
        var capacity: Int32
        var start: Int32
        var count: Int32
    }

    /// Key to ring number.
    private var index = IntegerMap()
    private var ring0 = Ring(offset: 0, capacity: 0, start: 0, count: 0)
    private var ring1 = Ring(offset: 0, capacity: 0, start: 0, count: 0)
    /// Rings from the third on (number `n` at `rings[n - 2]`).
    private var rings: UnsafeMutablePointer<Ring>?
    private var ringCapacity = 0
    private var ringCount = 0
    private var inlineTimes: (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var inlineUsed = 0
    private var times: UnsafeMutablePointer<Int64>?
    private var timesCapacity = 0
    private var timesUsed = 0

    /// Times the value itself holds.
    private static let inlineCount = 8

    /// No windows; it allocates when it outgrows the inline rings and times.
    init() {}

    deinit {
        rings?.deallocate()
        times?.deallocate()
    }

    /// Windows held.
    var count: Int { ringCount }

    @inline(__always)
    private func ring(_ number: Int) -> Ring {
        number == 0 ? ring0 : number == 1 ? ring1 : rings![number - 2]
    }

    @inline(__always)
    private mutating func setRing(_ number: Int, _ ring: Ring) {
        if number == 0 { ring0 = ring } else if number == 1 { ring1 = ring } else { rings![number - 2] = ring }
    }

    /// The time at position `position` (already wrapped) of a ring at `offset`.
    @inline(__always)
    private func time(_ offset: Int32, _ position: Int) -> Int64 {
        if offset < 0 {
            return withUnsafeBytes(of: inlineTimes) { $0.load(fromByteOffset: (Int(offset) + Self.inlineCount + position) * 8, as: Int64.self) }
        }
        return times![Int(offset) + position]
    }

    @inline(__always)
    private mutating func setTime(_ offset: Int32, _ position: Int, _ value: Int64) {
        if offset < 0 {
            withUnsafeMutableBytes(of: &inlineTimes) {
                $0.storeBytes(of: value, toByteOffset: (Int(offset) + Self.inlineCount + position) * 8, as: Int64.self)
            }
        } else {
            times![Int(offset) + position] = value
        }
    }

    /// Adds `ts` to `key`'s window after dropping the times older than `window` ms before it,
    /// and the oldest beyond `limit` (at least 1); returns how many times the window holds.
    /// Times are pushed in order (the engine never judges a session earlier than its latest).
    mutating func push(_ ts: Int64, key: UInt64, window: Int64, limit: Int) -> Int {
        let number: Int
        if let found = index.value(key) {
            number = Int(found)
        } else {
            number = addRing(key: key, capacity: limit < 4 ? Self.powerOfTwo(atLeast: limit) : 4)
        }
        let oldest = ts.addingSaturated(-max(window, 0))
        var ring = self.ring(number)
        var mask = Int(ring.capacity) - 1
        while ring.count > 0 && time(ring.offset, Int(ring.start)) < oldest {
            ring.start = Int32((Int(ring.start) + 1) & mask)
            ring.count -= 1
        }
        if Int(ring.count) + 1 > limit {
            let drop = Int(ring.count) + 1 - limit
            ring.start = Int32((Int(ring.start) + drop) & mask)
            ring.count -= Int32(drop)
        }
        if ring.count == ring.capacity {
            ring = moveToLarger(ring)
            mask = Int(ring.capacity) - 1
        }
        setTime(ring.offset, (Int(ring.start) + Int(ring.count)) & mask, ts)
        ring.count += 1
        setRing(number, ring)
        return Int(ring.count)
    }

    /// Forgets every window, keeping the room.
    mutating func removeAll() {
        index.removeAll()
        ringCount = 0
        inlineUsed = 0
        timesUsed = 0
    }

    /// Every window's times, oldest first (for snapshots and inspection, not the hot path).
    var dictionary: [UInt64: [Int64]] {
        if ringCount == 0 { return [:] }
        var result: [UInt64: [Int64]] = [:]
        result.reserveCapacity(ringCount)
        index.forEach { key, number in
            let ring = self.ring(Int(number))
            let mask = Int(ring.capacity) - 1
            result[key] = (0..<Int(ring.count)).map { time(ring.offset, (Int(ring.start) + $0) & mask) }
        }
        return result
    }

    /// Replaces every window by `windows`' times (oldest first).
    mutating func replace(with windows: [UInt64: [Int64]]) {
        removeAll()
        for (key, values) in windows {
            let number = addRing(key: key, capacity: Self.powerOfTwo(atLeast: max(values.count, 1)))
            var ring = self.ring(number)
            for (i, value) in values.enumerated() { setTime(ring.offset, i, value) }
            ring.count = Int32(values.count)
            setRing(number, ring)
        }
    }

    private static func powerOfTwo(atLeast value: Int) -> Int {
        value <= 1 ? 1 : 1 << (Int.bitWidth - (value - 1).leadingZeroBitCount)
    }

    /// A new empty ring for `key`; returns its number.
    private mutating func addRing(key: UInt64, capacity: Int) -> Int {
        let number = ringCount
        if number >= 2 && number - 2 == ringCapacity {
            let larger = max(4, ringCapacity * 2)
            let fresh = UnsafeMutablePointer<Ring>.allocate(capacity: larger)
            if let rings {
                fresh.update(from: rings, count: ringCapacity)
                rings.deallocate()
            }
            rings = fresh
            ringCapacity = larger
        }
        ringCount += 1
        setRing(number, Ring(offset: reserveTimes(capacity), capacity: Int32(capacity), start: 0, count: 0))
        index.set(key, Int64(number))
        return number
    }

    /// Room for `count` more times: in the inline times while they have it, else at the pool's
    /// end; returns its offset (see `Ring.offset`).
    private mutating func reserveTimes(_ count: Int) -> Int32 {
        if inlineUsed + count <= Self.inlineCount {
            let offset = inlineUsed - Self.inlineCount
            inlineUsed += count
            return Int32(offset)
        }
        if timesUsed + count > timesCapacity {
            var larger = max(32, timesCapacity * 2)
            while larger < timesUsed + count { larger *= 2 }
            let fresh = UnsafeMutablePointer<Int64>.allocate(capacity: larger)
            if let times {
                fresh.update(from: times, count: timesUsed)
                times.deallocate()
            }
            times = fresh
            timesCapacity = larger
        }
        let offset = timesUsed
        timesUsed += count
        return Int32(offset)
    }

    /// `ring`'s times, oldest first, in a region twice its size; returns the moved ring.
    private mutating func moveToLarger(_ ring: Ring) -> Ring {
        let capacity = Int(ring.capacity) * 2
        let offset = reserveTimes(capacity)
        let mask = Int(ring.capacity) - 1
        for i in 0..<Int(ring.count) { setTime(offset, i, time(ring.offset, (Int(ring.start) + i) & mask)) }
        return Ring(offset: offset, capacity: Int32(capacity), start: 0, count: ring.count)
    }
}
