"""The monitoring files the package ships (config/monitoring/, docs/monitoring.md): Prometheus's
alerting and recording rules pass `promtool check rules` and their unit tests (`promtool test
rules`); every metric the rules and the Grafana dashboard name is one the daemon serves; every
dashboard query is valid PromQL; and a real Prometheus server scraping a healthy daemon evaluates
every rule without error and raises no alert."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import yaml

import e2e_support as support
from test_metrics_format import families, get, promtool

MONITORING = Path(__file__).resolve().parents[2] / "config" / "monitoring"
RULES = MONITORING / "modalwatch.rules.yml"
RULE_TESTS = MONITORING / "modalwatch.rules.test.yml"
DASHBOARD = MONITORING / "modalwatch-dashboard.json"
# Series Prometheus makes itself, not the daemon.
PROMETHEUS_OWN = {"up"}
METRIC = re.compile(r"\b((?:modalwatch|process)_[a-z_]+)\b")


def rule_expressions() -> list[str]:
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return [rule["expr"] for group in groups for rule in group["rules"]]


def dashboard_expressions() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    found = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    found += [v["definition"] for v in dashboard["templating"]["list"] if v.get("definition")]
    return found


def named_metrics(expressions: list[str]) -> set[str]:
    return {name for expr in expressions for name in METRIC.findall(expr)}


def served_families(zctx, folder: Path) -> set[str]:
    """The families of a daemon's /metrics once it has written a session checkpoint (the
    checkpoint's gauges appear with the first one)."""
    (folder / "config.yaml").write_text("metrics: 127.0.0.1:0\ncheckpoint_interval: 1s\n")
    daemon = support.Daemon(zctx, folder, ["--config", str(folder / "config.yaml")]).start()
    try:
        daemon.wait_status(lambda s: s.get("checkpoints_written", 0) >= 1, timeout=15, what="a checkpoint")
        url = daemon.status()["endpoints"]["metrics"][0]

        def scraped() -> set[str] | None:
            status, text = get(url)
            assert status == 200
            types = set(families(text)[1])
            return types if "modalwatch_checkpoint_age_seconds" in types else None

        # The gauges are refreshed on the ingest loop's periodic tick, after the checkpoint.
        served = support.poll_until(scraped, 10, interval=0.2)
        assert served, "no modalwatch_checkpoint_age_seconds after the first checkpoint"
    finally:
        assert daemon.stop() == 0
    return served


def test_promtool_checks_the_rules_and_passes_their_unit_tests():
    checked = subprocess.run([promtool(), "check", "rules", str(RULES)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    tested = subprocess.run([promtool(), "test", "rules", RULE_TESTS.name], cwd=MONITORING,
                            capture_output=True, text=True, timeout=120)
    assert tested.returncode == 0 and "SUCCESS" in tested.stdout, tested.stdout + tested.stderr


def test_every_alert_is_tested_and_has_a_runbook_section():
    groups = yaml.safe_load(RULES.read_text())["groups"]
    alerts = {rule["alert"]: rule for group in groups for rule in group["rules"] if "alert" in rule}
    tested = {case["alertname"] for test in yaml.safe_load(RULE_TESTS.read_text())["tests"]
              for case in test.get("alert_rule_test", []) if case.get("exp_alerts")}
    assert set(alerts) == tested, sorted(set(alerts) ^ tested)
    runbook = (Path(__file__).resolve().parents[2] / "docs" / "monitoring.md").read_text()
    headings = {line.lstrip("# ").strip().lower() for line in runbook.splitlines() if line.startswith("### ")}
    for name, rule in alerts.items():
        assert rule["annotations"]["runbook"] == f"docs/monitoring.md#{name.lower()}", name
        assert name.lower() in headings, f"docs/monitoring.md has no section ### {name}"


def test_every_dashboard_query_is_valid_promql(tmp_path):
    # promtool parses a rule's expression as Prometheus does: each query as a recording rule, with
    # the dashboard's variable as Grafana's "All" puts it.
    queries = [expr.replace("$instance", ".*") for expr in dashboard_expressions()]
    queries = [q for q in queries if not q.startswith("label_values(")]
    rules = {"groups": [{"name": "dashboard", "rules": [{"record": f"dashboard:query{i}", "expr": q}
                                                      for i, q in enumerate(queries)]}]}
    (tmp_path / "dashboard.rules.yml").write_text(yaml.safe_dump(rules))
    checked = subprocess.run([promtool(), "check", "rules", str(tmp_path / "dashboard.rules.yml")],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_every_metric_the_rules_and_dashboard_name_is_served(zctx, tmp_path):
    served = served_families(zctx, tmp_path) | PROMETHEUS_OWN
    named = named_metrics(rule_expressions() + dashboard_expressions())
    assert named, "no metric found in the rules and the dashboard"
    assert named <= served, f"named but not served: {sorted(named - served)}"


def test_a_real_prometheus_evaluates_every_rule_and_raises_nothing_for_a_healthy_daemon(zctx, tmp_path):
    prometheus = shutil.which("prometheus")
    assert prometheus, "Debian's prometheus is not installed (scripts/test.sh installs it)"
    (tmp_path / "config.yaml").write_text("metrics: 127.0.0.1:0\ncheckpoint_interval: 1s\n")
    daemon = support.Daemon(zctx, tmp_path, ["--config", str(tmp_path / "config.yaml")]).start()
    server = None
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        target = daemon.status()["endpoints"]["metrics"][0].removeprefix("http://").removesuffix("/metrics")
        (tmp_path / "prometheus.yml").write_text(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
            f"rule_files: [\"{RULES}\"]\n"
            f"scrape_configs:\n  - job_name: modalwatch\n    static_configs:\n      - targets: [\"{target}\"]\n")
        listen = support.free_tcp_endpoint().removeprefix("tcp://")
        log = open(tmp_path / "prometheus.log", "wb")
        server = subprocess.Popen([prometheus, f"--config.file={tmp_path / 'prometheus.yml'}",
                                   f"--storage.tsdb.path={tmp_path / 'tsdb'}", f"--web.listen-address={listen}"],
                                  stdout=log, stderr=subprocess.STDOUT)
        base = f"http://{listen}"

        def api(path: str, **params: str) -> dict:
            url = f"{base}/api/v1/{path}" + ("?" + urllib.parse.urlencode(params) if params else "")
            with urllib.request.urlopen(url, timeout=5) as reply:
                body = json.load(reply)
            assert body["status"] == "success", body
            return body["data"]

        def evaluated() -> list[dict] | None:
            try:
                rules = [r for g in api("rules")["groups"] for r in g["rules"]]
                recorded = api("query", query="modalwatch:events_received:rate5m")["result"]
            except OSError:
                return None
            done = rules and all(r.get("lastEvaluation", "").startswith("20") for r in rules) and recorded
            return rules if done else None

        rules = support.poll_until(evaluated, 60, interval=0.5)
        assert rules, (tmp_path / "prometheus.log").read_text()[-2000:]
        assert len(rules) == len(rule_expressions())
        unhealthy = [(r["name"], r.get("lastError")) for r in rules if r["health"] != "ok"]
        assert not unhealthy, unhealthy
        alerts = api("alerts")["alerts"]
        assert alerts == [], alerts
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        assert daemon.stop() == 0
