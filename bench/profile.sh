#!/usr/bin/env bash
# Where modalwatchd spends its time, two ways:
#  1. perf: the real daemon under modalwatch-bench's end-to-end load (single events and
#     50-event batches), sampled with call graphs; per-thread and per-symbol reports.
#  2. callgrind: instruction counts of the same engine offline (`modalwatch check`) on
#     the first 100,000 events of the bench stream: exact, and independent of the load
#     other processes put on the machine.
#
#     bash bench/profile.sh [OUT]          (default OUT: /tmp/modalwatch-profile)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/modalwatch-profile}
mkdir -p "$out"
swift build -c release
swift build -c release --package-path Benchmarks
bench=Benchmarks/.build/release/modalwatch-bench

# 1. perf under load.
"$bench" --only e2e --repeat 1 --perf "$out" --output "$out/bench"
for data in "$out"/e2e-*.data; do
    base=${data%.data}
    perf report -i "$data" --no-children --sort pid --stdio -g none 2>/dev/null > "$base.threads.txt"
    perf report -i "$data" --no-children --sort dso,sym --stdio -g none 2>/dev/null > "$base.self.txt"
    perf report -i "$data" --children --sort sym --stdio -g none 2>/dev/null > "$base.children.txt"
done

# 2. callgrind. valgrind 3.19 cannot read the Swift toolchain's DWARF ("possibly corrupted
# debuginfo"), so it runs copies without debug info; the symbol tables stay.
work="$out/callgrind"
mkdir -p "$work"
cp .build/release/modalwatch .build/release/libmodalwatch-rules-*.so "$work/"
strip -g "$work"/modalwatch "$work"/libmodalwatch-rules-*.so
python3 bench/generate_stream.py --events 100000 > "$work/stream100k.ndjson"
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    "$work/modalwatch" check "$work/stream100k.ndjson" --format json > /dev/null 2> "$work/valgrind.log" || true
callgrind_annotate --inclusive=yes "$work/callgrind.out" > "$work/inclusive.txt"
callgrind_annotate "$work/callgrind.out" > "$work/self.txt"
echo "reports in $out: e2e-*.threads.txt, e2e-*.self.txt, e2e-*.children.txt, callgrind/inclusive.txt, callgrind/self.txt"
