"""The spool's spill file (`spool.bin`) keeps what it holds: framed records with a CRC-32 each, so that a damaged
byte costs one record (counted as `spool_records_damaged` and `violations_unstored`, logged), never the rest; read in
slices, so a file larger than `history.spool_file` is set aside in one line and the start stays fast and small.

The format (docs/spec-decisions.md): a 16-byte header `MWSPOOL\\n`, version 2 (UInt32 LE), 4 zero bytes; then per
record the marker `MWRF`, the record's length and its CRC-32 (UInt32 LE each), and the record."""
from __future__ import annotations

import os
import signal
import sqlite3
import struct
import time
import zlib
from pathlib import Path

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"
HEADER = 16
FRAME = 12


def stored_ids(state: Path) -> list[str]:
    return support.stored_ids(state)


def frames(data: bytes) -> list[tuple[int, int]]:
    """(offset, length) of every frame of a sound spill file."""
    assert data[:8] == b"MWSPOOL\n", data[:16]
    found, offset = [], HEADER
    while offset < len(data):
        marker, length, _ = struct.unpack_from("<4sII", data, offset)
        assert marker == b"MWRF", (offset, marker)
        found.append((offset, length))
        offset += FRAME + length
    return found


def spool_on_disk(zctx, tmp_path: Path, sessions: int) -> tuple[Path, list[str]]:
    """A spill file of `sessions` violations, each also published: the history locked by another connection while
    they come (`spool_memory: 0` puts them straight into the file), then a stop. Returns it and the published ids."""
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("history: { spool_memory: 0 }\nstop_timeout: 5s\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    state = tmp_path / "state"
    lock = sqlite3.connect(state / "history.sqlite", isolation_level=None, timeout=10)
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=["violation/"])
        subscriber.warm_up(sender)
        lock.execute("BEGIN IMMEDIATE")
        for n in range(sessions):
            sender.batch(streams.alert_frequency_session(f"SP{n}", APP, T0 + n))
        status = daemon.wait_status(lambda s: s["violations_published"] == sessions, timeout=10, what="all published")
        assert status["violations_spooled"] == sessions, support.compact_status(status)
        received = [m.body["id"] for m in subscriber.violations(
            subscriber.collect(lambda ms: len(subscriber.violations(ms)) >= sessions, timeout=5))]
        assert len(received) == sessions
        assert daemon.stop(timeout=10) == 0, daemon.log()
        sender.close()
        subscriber.close()
    finally:
        lock.rollback()
        lock.close()
        if daemon.alive:
            daemon.stop()
    spool = state / "spool.bin"
    assert spool.exists() and spool.stat().st_size > 0, "the spooled violations wait on disk"
    return spool, received


def restart(zctx, tmp_path: Path) -> support.Daemon:
    return support.Daemon(zctx, tmp_path).start()


@pytest.mark.needs_rules("alert-frequency")
def test_flipped_bytes_cost_only_the_records_they_are_in(zctx, tmp_path):
    spool, received = spool_on_disk(zctx, tmp_path, 40)
    data = bytearray(spool.read_bytes())
    found = frames(bytes(data))
    assert len(found) == 40
    third, tenth = found[2], found[9]
    data[third[0] + 5] ^= 0x40                  # a length byte of the third record
    data[tenth[0] + FRAME + tenth[1] // 2] ^= 0x01   # a byte inside the tenth record
    spool.write_bytes(bytes(data))

    daemon = restart(zctx, tmp_path)
    try:
        status = daemon.wait_status(lambda s: s["history_state"] == "ok" and s["violations_spooled"] == 0,
                                    timeout=10, what="the spool written back")
        assert status["spool_records_damaged"] == 2, status
        assert status["violations_unstored"] == 2, status
        rows = stored_ids(tmp_path / "state")
        expected = [v for n, v in enumerate(received) if n not in (2, 9)]
        assert rows == expected, "every sound record stored, in order"
        lines = [line for line in daemon.log().splitlines() if "damaged record" in line]
        assert len(lines) == 2, daemon.log()
    finally:
        assert daemon.stop() == 0, daemon.log()


@pytest.mark.needs_rules("alert-frequency")
def test_a_truncated_spool_file_keeps_its_whole_records_and_counts_the_torn_one(zctx, tmp_path):
    spool, received = spool_on_disk(zctx, tmp_path, 30)
    data = spool.read_bytes()
    found = frames(data)
    cut = found[15][0] + FRAME + found[15][1] // 2     # half-way into the sixteenth record
    os.truncate(spool, cut)

    daemon = restart(zctx, tmp_path)
    try:
        status = daemon.wait_status(lambda s: s["history_state"] == "ok" and s["violations_spooled"] == 0,
                                    timeout=10, what="the spool written back")
        assert stored_ids(tmp_path / "state") == received[:15]
        assert status["spool_records_damaged"] == 1 and status["violations_unstored"] == 1, status
        assert any("damaged record" in line for line in daemon.log().splitlines()), daemon.log()
    finally:
        assert daemon.stop() == 0, daemon.log()


def peak_rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def test_a_spool_file_over_its_bound_is_set_aside_in_one_line_and_the_start_is_fast(zctx, tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    spool = state / "spool.bin"
    with open(spool, "wb") as f:
        f.truncate(2 << 30)                      # 2 GiB, sparse: over the default spool_file of 1 GiB
    started = time.monotonic()
    daemon = support.Daemon(zctx, tmp_path).start(ready_timeout=20)
    try:
        took = time.monotonic() - started
        assert took < 5, f"the start took {took:.1f} s"
        assert peak_rss_kib(daemon.process.pid) < 300 * 1024, "the file is not read into memory"
        # The publishing thread opens the spool as it starts, and may log after READY.
        support.poll_until(lambda: "spill file" in daemon.log(), 5)
        lines = [line for line in daemon.log().splitlines() if "spill file" in line]
        assert len(lines) == 1 and "set aside" in lines[0], daemon.log()
        aside = [p for p in state.iterdir() if p.name.startswith("spool.bin.oversize-")]
        assert len(aside) == 1 and aside[0].stat().st_size == 2 << 30, list(state.iterdir())
        status = daemon.status()
        assert status["violations_spooled"] == 0 and status["history_state"] == "ok", status
    finally:
        assert daemon.stop() == 0, daemon.log()


def unframed_record(n: int, ts: int | None = None, observed: int | None = None) -> bytes:
    """One violation record as an older release's unframed spill file held it (`OutboundBatch`, native byte order);
    `ts` and `observed` as given (any Int64), else an event time of the stream and a minute ago."""
    def blob(data: bytes) -> bytes:
        return struct.pack("=I", len(data)) + data
    vid = f"{n:032x}"
    body = f'{{"v":1,"id":"{vid}","rule":"alert-frequency","app":"{APP}","n":{n}}}'.encode()
    # observed: found a minute ago, within the default retention (which runs at once at start).
    ts = T0 + n if ts is None else ts
    observed = int(time.time() * 1000) - 60_000 + n if observed is None else observed
    return (b"\x01" + blob(f"violation/{APP}/alert-frequency".encode()) + blob(body)
            + struct.pack("=QQQqq", 0, n, n, ts, observed)
            + blob(b"warning") + blob(APP.encode()) + blob(f"OLD{n}".encode()) + blob(b"alert-frequency"))


def framed(record: bytes, length: int | None = None) -> bytes:
    """`record`'s frame: the marker, its length (or `length`, any UInt32) and its CRC-32, then the record."""
    return b"MWRF" + struct.pack("<II", len(record) if length is None else length, zlib.crc32(record)) + record


def test_spool_records_with_integers_past_their_bounds_are_counted_logged_by_field_and_skipped(zctx, tmp_path):
    """A spill file whose frames are sound (marker, length, CRC-32) but whose records hold times outside year
    1970–9999 (−1, −2^63, 2^53, 2^63−1 as `ts` or `observed`), among frames whose length is 0, 2^31 or UInt32.max:
    the daemon starts, stores the sound records in order, counts each bad one (`spool_records_damaged`, also in
    `violations_unstored`) and logs one line for each naming the file and the field."""
    state = tmp_path / "state"
    state.mkdir()
    max_ms = 253_402_300_799_999
    bad_times = [dict(ts=-1), dict(ts=-(1 << 63)), dict(ts=max_ms + 1), dict(observed=1 << 53), dict(observed=(1 << 63) - 1)]
    frames, expected, n = [], [], 0
    for times in bad_times:
        frames.append(framed(unframed_record(n)))
        expected.append(f"{n:032x}")
        frames.append(framed(unframed_record(100 + n, **times)))
        n += 1
    for length in (0, 1 << 31, (1 << 32) - 1):
        frames.append(framed(unframed_record(200 + n), length=length))
        frames.append(framed(unframed_record(n)))
        expected.append(f"{n:032x}")
        n += 1
    header = b"MWSPOOL\n" + struct.pack("<I", 2) + bytes(4)
    (state / "spool.bin").write_bytes(header + b"".join(frames))

    daemon = restart(zctx, tmp_path)
    try:
        status = daemon.wait_status(lambda s: s["history_state"] == "ok" and s["violations_spooled"] == 0,
                                    timeout=10, what="the spool written back")
        assert stored_ids(state) == expected, "every sound record stored, in order"
        damaged = len(bad_times) + 3
        assert status["spool_records_damaged"] == damaged and status["violations_unstored"] == damaged, status
        lines = [line for line in daemon.log().splitlines() if "a damaged record" in line]
        assert len(lines) == 5 and all("spool.bin" in line for line in lines), daemon.log()
        assert sum("field=ts" in line for line in lines) == 3 and sum("field=observed" in line for line in lines) == 2, lines
        assert any("more damaged records" in line for line in daemon.log().splitlines()), daemon.log()
    finally:
        assert daemon.stop() == 0, daemon.log()


def test_an_older_releases_spool_file_is_read_and_a_damaged_part_set_aside_and_counted(zctx, tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    records = [unframed_record(n) for n in range(20)]
    data = bytearray(b"".join(records))
    tenth = sum(len(r) for r in records[:10])
    data[tenth + 1] ^= 0x40                           # a length byte of the eleventh record
    (state / "spool.bin").write_bytes(bytes(data))

    daemon = restart(zctx, tmp_path)
    try:
        status = daemon.wait_status(lambda s: s["history_state"] == "ok" and s["violations_spooled"] == 0,
                                    timeout=10, what="the old spool written back")
        assert stored_ids(state) == [f"{n:032x}" for n in range(10)], "the records before the damage are stored"
        assert status["spool_records_damaged"] == 1 and status["violations_unstored"] == 1, status
        aside = [p for p in state.iterdir() if p.name.startswith("spool.bin.unframed-")]
        assert len(aside) == 1 and aside[0].read_bytes() == bytes(data), "the file is kept, not deleted"
        assert any("older release" in line for line in daemon.log().splitlines()), daemon.log()
    finally:
        assert daemon.stop() == 0, daemon.log()
