#!/usr/bin/env bash
# Builds the libFuzzer targets into Fuzz/build/bin/fuzz-TARGET (Fuzz/README.md).
#
#   Fuzz/build.sh                  # decoder, config, control and timeline
#   Fuzz/build.sh decoder          # only some
#
# decoder: Sources/EventDecoding compiled here with swiftc -sanitize=fuzzer,address, the C header
#          modules (ModalwatchABI, CByteClasses) through a generated module map, and CByteClasses'
#          source file (the JSON string escaper) with clang, instrumented the same way. Seconds.
# config, control, timeline: the package's modules (ModalwatchConfig, DaemonCore and everything below them,
#          Yams, GRDB, ...) built by SwiftPM in release mode with --sanitize fuzzer --sanitize address
#          and -enable-testing, in a scratch folder of their own (Fuzz/build/spm, so the normal .build
#          is left alone); the target is then compiled against their modules and linked with their
#          object files. About 6 minutes the first time on 2 cores, seconds after.
#
# Environment: SWIFTC (default swiftc), SWIFT (default swift), CLANG (default: the clang beside swiftc),
# FUZZ_BUILD (default Fuzz/build).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FUZZ=$ROOT/Fuzz
OUT=${FUZZ_BUILD:-$FUZZ/build}
SWIFTC=${SWIFTC:-swiftc}
SWIFT=${SWIFT:-swift}
# The toolchain's clang (the one swiftc links with), for the C source of the decoder target.
CLANG=${CLANG:-$(dirname "$(command -v "$SWIFTC")")/clang}
SPM=$OUT/spm

# The package's settings (Package.swift, strictSwift), the sanitizers, and line tables for reports.
FLAGS=(-swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
       -parse-as-library -O -gline-tables-only -sanitize=fuzzer,address)
LINK=(-use-ld=lld)

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(decoder config control timeline)
mkdir -p "$OUT/bin"

abi_module_map() {
    mkdir -p "$OUT/abi"
    cat >"$OUT/abi/module.modulemap" <<EOF
module ModalwatchABI {
    header "$ROOT/Sources/ModalwatchABI/include/modalwatch_module.h"
    export *
}
module CByteClasses {
    header "$ROOT/Sources/CByteClasses/include/byte_classes.h"
    export *
}
EOF
}

build_decoder() {
    abi_module_map
    local dir=$OUT/decoder
    mkdir -p "$dir/modules"
    echo "fuzz: CByteClasses (clang), ByteBasics, EventDecoding (swiftc, instrumented)"
    "$CLANG" -O2 -gline-tables-only -fsanitize=fuzzer-no-link,address -I "$ROOT/Sources/CByteClasses/include" \
        -c "$ROOT/Sources/CByteClasses/byte_classes.c" -o "$dir/CByteClasses.o"
    "$SWIFTC" "${FLAGS[@]}" -wmo -module-name ByteBasics -I "$OUT/abi" \
        -emit-module -emit-module-path "$dir/modules/ByteBasics.swiftmodule" \
        -c "$ROOT"/Sources/ByteBasics/*.swift "$ROOT"/Sources/ByteBasics/*/*.swift -o "$dir/ByteBasics.o"
    "$SWIFTC" "${FLAGS[@]}" -wmo -module-name EventDecoding -I "$dir/modules" -I "$OUT/abi" \
        -emit-module -emit-module-path "$dir/modules/EventDecoding.swiftmodule" \
        -c "$ROOT"/Sources/EventDecoding/*.swift -o "$dir/EventDecoding.o"
    echo "fuzz: fuzz-decoder"
    "$SWIFTC" "${FLAGS[@]}" "${LINK[@]}" -module-name DecoderFuzz -I "$dir/modules" -I "$OUT/abi" \
        "$FUZZ"/Targets/Decoder/*.swift "$FUZZ/Targets/Shared/FuzzCheck.swift" "$dir/EventDecoding.o" "$dir/ByteBasics.o" \
        "$dir/CByteClasses.o" -o "$OUT/bin/fuzz-decoder"
}

# The modules DaemonCore needs, in the sanitized SwiftPM build: every object file of these is linked.
SPM_MODULES=(ModalwatchTesting DaemonCore Report ControlProtocol CurveAuthentication ConnectionLimits ModalwatchConfig ShardRouting HistoryStore PostgresHistory SessionEngine AlertText CWordBreaks RuleHost EventDecoding CByteClasses ByteBasics Posix ModalwatchABI CRuleGuard ZeroMQ
             Yams CYaml GRDB Logging Metrics CoreMetrics Prometheus Atomics _AtomicsShims)

# SwiftPM's --sanitize flags reach swiftc as separate -sanitize= options, of which only the last
# counts (address): no coverage. So the instrumentation is asked for directly: ASan and libFuzzer's
# coverage (what -sanitize=fuzzer adds when compiling) for Swift and C, no libFuzzer runtime in the
# objects and shared libraries (the fuzz target's link adds it).
COVERAGE=edge,trace-cmp,inline-8bit-counters,pc-table
SPM_FLAGS=(-c release
           -Xswiftc -sanitize=address -Xswiftc "-sanitize-coverage=$COVERAGE"
           -Xswiftc -enable-testing -Xswiftc -gline-tables-only
           -Xcc -fsanitize=address -Xcc "-fsanitize-coverage=$COVERAGE" -Xcc -gline-tables-only)
RULE_PRODUCTS=(overuse modality alert-content action-sheet)

spm_built=0
build_spm() {
    [ $spm_built = 1 ] && return
    echo "fuzz: swift build --target DaemonCore, Report, ModalwatchTesting and the rule modules (release, ASan, coverage, -enable-testing)"
    (cd "$ROOT" && "$SWIFT" build --scratch-path "$SPM" "${SPM_FLAGS[@]}" --target DaemonCore)
    (cd "$ROOT" && "$SWIFT" build --scratch-path "$SPM" "${SPM_FLAGS[@]}" --target Report)
    (cd "$ROOT" && "$SWIFT" build --scratch-path "$SPM" "${SPM_FLAGS[@]}" --target ModalwatchTesting)
    local product
    for product in "${RULE_PRODUCTS[@]}"; do
        (cd "$ROOT" && "$SWIFT" build --scratch-path "$SPM" "${SPM_FLAGS[@]}" --product "modalwatch-rules-$product")
    done
    # The rule modules the config and control targets load (MODALWATCH_FUZZ_RULES_DIR overrides).
    mkdir -p "$OUT/rules"
    for product in "${RULE_PRODUCTS[@]}"; do
        cp "$SPM/release/libmodalwatch-rules-$product.so" "$OUT/rules/"
    done
    spm_built=1
}

# Compiles and links one target against the SwiftPM build: its module maps (C modules) and objects.
link_spm_target() {
    local name=$1 module=$2
    shift 2
    local rel=$SPM/release
    local maps=()
    local map
    for map in "$rel/ModalwatchABI.build/module.modulemap" \
               "$rel/CRuleGuard.build/module.modulemap" \
               "$rel/CByteClasses.build/module.modulemap" \
               "$rel/CWordBreaks.build/module.modulemap" \
               "$ROOT/Sources/CZeroMQ/module.modulemap" \
               "$ROOT/Sources/CLibPQ/module.modulemap" \
               "$SPM/checkouts/Yams/Sources/CYaml/include/module.modulemap" \
               "$SPM/checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap" \
               "$SPM/checkouts/swift-atomics/Sources/_AtomicsShims/include/module.modulemap"; do
        [ -f "$map" ] || { echo "fuzz: missing $map (did the SwiftPM layout change?)" >&2; exit 1; }
        maps+=(-Xcc "-fmodule-map-file=$map")
    done
    local objects=()
    local m
    for m in "${SPM_MODULES[@]}"; do
        while IFS= read -r -d '' o; do objects+=("$o"); done < <(find "$rel/$m.build" -name '*.o' -print0)
    done
    echo "fuzz: fuzz-$name (${#objects[@]} objects)"
    "$SWIFTC" "${FLAGS[@]}" "${LINK[@]}" -module-name "$module" -I "$rel/Modules" "${maps[@]}" \
        -Xcc -I -Xcc "$ROOT/Sources/ModalwatchABI/include" \
        "$@" "${objects[@]}" -lzmq -lsqlite3 -lpq -licuuc -o "$OUT/bin/fuzz-$name"
}

for target in "${targets[@]}"; do
    case $target in
        decoder) build_decoder ;;
        config) build_spm; link_spm_target config ConfigFuzz "$FUZZ"/Targets/Config/*.swift "$FUZZ"/Targets/Shared/*.swift ;;
        control) build_spm; link_spm_target control ControlFuzz "$FUZZ"/Targets/Control/*.swift "$FUZZ"/Targets/Shared/*.swift ;;
        timeline) build_spm; link_spm_target timeline TimelineFuzz "$FUZZ"/Targets/Timeline/*.swift "$FUZZ"/Targets/Shared/*.swift ;;
        *) echo "usage: $0 [decoder|config|control|timeline ...]" >&2; exit 2 ;;
    esac
done
echo "fuzz: built ${targets[*]} in $OUT/bin"
