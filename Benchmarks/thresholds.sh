#!/usr/bin/env bash
# The micro-benchmarks' allocation counts against the thresholds of the toolchain that runs them,
# Thresholds/<major.minor>/ (as swift-nio keeps its Benchmarks/Thresholds/<toolchain>/): an
# allocation count differs from one Swift release to the next, so each keeps its own.
#
#     bash Benchmarks/thresholds.sh check     # fails on a count more than 16 off its threshold
#     bash Benchmarks/thresholds.sh update    # records this toolchain's counts (keep mallocCountTotal only)
#     bash Benchmarks/thresholds.sh folder    # prints the folder this toolchain reads
#
# check, with no folder for this toolchain, says so in one line and exits 0 without running:
# record the counts with update first.
set -euo pipefail
cd "$(dirname "$0")"
action=${1:-check}
toolchain=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1)
if [ -z "$toolchain" ]; then
    echo "thresholds: cannot tell the Swift version from \`swift --version\`" >&2
    exit 2
fi
folder=Thresholds/$toolchain
case $action in
folder)
    echo "$folder"
    ;;
check)
    if ! ls "$folder"/ModalwatchMicro.*.json > /dev/null 2>&1; then
        echo "thresholds: none for Swift $toolchain in Benchmarks/$folder; not checked (record them: bash Benchmarks/thresholds.sh update)"
        exit 0
    fi
    swift package benchmark thresholds check --target ModalwatchMicro --path "$folder" --no-progress
    ;;
update)
    mkdir -p "$folder"
    swift package --allow-writing-to-package-directory benchmark thresholds update --target ModalwatchMicro \
        --path "$folder" --no-progress
    # Only the allocation count is checked; the times differ from run to run.
    for file in "$folder"/ModalwatchMicro.*.json; do
        python3 -c 'import json, sys; p = sys.argv[1]; d = json.load(open(p)); json.dump({"mallocCountTotal": d["mallocCountTotal"]}, open(p, "w"), indent=2); open(p, "a").write("\n")' "$file"
    done
    echo "thresholds: recorded in Benchmarks/$folder"
    ;;
*)
    echo "usage: bash Benchmarks/thresholds.sh check|update|folder" >&2
    exit 2
    ;;
esac
