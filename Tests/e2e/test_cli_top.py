"""`modalwatch top` driven in tmux as a person would: it shows the busiest session, survives a resize, `q` quits
with exit 0 and gives the terminal back. Colour only on a terminal, never with NO_COLOR."""
from __future__ import annotations

import re

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.top"


def busy_and_quiet(daemon, tmp_path) -> None:
    busy = [streams.start("busy-1", APP, T0)] + [streams.action("busy-1", T0 + n * 10, f"tap {n}") for n in range(1, 120)]
    events = streams.quiet_session("quiet-1", APP)[:-1] + busy
    stream = support.write_stream(tmp_path / "busy.ndjson", events)
    result = support.run_cli(["send", str(stream), "--events", daemon.events])
    assert result.returncode == 0, result.stderr.decode()
    daemon.wait_status(lambda s: s["events_judged"] >= len(events), what="the busy and quiet sessions judged")


def table_rows(screen: str) -> list[str]:
    lines = screen.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("SESSION"))
    return [line for line in lines[header + 1:]
            if line.strip() and not line.startswith("q quits") and not line.startswith("one snapshot")]


def test_top_in_tmux_shows_the_busiest_session_survives_a_resize_and_quits_on_q(daemon, tmp_path):
    busy_and_quiet(daemon, tmp_path)
    tmux = support.Tmux(tmp_path, width=120, height=30)
    try:
        tmux.start(
            f"{support.cli_path()} top --control {daemon.control} --interval 0.5; echo EXIT=$?; "
            "stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo; sleep 30",
            env={"NO_COLOR": "1"})
        screen = tmux.wait_for(lambda s: "SESSION" in s and "busy-1" in s and "quiet-1" in s)
        assert "modalwatch top" in screen and "violations" in screen and "sessions 2 live" in screen, screen
        rows = table_rows(screen)
        assert rows[0].startswith("busy-1") and rows[1].startswith("quiet-1"), f"busiest first:\n{screen}"
        assert re.search(r"busy-1\s+com\.example\.top\s+\S+\s+120\b", rows[0]), rows[0]
        assert screen.splitlines()[-1].startswith("q quits"), "the footer sits on the last row"

        # New events for the quiet session while top runs: it becomes the busiest, by events per second.
        more = [streams.action("quiet-1", T0 + 3_000 + n, f"tap {n}") for n in range(300)]
        support.run_cli(["send", str(support.write_stream(tmp_path / "more.ndjson", more)), "--events", daemon.events])
        screen = tmux.wait_for(lambda s: table_rows(s) and table_rows(s)[0].startswith("quiet-1"))
        assert re.search(r"quiet-1\s+com\.example\.top\s+[1-9]\d*\.\d", table_rows(screen)[0]), screen

        tmux.resize(60, 12)
        screen = tmux.wait_for(lambda s: len(s.splitlines()) <= 12 and "SESSION" in s and "q quits" in s)
        lines = screen.splitlines()
        assert max(len(line) for line in lines) <= 60, screen
        assert lines[0].startswith("modalwatch top") and "EXIT=" not in screen, f"still running after the resize:\n{screen}"
        assert table_rows(screen)[0].startswith("quiet-1"), screen
        tmux.resize(100, 20)
        tmux.wait_for(lambda s: "SESSION" in s and "q quits" in s.splitlines()[-1] if s.splitlines() else False)

        tmux.send_keys("q")
        screen = tmux.wait_for(lambda s: "EXIT=" in s, timeout=3)
        assert "EXIT=0" in screen, screen
        assert "SESSION" not in screen, f"the alternate screen is gone:\n{screen}"
        modes = tmux.wait_for(lambda s: "icanon" in s, timeout=3)
        assert "-icanon" not in modes and "-echo" not in modes and " echo" in modes, f"the terminal modes are restored:\n{modes}"
    finally:
        tmux.kill()


def test_top_without_a_terminal_prints_one_snapshot(daemon, tmp_path):
    busy_and_quiet(daemon, tmp_path)
    result = support.run_cli(["top", "--control", daemon.control], timeout=10)
    assert result.returncode == 0, result.stderr.decode()
    text = result.stdout.decode()
    assert "one snapshot" in text and "\x1b[" not in text, text
    rows = table_rows(text)
    assert rows[0].startswith("busy-1") and len(rows) == 2, text


@pytest.mark.parametrize("no_color", [False, True], ids=["terminal", "terminal with NO_COLOR"])
def test_colour_only_on_a_terminal_and_never_with_no_color(daemon, tmp_path, no_color):
    busy_and_quiet(daemon, tmp_path)
    tmux = support.Tmux(tmp_path, width=150, height=20)
    try:
        unset = "env NO_COLOR=1" if no_color else "env -u NO_COLOR"
        tmux.start(f"{unset} {support.cli_path()} sessions --control {daemon.control}; echo DONE; sleep 30")
        screen = tmux.wait_for(lambda s: "DONE" in s, escapes=True)
        assert "busy-1" in screen and "quiet-1" in screen, screen
        coloured = "\x1b[" in screen.split("DONE")[0]
        assert coloured is not no_color, screen
    finally:
        tmux.kill()
    piped = support.run_cli(["sessions", "--control", daemon.control])
    assert "\x1b[" not in piped.stdout.decode()
