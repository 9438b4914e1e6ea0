#!/usr/bin/env bash
# CI: fuzzes what builds in seconds, the event decoder, for a bounded time (Fuzz/README.md).
#
#   bash Fuzz/ci.sh                     # FUZZ_SECONDS, default 60
#   FUZZ_SECONDS=20 bash Fuzz/ci.sh     # shorter
#
# The decoder target is compiled by swiftc directly (Fuzz/build.sh decoder: EventDecoding, ByteBasics
# and CByteClasses with ASan and libFuzzer's coverage, no SwiftPM build). Its run first replays the
# committed seeds and Fuzz/regressions/decoder, then fuzzes. The regression inputs of all four
# targets are also replayed by the unit tests (FuzzRegressionTests, in `swift test`); the config,
# control and timeline targets, which need the SwiftPM sanitized build of the package's modules,
# are fuzzed by Fuzz/nightly.sh.
# Exit 0 when no crash; 1 on a crash (input in Fuzz/crashes/decoder, report in Fuzz/work/decoder.log);
# 2 when the build failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${FUZZ_SECONDS:-60}

start=$(date +%s)
if ! bash "$ROOT/Fuzz/build.sh" decoder; then
    echo "fuzz ci: the build failed" >&2
    exit 2
fi
built=$(date +%s)

mkdir -p "$ROOT/Fuzz/work"
status=0
echo "fuzz ci: decoder for ${seconds}s"
bash "$ROOT/Fuzz/run.sh" decoder "$seconds" >"$ROOT/Fuzz/work/ci-decoder.out" 2>&1 || status=1
tail -n 40 "$ROOT/Fuzz/work/ci-decoder.out" | grep -E '^(fuzz: .*FAILED|SUMMARY|==[0-9]+==ERROR|.*Fatal error)' || true
end=$(date +%s)

echo "fuzz ci: build $((built - start))s, fuzzing $((end - built))s"
grep -E "^fuzz: decoder:" "$ROOT/Fuzz/work/ci-decoder.out" | tail -1
if [ "$status" -ne 0 ]; then
    echo "fuzz ci: FAILED: decoder (input in Fuzz/crashes/decoder, report in Fuzz/work/decoder.log)" >&2
    exit 1
fi
echo "fuzz ci: no crash"
