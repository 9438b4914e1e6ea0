"""Terminal escapes in event fields never reach the operator's terminal: given a session id and
an alert title holding an OSC title change and a screen clear, the text output of `tail`,
`violations`, `session`, `sessions`, `top` and `check` has no control byte but newline
and tab, and shows the escape visibly as `\\u{1B}`; JSON output (`--json`) escapes them all as `\\uXXXX`
(DEL, C1 and the bidi characters too, which JSON's rules would leave raw); the HTML report has
none either."""
from __future__ import annotations

import json

import pytest

import e2e_support as support
from streams import T0

APP = "com.example.escapes"
HOSTILE = "\u001b]0;PWNED\u0007\u001b[2J\u009b31m\u007f\u202e"


def hostile_session(session: str, t0: int = T0) -> list[dict]:
    """A session whose id and alert title carry escapes: `alert-no-buttons` fires and quotes the title."""
    return [
        {"v": 1, "type": "session.start", "session": session, "ts": t0, "app": APP, "device": "phone"},
        {"v": 1, "type": "alert.presented", "session": session, "ts": t0 + 1_000, "id": f"a{HOSTILE}",
         "title": f"Error{HOSTILE}", "message": f"Nothing{HOSTILE}", "buttons": []},
    ]


def control_bytes(output: bytes) -> list[int]:
    """Every byte a terminal would act on: C0 but newline and tab, DEL, and the UTF-8 of C1 and of the bidi overrides."""
    text = output.decode("utf-8", errors="replace")
    return [ord(c) for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F
            or ord(c) in (0x061C, 0x200E, 0x200F) or 0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069]


def assert_clean(name: str, output: bytes, shows: bool = True) -> None:
    bad = control_bytes(output)
    assert not bad, f"{name}: {len(bad)} control characters reach the terminal, e.g. {bad[:6]}: {output[:400]!r}"
    if shows:
        assert "\\u{1B}" in output.decode(), f"{name}: the escape is not shown visibly: {output[:400]!r}"


def send(daemon: support.Daemon, tmp_path, name: str, events: list[dict]) -> None:
    stream = support.write_stream(tmp_path / f"{name}.ndjson", events)
    before = daemon.status()["events_judged"]
    result = support.run_cli(["send", str(stream), "--events", daemon.events])
    assert result.returncode == 0, result.stderr.decode()
    daemon.wait_status(lambda s: s["events_judged"] >= before + len(events), what=f"{name} judged")


def send_hostile(daemon, tmp_path, n: int) -> None:
    """A fresh hostile session, the `n`-th, for a tail that is still subscribing."""
    send(daemon, tmp_path, f"warm{n}", hostile_session(f"W{n}-{HOSTILE}", T0 + n * 10_000))


def test_tail_shows_control_characters_escaped(daemon, tmp_path):
    # tail subscribes meanwhile: a fresh hostile session every half second until it has one.
    code, out, err = support.tail_while_feeding(["--publish", daemon.publish, "--count", "1"],
                                                lambda n: send_hostile(daemon, tmp_path, n), seconds=15, interval=0.5)
    assert code == 0, err.decode()
    assert_clean("tail", out)


@pytest.mark.parametrize("command", ["violations", "session", "sessions", "top", "check"])
def test_text_output_shows_control_characters_escaped(daemon, tmp_path, command):
    session = f"S-{HOSTILE}"
    if command == "check":
        stream = support.write_stream(tmp_path / "check.ndjson", hostile_session(session))
        result = support.run_cli(["check", str(stream), *support.rules_dir_args()])
        assert result.returncode in (0, 1), result.stderr.decode()
    else:
        send(daemon, tmp_path, "hostile", hostile_session(session))
        daemon.wait_status(lambda s: s["violations_stored"] >= 1, what="a violation stored")
        args = {
            "violations": ["violations"],
            "session": ["session", session],
            "sessions": ["sessions"],
            "top": ["top"],
        }[command]
        result = support.run_cli([*args, "--control", daemon.control])
        assert result.returncode == 0, f"{command}: {result.stderr.decode()}"
    assert_clean(command, result.stdout)
    assert_clean(f"{command} (stderr)", result.stderr, shows=False)


def test_json_output_has_no_raw_control_characters(daemon, tmp_path):
    session = f"J-{HOSTILE}"
    send(daemon, tmp_path, "hostile", hostile_session(session))
    daemon.wait_status(lambda s: s["violations_stored"] >= 1, what="a violation stored")
    for name, args in {
        "violations": ["violations", "--control", daemon.control, "--json"],
        "session": ["session", session, "--control", daemon.control, "--json"],
        "sessions": ["sessions", "--control", daemon.control, "--json"],
    }.items():
        result = support.run_cli(args)
        assert result.returncode == 0, f"{name}: {result.stderr.decode()}"
        raw = control_bytes(result.stdout)
        assert not raw, f"{name} --json: raw control characters {raw[:6]}"
        assert "\\u001b" in result.stdout.decode().lower(), f"{name} --json: the escape is not there as JSON's \\u001b"
    stream = support.write_stream(tmp_path / "check.ndjson", hostile_session(session))
    check = support.run_cli(["check", str(stream), "--json", *support.rules_dir_args()])
    assert not control_bytes(check.stdout), "check --json: raw control characters"
    assert [json.loads(line)["session"] for line in check.stdout.decode().splitlines()][0] == session
    _, out, _ = support.tail_while_feeding(["--publish", daemon.publish, "--count", "1", "--json"],
                                           lambda n: send_hostile(daemon, tmp_path, n), seconds=15, interval=0.5)
    assert not control_bytes(out), "tail --json: raw control characters"
    assert json.loads(out.decode().splitlines()[0])["session"].endswith(HOSTILE), "the value read back is the same"


def test_the_html_report_carries_no_control_characters(tmp_path):
    stream = support.write_stream(tmp_path / "report.ndjson", hostile_session(f"R-{HOSTILE}"))
    output = tmp_path / "report.html"
    result = support.run_cli(["report", str(stream), "--output", str(output), *support.rules_dir_args()])
    assert result.returncode == 0, result.stderr.decode()
    html = output.read_bytes()
    assert b"\x1b" not in html and b"\x07" not in html, "raw ESC or BEL in the HTML report"
