"""Real alerts and action sheets from open-source iOS apps (Tests/Corpus/real-alerts.json): NetNewsWire,
DuckDuckGo, Mastodon, Ice Cubes and Home Assistant, labelled by hand from the catalogue before the checker ran
on them: `check` must find exactly the labelled violations (precision 100 %) and miss at most 1 % of them
(recall >= 99 %)."""
from __future__ import annotations

import json

import e2e_support as support

CORPUS = support.PACKAGE_ROOT / "Tests" / "Corpus" / "real-alerts.json"
T0 = 1_732_290_000_000


def test_real_alerts_score_precision_100_and_recall_at_least_99(tmp_path):
    corpus = json.loads(CORPUS.read_text())
    events = []
    for n, entry in enumerate(corpus["alerts"]):
        source = entry["source"]
        assert source["repo"] and source["file"] and source["line"] > 0, entry
        alert = entry["alert"]
        session = f"corpus-{n}"
        presented = {"v": 1, "type": "alert.presented", "session": session, "ts": T0 + 1000, "id": f"a{n}",
                     "title": alert["title"], "message": alert["message"], "buttons": alert["buttons"]}
        if alert.get("text_fields"):
            presented["text_fields"] = [{"secure": False}] * alert["text_fields"]
        # one session per alert: only the alert's own rules can fire
        events += [{"v": 1, "type": "session.start", "session": session, "ts": T0, "app": "com.example.corpus"}, presented]
    for n, entry in enumerate(corpus.get("sheets", [])):
        assert entry["source"]["repo"] and entry["source"]["file"] and entry["source"]["line"] > 0, entry
        sheet = entry["sheet"]
        session = f"corpus-sheet-{n}"
        events += [
            {"v": 1, "type": "session.start", "session": session, "ts": T0, "app": "com.example.corpus", "device": "phone"},
            {"v": 1, "type": "user.action", "session": session, "ts": T0 + 900, "control": "bar_button", "label": "Open"},
            {"v": 1, "type": "sheet.presented", "session": session, "ts": T0 + 1000, "id": f"s{n}",
             "title": sheet["title"], "message": sheet["message"], "buttons": sheet["buttons"]},
        ]
    stream = support.write_stream(tmp_path / "corpus.ndjson", events)
    code, violations, stderr = support.check_json(stream, "--edition", corpus["edition"], "--fail-on", "error")
    assert "rejected" not in stderr, stderr
    modules = set(corpus["modules"])
    found = {(v["subject"], v["rule"]) for v in violations if v["module"] in modules}
    labelled = {(f"a{n}", rule) for n, entry in enumerate(corpus["alerts"]) for rule in entry["expected"]}
    labelled |= {(f"s{n}", rule) for n, entry in enumerate(corpus.get("sheets", [])) for rule in entry["expected"]}
    false_positives = sorted(found - labelled)
    missed = sorted(labelled - found)
    precision = 1.0 if not found else len(found & labelled) / len(found)
    recall = 1.0 if not labelled else len(found & labelled) / len(labelled)
    assert precision == 1.0, f"found but not labelled: {false_positives}"
    assert recall >= 0.99, f"labelled but not found: {missed}"
    # every one of these violations says what to do instead
    assert all(v["suggestion"] for v in violations if v["module"] in modules), violations
