#!/usr/bin/env bash
# Runs one fuzz target for a bounded time (Fuzz/README.md).
#
#   Fuzz/run.sh TARGET SECONDS [libFuzzer flags...]      TARGET: decoder, config, control or timeline
#
# Starts from the committed seeds (Fuzz/corpus/TARGET) and the regression inputs
# (Fuzz/regressions/TARGET); inputs that add coverage go to a scratch corpus (Fuzz/work/TARGET),
# never to the committed one. One process, one thread (the equivalent of -jobs=1).
# Exit status: 0 when the time ran out with no crash; 1 on a crash, a leak, a timeout or an
# out-of-memory, with the input saved as Fuzz/crashes/TARGET/crash-*, timeout-*, leak-* or oom-*.
# The last libFuzzer report is kept in Fuzz/work/TARGET.log.
# Environment: FUZZ_BUILD (default Fuzz/build) — where build.sh put bin/fuzz-TARGET.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FUZZ=$ROOT/Fuzz
if [ $# -lt 2 ]; then
    echo "usage: $0 decoder|config|control|timeline SECONDS [libFuzzer flags...]" >&2
    exit 2
fi
target=$1 seconds=$2
shift 2
binary=${FUZZ_BUILD:-$FUZZ/build}/bin/fuzz-$target
[ -x "$binary" ] || { echo "fuzz: $binary is missing; run Fuzz/build.sh $target" >&2; exit 2; }

# Per-target options: the longest input, and a dictionary of the format's words.
case $target in
    decoder) max_len=8192 ;;
    config) max_len=4096 ;;
    control) max_len=2048 ;;
    timeline) max_len=2048 ;;
    *) echo "fuzz: unknown target '$target' (decoder, config, control or timeline)" >&2; exit 2 ;;
esac

work=$FUZZ/work/$target
crashes=$FUZZ/crashes/$target
mkdir -p "$work/corpus" "$crashes"
seeds=("$FUZZ/corpus/$target")
[ -d "$FUZZ/regressions/$target" ] && seeds+=("$FUZZ/regressions/$target")

# The config, control and timeline targets load these once (Fuzz/Targets/Shared/FuzzEnvironment.swift).
export MODALWATCH_FUZZ_RULES_DIR=${MODALWATCH_FUZZ_RULES_DIR:-${FUZZ_BUILD:-$FUZZ/build}/rules}
export MODALWATCH_FUZZ_STREAM=${MODALWATCH_FUZZ_STREAM:-$ROOT/demo/stream.ndjson}

# A Swift trap must reach libFuzzer's handler at once: no Swift backtracer in between.
export SWIFT_BACKTRACE=enable=no
# ASan: stop at the first error; libFuzzer reports leaks itself at the end of each input (-detect_leaks).
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:symbolize=1:handle_abort=1}

log=$work/../$target.log
"$binary" "$work/corpus" "${seeds[@]}" \
    -max_total_time="$seconds" -max_len="$max_len" -dict="$FUZZ/dict/$target.dict" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# The figures for docs/RELIABILITY.md: executions per second and coverage at the end.
execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
rate=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}')
cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
echo "fuzz: $target: ${seconds}s, ${execs:-?} executions, ${rate:-?} exec/s, ${cov:-no coverage line}, exit $status"
if [ "$status" -ne 0 ]; then
    echo "fuzz: $target FAILED; reproduce with: SWIFT_BACKTRACE=enable=no MODALWATCH_FUZZ_RULES_DIR=$MODALWATCH_FUZZ_RULES_DIR MODALWATCH_FUZZ_STREAM=$MODALWATCH_FUZZ_STREAM $binary $(ls -t "$crashes"/* 2>/dev/null | head -1)" >&2
    exit 1
fi
