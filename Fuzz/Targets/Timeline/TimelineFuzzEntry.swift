// libFuzzer's entry points for fuzz-timeline (Fuzz/build.sh links this file with TimelineFuzzTarget.swift);
// the unit tests' replay of Fuzz/regressions calls TimelineFuzzTarget without them (FuzzRegressionTests).

/// libFuzzer calls this once before the first input: the modules load here, so their coverage
/// counters are known from the start.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzTimelineInitialize(
    _ argc: UnsafeMutablePointer<CInt>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
    _ = TimelineFuzzTarget.shared
    return 0
}

/// libFuzzer's entry point: one input, judged by `TimelineFuzzTarget`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimelineOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    TimelineFuzzTarget.shared.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
