"""`modalwatch reload` (docs/cli.md), what the units' `ExecReload=` runs: a good file is put in force
(exit 0, the daemon's summary printed, naming an endpoint key that changed and waits for a restart), a file the daemon refuses exits 1 with its errors and leaves
the old configuration in force, a tcp:// control endpoint that refuses reloads exits 1, no daemon exits 3."""
from __future__ import annotations

import pytest

import e2e_support as support


def reload(control: str):
    result = support.run_cli(["reload", "--control", control])
    return result.returncode, result.stdout.decode(), result.stderr.decode()


@pytest.mark.needs_rules("alert-frequency")
def test_reload_over_ipc_says_what_the_daemon_answered_for_a_good_and_a_bad_file(zctx, tmp_path):
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("rules:\n  alert-frequency: { limit: 5 }\n")
    daemon = support.Daemon(zctx, tmp_path, ["--config", str(config)], ipc=True).start()
    try:
        config.write_text("rules:\n  alert-frequency: { limit: 2 }\nevents_connect: [tcp://127.0.0.1:9]\nmetrics: 127.0.0.1:9\n"
                          "history: { max_rows: 5000 }\ncheckpoint_interval: 9s\n")
        code, out, err = reload(daemon.control)
        assert code == 0, out + err
        assert out.startswith("configuration reloaded"), out
        # Endpoints, the metrics server, the history and the checkpoints are set up at the start:
        # their changes wait for a restart, each key named, in the reply and as a warning in the log.
        waiting = "these settings take effect after a restart: events_connect, metrics, checkpoint_interval, history"
        assert out.rstrip().endswith(waiting), out
        assert "restart the daemon for these" in daemon.log(), daemon.log()
        rule = next(r for r in daemon.request({"cmd": "rules"})["rules"] if r["id"] == "alert-frequency")
        assert next(p for p in rule["parameters"] if p["name"] == "limit")["value"] == 2, rule

        config.write_text("rules:\n  alert-frequency: { limit: [not a number] }\n")
        code, out, err = reload(daemon.control)
        assert code == 1, out + err
        assert out == "" and "reload refused" in err and "limit" in err and "old configuration stays in force" in err, err
        status = daemon.status()
        assert status["config_reloads"] == 1 and status["config_reloads_refused"] == 1, support.compact_status(status)
        rule = next(r for r in daemon.request({"cmd": "rules"})["rules"] if r["id"] == "alert-frequency")
        assert next(p for p in rule["parameters"] if p["name"] == "limit")["value"] == 2, "the old configuration stays"
    finally:
        assert daemon.stop() == 0


def test_reload_over_tcp_is_refused_unless_allowed_and_no_daemon_exits_3(zctx, tmp_path):
    daemon = support.Daemon(zctx, tmp_path).start()
    try:
        code, out, err = reload(daemon.control)
        assert code == 1 and "tcp://" in err, out + err
    finally:
        assert daemon.stop() == 0
    result = support.run_cli(["reload", "--control", support.free_tcp_endpoint(), "--timeout", "300"], timeout=10)
    assert result.returncode == 3, result.stdout.decode() + result.stderr.decode()
