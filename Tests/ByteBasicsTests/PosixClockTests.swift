import ByteBasics
import Foundation
import XCTest

/// The clocks read through `PosixClock`: each in its own unit and against the others.
final class PosixClockTests: XCTestCase {
    func testTheWallClockIsTheEpochTimeInEachUnit() {
        let date = Date().timeIntervalSince1970
        let ms = PosixClock.realtime.milliseconds()
        XCTAssertLessThan(abs(Double(ms) / 1000 - date), 60, "within a minute of Foundation's clock")
        let us = PosixClock.realtime.microseconds()
        XCTAssertGreaterThanOrEqual(us / 1000, ms)
        XCTAssertGreaterThanOrEqual(PosixClock.realtime.seconds(), ms / 1000)
    }

    func testTheMonotonicClocksDoNotGoBack() {
        var last = PosixClock.monotonic.microseconds()
        var lastBoot = PosixClock.boottime.milliseconds()
        for _ in 0..<1000 {
            let now = PosixClock.monotonic.microseconds()
            let boot = PosixClock.boottime.milliseconds()
            XCTAssertGreaterThanOrEqual(now, last)
            XCTAssertGreaterThanOrEqual(boot, lastBoot)
            last = now
            lastBoot = boot
        }
        XCTAssertGreaterThanOrEqual(
            PosixClock.boottime.milliseconds(),
            PosixClock.monotonic.milliseconds(),
            "boot time counts suspend on top of the monotonic clock"
        )
        XCTAssertEqual(PosixClock.monotonic.microseconds() / 1000, PosixClock.monotonic.milliseconds(), accuracy: 1000)
        XCTAssertEqual(PosixClock.monotonic.milliseconds() / 1000, PosixClock.monotonic.seconds(), accuracy: 1)
    }

    func testTheThreadCPUClockCountsThisThreadsWork() {
        let before = PosixClock.threadCPU.microseconds()
        var x: UInt64 = 1
        for i in 0..<5_000_000 { x = x &* 6_364_136_223_846_793_005 &+ UInt64(i) }
        XCTAssertNotEqual(x, 0)
        XCTAssertGreaterThan(PosixClock.threadCPU.microseconds(), before)
        XCTAssertGreaterThanOrEqual(PosixClock.threadCPU.fractionalSeconds(), Double(before) / 1e6)
    }
}
