"""Metrics across daemons (docs/SCALING.md): a real Prometheus server scrapes three sharded daemons'
`/metrics`, and its HTTP API's sum of `modalwatch_violations_published_total` is what the daemons'
`status` say."""
from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

import e2e_support as support
import shard_support as shard

pytestmark = pytest.mark.needs_rules("alert-frequency")


def scrape_config(targets: list[str]) -> str:
    """The scrape configuration docs/SCALING.md shows, with a 1 s interval for the test."""
    listed = ", ".join(f'"{t}"' for t in targets)
    return ("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
            "scrape_configs:\n  - job_name: modalwatch\n"
            f"    static_configs:\n      - targets: [{listed}]\n")


def query(base: str, promql: str) -> list[dict]:
    url = f"{base}/api/v1/query?" + urllib.parse.urlencode({"query": promql})
    with urllib.request.urlopen(url, timeout=5) as reply:
        body = json.load(reply)
    assert body["status"] == "success", body
    return body["data"]["result"]


def test_prometheus_sums_what_three_daemons_published(zctx, tmp_path):
    prometheus = shutil.which("prometheus")
    assert prometheus, "Debian's prometheus is not installed (scripts/test.sh installs it)"
    daemons: list[support.Daemon] = []
    server = None
    try:
        for index in range(3):
            folder = tmp_path / f"shard{index}"
            folder.mkdir()
            (folder / "config.yaml").write_text("metrics: 127.0.0.1:0\n")
            daemons.append(support.Daemon(zctx, folder, ["--config", str(folder / "config.yaml"),
                                                         "--shard", f"{index}/3", "--shard-key", "app"]).start())
        files = shard.recorded_streams()
        sent = shard.send(files, [d.events for d in daemons], "--shard-count", "3", "--batch", "64")
        total = sum(len([line for line in f.read_bytes().splitlines() if line.strip()]) for f in files)
        statuses = shard.wait_received(daemons, total)
        published = sum(s["violations_published"] for s in statuses)
        assert published > 0 and sent["events_sent"] == total
        targets = [d.status()["endpoints"]["metrics"][0].removeprefix("http://").removesuffix("/metrics") for d in daemons]
        (tmp_path / "prometheus.yml").write_text(scrape_config(targets))
        listen = support.free_tcp_endpoint().removeprefix("tcp://")
        log = open(tmp_path / "prometheus.log", "wb")
        server = subprocess.Popen([prometheus, f"--config.file={tmp_path / 'prometheus.yml'}",
                                   f"--storage.tsdb.path={tmp_path / 'tsdb'}", f"--web.listen-address={listen}"],
                                  stdout=log, stderr=subprocess.STDOUT)
        base = f"http://{listen}"

        def scraped_twice() -> bool:
            try:
                # Two scrapes of every daemon: the count of samples over the last minute.
                counts = query(base, "count_over_time(up{job=\"modalwatch\"}[1m])")
                return len(counts) == 3 and all(float(c["value"][1]) >= 2 for c in counts)
            except OSError:
                return False

        assert support.poll_until(scraped_twice, 60, interval=0.5), (tmp_path / "prometheus.log").read_text()[-2000:]
        assert all(float(r["value"][1]) == 1 for r in query(base, "up{job=\"modalwatch\"}"))
        summed = query(base, "sum(modalwatch_violations_published_total)")
        assert float(summed[0]["value"][1]) == published, (summed, [support.compact_status(s) for s in statuses])
        by_instance = {r["metric"]["instance"]: float(r["value"][1]) for r in query(base, "modalwatch_violations_published_total")}
        assert sorted(by_instance.values()) == sorted(float(s["violations_published"]) for s in statuses)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        shard.stop_all(daemons)
