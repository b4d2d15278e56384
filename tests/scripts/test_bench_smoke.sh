#!/bin/bash
# Smoke test of bench/passes: a 1k-node run must print valid JSON whose
# counts follow from the graph's construction (see bench/passes.c): blocks
# of add->mul->relu, an mm every 4th block, a dead neg->relu every 5th.
set -euo pipefail
: "${AIRC_BUILD:?AIRC_BUILD not set}"
exe="$AIRC_BUILD/bench/passes"
if [ ! -x "$exe" ]; then
    echo "SKIP: $exe not built (AIRC_BUILD_BENCH=OFF?)"
    exit 0
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$exe" --sizes 1000 --runs 1 --e2e-size 1000 > "$out" 2>/dev/null
/usr/bin/python3 -m json.tool "$out" > /dev/null
/usr/bin/python3 - "$out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["sizes"][0]
n, blocks = s["nodes"], s["blocks"]
# node count: x, w, output + 3 per block + 1 per mm + 2 per dead chain
mm = sum(1 for i in range(blocks) if i % 4 == 3)
dead = sum(1 for i in range(blocks) if i % 5 == 4)
assert n == 3 + 3 * blocks + mm + 2 * dead, (n, blocks)
assert 990 <= n <= 1000, n
c = s["counts"]
assert c["dce_removed"] == 2 * dead, c
assert c["cse_removed"] == 0, c
# blocks 0 and 1 use w twice (add and mul): placeholders bind injectively
assert c["matches"] == c["replaced"] == blocks - 2, c
assert c["nodes_after_rewrite"] == n + c["replaced"], c
# supported runs between two mm nodes: one partition per mm, plus the tail
assert c["partitions"] == mm + (1 if blocks % 4 else 0), c
# print -> the generator's text, which ends with a newline the printer omits
assert c["print_bytes"] == s["text_bytes"] - 1, c
for k, v in s["seconds"].items():
    assert v is not None and v >= 0, (k, v)
e = r["end_to_end"]
assert e["nodes"] == n and e["nodes_after"] == n - 2 * dead + c["replaced"], e
assert r["machine"]["nproc"] >= 1
assert set(r["targets"]) == {"rewrite_100k_under_1pct_of_torch_fx_19s",
                             "parse_dce_cse_rewrite_print_1M_under_3s"}
assert r["targets"]["rewrite_100k_under_1pct_of_torch_fx_19s"]["pass"] is None
print("ok:", n, "nodes,", c["matches"], "matches,", c["partitions"], "partitions")
PY
