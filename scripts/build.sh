#!/usr/bin/env bash
# Configures and builds airc into build/ (RelWithDebInfo): the CLI at
# build/bin/airc, the library at build/lib/libairc.{so,a}, examples in
# build/bin/. Extra arguments go to the configure step (-DAIRC_SANITIZE=...).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${AIRC_BUILD_DIR:-$root/build}
jobs=${AIRC_JOBS:-$(nproc 2>/dev/null || echo 2)}

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build "$build" -j"$jobs"
