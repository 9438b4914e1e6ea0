"""The daemon's `/metrics` as Prometheus tooling reads it (docs/RELIABILITY.md, "Metrics"): Debian's
`promtool check metrics` finds nothing to say, every family has `# HELP` and `# TYPE`, the labelled
families have a zero series for every loaded rule and every rejection reason before anything is
counted; and `/healthz` answers `ok` (the 503 of a failing history is in test_cli_status.py)."""
from __future__ import annotations

import re
import shutil
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import e2e_support as support

REJECTION_REASONS = ("malformed_json", "missing_field", "bad_field", "too_large")


def promtool() -> str:
    found = shutil.which("promtool")
    assert found, "promtool is not installed (Debian's prometheus package; scripts/test.sh installs it)"
    return found


def metrics_daemon(zctx, folder: Path, config: str = "") -> support.Daemon:
    (folder / "config.yaml").write_text("metrics: 127.0.0.1:0\n" + config)
    return support.Daemon(zctx, folder, ["--config", str(folder / "config.yaml")]).start()


def base_url(daemon: support.Daemon) -> str:
    return daemon.status()["endpoints"]["metrics"][0].removesuffix("/metrics")


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def families(text: str) -> tuple[dict[str, str], dict[str, str], set[str]]:
    """HELP and TYPE by family, and the families that have samples."""
    helps: dict[str, str] = {}
    types: dict[str, str] = {}
    sampled: set[str] = set()
    for line in text.splitlines():
        if line.startswith("# HELP "):
            name, _, help_text = line[7:].partition(" ")
            helps[name] = help_text
        elif line.startswith("# TYPE "):
            name, _, kind = line[7:].partition(" ")
            types[name] = kind
        elif line and not line.startswith("#"):
            sampled.add(re.split(r"[{ ]", line, maxsplit=1)[0])
    return helps, types, sampled


def test_promtool_passes_and_every_family_has_help_type_and_zero_series(zctx, tmp_path):
    daemon = metrics_daemon(zctx, tmp_path)
    try:
        status, text = get(base_url(daemon) + "/metrics")
        assert status == 200
        checked = subprocess.run([promtool(), "check", "metrics"], input=text, capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0 and not checked.stdout.strip() and not checked.stderr.strip(), \
            (checked.stdout, checked.stderr)
        helps, types, sampled = families(text)
        assert sampled <= set(types), sorted(sampled - set(types))
        assert set(helps) == set(types), sorted(set(helps) ^ set(types))
        for name, help_text in helps.items():
            assert help_text.endswith(".") and len(help_text.split()) >= 3, (name, help_text)
        # Labelled families exist from the start: a rule that never fired, a reason never seen.
        rules = daemon.request({"cmd": "rules"})["rules"]
        assert rules
        rule = rules[0]
        assert f'modalwatch_violations_rate_limited_total{{rule="{rule["id"]}"}} 0' in text, text
        zero_violations = re.search(
            rf'^modalwatch_violations_total\{{(?=[^}}]*rule="{re.escape(rule["id"])}")[^}}]*\}} 0$', text, re.M)
        assert zero_violations, text
        for reason in REJECTION_REASONS:
            assert f'modalwatch_events_rejected_total{{reason="{reason}"}} 0' in text, (reason, text)
        assert types["modalwatch_violations_total"] == "counter" and types["modalwatch_sessions_live"] == "gauge"
    finally:
        assert daemon.stop() == 0


def test_healthz_says_ok_while_the_loop_runs_and_the_history_takes_writes(zctx, tmp_path):
    daemon = metrics_daemon(zctx, tmp_path)
    try:
        base = base_url(daemon)
        assert get(base + "/healthz") == (200, "ok\n")
        status, body = get(base + "/nowhere")
        assert status == 404 and "/healthz" in body
    finally:
        assert daemon.stop() == 0


def test_a_skipped_judgement_is_exported_with_its_help(zctx, tmp_path):
    """A German alert skips the English rules; the scrape after it names the skips by rule and
    language, with `# HELP` (a family without its help text stopped the daemon)."""
    daemon = metrics_daemon(zctx, tmp_path)
    sender = support.EventSender(zctx, daemon.events)
    try:
        sender.warm_up(daemon)
        sender.events([
            {"v": 1, "type": "session.start", "session": "L1", "ts": 1_732_290_000_000, "app": "com.example.l10n",
             "locale": "de-DE"},
            {"v": 1, "type": "alert.presented", "session": "L1", "ts": 1_732_290_001_000, "id": "a1",
             "title": "Ihr Konto Wurde Gesperrt", "message": "Bitte melden Sie sich erneut an.",
             "buttons": [{"title": "Abbrechen"}, {"title": "Anmelden"}]},
        ])
        daemon.wait_status(lambda s: s.get("languages_skipped", {}).get("alert-pronoun/de", 0) >= 1,
                           what="the skipped English rule counted")
        scraped = {"text": ""}

        def exported() -> bool:
            status, scraped["text"] = get(base_url(daemon) + "/metrics")
            return status == 200 and "modalwatch_language_skips_total{" in scraped["text"]

        # The metrics are refreshed by the loop's tick, not at each event.
        assert support.poll_until(exported, 10, interval=0.2), scraped["text"]
        text = scraped["text"]
        helps, types, _ = families(text)
        assert "modalwatch_language_skips_total" in helps and types["modalwatch_language_skips_total"] == "counter"
        assert 'modalwatch_language_skips_total{language="de",rule="alert-pronoun"}' in text or \
            'modalwatch_language_skips_total{rule="alert-pronoun",language="de"}' in text, text
    finally:
        sender.close()
        assert daemon.stop() == 0
