/// The rules' sliding windows of one session (`mw_host.window_push`): for each key, the
/// event times still inside its window, oldest first, in a ring kept in place.
///
/// Every ring lives in one pool of times; a ring that fills moves to a region twice its
/// size at the pool's end (its old region is left unused until `removeAll`). `removeAll`
/// keeps the pool, so a session that has its windows allocates nothing per event.
/// Non-copyable: it owns its memory.
struct WindowRings: ~Copyable {
    private struct Ring {
        var offset: Int32
        var capacity: Int32
        var start: Int32
        var count: Int32
    }

    /// Key to ring number.
    private var index = IntegerMap()
    private var rings: UnsafeMutablePointer<Ring>?
    private var ringCapacity = 0
    private var ringCount = 0
    private var times: UnsafeMutablePointer<Int64>?
    private var timesCapacity = 0
    private var timesUsed = 0

    /// No windows; it allocates on the first push.
    init() {}

    deinit {
        rings?.deallocate()
        times?.deallocate()
    }

    /// Windows held.
    var count: Int { ringCount }

    /// Adds `ts` to `key`'s window after dropping the times older than `window` ms before it,
    /// and the oldest beyond `limit` (at least 1); returns how many times the window holds.
    /// Times are pushed in order (the engine never judges a session earlier than its latest).
    mutating func push(_ ts: Int64, key: UInt64, window: Int64, limit: Int) -> Int {
        let number: Int
        if let found = index.value(key) {
            number = Int(found)
        } else {
            number = addRing(key: key, capacity: limit < 8 ? Self.powerOfTwo(atLeast: limit) : 8)
        }
        let oldest = ts.addingSaturated(-max(window, 0))
        var ring = rings![number]
        var mask = Int(ring.capacity) - 1
        var base = times! + Int(ring.offset)
        while ring.count > 0 && base[Int(ring.start)] < oldest {
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
            base = times! + Int(ring.offset)
        }
        base[(Int(ring.start) + Int(ring.count)) & mask] = ts
        ring.count += 1
        rings![number] = ring
        return Int(ring.count)
    }

    /// Forgets every window, keeping the room.
    mutating func removeAll() {
        index.removeAll()
        ringCount = 0
        timesUsed = 0
    }

    /// Every window's times, oldest first (for snapshots and inspection, not the hot path).
    var dictionary: [UInt64: [Int64]] {
        if ringCount == 0 { return [:] }
        var result: [UInt64: [Int64]] = [:]
        result.reserveCapacity(ringCount)
        index.forEach { key, number in
            let ring = rings![Int(number)]
            let base = times! + Int(ring.offset)
            let mask = Int(ring.capacity) - 1
            result[key] = (0..<Int(ring.count)).map { base[(Int(ring.start) + $0) & mask] }
        }
        return result
    }

    /// Replaces every window by `windows`' times (oldest first).
    mutating func replace(with windows: [UInt64: [Int64]]) {
        removeAll()
        for (key, values) in windows {
            let number = addRing(key: key, capacity: Self.powerOfTwo(atLeast: max(values.count, 1)))
            let ring = rings![number]
            let base = times! + Int(ring.offset)
            for (i, value) in values.enumerated() { base[i] = value }
            rings![number].count = Int32(values.count)
        }
    }

    private static func powerOfTwo(atLeast value: Int) -> Int {
        value <= 1 ? 1 : 1 << (Int.bitWidth - (value - 1).leadingZeroBitCount)
    }

    /// A new empty ring for `key`; returns its number.
    private mutating func addRing(key: UInt64, capacity: Int) -> Int {
        if ringCount == ringCapacity {
            let larger = max(4, ringCapacity * 2)
            let fresh = UnsafeMutablePointer<Ring>.allocate(capacity: larger)
            if let rings {
                fresh.update(from: rings, count: ringCount)
                rings.deallocate()
            }
            rings = fresh
            ringCapacity = larger
        }
        let number = ringCount
        rings![number] = Ring(offset: Int32(reserveTimes(capacity)), capacity: Int32(capacity), start: 0, count: 0)
        ringCount += 1
        index.set(key, Int64(number))
        return number
    }

    /// Room for `count` more times at the pool's end; returns its offset.
    private mutating func reserveTimes(_ count: Int) -> Int {
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
        return offset
    }

    /// `ring`'s times, oldest first, in a region twice its size; returns the moved ring.
    private mutating func moveToLarger(_ ring: Ring) -> Ring {
        let capacity = Int(ring.capacity) * 2
        let offset = reserveTimes(capacity)
        let old = times! + Int(ring.offset)
        let fresh = times! + offset
        let mask = Int(ring.capacity) - 1
        for i in 0..<Int(ring.count) { fresh[i] = old[(Int(ring.start) + i) & mask] }
        return Ring(offset: Int32(offset), capacity: Int32(capacity), start: 0, count: ring.count)
    }
}
