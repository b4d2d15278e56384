#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, and run
# airc on the seed-001 model: parse, lint, print with types, run it eagerly
# on the CPU runtime, then the seed's multi-stream pass through the pipeline.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

bash scripts/setup.sh
bash scripts/build.sh

airc=${AIRC_BUILD_DIR:-$root/build}/bin/airc
ex=examples/seed001
echo
echo "== airc lint $ex/model.fx"
"$airc" lint "$ex/model.fx"
echo
echo "== airc fmt --types --input $ex/x.npy $ex/model.fx"
"$airc" fmt --types --input "$ex/x.npy" "$ex/model.fx"
echo
echo "== airc run --mode eager: the seed's model on the CPU runtime, node by node"
"$airc" run --mode eager --input "$ex/x.npy" --output-dir "${AIRC_BUILD_DIR:-$root/build}/seed001-out" --stats "$ex/model.fx"
echo
echo "== airc run (reduce-overhead): the graph after the seed's pass, captured once, replayed on two streams"
"$airc" run --input "$ex/x.npy" --repeat 100 --stats --trace "${AIRC_BUILD_DIR:-$root/build}/seed001-trace.json" "$ex/multistream.after.fx"
echo
echo "== multistream: the seed's custom pass in C, run as a user pre-pass"
"${AIRC_BUILD_DIR:-$root/build}/bin/multistream" "$ex/model.fx" "$ex/x.npy"
