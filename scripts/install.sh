#!/usr/bin/env bash
# scripts/install.sh: build modalwatch (release) and install it in its FHS places.
#
#   PREFIX/bin/modalwatchd, PREFIX/bin/modalwatch
#   PREFIX/lib/modalwatch/rules/libmodalwatch-rules-*.so   (the built-in modules; found with no configuration)
#   PREFIX/lib/systemd/system/modalwatchd.service          (ExecStart pointing at PREFIX/bin)
#   PREFIX/lib/systemd/system/modalwatchd@.service, modalwatch-forward.service (sharding, docs/SCALING.md)
#   /etc/modalwatch/modalwatchd.yaml                        (the commented default config; kept if present)
#   PREFIX/share/doc/modalwatch/                            (README and docs)
#
# Environment: PREFIX (default /usr/local), DESTDIR (staging root, default none),
# CONFIGURATION (release or debug, default release), SKIP_BUILD=1 to install what is built.
# The binaries use the Swift runtime of the toolchain they were built with (/opt/swift/usr/lib/swift/linux).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PREFIX="${PREFIX:-/usr/local}"
DESTDIR="${DESTDIR:-}"
CONFIGURATION="${CONFIGURATION:-release}"

if [ "${SKIP_BUILD:-0}" != "1" ]; then
    echo "install: swift build -c $CONFIGURATION"
    swift build -c "$CONFIGURATION"
fi
BIN="$(swift build -c "$CONFIGURATION" --show-bin-path)"
for f in modalwatchd modalwatch; do
    [ -x "$BIN/$f" ] || { echo "install: $BIN/$f is missing; build first (swift build -c $CONFIGURATION)" >&2; exit 1; }
done

install -d "$DESTDIR$PREFIX/bin" "$DESTDIR$PREFIX/lib/modalwatch/rules" "$DESTDIR$PREFIX/lib/systemd/system" \
    "$DESTDIR/etc/modalwatch" "$DESTDIR$PREFIX/share/doc/modalwatch"
install -m 0755 "$BIN/modalwatchd" "$BIN/modalwatch" "$DESTDIR$PREFIX/bin/"
install -m 0644 "$BIN"/libmodalwatch-rules-*.so "$DESTDIR$PREFIX/lib/modalwatch/rules/"
sed "s#/usr/local/bin/#$PREFIX/bin/#g" systemd/modalwatchd.service > "$DESTDIR$PREFIX/lib/systemd/system/modalwatchd.service"
chmod 0644 "$DESTDIR$PREFIX/lib/systemd/system/modalwatchd.service"
# Sharded daemons (modalwatchd@N) and the forwarder between producers and them (docs/SCALING.md).
for unit in "modalwatchd@.service" "modalwatch-forward.service"; do
    sed "s#/usr/local/bin/#$PREFIX/bin/#g" "systemd/$unit" > "$DESTDIR$PREFIX/lib/systemd/system/$unit"
    chmod 0644 "$DESTDIR$PREFIX/lib/systemd/system/$unit"
done
if [ -e "$DESTDIR/etc/modalwatch/modalwatchd.yaml" ]; then
    echo "install: keeping the existing /etc/modalwatch/modalwatchd.yaml"
else
    install -m 0644 config/modalwatchd.yaml "$DESTDIR/etc/modalwatch/modalwatchd.yaml"
fi
install -m 0644 README.md docs/*.md "$DESTDIR$PREFIX/share/doc/modalwatch/"
echo "install: done under ${DESTDIR:-/}$PREFIX"
echo "install: systemctl daemon-reload && systemctl enable --now modalwatchd"
