#!/usr/bin/env bash
# Fault injection over every graph of tests/data/graphs, by hand (too slow
# for CI, which runs the seed graph and mlp.fx):
#   scripts/oom.sh [BUILD_DIR] [STRIDE]
# Runs test_oom (tests/unit/test_oom.c) with AIRC_OOM_GRAPHS=all: for each
# graph, phase (parse, pipeline, eager, reduce-overhead, max-autotune at
# compile and at the first run) and variant (fail only the Nth allocation
# or every one from the Nth on; a warm context or a fresh one per attempt),
# the allocator hook fails allocation N = 1, 1+STRIDE, ... until an attempt
# no longer reaches N. Every refused allocation must give
# AIRC_E_OUT_OF_MEMORY (or success with the right results), leak nothing
# and leave the caller's graph as it was. Prints a line per graph and loop,
# then totals; exit 0 when no bug was found, 1 otherwise, 2 on a setup error.
# BUILD_DIR defaults to build/ (configured and built if missing); STRIDE to 1
# (every N). Env: AIRC_OOM_GRAPHS (a,b,c instead of all), AIRC_OOM_PHASES
# (e.g. max-autotune), AIRC_OOM_ONLY_N and AIRC_OOM_VERBOSE for debugging:
#   AIRC_OOM_GRAPHS=attention AIRC_OOM_PHASES=max-autotune AIRC_OOM_ONLY_N=2063 \
#     gdb -ex 'b oom_refused' -ex r build/bin/test_oom
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
stride=${2:-1}
jobs=${AIRC_JOBS:-2}
if [[ ! -x $build/bin/test_oom ]]; then
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug >/dev/null || exit 2
    cmake --build "$build" -j"$jobs" --target test_oom || exit 2
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
AIRC_OOM_GRAPHS=${AIRC_OOM_GRAPHS:-all} AIRC_OOM_STRIDE=$stride \
    "$build/bin/test_oom" >"$log" 2>&1
rc=$?
grep -E '^  [^ ]' "$log" | grep -vE '^  +(%|graph\()'
grep -E '^BUG ' "$log" | head -40
awk '/ allocs, N=/ { loops++; sub(/.*step [0-9]+: /, ""); oom += $1; tol += $3; bugs += $5 }
     END { printf "oom.sh: %d loops, %d AIRC_E_OUT_OF_MEMORY, %d tolerated, %d bugs\n",
           loops, oom, tol, bugs }' "$log"
echo "oom.sh: $(( $(date +%s) - start )) s, test_oom exit $rc"
[[ $rc -eq 0 ]] || { tail -20 "$log"; exit 1; }
