#!/usr/bin/env bash
# scripts/setup.sh: install what a fresh Debian machine lacks to build and test modalwatch, and only that.
#   - libzmq3-dev, libsqlite3-dev and pkg-config, when pkg-config cannot find libzmq / sqlite3 (apt-get; sudo only when not root)
#   - a C compiler (gcc), for the tests that build rule modules written in C
#   - tmux, for the tests that drive `modalwatch top` in a terminal
#   - chromium (Debian's, headless) and Pillow, for the tests that render `modalwatch report` (~3 min the first time)
#   - pyzmq, jsonschema and pytest, when python3 cannot import them (pip; apt-get when pip may not install)
# The Swift toolchain is not installed here; /opt/swift/usr/bin is put on PATH when swift is not found.
# Source it (to keep the PATH) or run it; it exits non-zero when something cannot be installed.
set -euo pipefail

setup_as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

setup_apt_install() {
    setup_as_root apt-get update -qq
    setup_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
{ command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libzmq; } || missing+=(libzmq3-dev)
{ command -v pkg-config >/dev/null 2>&1 && pkg-config --exists sqlite3; } || missing+=(libsqlite3-dev)
command -v cc >/dev/null 2>&1 || missing+=(gcc)
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)   # for `systemd-analyze verify` of the unit
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)      # renders the HTML report in its tests
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    setup_apt_install "${missing[@]}"
fi

if ! python3 -c 'import zmq, jsonschema, pytest, prometheus_client' >/dev/null 2>&1; then
    echo "setup: installing pyzmq jsonschema pytest" >&2
    if ! python3 -m pip install -q pyzmq jsonschema pytest prometheus-client; then
        # Debian's own python3 refuses pip installs (PEP 668): take the distribution's packages.
        setup_apt_install python3-zmq python3-jsonschema python3-pytest python3-prometheus-client
    fi
    python3 -c 'import zmq, jsonschema, pytest, prometheus_client' || { echo "setup: python3 still cannot import zmq, jsonschema, pytest, prometheus_client" >&2; exit 1; }
fi

if ! python3 -c 'import PIL' >/dev/null 2>&1; then
    echo "setup: installing Pillow (reads the report's screenshots in its tests)" >&2
    python3 -m pip install -q Pillow || setup_apt_install python3-pil
    python3 -c 'import PIL' || { echo "setup: python3 still cannot import PIL (Pillow)" >&2; exit 1; }
fi

if ! command -v swift >/dev/null 2>&1; then
    if [ -x /opt/swift/usr/bin/swift ]; then
        export PATH="/opt/swift/usr/bin:$PATH"
    else
        echo "setup: no swift on PATH; install a Swift 6 toolchain (https://swift.org/install)" >&2
        exit 1
    fi
fi
