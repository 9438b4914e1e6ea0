// libFuzzer's entry points for fuzz-decoder (Fuzz/build.sh links this file with DecoderFuzzTarget.swift);
// the unit tests' replay of Fuzz/regressions calls DecoderFuzzTarget without them (FuzzRegressionTests).

/// libFuzzer's entry point: one input, judged by `DecoderFuzzTarget`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoderOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    DecoderFuzzTarget.shared.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
