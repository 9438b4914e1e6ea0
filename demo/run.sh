#!/usr/bin/env bash
# demo/run.sh: modalwatch end to end, unattended.
#
# Builds (swift build), starts modalwatchd, starts a subscriber that prints each violation as it
# arrives, sends demo/stream.ndjson with `modalwatch send`, prints `modalwatch status`, stops the
# daemon with SIGTERM, writes an HTML report of the stream (`modalwatch report`), prints its path
# and exits 0. Everything it starts is stopped on exit, whatever happens.
#
# The demo's daemon has endpoints of its own: ipc:// sockets in a folder made for this run, so
# that it never meets another daemon (a modalwatchd already running on the default ports, say).
# Endpoints given with DEMO_* are checked first: one a daemon already answers on, or a tcp://
# port already taken, is refused in one line, exit 1.
#
# Environment:
#   DEMO_EVENTS / DEMO_PUBLISH / DEMO_CONTROL   endpoints (default: ipc:// sockets of the run's own)
#   DEMO_STREAM          the stream to send (default demo/stream.ndjson)
#   MODALWATCH_BIN_DIR   where modalwatchd and modalwatch are (default .build/debug)
#   SKIP_BUILD=1         do not run swift build
#   SKIP_SETUP=1         do not run scripts/setup.sh
#   DEMO_RULES_DIR       an extra folder of rule modules (--rules-dir)
#   DEMO_REPORT          where the HTML report of the stream goes (default ${TMPDIR:-/tmp}/modalwatch-demo-report.html)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

STREAM="${DEMO_STREAM:-$ROOT/demo/stream.ndjson}"
BIN="${MODALWATCH_BIN_DIR:-$ROOT/.build/debug}"
RULES_ARGS=()
[ -n "${DEMO_RULES_DIR:-}" ] && RULES_ARGS=(--rules-dir "$DEMO_RULES_DIR")

say() { printf '\n== %s\n' "$*"; }
fail() { echo "demo: $*" >&2; exit 1; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/modalwatch-demo.XXXXXX")"
DAEMON_PID=""
SUBSCRIBER_PID=""

# The run's own sockets; a socket path must stay under 108 bytes, so a long TMPDIR gets a short folder in /tmp.
SOCKETS="$WORK"
SOCKETS_OWN=""
if [ "${#WORK}" -gt 80 ]; then
    SOCKETS="$(mktemp -d /tmp/modalwatch-demo.XXXXXX)"
    SOCKETS_OWN="$SOCKETS"
fi
EVENTS="${DEMO_EVENTS:-ipc://$SOCKETS/events.sock}"
PUBLISH="${DEMO_PUBLISH:-ipc://$SOCKETS/publish.sock}"
CONTROL="${DEMO_CONTROL:-ipc://$SOCKETS/control.sock}"

# Stop a process we started: SIGTERM, up to 5 s, then SIGKILL.
stop_pid() {
    local pid="$1"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    echo "demo: process $pid did not stop within 5 s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
}

cleanup() {
    local status=$?
    stop_pid "$SUBSCRIBER_PID"
    stop_pid "$DAEMON_PID"
    wait 2>/dev/null || true
    if [ "$status" -ne 0 ] && [ -s "$WORK/modalwatchd.log" ]; then
        echo "demo: the daemon's log:" >&2
        tail -n 20 "$WORK/modalwatchd.log" >&2
    fi
    rm -rf "$WORK"
    [ -n "$SOCKETS_OWN" ] && rm -rf "$SOCKETS_OWN"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "${SKIP_SETUP:-0}" != 1 ]; then
    # shellcheck source=../scripts/setup.sh
    source "$ROOT/scripts/setup.sh"
fi
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    say "swift build"
    swift build 2>&1 | tail -n 3
fi
[ -x "$BIN/modalwatchd" ] && [ -x "$BIN/modalwatch" ] || fail "no modalwatchd / modalwatch in $BIN; run swift build"
[ -r "$STREAM" ] || fail "cannot read the stream $STREAM"

# Endpoints named with DEMO_*: refuse those in use rather than talk to another daemon.
tcp_port_taken() {
    python3 - "$1" <<'PY'
import socket, sys
host, port = sys.argv[1][len("tcp://"):].rsplit(":", 1)
s = socket.socket(socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET)
try:
    s.bind((host.strip("[]"), int(port)))
except OSError:
    sys.exit(0)
sys.exit(1)
PY
}
for endpoint in "$EVENTS" "$PUBLISH" "$CONTROL"; do
    case "$endpoint" in
        tcp://*:0) ;;
        tcp://*) tcp_port_taken "$endpoint" && fail "$endpoint is in use (another modalwatchd?); the demo runs on endpoints of its own: unset DEMO_EVENTS/DEMO_PUBLISH/DEMO_CONTROL or name free ones" ;;
        ipc://*) [ -e "${endpoint#ipc://}" ] && fail "$endpoint is in use (another modalwatchd?); the demo runs on endpoints of its own: unset DEMO_EVENTS/DEMO_PUBLISH/DEMO_CONTROL or name free ones" ;;
    esac
done

say "modalwatchd --events $EVENTS --publish $PUBLISH --control $CONTROL"
"$BIN/modalwatchd" --events "$EVENTS" --publish "$PUBLISH" --control "$CONTROL" \
    --state-dir "$WORK/state" "${RULES_ARGS[@]}" >"$WORK/modalwatchd.log" 2>&1 </dev/null &
DAEMON_PID=$!

# Ready once the control socket answers (bounded: 15 s).
ready=0
deadline=$((SECONDS + 15))
while [ "$SECONDS" -lt "$deadline" ]; do
    kill -0 "$DAEMON_PID" 2>/dev/null || fail "modalwatchd exited while starting (another daemon on these endpoints? set DEMO_EVENTS/DEMO_PUBLISH/DEMO_CONTROL)"
    if "$BIN/modalwatch" status --control "$CONTROL" --timeout 500 --json >/dev/null 2>&1; then
        # The daemon that answered is ours only if it is still running.
        sleep 0.2
        kill -0 "$DAEMON_PID" 2>/dev/null || fail "modalwatchd exited while starting (another daemon on these endpoints? set DEMO_EVENTS/DEMO_PUBLISH/DEMO_CONTROL)"
        ready=1
        break
    fi
    # A control socket not made yet fails at once: wait as a timeout would have.
    sleep 0.3
done
[ "$ready" = 1 ] || fail "modalwatchd did not answer on $CONTROL within 15 s"
grep -E "loaded rule module|rule module|no rule module" "$WORK/modalwatchd.log" | sed 's/^/  /' || true

say "subscriber: violations as they arrive"
python3 "$ROOT/demo/subscribe.py" --publish "$PUBLISH" --ready-file "$WORK/subscriber.ready" </dev/null &
SUBSCRIBER_PID=$!
# Ready once it has written its ready file (bounded: 20 s; it gives up on its own after 10 s and says why).
deadline=$((SECONDS + 20))
while [ "$SECONDS" -lt "$deadline" ]; do
    [ -s "$WORK/subscriber.ready" ] && break
    kill -0 "$SUBSCRIBER_PID" 2>/dev/null || fail "the subscriber exited"
    sleep 0.1
done
[ -s "$WORK/subscriber.ready" ] || fail "the subscriber did not connect within 20 s"

lines=$(grep -c . "$STREAM")
timeout 60 "$BIN/modalwatch" send "$STREAM" --events "$EVENTS" --timeout 5000 \
    || fail "modalwatch send failed"

# Wait (bounded: 10 s) until the daemon has received every event, then let the last violations arrive.
received=0
for _ in $(seq 100); do
    received=$("$BIN/modalwatch" status --control "$CONTROL" --json --timeout 1000 \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["events_received"])')
    [ "$received" -ge "$lines" ] && break
    sleep 0.1
done
[ "$received" -ge "$lines" ] || fail "the daemon received $received of $lines events within 10 s"
sleep 0.3

say "modalwatch status"
"$BIN/modalwatch" status --control "$CONTROL"

say "stopping modalwatchd (SIGTERM)"
kill -TERM "$DAEMON_PID" 2>/dev/null || fail "modalwatchd (pid $DAEMON_PID) exited before the end of the demo"
code=0
for _ in $(seq 100); do
    kill -0 "$DAEMON_PID" 2>/dev/null || break
    sleep 0.1
done
if kill -0 "$DAEMON_PID" 2>/dev/null; then
    fail "modalwatchd did not stop within 10 s of SIGTERM"
fi
wait "$DAEMON_PID" || code=$?
DAEMON_PID=""
[ "$code" -eq 0 ] || fail "modalwatchd exited $code on SIGTERM"
tail -n 1 "$WORK/modalwatchd.log" | sed 's/^/  /'

stop_pid "$SUBSCRIBER_PID"
wait "$SUBSCRIBER_PID" 2>/dev/null || true
SUBSCRIBER_PID=""

REPORT="${DEMO_REPORT:-${TMPDIR:-/tmp}/modalwatch-demo-report.html}"
say "modalwatch report $(basename "$STREAM") --output $REPORT"
"$BIN/modalwatch" report "$STREAM" "${RULES_ARGS[@]}" --output "$REPORT" || fail "modalwatch report failed"
echo "  open it in a browser: $REPORT"
say "done"
