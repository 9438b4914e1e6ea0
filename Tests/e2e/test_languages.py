"""Languages end to end (events.md and rules.md, "Languages"): a German session's alert is judged
by the German Cancel, its violations carry the locale, the English rules it skips are counted in
`status` and the rules listing says each rule's languages; a malformed locale is bad_field."""
from __future__ import annotations

import json

import e2e_support as support

T0 = 1_732_290_000_000


def test_a_german_session_is_judged_in_german(daemon, sender, subscriber):
    sender.events([
        {"v": 1, "type": "session.start", "session": "L1", "ts": T0, "app": "com.example.l10n", "locale": "de_DE"},
        {"v": 1, "type": "alert.presented", "session": "L1", "ts": T0 + 1000, "id": "a1",
         "title": "Ihr Konto Wurde Gesperrt", "message": "Bitte melden Sie sich erneut an",
         "buttons": [{"title": "Abbrechen"}, {"title": "Löschen", "style": "destructive"}]},
    ])
    messages = subscriber.collect(lambda got: any(m.topic.endswith("/alert-message-style") for m in got))
    rules = {m.body["rule"]: m.body for m in subscriber.violations(messages)}
    assert "alert-message-style" in rules, rules.keys()
    assert rules["alert-message-style"]["locale"] == "de-DE"
    assert "alert-destructive-without-cancel" not in rules, "Abbrechen is the German Cancel"
    assert "alert-title-style" not in rules, "an English rule, not called for German"
    status = daemon.wait_status(lambda s: s.get("languages_skipped", {}).get("alert-title-style/de", 0) >= 1,
                                what="the skipped English rule counted")
    assert status["languages_skipped"]["alert-pronoun/de"] >= 1


def test_a_malformed_locale_is_bad_field(daemon, sender, subscriber):
    sender.event({"v": 1, "type": "session.start", "session": "L2", "ts": T0, "app": "com.example.l10n", "locale": "de--DE"})
    messages = subscriber.collect(lambda got: any(m.topic.startswith("diag/") for m in got))
    diagnostics = subscriber.diagnostics(messages)
    assert diagnostics and diagnostics[0].body["reason"] == "bad_field", [m.body for m in diagnostics]
    assert "locale" in diagnostics[0].body["detail"]


def test_the_rules_listing_names_each_rules_languages():
    listing = support.cli_json(["rules", "--json"])
    languages = {rule["id"]: rule.get("languages") for rule in listing["rules"]}
    assert languages["alert-pronoun"] == "en"
    assert languages["alert-cancel-label"] == "localized"
    assert languages["alert-frequency"] == "any"



def _alert(session: str, ts: int, locale: str | None, title: str, cancel: str) -> list[dict]:
    start = {"v": 1, "type": "session.start", "session": session, "ts": ts, "app": "com.example.l10n"}
    if locale:
        start["locale"] = locale
    return [start, {"v": 1, "type": "alert.presented", "session": session, "ts": ts + 1000, "id": "a1", "title": title,
                    "message": "ok", "buttons": [{"title": cancel, "style": "cancel"}, {"title": "OK"}]}]


def test_violations_keeps_the_violations_of_one_language(daemon, sender):
    sender.events(_alert("G1", T0, "de-DE", "Fehler", "Abbrechen") + _alert("S1", T0 + 10_000, "de-CH", "Fehler", "Abbrechen")
                  + _alert("E1", T0 + 20_000, None, "Error", "Cancel"))

    def listed(*args: str) -> list[dict]:
        result = support.run_cli(["violations", "--control", daemon.control, "--json", "--limit", "1000", *args])
        assert result.returncode in (0, 1), result.stderr.decode()
        return [json.loads(line) for line in result.stdout.decode().splitlines() if line.strip()]

    assert support.poll_until(lambda: {v["session"] for v in listed()} >= {"G1", "S1", "E1"}, 10), listed()
    everything = listed()
    german = listed("--locale", "de")
    assert german and {v["session"] for v in german} == {"G1", "S1"}
    assert len(german) == sum(1 for v in everything if v.get("locale", "").startswith("de-"))
    assert {v["session"] for v in listed("--locale", "de_ch")} == {"S1"}, "Apple's spelling, any case, normalized"
    assert listed("--locale", "fr") == []
    direct = support.run_cli(["violations", "--state-dir", str(daemon.workdir / "state"), "--json", "--locale", "de-CH"])
    assert direct.returncode in (0, 1), direct.stderr.decode()
    assert {json.loads(line)["session"] for line in direct.stdout.decode().splitlines() if line.strip()} == {"S1"}
    bad = support.run_cli(["violations", "--control", daemon.control, "--locale", "de--DE"])
    assert bad.returncode == 2 and b"BCP 47" in bad.stderr, bad.stderr


def test_sarif_and_the_report_carry_the_language(tmp_path):
    events = _alert("G1", T0, "de-DE", "Fehler", "Abbrechen") + _alert("E1", T0 + 10_000, None, "Error", "Cancel")
    stream = tmp_path / "mixed.ndjson"
    stream.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events))
    sarif = support.run_cli(["check", str(stream), "--format", "sarif"])
    assert sarif.returncode == 1, sarif.stderr.decode()
    results = json.loads(sarif.stdout)["runs"][0]["results"]
    by_session = {}
    for result in results:
        by_session.setdefault(result["properties"]["session"], set()).add(result["properties"].get("locale"))
    assert by_session["G1"] == {"de-DE"} and by_session["E1"] == {None}, by_session

    report = tmp_path / "report.html"
    made = support.run_cli(["report", str(stream), "--output", str(report)])
    assert made.returncode == 0, made.stderr.decode()
    page = report.read_text()
    assert 'id="languages"' in page and 'href="#languages"' in page
    section = page[page.index('id="languages"'):page.index("</section>", page.index('id="languages"'))]
    assert "de-DE" in section and "undetermined" in section

    english = tmp_path / "english.ndjson"
    english.write_text("".join(json.dumps(e) + "\n" for e in _alert("E2", T0, None, "Error", "Cancel")))
    english_report = tmp_path / "english.html"
    assert support.run_cli(["report", str(english), "--output", str(english_report)]).returncode == 0
    assert 'id="languages"' not in english_report.read_text(), "no language section without a locale"
