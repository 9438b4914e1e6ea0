"""The command line over three sharded daemons (scale.md, "The command line"): several
--control endpoints answer as one (counters summed, sessions and violations united and
ordered as for one daemon, each daemon's own line), an unreachable one is named and the
rest still answer, exit 3 only when none answers; `tail` takes several --publish."""
from __future__ import annotations

import json
import signal
import subprocess
import threading
import time

import pytest

import e2e_support as support
import shard_support as shard
import streams
from streams import T0

pytestmark = pytest.mark.needs_rules("alert-single-button")


@pytest.fixture(scope="module")
def fleet(zctx, tmp_path_factory):
    workdir = tmp_path_factory.mktemp("fleet")
    daemons = shard.start_shards(zctx, workdir)
    files = shard.recorded_streams()
    sent = shard.send(files, [d.events for d in daemons], "--shard-count", "3")
    shard.wait_received(daemons, sent["events"])
    yield daemons
    shard.stop_all(daemons)


def controls(daemons) -> list[str]:
    return [arg for d in daemons for arg in ("--control", d.control)]


def test_status_sums_counters_and_shows_each_daemon(fleet):
    statuses = [d.status() for d in fleet]
    merged = support.cli_json(["status", *controls(fleet), "--json"])
    for key in ("events_received", "events_judged", "sessions_live", "violations_published", "violations_stored"):
        assert merged[key] == sum(s[key] for s in statuses), key
    assert merged["shard_buckets"] == 256 and merged["unreachable"] == []
    assert [d["endpoint"] for d in merged["daemons"]] == [d.control for d in fleet]
    assert [d["shard"]["index"] for d in merged["daemons"]] == [0, 1, 2]
    text = support.run_cli(["status", *controls(fleet)])
    assert text.returncode == 0, text.stderr.decode()
    out = text.stdout.decode()
    assert "3 of 3 answered, 256 of 256 buckets owned" in out
    for index, daemon in enumerate(fleet):
        assert f"{daemon.control}: " in out and f"shard {index}/3 by app" in out


def test_an_unreachable_daemon_is_named_and_the_rest_answer(fleet):
    dead = support.free_tcp_endpoint()
    result = support.run_cli(["status", *controls(fleet[:2]), "--control", dead, "--json", "--timeout", "300"])
    assert result.returncode == 0, result.stderr.decode()
    assert dead in result.stderr.decode()
    merged = json.loads(result.stdout)
    assert merged["unreachable"] == [dead] and len(merged["daemons"]) == 2
    assert merged["events_received"] == sum(d.status()["events_received"] for d in fleet[:2])
    none = support.run_cli(["status", "--control", dead, "--control", support.free_tcp_endpoint(), "--timeout", "300"])
    assert none.returncode == 3 and dead in none.stderr.decode()


def test_sessions_are_united_and_ordered_as_one_daemon_orders_them(fleet):
    total = sum(d.status()["sessions_live"] for d in fleet)
    listing = support.cli_json(["sessions", *controls(fleet), "--json", "--limit", "1000", "--sort", "events"])
    assert listing["total"] == total and len(listing["sessions"]) == total
    counts = [s["events"] for s in listing["sessions"]]
    assert counts == sorted(counts, reverse=True)
    apps = {s["app"] for s in listing["sessions"]}
    assert len({shard.bucket(app) % 3 for app in apps}) == 3, "sessions of every shard"
    limited = support.cli_json(["sessions", *controls(fleet), "--json", "--limit", "3", "--sort", "events"])
    assert [s["id"] for s in limited["sessions"]] == [s["id"] for s in listing["sessions"][:3]]


def test_session_is_found_on_whichever_daemon_has_it(fleet):
    listing = support.cli_json(["sessions", "--control", fleet[2].control, "--json"])
    wanted = listing["sessions"][0]["id"]
    found = support.run_cli(["session", wanted, *controls(fleet), "--json"])
    assert found.returncode == 0, found.stderr.decode()
    assert json.loads(found.stdout)["session"]["id"] == wanted and found.stderr.decode() == ""
    missing = support.run_cli(["session", "no-such-session", *controls(fleet)])
    assert missing.returncode == 1 and "no-such-session" in missing.stderr.decode()


def test_violations_are_united_newest_first(fleet):
    stored = sum(d.status()["violations_stored"] for d in fleet)
    result = support.run_cli(["violations", *controls(fleet), "--json", "--limit", "10000"])
    assert result.returncode == 0, result.stderr.decode()
    found = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(found) == stored and len({v["id"] for v in found}) == stored
    observed = [v["observed"] for v in found]
    assert observed == sorted(observed, reverse=True)
    few = support.run_cli(["violations", *controls(fleet), "--json", "--limit", "5"])
    # The newest five of all (ties in `observed` may come in either order).
    assert [json.loads(line)["observed"] for line in few.stdout.decode().splitlines()] == observed[:5]


def test_top_once_merges_the_daemons(fleet):
    sample = support.cli_json(["top", *controls(fleet), "--json"])
    assert sample["status"]["events_received"] == sum(d.status()["events_received"] for d in fleet)
    assert sample["total"] == sum(d.status()["sessions_live"] for d in fleet)


def test_tail_takes_several_publish_endpoints(fleet, tmp_path):
    apps = {}
    for n in range(200):
        app = f"com.example.tail{n}"
        apps.setdefault(shard.bucket(app) % 3, app)
        if len(apps) == 3:
            break
    args = [arg for d in fleet for arg in ("--publish", d.publish)]
    process = subprocess.Popen([str(support.cli_path()), "tail", *args, "--json", "--rule", "alert-single-button"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(raw.decode() for raw in process.stdout), daemon=True)
    reader.start()
    try:
        seen: set[str] = set()
        deadline = time.monotonic() + 15
        round_ = 0
        while seen != set(apps.values()) and time.monotonic() < deadline:
            round_ += 1
            events = []
            for index, app in apps.items():
                session = f"tail-{index}-{round_}"
                events += [streams.start(session, app, T0),
                           {"v": 1, "type": "alert.presented", "session": session, "ts": T0 + 1000, "id": "a",
                            "title": "Unable to load photos", "message": "Check the connection and try again.",
                            "buttons": [{"title": "OK", "style": "default"}]}]
            stream = support.write_stream(tmp_path / f"tail-{round_}.ndjson", events)
            shard.send([stream], [d.events for d in fleet], "--shard-count", "3")
            time.sleep(0.5)
            seen = {json.loads(line)["app"] for line in list(lines)}
        assert seen == set(apps.values()), f"violations of every shard in one tail: {seen}"
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=5) == 0


def test_send_says_how_many_events_it_could_not_place_by_app(fleet, tmp_path):
    """Events without `app` that continue a session whose start an earlier send carried cannot be
    routed by app: `send --shard-count` says how many, and where they went, in one line."""
    continuing = tmp_path / "continuing.ndjson"
    lines = [{"v": 1, "type": "alert.presented", "session": f"gone-{n}", "ts": T0 + n, "id": f"a{n}", "title": "Hi",
              "buttons": [{"title": "OK", "style": "default"}]} for n in range(7)]
    lines.append({"v": 1, "type": "session.start", "session": "known", "ts": T0, "app": "com.example.placed"})
    lines.append({"v": 1, "type": "user.action", "session": "known", "ts": T0 + 1})
    continuing.write_text("".join(json.dumps(line) + "\n" for line in lines))
    args = ["send", str(continuing), "--json", "--timeout", "20000", "--shard-count", "3"]
    for daemon in fleet:
        args += ["--events", daemon.events]
    result = support.run_cli(args, timeout=60)
    assert result.returncode == 0, result.stderr
    said = [line for line in result.stderr.decode().splitlines() if "name no app" in line]
    assert len(said) == 1 and said[0].startswith("modalwatch: 7 events"), result.stderr.decode()
    assert json.loads(result.stdout.decode().splitlines()[-1])["events_unplaced"] == 7
