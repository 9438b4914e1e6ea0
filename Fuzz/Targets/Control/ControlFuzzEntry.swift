// libFuzzer's entry points for fuzz-control (Fuzz/build.sh links this file with ControlFuzzTarget.swift);
// the unit tests' replay of Fuzz/regressions calls ControlFuzzTarget without them (FuzzRegressionTests).

/// libFuzzer calls this once before the first input: the daemon starts here.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzControlInitialize(
    _ argc: UnsafeMutablePointer<CInt>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
    _ = ControlFuzzTarget.shared
    return 0
}

/// libFuzzer's entry point: one input, judged by `ControlFuzzTarget`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ControlFuzzTarget.shared.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
