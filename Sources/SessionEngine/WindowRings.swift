/// The rules' sliding windows of one session (`mw_host.window_push`): for each key, the
/// event times still inside its window, oldest first, in a ring kept in place.
///
/// The first two rings and four times live in the value itself (no allocation: most sessions'
/// windows never need more); the rest in one pool of times. A ring that fills moves to a region
/// twice its size at the pool's end (its old region is left unused until `removeAll`).
/// `removeAll` keeps the pool, so a session that has its windows allocates nothing per event.
/// A session's rings take their memory from the session table's `SpillPool` (the `pool`
/// argument) and give it back there (`release(pool:)`). Non-copyable: it owns its memory.
struct WindowRings: ~Copyable {
    private struct Ring {
        /// Where its times start: in the inline times when negative (`inlineTimes + offset + 8`),
        /// else in the pool.
        var offset: Int32
        var capacity: Int32
        var start: Int32
        var count: Int32
    }

    /// Key to ring number (positions keyed with the process's secret, as in every `IntegerMap`).
    private var index = IntegerMap()
    private var ring0 = Ring(offset: 0, capacity: 0, start: 0, count: 0)
    private var ring1 = Ring(offset: 0, capacity: 0, start: 0, count: 0)
    /// Rings from the third on (number `n` at `rings[n - 2]`).
    private var rings: UnsafeMutablePointer<Ring>?
    private var times: UnsafeMutablePointer<Int64>?
    private var inlineTimes: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
    private var ringCapacity: Int32 = 0
    private var ringCount: Int32 = 0
    private var inlineUsed: Int32 = 0
    private var timesCapacity: Int32 = 0
    private var timesUsed: Int32 = 0
    /// Whether `rings` and `times` came from a `SpillPool` (then they go back there).
    private var pooled = false

    /// Times the value itself holds.
    private static let inlineCount = 4

    /// No windows; it allocates when it outgrows the inline rings and times.
    init() {}

    deinit {
        if !pooled {
            rings?.deallocate()
            times?.deallocate()
        }
    }

    /// Gives its memory back to `pool` (or `free`), leaving no window.
    mutating func release(pool: UnsafeMutablePointer<SpillPool>?) {
        removeAll()
        index.release(pool: pool)
        if pooled {
            if let rings { pool?.pointee.deallocate(rings, count: Int(ringCapacity)) }
            if let times { pool?.pointee.deallocate(times, count: Int(timesCapacity)) }
        } else {
            rings?.deallocate()
            times?.deallocate()
        }
        rings = nil
        times = nil
        ringCapacity = 0
        timesCapacity = 0
        pooled = false
    }

    /// Windows held.
    var count: Int { Int(ringCount) }

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
            return withUnsafeBytes(of: inlineTimes) {
                $0.load(fromByteOffset: (Int(offset) + Self.inlineCount + position) * 8, as: Int64.self)
            }
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
    mutating func push(
        _ ts: Int64,
        key: UInt64,
        window: Int64,
        limit: Int,
        pool: UnsafeMutablePointer<SpillPool>? = nil
    ) -> Int {
        let number: Int
        if let found = index.value(key) {
            number = Int(found)
        } else {
            number = addRing(key: key, capacity: limit < 4 ? Self.powerOfTwo(atLeast: limit) : 4, pool: pool)
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
            ring = moveToLarger(ring, pool: pool)
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
        result.reserveCapacity(Int(ringCount))
        index.forEach { key, number in
            let ring = self.ring(Int(number))
            let mask = Int(ring.capacity) - 1
            result[key] = (0..<Int(ring.count)).map { time(ring.offset, (Int(ring.start) + $0) & mask) }
        }
        return result
    }

    /// Replaces every window by `windows`' times (oldest first).
    mutating func replace(with windows: [UInt64: [Int64]], pool: UnsafeMutablePointer<SpillPool>? = nil) {
        removeAll()
        for (key, values) in windows {
            let number = addRing(key: key, capacity: Self.powerOfTwo(atLeast: max(values.count, 1)), pool: pool)
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
    private mutating func addRing(key: UInt64, capacity: Int, pool: UnsafeMutablePointer<SpillPool>?) -> Int {
        let number = Int(ringCount)
        if number >= 2 && number - 2 == Int(ringCapacity) {
            let larger = max(4, Int(ringCapacity) * 2)
            let fresh = take(Ring.self, larger, pool)
            if let rings {
                fresh.update(from: rings, count: Int(ringCapacity))
                give(rings, Int(ringCapacity), pool)
            }
            rings = fresh
            ringCapacity = Int32(larger)
        }
        ringCount += 1
        setRing(number, Ring(offset: reserveTimes(capacity, pool: pool), capacity: Int32(capacity), start: 0, count: 0))
        index.set(key, Int64(number), pool: pool)
        return number
    }

    /// Memory for `count` values of `T`: from `pool` when given (the rings are then pooled).
    private mutating func take<T>(
        _: T.Type,
        _ count: Int,
        _ pool: UnsafeMutablePointer<SpillPool>?
    ) -> UnsafeMutablePointer<T> {
        if rings == nil && times == nil { pooled = pool != nil }
        if pooled, let pool { return pool.pointee.allocate(T.self, count: count) }
        return .allocate(capacity: count)
    }

    /// Gives back memory `take` gave.
    private func give<T>(_ block: UnsafeMutablePointer<T>, _ count: Int, _ pool: UnsafeMutablePointer<SpillPool>?) {
        if pooled { pool?.pointee.deallocate(block, count: count) } else { block.deallocate() }
    }

    /// Room for `count` more times: in the inline times while they have it, else at the pool's
    /// end; returns its offset (see `Ring.offset`).
    private mutating func reserveTimes(_ count: Int, pool: UnsafeMutablePointer<SpillPool>?) -> Int32 {
        if Int(inlineUsed) + count <= Self.inlineCount {
            let offset = Int(inlineUsed) - Self.inlineCount
            inlineUsed += Int32(count)
            return Int32(offset)
        }
        if Int(timesUsed) + count > Int(timesCapacity) {
            var larger = max(8, Int(timesCapacity) * 2)
            while larger < Int(timesUsed) + count { larger *= 2 }
            let fresh = take(Int64.self, larger, pool)
            if let times {
                fresh.update(from: times, count: Int(timesUsed))
                give(times, Int(timesCapacity), pool)
            }
            times = fresh
            timesCapacity = Int32(larger)
        }
        let offset = timesUsed
        timesUsed += Int32(count)
        return offset
    }

    /// `ring`'s times, oldest first, in a region twice its size; returns the moved ring.
    private mutating func moveToLarger(_ ring: Ring, pool: UnsafeMutablePointer<SpillPool>?) -> Ring {
        let capacity = Int(ring.capacity) * 2
        let offset = reserveTimes(capacity, pool: pool)
        let mask = Int(ring.capacity) - 1
        for i in 0..<Int(ring.count) { setTime(offset, i, time(ring.offset, (Int(ring.start) + i) & mask)) }
        return Ring(offset: offset, capacity: Int32(capacity), start: 0, count: ring.count)
    }
}
