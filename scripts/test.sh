#!/usr/bin/env bash
# scripts/test.sh: the one test command.
#   installs what is missing (scripts/setup.sh for the build, then what only the tests need, with
#   apt-get --no-install-recommends: a C compiler for the C rule modules, systemd-analyze for the
#   units, tmux for `modalwatch top`, chromium for the report's rendering, patchelf and dpkg-dev
#   for the Debian package, postgresql and prometheus for the shared history's and the metrics'
#   tests (servers the tests start themselves, scripts/postgres-throwaway.sh); jsonschema, pytest,
#   prometheus-client and Pillow for Python; the translation catalogues and CLDR data the language
#   tables come from), then swift format lint (.swift-format), the language tables checked against
#   those sources, swift build,
#   swift test, the micro-benchmarks' allocation thresholds (Benchmarks/), and the end-to-end
#   suite (python3 -m pytest -q Tests/e2e).
#   Exits non-zero on the first failure.
# Extra arguments go to pytest, e.g. scripts/test.sh -k garbage
# scripts/test.sh --systemd runs the units under a real systemd instead, and only that: swift build,
#   the Debian package of the debug build (scripts/package.sh), then python3 -m pytest -q Tests/systemd
#   (root; a Debian 12 root booted with systemd-nspawn, Tests/systemd/README.md).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

systemd_suite=0
pytest_args=()
for arg in "$@"; do
    if [ "$arg" = "--systemd" ]; then systemd_suite=1; else pytest_args+=("$arg"); fi
done

# shellcheck source=setup.sh
source "$ROOT/scripts/setup.sh"

if [ "$systemd_suite" = 1 ]; then
    setup_python_modules pytest pytest python3-pytest
    echo "== swift build"
    swift build
    echo "== package: CONFIGURATION=debug SKIP_BUILD=1 COMPRESSION=none scripts/package.sh"
    dist="$(mktemp -d)"
    trap 'rm -rf "$dist"' EXIT
    deb="$(DIST="$dist" CONFIGURATION=debug SKIP_BUILD=1 COMPRESSION=none bash scripts/package.sh | tail -n 1)"
    echo "== systemd: python3 -m pytest -q Tests/systemd"
    MODALWATCH_DEB="$deb" python3 -m pytest -q Tests/systemd "${pytest_args[@]}"
    exit
fi

missing=()
command -v cc >/dev/null 2>&1 || missing+=(gcc)
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v patchelf >/dev/null 2>&1 || missing+=(patchelf)
command -v dpkg-shlibdeps >/dev/null 2>&1 || missing+=(dpkg-dev)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v prometheus >/dev/null 2>&1 || missing+=(prometheus)
# The translation catalogues and CLDR data the language tables are generated from (their
# generators name them), so that the tables are checked against their sources below.
for package in $(python3 scripts/generate_standard_titles.py --packages) $(python3 scripts/generate_quotation_marks.py --packages); do
    dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "test: installing ${missing[*]}" >&2
    setup_apt_install "${missing[@]}"
fi
setup_python_modules jsonschema,pytest,prometheus_client,yaml "jsonschema pytest prometheus-client PyYAML" \
    "python3-jsonschema python3-pytest python3-prometheus-client python3-yaml"
setup_python_modules PIL Pillow python3-pil
# pytest-xdist: the end-to-end suite in parallel workers (Tests/e2e/README.md).
setup_python_modules xdist pytest-xdist python3-pytest-xdist

# Each step timed: its seconds on its own line, and all of them at the end.
step_times=()
step() {
    local name=$1 started=$SECONDS
    shift
    echo "== $name"
    "$@"
    step_times+=("$(printf '%5ds  %s' $((SECONDS - started)) "$name")")
    echo "== $name: $((SECONDS - started))s"
}
trap 'printf "test: step times\n"; printf "  %s\n" "${step_times[@]}"' EXIT

# The layout .swift-format gives (swift-format, in the toolchain since 6.0): `swift format -i -r
# --parallel Sources Plugins Tests Benchmarks Examples Fuzz Package.swift` writes it.
step "swift format lint --strict" swift format lint --strict --recursive --parallel \
    Sources Plugins Tests Benchmarks Examples Fuzz Package.swift
step "language tables: generated from their sources" bash -c \
    'python3 scripts/generate_standard_titles.py --check && python3 scripts/generate_quotation_marks.py --check'
step "swift build --build-tests" swift build --build-tests
step "swift test" swift test --skip-build
echo "== micro-benchmarks: allocation counts against Benchmarks/Thresholds/<toolchain> (Benchmarks/thresholds.sh check)"
# The decoder, the engine and the history store on package-benchmark, in release; a count more
# than 16 above (or below) its threshold fails: Benchmarks/README.md says how to update the thresholds.
step "micro-benchmarks" bash Benchmarks/thresholds.sh check
# The package test packages the debug build just made (a release build adds about 11 minutes on
# 2 cores); MODALWATCH_PACKAGE_CONFIGURATION=release tests the package as scripts/package.sh builds it.
# Four pytest-xdist workers (E2E_WORKERS): the tests mostly wait on daemons, on free ports and
# private folders of their own (--dist loadgroup: the two files that build Examples/swift-module on one
# worker, xdist_group("swift-module")); the 30 slowest are listed.
step "end-to-end: python3 -m pytest -q Tests/e2e" env MODALWATCH_PACKAGE_CONFIGURATION="${MODALWATCH_PACKAGE_CONFIGURATION:-debug}" \
    python3 -m pytest -q Tests/e2e -n "${E2E_WORKERS:-4}" --dist loadgroup --durations=30 "${pytest_args[@]}"
