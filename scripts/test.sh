#!/usr/bin/env bash
# The whole test suite on a fresh machine: install what is missing, build,
# run every test with ctest; then build a second tree with AddressSanitizer
# and UndefinedBehaviorSanitizer (build-asan/, the CLI at build-asan/bin/airc)
# and run the suite again there (the Python tests stay in the first tree:
# Python cannot load a sanitized library). Exits non-zero when a test fails.
# AIRC_SANITIZE_TREE=0 skips the second tree (a quick local run).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

bash scripts/setup.sh
bash scripts/build.sh
jobs=${AIRC_JOBS:-$(nproc 2>/dev/null || echo 2)}
ctest --test-dir "${AIRC_BUILD_DIR:-$root/build}" --output-on-failure -j"$jobs"

if [[ ${AIRC_SANITIZE_TREE:-1} != 0 ]]; then
    asan=${AIRC_ASAN_BUILD_DIR:-$root/build-asan}
    AIRC_BUILD_DIR=$asan bash scripts/build.sh -DCMAKE_BUILD_TYPE=Debug \
        -DAIRC_SANITIZE=address,undefined
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
        ctest --test-dir "$asan" --output-on-failure -j"$jobs"
fi
