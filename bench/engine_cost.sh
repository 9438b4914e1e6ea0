#!/usr/bin/env bash
# Cost per unit of work of the engine, by callgrind on `modalwatch check` (release,
# copies without debug info, as bench/profile.sh): instructions, allocations and
# retain/release per clean event and per violation (definitions and figures:
# docs/PERFORMANCE.md). Exact, and independent of the machine's load.
#
#     bash bench/engine_cost.sh [--held-out] [OUT] [EVENTS]      (default /tmp/modalwatch-cost, 100000)
#
# --held-out: the same measurement on the held-out streams of bench/held_out_stream.py (another
# mix of alerts, sheets, modal views and popovers, other texts, apps, session ids and lengths)
# instead of bench/generate_stream.py's; default OUT /tmp/modalwatch-cost-held-out.
# BIN_DIR: where `modalwatch` and the rule modules are (default .build/release; set, no build).
# OUT/summary.json has the figures printed at the end (modalwatch-bench's `cost` reads it).
set -euo pipefail
cd "$(dirname "$0")/.."
generator=bench/generate_stream.py
default_out=/tmp/modalwatch-cost
if [ "${1:-}" = --held-out ]; then
    generator=bench/held_out_stream.py
    default_out=/tmp/modalwatch-cost-held-out
    shift
fi
out=${1:-$default_out}
events=${2:-100000}
small=20000
mkdir -p "$out"
bin=${BIN_DIR:-.build/release}
[ -n "${NO_BUILD:-}" ] || [ -n "${BIN_DIR:-}" ] || swift build -c release
cp "$bin/modalwatch" "$bin"/libmodalwatch-rules-*.so "$out/"
strip -g "$out"/modalwatch "$out"/libmodalwatch-rules-*.so
for profile in clean stress; do
    python3 "$generator" --profile "$profile" --events "$events" > "$out/$profile.ndjson"
    head -n "$small" "$out/$profile.ndjson" > "$out/$profile-small.ndjson"
    for run in "$profile" "$profile-small"; do
        # Deterministic hashing: Swift seeds its `Hasher` per process, so the probes of a
        # `String`-keyed dictionary (an app's name looked up at each session start) would differ
        # from run to run by some tens of instructions an event.
        SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out/$run.callgrind" \
            "$out/modalwatch" check "$out/$run.ndjson" --format json > "$out/$run.violations" 2> "$out/$run.valgrind.log" || true
        python3 bench/callgrind_calls.py "$out/$run.callgrind" > "$out/$run.counts"
    done
    callgrind_annotate --inclusive=yes "$out/$profile.callgrind" > "$out/$profile.inclusive.txt"
    callgrind_annotate "$out/$profile.callgrind" > "$out/$profile.self.txt"
done
# Per event: (run on EVENTS − run on the first 20000) / (EVENTS − 20000), so start-up
# (module loading) and the first 10,000 session starts are not counted. Per violation: the extra cost of the stress stream
# over the clean one, divided by the extra violations.
python3 - "$out" "$events" "$small" "$generator" <<'PY'
import json, sys
out, events, small, generator = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def counts(run):
    result = {}
    for line in open(f"{out}/{run}.counts"):
        parts = line.split()
        result[parts[0] if parts[0] == "total" else parts[1]] = int(parts[-1])
    result["violations"] = sum(1 for _ in open(f"{out}/{run}.violations"))
    return result
per = {}
for profile in ("clean", "stress"):
    big, little = counts(profile), counts(f"{profile}-small")
    per[profile] = {k: (big[k] - little[k]) / (events - small) for k in big}
    print(f"{profile}: {big['violations']} violations in {events} events ({100 * big['violations'] / events:.2f} %)")
    print("  per event: " + ", ".join(f"{k} {v:,.2f}" for k, v in per[profile].items() if k != "violations"))
extra = per["stress"]["violations"] - per["clean"]["violations"]
violation = {k: (per["stress"][k] - per["clean"][k]) / extra for k in per["clean"] if k != "violations"}
print("per violation (stress − clean over the extra violations): " + ", ".join(f"{k} {v:,.1f}" for k, v in violation.items()))
with open(f"{out}/summary.json", "w") as summary:
    json.dump({"streams": generator, "events": events, "counted_from": small, "per_clean_event": per["clean"], "per_stress_event": per["stress"],
               "per_violation": violation}, summary, indent=1)
PY
