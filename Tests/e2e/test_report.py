"""`modalwatch report`: every number in the HTML equals what `check --format json` or
`violations --json` gives for the same data (the page is parsed, not grepped); headless Chromium
renders it at 390 and 1280 px; an empty history says there is nothing yet; bad usage exits 2."""
from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter, defaultdict
from pathlib import Path

import pytest

import e2e_support as support
import report_html

STREAM = support.PACKAGE_ROOT / "demo" / "stream.ndjson"
CHARTS_FROM_STREAMS = {"by-rule", "by-app", "over-time", "by-version", "presentations", "depth", "alerts-per-session", "session-1"}


def events(path: Path = STREAM) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def make_report(tmp_path: Path, *args: str, name: str = "report.html") -> tuple[report_html.Report, str]:
    output = tmp_path / name
    result = support.run_cli(["report", *support.rules_dir_args(), *args, "--output", str(output)], timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    html = output.read_text()
    return report_html.parse(html), html


def stream_facts(stream: list[dict]) -> dict:
    """What the stream itself says, computed here from the events: sessions, alerts, deepest
    modal depth, app versions, and each presentation's texts (the report's keys)."""
    sessions: dict[str, dict] = {}
    live_stack: dict[str, list[tuple[str, str]]] = defaultdict(list)
    texts: dict[tuple[str, str], tuple] = {}
    for event in stream:
        s = event["session"]
        info = sessions.setdefault(s, {"app": event.get("app", ""), "version": None, "alerts": 0, "depth": 0})
        kind, _, what = event["type"].partition(".")
        if event["type"] == "session.start":
            info["app"], info["version"] = event["app"], event.get("app_version")
        if what == "presented" and kind in ("alert", "sheet", "modal", "popover"):
            live_stack[s].append((event["id"], kind))
            if kind == "alert":
                info["alerts"] += 1
            info["depth"] = max(info["depth"], sum(1 for _, k in live_stack[s] if k == "modal"))
            if kind != "popover":
                buttons = tuple(b.get("title", "") for b in event.get("buttons", []))
                texts[(s, event["id"])] = (info["app"], kind, event.get("title"), event.get("message"), buttons,
                                           event["id"] if kind == "modal" else None)
        elif what == "dismissed":
            ids = [i for i, _ in live_stack[s]]
            if event["id"] in ids:
                del live_stack[s][len(ids) - 1 - ids[::-1].index(event["id"]):]
        elif event["type"] == "session.end":
            live_stack.pop(s, None)
    return {"sessions": sessions, "texts": texts}


def bucketed(values: list[int]) -> dict[str, int]:
    top = min(10, max(values, default=0))
    out = {str(n): sum(1 for v in values if v == n) for n in range(0, min(top, 9) + 1)}
    if top >= 10:
        out["10+"] = sum(1 for v in values if v >= 10)
    return out


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[report_html.Report, str, list[dict]]:
    code, violations, stderr = support.check_json(STREAM)
    assert violations, stderr
    report, html = make_report(tmp_path_factory.mktemp("report"), str(STREAM))
    return report, html, violations


def test_summary_rules_apps_and_time_equal_check(demo):
    report, _, violations = demo
    stream = events()
    summary = report.table("summary")
    severities = Counter(v["severity"] for v in violations)
    assert summary.numbers("count") == {
        "events": len(stream), "sessions": len({e["session"] for e in stream}), "violations": len(violations),
        "error": severities["error"], "warning": severities["warning"], "info": severities["info"],
    }
    assert report.table("by-rule").numbers("count") == Counter(v["rule"] for v in violations)
    by_app = report.table("by-app")
    for severity in ("error", "warning", "info"):
        expected = Counter(v["app"] for v in violations if v["severity"] == severity)
        assert {k: n for k, n in by_app.numbers(severity).items() if n} == expected
    assert by_app.numbers("count") == Counter(v["app"] for v in violations)
    over_time = report.table("over-time")
    width = int(over_time.attrs["data-width"])
    expected = Counter((v["ts"] // width) * width for v in violations)
    assert {int(k): n for k, n in over_time.numbers("count").items() if n} == expected
    keys = sorted(int(k) for k in over_time.rows)
    assert keys == list(range(keys[0], keys[-1] + width, width)), "every bucket from first to last, none missing"


def test_rules_link_to_their_glossary_entry_with_the_guideline(demo):
    report, _, violations = demo
    by_rule = report.table("by-rule")
    for v in violations:
        assert by_rule.rows[v["rule"]]["guideline"] == v["guideline"]
        assert f"rule-{v['rule']}" in report.ids
        assert f"#rule-{v['rule']}" in report.links


def test_versions_depth_and_alerts_equal_the_stream(demo):
    report, _, violations = demo
    facts = stream_facts(events())
    sessions = facts["sessions"]
    versions = report.table("by-version")
    expected_sessions = Counter(f"{i['app']} {i['version']}" for i in sessions.values() if i["version"])
    expected_violations = Counter(f"{sessions[v['session']]['app']} {sessions[v['session']]['version']}"
                                  for v in violations if sessions[v["session"]]["version"])
    assert versions.numbers("sessions") == expected_sessions
    assert {k: n for k, n in versions.numbers("violations").items() if n} == expected_violations
    assert report.table("depth").numbers("sessions") == bucketed([i["depth"] for i in sessions.values()])
    assert report.table("alerts-per-session").numbers("sessions") == bucketed([i["alerts"] for i in sessions.values()])


def test_worst_presentations_and_sessions_equal_check(demo):
    report, _, violations = demo
    texts = stream_facts(events())["texts"]
    by_text: dict[tuple, list[str]] = defaultdict(list)
    for v in violations:
        if v.get("subject") and (v["session"], v["subject"]) in texts:
            by_text[texts[(v["session"], v["subject"])]].append(v["rule"])
    table = report.table("worst-presentations")
    got = sorted((int(r["violations"]), r["rules"]) for r in table.rows.values())
    want = sorted((len(rules), " ".join(sorted(set(rules)))) for rules in by_text.values())[-len(got):]
    assert got == want
    counts = [int(table.rows[k]["violations"]) for k in table.order]
    assert counts == sorted(counts, reverse=True), "worst first"

    per_session = Counter(v["session"] for v in violations)
    tables = report.all_tables("session-violations")
    assert tables, "the worst sessions have timelines"
    for t in tables:
        session = t.attrs["data-session"]
        assert Counter(r["rule"] for r in t.rows.values()) == Counter(v["rule"] for v in violations if v["session"] == session)
        assert sorted(int(r["at"]) for r in t.rows.values()) == sorted(v["ts"] for v in violations if v["session"] == session)
    shown = [t.attrs["data-session"] for t in tables]
    assert [per_session[s] for s in shown] == sorted(per_session.values(), reverse=True)[:len(shown)]


def test_charts_are_accessible_and_the_page_self_contained(demo):
    report, html, _ = demo
    assert CHARTS_FROM_STREAMS <= set(report.charts), set(report.charts)
    for chart in report.charts.values():
        assert chart.attrs["role"] == "img"
        assert chart.attrs["aria-labelledby"] == f"{chart.name}-title {chart.name}-desc"
        assert chart.title and chart.desc, chart.name
        assert chart.shapes > 0, chart.name
    assert report.external == [], "no script, stylesheet, image or font from elsewhere"
    assert "@media print" in html and "prefers-color-scheme" in html
    assert not report.empty


def test_app_filter(tmp_path: Path):
    _, violations, _ = support.check_json(STREAM)
    app = "com.example.notes"
    report, _ = make_report(tmp_path, str(STREAM), "--app", app)
    stream = [e for e in events() if e["session"] in {x["session"] for x in events() if x.get("app") == app}]
    summary = report.table("summary").numbers("count")
    assert summary["violations"] == sum(1 for v in violations if v["app"] == app)
    assert summary["events"] == len(stream)
    assert list(report.table("by-app").rows) == [app]


def test_time_filter(tmp_path: Path):
    _, violations, _ = support.check_json(STREAM)
    times = sorted(v["ts"] for v in violations)
    middle = times[len(times) // 2]
    iso = subprocess.run(["date", "-u", "-d", f"@{middle // 1000}", "+%Y-%m-%dT%H:%M:%SZ"], capture_output=True, text=True).stdout.strip()
    report, _ = make_report(tmp_path, str(STREAM), "--since", iso)
    start = middle // 1000 * 1000
    assert report.table("summary").numbers("count")["violations"] == sum(1 for t in times if t >= start)


def send_demo_and_settle(daemon: support.Daemon) -> None:
    lines = len(events())
    result = support.run_cli(["send", str(STREAM), "--events", daemon.events, "--timeout", "5000"], timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    daemon.wait_status(lambda s: s["events_received"] >= lines, timeout=10, what="every demo event")
    _, expected, _ = support.check_json(STREAM)
    daemon.wait_status(lambda s: s["violations_published"] >= len(expected), timeout=10, what="every violation")


def test_history_and_daemon_reports_equal_violations_json(daemon: support.Daemon, tmp_path: Path):
    send_demo_and_settle(daemon)
    result = support.run_cli(["violations", "--json", "--limit", "10000", "--control", daemon.control])
    listed = [json.loads(line) for line in result.stdout.decode().splitlines() if line.strip()]
    assert listed
    state_dir = daemon.workdir / "state"
    for args in (["--state-dir", str(state_dir)], ["--control", daemon.control]):
        report, _ = make_report(tmp_path, *args, name=f"{args[0][2:]}.html")
        summary = report.table("summary")
        assert summary.numbers("count")["violations"] == len(listed), args
        assert summary.numbers("count")["sessions"] == len({v["session"] for v in listed}), args
        assert report.table("by-rule").numbers("count") == Counter(v["rule"] for v in listed), args
        assert report.table("by-app").numbers("count") == Counter(v["app"] for v in listed), args
        # A history keeps no events: the sections that need them say so instead of inventing numbers.
        assert {"versions", "distributions", "stack"} <= set(report.unavailable), args
        sessions = report.all_tables("session-violations")
        per_session = Counter(v["session"] for v in listed)
        for t in sessions:
            assert len(t.rows) == per_session[t.attrs["data-session"]]
    daemon_report, _ = make_report(tmp_path, "--control", daemon.control, name="events.html")
    assert daemon_report.table("summary").numbers("count")["events"] == daemon.status()["events_received"]


def test_an_empty_history_says_there_is_nothing_yet(daemon: support.Daemon, tmp_path: Path):
    report, html = make_report(tmp_path, "--state-dir", str(daemon.workdir / "state"))
    assert report.empty
    assert report.table("summary").numbers("count")["violations"] == 0
    assert "Nothing yet" in html


@pytest.mark.parametrize("args, code, words", [
    # No source: the daemon found as `violations` finds it (MODALWATCH_CONTROL here), unreachable.
    ([], 3, "tcp://127.0.0.1:9"),
    (["x.ndjson", "--state-dir", "/tmp"], 2, "one source"),
    (["--state-dir", "/nonexistent-modalwatch"], 2, "no history at"),
    (["/nonexistent-modalwatch.ndjson"], 2, "cannot read"),
    (["--state-dir", "/tmp", "--edition", "ios7"], 2, "--edition"),
    ([str(STREAM), "--since", "yesterday"], 2, "--since"),
    (["--control", "tcp://127.0.0.1:9"], 3, "no reply"),
])
def test_usage_errors(tmp_path: Path, args: list[str], code: int, words: str):
    env = {**support.os.environ, "MODALWATCH_CONTROL": "tcp://127.0.0.1:9"}
    result = support.subprocess.run([str(support.cli_path()), "report", *args, "--output", str(tmp_path / "r.html"),
                                     "--timeout", "300"], capture_output=True, env=env, timeout=30)
    assert result.returncode == code, result.stderr.decode()
    assert words in result.stderr.decode()
    assert not (tmp_path / "r.html").exists()


def test_an_unwritable_output_is_one_line_and_exit_2(tmp_path: Path):
    result = support.run_cli(["report", str(STREAM), "--output", str(tmp_path / "missing" / "r.html")])
    assert result.returncode == 2
    assert "cannot write the report" in result.stderr.decode()


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.parametrize("width", [390, 1280])
def test_chromium_renders_every_chart_at_phone_and_desktop_width(demo, tmp_path: Path, width: int):
    browser = chromium()
    if browser is None:
        pytest.fail("chromium is not installed (scripts/test.sh installs it)")
    _, html, _ = demo
    page = tmp_path / "report.html"
    page.write_text(html)
    common = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
              f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},2000"]
    shot = tmp_path / f"shot-{width}.png"
    subprocess.run([*common, f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=90)
    assert shot.is_file(), "no screenshot"
    size, colours, top_share = report_html.screenshot_stats(str(shot))
    assert size == (width, 2000)
    assert colours > 20 and top_share < 0.97, f"a blank-looking page: {colours} colours, {top_share:.0%} one colour"
    dom = subprocess.run([*common, "--dump-dom", page.as_uri()], capture_output=True, timeout=90).stdout.decode()
    rendered = report_html.parse(dom)
    assert CHARTS_FROM_STREAMS <= set(rendered.charts), set(rendered.charts)
    for chart in rendered.charts.values():
        assert chart.title and chart.desc and chart.shapes > 0, chart.name


def test_chromium_follows_the_dark_colour_scheme(demo, tmp_path: Path):
    browser = chromium()
    if browser is None:
        pytest.fail("chromium is not installed (scripts/test.sh installs it)")
    from PIL import Image
    _, html, _ = demo
    page = tmp_path / "report.html"
    page.write_text(html)
    corners = {}
    for scheme, flags in (("light", []), ("dark", ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"])):
        shot = tmp_path / f"{scheme}.png"
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", *flags, f"--user-data-dir={tmp_path / scheme}",
                        f"--screenshot={shot}", "--window-size=390,600", page.as_uri()], capture_output=True, timeout=90)
        with Image.open(shot) as image:
            corners[scheme] = sum(image.convert("RGB").getpixel((3, 3))) / 3
    assert corners["light"] > 200 and corners["dark"] < 60, corners


def test_several_daemons_are_merged(zctx, daemon: support.Daemon, tmp_path: Path):
    """Sharded daemons each hold their shard's violations: one report over both adds them up."""
    second = support.Daemon(zctx, tmp_path / "second").start()
    try:
        send_demo_and_settle(daemon)
        send_demo_and_settle(second)
        listed = []
        for one in (daemon, second):
            result = support.run_cli(["violations", "--json", "--limit", "10000", "--control", one.control])
            listed += [json.loads(line) for line in result.stdout.decode().splitlines() if line.strip()]
        report, _ = make_report(tmp_path, "--control", daemon.control, "--control", second.control)
        counts = report.table("summary").numbers("count")
        assert counts["violations"] == len(listed)
        assert counts["events"] == daemon.status()["events_received"] + second.status()["events_received"]
        assert report.table("by-rule").numbers("count") == Counter(v["rule"] for v in listed)
    finally:
        assert second.stop() == 0


def test_a_daemon_report_reads_every_page_of_a_large_history(daemon: support.Daemon, tmp_path: Path):
    """More violations than one control reply holds (256 KiB): the report follows the pages."""
    t0 = 1_732_290_000_000
    events = [{"v": 1, "type": "session.start", "session": "big", "ts": t0, "app": "com.example.big"}]
    for i in range(400):
        events.append({"v": 1, "type": "alert.presented", "session": "big", "ts": t0 + 1000 * (i + 1), "id": f"a{i}",
                       "title": "Error", "message": "it failed", "buttons": [{"title": "OK"}]})
    stream = support.write_stream(tmp_path / "big.ndjson", events)
    _, expected, _ = support.check_json(stream)
    assert len(expected) * 600 > 256 * 1024, "enough violations for several pages"
    result = support.run_cli(["send", str(stream), "--events", daemon.events, "--timeout", "5000"], timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    daemon.wait_status(lambda s: s["violations_published"] >= len(expected), timeout=20, what="every violation")
    report, _ = make_report(tmp_path, "--control", daemon.control)
    assert report.table("summary").numbers("count")["violations"] == len(expected)
    assert report.table("by-rule").numbers("count") == Counter(v["rule"] for v in expected)


def test_worst_alert_cards_show_the_alert_as_it_appeared_and_as_the_suggestions_make_it(demo):
    import re
    _, html, violations = demo
    cards = [part.split("</ol>")[0] for part in html.split('<li class="pcard')[1:]]
    assert cards, "worst-alert cards"
    by_text = {}
    for card in cards:
        title = re.search(r'<p class="ptitle">([^<]*)</p>', card)
        if title:
            by_text[title.group(1)] = card
    # the alert titled Error: its message gets its ending period, every rule's suggestion is listed
    error = by_text["Error"]
    shown, suggested = error.split('class="pform as-suggested"')
    assert "As it appeared" in shown and '<p class="pmessage">Something went wrong</p>' in shown, error
    assert "As the suggestions make it" in suggested and '<p class="pmessage">Something went wrong.</p>' in suggested, error
    wanted = {v["suggestion"] for v in violations if v["subject"] and v["session"] == "mail-7f3a"
              and v["rule"] in ("alert-message-style", "alert-title-single-word")}
    for suggestion in wanted:
        assert suggestion.replace("“", "&#8220;") in suggested or suggestion in suggested, (suggestion, suggested)
    # the alert without a cancel button gets one, on the left
    delete = by_text["Delete all messages?"]
    assert re.search(r'as-suggested.*<ul class="buttons"[^>]*><li>Cancel</li><li>Delete All</li>', delete, re.S), delete


def test_report_flaws_a_designer_met(demo, tmp_path: Path):
    import re
    _, html, _ = demo
    # no plural for one, timeline labels whole (not inside the bar's clipping svg), versions not side by side
    assert not re.search(r"\b1 alerts\b|\b1 events\b", html)
    labels = re.findall(r'<text class="bar-label"[^>]*>(?:<title>[^<]*</title>)?([^<]*)</text>', html)
    assert labels and "modal \u201cShare note\u201d" in labels, labels
    assert 'class="in-bar' not in html
    versions = html.split('id="versions"')[1].split("</section>")[0]
    assert 'class="pair"' not in versions
    # the summary line counts in words
    result = support.run_cli(["report", *support.rules_dir_args(), str(STREAM), "--output", str(tmp_path / "r.html")], timeout=60)
    assert "report: 20 violations, 71 events, 5 sessions" in result.stderr.decode(), result.stderr.decode()
