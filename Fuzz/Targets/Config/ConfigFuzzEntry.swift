// libFuzzer's entry points for fuzz-config (Fuzz/build.sh links this file with ConfigFuzzTarget.swift);
// the unit tests' replay of Fuzz/regressions calls ConfigFuzzTarget without them (FuzzRegressionTests).

/// libFuzzer calls this once before the first input: the modules load here, so their coverage
/// counters are known from the start.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzConfigInitialize(
    _ argc: UnsafeMutablePointer<CInt>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
    _ = ConfigFuzzTarget.shared
    return 0
}

/// libFuzzer's entry point: one input, judged by `ConfigFuzzTarget`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ConfigFuzzTarget.shared.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
