#!/usr/bin/env bash
# scripts/setup.sh: install what a fresh Debian machine lacks to build modalwatch and run the
# demo (demo/run.sh), and only that:
#   - libzmq3-dev, libsqlite3-dev and pkg-config, when pkg-config cannot find libzmq / sqlite3
#   - libpq-dev (the PostgreSQL history's client library), when pkg-config cannot find libpq
#   - libicu-dev (ICU: the words of scripts written without spaces), when pkg-config cannot find icu-uc
#   - pyzmq, for the demo's subscriber (demo/subscribe.py)
# with apt-get --no-install-recommends (sudo only when not root), pip for pyzmq when allowed.
# What only the tests need (a C compiler, tmux, chromium, ...) is installed by scripts/test.sh.
# The Swift toolchain is not installed here; /opt/swift/usr/bin is put on PATH when swift is not found.
# Source it (to keep the PATH and the functions) or run it; it exits non-zero when something cannot be installed.
set -euo pipefail

setup_as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Installs Debian packages without their recommends.
setup_apt_install() {
    setup_as_root apt-get update -qq
    setup_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

# Makes python3 import the modules $1 (comma-separated): pip installs the pip packages $2
# (space-separated), else (PEP 668 on Debian's python3) apt-get the Debian packages $3.
setup_python_modules() {
    local modules="$1" pip_packages="$2" debian_packages="$3"
    python3 -c "import $modules" >/dev/null 2>&1 && return 0
    echo "setup: installing $pip_packages" >&2
    # shellcheck disable=SC2086
    python3 -m pip install -q $pip_packages >/dev/null 2>&1 || setup_apt_install $debian_packages
    python3 -c "import $modules" || { echo "setup: python3 still cannot import $modules" >&2; return 1; }
}

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
{ command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libzmq; } || missing+=(libzmq3-dev)
{ command -v pkg-config >/dev/null 2>&1 && pkg-config --exists sqlite3; } || missing+=(libsqlite3-dev)
{ command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libpq; } || missing+=(libpq-dev)
{ command -v pkg-config >/dev/null 2>&1 && pkg-config --exists icu-uc; } || missing+=(libicu-dev)
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    setup_apt_install "${missing[@]}"
fi

setup_python_modules zmq pyzmq python3-zmq

if ! command -v swift >/dev/null 2>&1; then
    if [ -x /opt/swift/usr/bin/swift ]; then
        export PATH="/opt/swift/usr/bin:$PATH"
    else
        echo "setup: no swift on PATH; install a Swift 6 toolchain (https://swift.org/install)" >&2
        exit 1
    fi
fi
