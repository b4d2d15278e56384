#!/usr/bin/env bash
# The whole test suite on a fresh machine: install what is missing, build,
# run every test with ctest. Exits non-zero when a test fails.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

bash scripts/setup.sh
bash scripts/build.sh
jobs=${AIRC_JOBS:-$(nproc 2>/dev/null || echo 2)}
ctest --test-dir "${AIRC_BUILD_DIR:-$root/build}" --output-on-failure -j"$jobs"
