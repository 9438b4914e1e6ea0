#!/usr/bin/env bash
# scripts/install.sh: build modalwatch (release) and install it in its FHS places.
#
#   PREFIX/bin/modalwatchd, PREFIX/bin/modalwatch
#   PREFIX/lib/modalwatch/rules/libmodalwatch-rules-*.so   (the built-in modules; found with no configuration)
#   UNITDIR/modalwatchd.service                            (ExecStart and Documentation= under PREFIX)
#   UNITDIR/modalwatchd@.service, modalwatch-forward.service (sharding, docs/SCALING.md)
#   SYSUSERSDIR/modalwatch.conf                            (the modalwatch user and group, systemd-sysusers)
#   /etc/modalwatch/modalwatchd.yaml                        (config/modalwatchd.service.yaml: the service's
#                                                            endpoints, control ipc:///run/modalwatch/control.sock;
#                                                            kept if present)
#   PREFIX/share/doc/modalwatch/examples/modalwatchd.yaml  (config/modalwatchd.yaml: every key, commented)
#   PREFIX/share/doc/modalwatch/                            (README, CHANGELOG, LICENSE, docs/ and the contract, docs/spec/)
#   PREFIX/share/modalwatch/monitoring/                     (Prometheus rules and their tests, the Grafana dashboard:
#                                                            docs/monitoring.md)
#   PREFIX/share/modalwatch/demo/stream.ndjson              (a recorded stream to try: modalwatch send, check)
#
# Environment: PREFIX (default /usr/local), DESTDIR (staging root, default none),
# UNITDIR (default PREFIX/lib/systemd/system), SYSUSERSDIR (default /usr/lib/sysusers.d for
# PREFIX=/usr, else /etc/sysusers.d), CONFIGURATION (release or debug, default release),
# SKIP_BUILD=1 to install what is built. Without DESTDIR, systemd-sysusers makes the user.
# These binaries use the Swift runtime of the toolchain they were built with; the Debian
# package (scripts/package.sh) ships its own copy and runs without the toolchain.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PREFIX="${PREFIX:-/usr/local}"
DESTDIR="${DESTDIR:-}"
UNITDIR="${UNITDIR:-$PREFIX/lib/systemd/system}"
if [ "$PREFIX" = "/usr" ]; then SYSUSERSDIR="${SYSUSERSDIR:-/usr/lib/sysusers.d}"; else SYSUSERSDIR="${SYSUSERSDIR:-/etc/sysusers.d}"; fi
CONFIGURATION="${CONFIGURATION:-release}"

if [ "${SKIP_BUILD:-0}" != "1" ]; then
    echo "install: swift build -c $CONFIGURATION"
    swift build -c "$CONFIGURATION"
fi
BIN="$(swift build -c "$CONFIGURATION" --show-bin-path)"
for f in modalwatchd modalwatch; do
    [ -x "$BIN/$f" ] || { echo "install: $BIN/$f is missing; build first (swift build -c $CONFIGURATION)" >&2; exit 1; }
done

install -d "$DESTDIR$PREFIX/bin" "$DESTDIR$PREFIX/lib/modalwatch/rules" "$DESTDIR$UNITDIR" "$DESTDIR$SYSUSERSDIR" \
    "$DESTDIR/etc/modalwatch" "$DESTDIR$PREFIX/share/doc/modalwatch/spec"
install -m 0755 "$BIN/modalwatchd" "$BIN/modalwatch" "$DESTDIR$PREFIX/bin/"
install -m 0644 "$BIN"/libmodalwatch-rules-*.so "$DESTDIR$PREFIX/lib/modalwatch/rules/"
# The units name /usr/local (ExecStart=, Documentation=): point them at PREFIX. Sharded daemons
# (modalwatchd@N) and the forwarder between producers and them: docs/SCALING.md.
for unit in "modalwatchd.service" "modalwatchd@.service" "modalwatch-forward.service"; do
    sed "s#/usr/local/#$PREFIX/#g" "systemd/$unit" > "$DESTDIR$UNITDIR/$unit"
    chmod 0644 "$DESTDIR$UNITDIR/$unit"
done
install -m 0644 systemd/modalwatch.sysusers "$DESTDIR$SYSUSERSDIR/modalwatch.conf"
if [ -e "$DESTDIR/etc/modalwatch/modalwatchd.yaml" ]; then
    echo "install: keeping the existing /etc/modalwatch/modalwatchd.yaml"
else
    # The service's endpoints (the unit reads every endpoint from this file); local settings go
    # in drop-ins, so a new release's file replaces it without a question.
    install -m 0644 config/modalwatchd.service.yaml "$DESTDIR/etc/modalwatch/modalwatchd.yaml"
fi
# The whole file with every key commented, for reference.
install -d "$DESTDIR$PREFIX/share/doc/modalwatch/examples"
install -m 0644 config/modalwatchd.yaml "$DESTDIR$PREFIX/share/doc/modalwatch/examples/modalwatchd.yaml"
# Local settings go in drop-in files here, merged over the main file (interfaces.md).
install -d -m 0755 "$DESTDIR/etc/modalwatch/modalwatchd.yaml.d"
install -m 0644 README.md CHANGELOG.md LICENSE docs/*.md "$DESTDIR$PREFIX/share/doc/modalwatch/"
install -d "$DESTDIR$PREFIX/share/modalwatch/monitoring" "$DESTDIR$PREFIX/share/modalwatch/demo"
install -m 0644 demo/stream.ndjson "$DESTDIR$PREFIX/share/modalwatch/demo/"
install -m 0644 config/monitoring/* "$DESTDIR$PREFIX/share/modalwatch/monitoring/"
install -m 0644 docs/spec/* "$DESTDIR$PREFIX/share/doc/modalwatch/spec/"
if [ -z "$DESTDIR" ] && command -v systemd-sysusers >/dev/null 2>&1; then
    systemd-sysusers "$SYSUSERSDIR/modalwatch.conf"
fi
echo "install: done under ${DESTDIR:-/}$PREFIX"
echo "install: systemctl daemon-reload && systemctl enable --now modalwatchd"
