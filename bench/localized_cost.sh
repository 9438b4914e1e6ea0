#!/usr/bin/env bash
# The engine's cost per localized presentation, by callgrind on `modalwatch check` (release, copies
# without debug info, as bench/engine_cost.sh): the translated sessions of the localized corpus
# (Tests/Corpus/localized-alerts.json, bench/localized_corpus.py --write-stream) against the same
# sessions with their English originals' texts and no locale (same events, session ids and times).
# The difference over the translated presentations is what judging a text in its language costs
# over judging its English original, less the cost of the violations the originals have and the
# translations do not. Exact, and independent of the machine's load.
#
#     bash bench/localized_cost.sh [OUT]      (default /tmp/modalwatch-localized-cost)
#
# BIN_DIR: where `modalwatch` and the rule modules are (default .build/release; set, no build).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/modalwatch-localized-cost}
mkdir -p "$out"
bin=${BIN_DIR:-.build/release}
[ -n "${NO_BUILD:-}" ] || [ -n "${BIN_DIR:-}" ] || swift build -c release
cp "$bin/modalwatch" "$bin"/libmodalwatch-rules-*.so "$out/"
strip -g "$out"/modalwatch "$out"/libmodalwatch-rules-*.so
python3 bench/localized_corpus.py --write-stream "$out/corpus.ndjson" > /dev/null
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
sessions = {}
for line in open(f"{out}/corpus.ndjson", encoding="utf-8"):
    event = json.loads(line)
    sessions.setdefault(event["session"], []).append(event)
with open(f"{out}/translated.ndjson", "w", encoding="utf-8") as translated, \
        open(f"{out}/originals.ndjson", "w", encoding="utf-8") as originals:
    for session, events in sessions.items():
        # Session ids are loc-<entry>-<language> (the language may hold dashes: zh-Hans).
        prefix, number, language = session.split("-", 2)
        entry = f"{prefix}-{number}"
        original = sessions.get(f"{entry}-en")
        if language == "en" or original is None or len(original) != len(events):
            continue
        for event, english in zip(events, original):
            translated.write(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n")
            copy = dict(english, session=event["session"], ts=event["ts"])
            originals.write(json.dumps(copy, ensure_ascii=False, separators=(",", ":")) + "\n")
PY
: > "$out/empty.ndjson"
declare -A total
for run in empty originals translated; do
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out/$run.callgrind" \
        "$out/modalwatch" check "$out/$run.ndjson" --format json > "$out/$run.violations" 2> "$out/$run.valgrind.log" || true
    total[$run]=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/$run.valgrind.log" | tail -n 1)
done
python3 - "$out" "${total[empty]}" "${total[originals]}" "${total[translated]}" <<'PY'
import json, sys
out, empty, originals, translated = sys.argv[1], *map(int, sys.argv[2:])
events = presentations = texts = 0
for line in open(f"{out}/translated.ndjson", encoding="utf-8"):
    event = json.loads(line)
    events += 1
    if event["type"].endswith(".presented"):
        presentations += 1
        texts += bool(event.get("title")) + bool(event.get("message")) + sum(bool(b.get("title")) for b in event.get("buttons") or [])
violations = {run: sum(1 for _ in open(f"{out}/{run}.violations")) for run in ("originals", "translated")}
figures = {
    "events": events, "presentations": presentations, "texts": texts, "violations": violations,
    "per_event": {"originals": round((originals - empty) / events, 1), "translated": round((translated - empty) / events, 1)},
    "per_localized_presentation": round((translated - originals) / presentations, 1),
    "per_localized_text": round((translated - originals) / texts, 1),
}
json.dump(figures, open(f"{out}/summary.json", "w"), indent=2)
print(f"{events} events, {presentations} translated presentations, {texts} texts; violations: originals {violations['originals']}, translated {violations['translated']}")
print(f"  per event: originals {figures['per_event']['originals']:,}, translated {figures['per_event']['translated']:,}")
print(f"  per localized presentation over its English original: {figures['per_localized_presentation']:,} instructions "
      f"({figures['per_localized_text']:,} a text)")
PY
