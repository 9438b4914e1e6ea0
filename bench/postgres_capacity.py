#!/usr/bin/env python3
"""The PostgreSQL history's capacity: violations a second stored by one daemon and by three
sharded daemons into one local server, the daemons' CPU per violation, and the latency sent →
violation received at a fixed rate with the server on the same machine; next to one daemon on SQLite.

    python3 bench/postgres_capacity.py [--events N] [--bin-dir .build/release]
                                       [--latency-rate 20000] [--latency-seconds 10] [--only capacity|latency]

Starts a throwaway server (scripts/postgres-throwaway.sh, fsync on), a generated stream
(bench/generate_stream.py), the daemons with history.store: postgresql, sends the stream as
fast as `modalwatch send` goes, and waits until every violation found is stored. Prints one
line a run: daemons, violations stored, seconds, violations/s, daemon CPU µs a violation.

The latency run (one daemon a store) offers the stress stream's events one a message at
--latency-rate, every 50th message a probe (an alert titled "Error", a session of its own:
`alert-title-single-word` fires at once, as modalwatch-bench's latency probes); a subscriber in
another process notes when each probe's violation arrives. Sent → received on the machine's one
monotonic clock, outside the daemon (a probe the rate limit holds back is counted in
`rate_limited`, not timed); every violation of the run stored (and, for postgresql, in
the server) before the figures are printed. One line a store: p50, p99, p99.9, probes received."""
from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


APP = "com.example.bench"
PROBE_TOPIC = f"violation/{APP}/alert-title-single-word".encode()
T0 = 1_732_290_000_000


def probe(prefix: str, index: int) -> bytes:
    """An alert titled only "Error", the only event of its session: one violation at once."""
    return ('{"v":1,"type":"alert.presented","session":"%s%08d","ts":%d,"seq":1,"app":"%s","id":"probe",'
            '"title":"Error","message":"The file could not be saved.","buttons":[{"title":"Cancel","style":"cancel"},'
            '{"title":"Retry","style":"default"}]}' % (prefix, index, T0 + index, APP)).encode()


def receive_probes(endpoint: str, probes: int, ready, results, timeout: float) -> None:
    """In a process of its own: the arrival time of each probe's violation, by probe index."""
    import zmq
    context = zmq.Context()
    socket = context.socket(zmq.SUB)
    socket.rcvhwm = 0
    socket.setsockopt(zmq.SUBSCRIBE, PROBE_TOPIC)
    socket.connect(endpoint)
    arrived: dict[int, int] = {}
    deadline = time.monotonic() + timeout
    while len(arrived) < probes and time.monotonic() < deadline:
        if not socket.poll(100):
            continue
        frames = socket.recv_multipart()
        now = time.monotonic_ns()
        body = frames[-1]
        at = body.find(b'"session":"bench-')
        if at < 0:
            continue
        name = body[at + 11:body.index(b'"', at + 11)].decode()
        if name.startswith("bench-warm-"):
            ready.set()
        elif name.startswith("bench-probe-"):
            arrived.setdefault(int(name[len("bench-probe-"):]), now)
    results.send(arrived)
    socket.close(linger=0)
    context.term()


def percentile(sorted_values: list[int], p: float) -> int:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p / 100))]


def latency_run(context, support, shard, store: str, config, folder: Path, lines: list[bytes],
                rate: float, seconds: float, probe_every: int = 50) -> str:
    """One daemon; the stream at `rate` single-event messages a second with probes; the figures line."""
    import zmq
    folder.mkdir()
    daemon = support.Daemon(context, folder, ["--config", str(config)] if config else []).start()
    try:
        count = int(rate * seconds)
        probes = count // probe_every
        ready = multiprocessing.Event()
        mine, theirs = multiprocessing.Pipe(duplex=False)
        receiver = multiprocessing.Process(target=receive_probes, args=(daemon.publish, probes, ready, theirs, seconds + 15))
        receiver.start()
        sender = context.socket(zmq.PUB)
        sender.sndhwm = 0
        sender.linger = 2000
        sender.connect(daemon.events)
        warm = 0
        while not ready.wait(0.05):
            sender.send(probe("bench-warm-", warm))
            warm += 1
            assert warm < 400, "no warm-up violation came back"
        sent_at = [0] * probes
        next_line = 0
        started = time.monotonic_ns()
        interval = 1e9 / rate
        for i in range(count):
            due = started + int(i * interval)
            now = time.monotonic_ns()
            if due > now + 200_000:   # send what is due each 0.2 ms; a probe's time is when it is sent
                time.sleep((due - now) / 1e9)
            if i % probe_every == probe_every - 1:
                sent_at[i // probe_every] = time.monotonic_ns()
                sender.send(probe("bench-probe-", i // probe_every))
            else:
                sender.send(lines[next_line % len(lines)])
                next_line += 1
        offered = count / ((time.monotonic_ns() - started) / 1e9)
        arrived = mine.recv()
        receiver.join(10)
        sender.close()
        status = daemon.wait_status(lambda s: s["violations_published"] == s["violations_found"]
                                    and s["violations_stored"] + s["violations_unstored"] == s["violations_published"]
                                    and s["violations_spooled"] == 0, timeout=120, what="every violation stored")
        latencies = sorted(arrived[i] - sent_at[i] for i in arrived if sent_at[i])
        assert latencies, "no probe violation came back"
        return (f"latency store={store} rate={rate:.0f}/s offered={offered:.0f}/s seconds={seconds:g} "
                f"probes={probes} received={len(latencies)} p50_us={percentile(latencies, 50) / 1e3:.0f} "
                f"p99_us={percentile(latencies, 99) / 1e3:.0f} p99_9_us={percentile(latencies, 99.9) / 1e3:.0f} "
                f"rate_limited={status['violations_rate_limited']} "
                f"violations_stored={status['violations_stored']} unstored={status['violations_unstored']}")
    finally:
        daemon.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--bin-dir", default=None)
    parser.add_argument("--latency-rate", type=float, default=20_000)
    parser.add_argument("--latency-seconds", type=float, default=10)
    parser.add_argument("--only", choices=("capacity", "latency"), default=None)
    args = parser.parse_args()
    if args.bin_dir:
        os.environ["MODALWATCH_BIN_DIR"] = str(Path(args.bin_dir).resolve())
    import zmq
    import e2e_support as support
    import postgres_support as pg
    import shard_support as shard

    work = Path(tempfile.mkdtemp(prefix="mw-pgbench-"))
    stream = shard.generate_stream(work / "stream.ndjson", args.events, sessions=2000, seed=7)
    lines = args.events
    server = pg.Postgres()
    result = subprocess.run(["sh", str(pg.SCRIPT), "start", server.directory], capture_output=True, check=True)
    server.conninfo = result.stdout.decode().strip()
    context = zmq.Context()
    try:
        capacity_runs = (("sqlite", 1), ("postgresql", 1), ("postgresql", 3)) if args.only != "latency" else ()
        for store, count in capacity_runs:
            conninfo = server.make_database()
            daemons = []
            for index in range(count):
                folder = work / f"{store}{count}-{index}"
                folder.mkdir()
                config = pg.config_file(folder, conninfo) if store == "postgresql" else None
                extra = (["--config", str(config)] if config else []) + (["--shard", f"{index}/{count}", "--shard-key", "app"] if count > 1 else [])
                daemons.append(support.Daemon(context, folder, extra).start())
            before = [cpu_seconds(d.process.pid) for d in daemons]
            started = time.monotonic()
            shard.send([stream], [d.events for d in daemons], *(["--shard-count", str(count)] if count > 1 else []))
            statuses = shard.wait_received(daemons, lines, timeout=600)
            elapsed = time.monotonic() - started
            cpu = sum(cpu_seconds(d.process.pid) - b for d, b in zip(daemons, before))
            published = sum(s["violations_published"] for s in statuses)
            stored = int(server.sql(conninfo, "SELECT count(*) FROM modalwatch_violations")) if store == "postgresql" else \
                sum(s["violations_stored"] for s in statuses)
            assert stored == published, (stored, published)
            print(f"store={store} daemons={count} events={lines} violations_stored={stored} seconds={elapsed:.2f} "
                  f"violations_per_s={stored / elapsed:.0f} daemon_cpu_us_per_violation={cpu * 1e6 / max(stored, 1):.0f} "
                  f"(events, judging and publishing included)", flush=True)
            for daemon in daemons:
                daemon.stop()
        if args.only != "capacity":
            lines = [line for line in stream.read_bytes().splitlines() if line.strip()]
            for store in ("sqlite", "postgresql"):
                conninfo = server.make_database()
                folder = work / f"latency-{store}"
                config = pg.config_file(work, conninfo) if store == "postgresql" else None
                print(latency_run(context, support, shard, store, config, folder, lines, args.latency_rate, args.latency_seconds),
                      flush=True)
                if store == "postgresql":
                    stored = int(server.sql(conninfo, "SELECT count(*) FROM modalwatch_violations"))
                    print(f"latency store=postgresql rows_in_server={stored}", flush=True)
    finally:
        context.destroy(linger=0)
        server.destroy()


if __name__ == "__main__":
    main()
