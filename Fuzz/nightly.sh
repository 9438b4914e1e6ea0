#!/usr/bin/env bash
# Nightly: builds every fuzz target (the SwiftPM sanitized build of the package's modules for
# config, control and timeline), then runs each for a bounded time (Fuzz/README.md). CI runs only
# the decoder target and the replay of every regression input (Fuzz/ci.sh).
#
#   bash Fuzz/nightly.sh                         # 60 s per target
#   FUZZ_SECONDS=600 bash Fuzz/nightly.sh        # longer
#   FUZZ_TARGETS="config" bash Fuzz/nightly.sh   # some targets only
#
# Each run first replays the committed seeds and Fuzz/regressions/TARGET (every crash found so far),
# then fuzzes. Exit 0 when no target crashed; 1 when one did (its input is in Fuzz/crashes/TARGET,
# its report in Fuzz/work/TARGET.log); 2 when the build failed.
# End to end on 2 cores: the first build about 6 minutes (SwiftPM builds the package's modules with
# ASan and coverage in Fuzz/build/spm; 372 s measured), later ones about 30 s; then 4 x FUZZ_SECONDS.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${FUZZ_SECONDS:-60}
read -r -a targets <<<"${FUZZ_TARGETS:-decoder config control timeline}"

start=$(date +%s)
if ! bash "$ROOT/Fuzz/build.sh" "${targets[@]}"; then
    echo "fuzz nightly: the build failed" >&2
    exit 2
fi
built=$(date +%s)

mkdir -p "$ROOT/Fuzz/work"
failed=()
summary=()
for target in "${targets[@]}"; do
    echo "fuzz nightly: $target for ${seconds}s"
    if ! bash "$ROOT/Fuzz/run.sh" "$target" "$seconds" >"$ROOT/Fuzz/work/nightly-$target.out" 2>&1; then
        failed+=("$target")
    fi
    tail -n 40 "$ROOT/Fuzz/work/nightly-$target.out" | grep -E '^(fuzz: .*FAILED|SUMMARY|==[0-9]+==ERROR|.*Fatal error)' || true
    summary+=("$(grep -E "^fuzz: $target:" "$ROOT/Fuzz/work/nightly-$target.out" | tail -1)")
done
end=$(date +%s)

echo "fuzz nightly: build $((built - start))s, fuzzing $((end - built))s"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz nightly: FAILED: ${failed[*]} (inputs in Fuzz/crashes/, reports in Fuzz/work/*.log)" >&2
    exit 1
fi
echo "fuzz nightly: no crash"
