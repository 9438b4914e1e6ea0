#!/usr/bin/env bash
# scripts/test.sh: the one test command.
#   installs what is missing (scripts/setup.sh), then swift build, swift test, and the end-to-end suite
#   (python3 -m pytest -q Tests/e2e). Exits non-zero on the first failure.
# Extra arguments go to pytest, e.g. scripts/test.sh -k garbage
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# shellcheck source=setup.sh
source "$ROOT/scripts/setup.sh"

echo "== swift build"
swift build
echo "== swift test"
swift test
echo "== end-to-end: python3 -m pytest -q Tests/e2e"
python3 -m pytest -q Tests/e2e "$@"
