#!/usr/bin/python3
"""Driver for bench/passes: airc's pass timings, and torch.fx's side by side.

    /usr/bin/python3 bench/passes.py [--build-dir build-bench] [--sizes 10000,100000,1000000]
                                     [--torch-sizes 10000,100000] [--timeout 60] [--no-torch]
                                     [--out result.json]

Builds the benchmark in Release (-O2) when the binary is missing, runs it,
and, when this Python has torch, builds the same graphs with the torch.fx
Graph API (explicit node names) and times lint, eliminate_dead_code,
CSEPass, SubgraphMatcher, subgraph_rewriter.replace_pattern,
CapabilityBasedPartitioner (propose, fuse) and str(graph). Each torch case
runs in its own subprocess under a wall-clock limit (setup included), as in
torch-fx-semantics.md §4; a case past the limit is reported as skipped, and
so is a case whose time at the previous size, scaled linearly, already
exceeds the limit (it is super-linear, so it would not finish). Before
timing, the torch graph's str() is compared with the text airc parses (1k
nodes): both sides time the very same graph.

Prints one JSON object (see bench/README.md).
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

SUPPORTED = ("add.Tensor", "mul.Tensor", "relu.default", "neg.default")
TORCH_CASES = ("construct", "lint", "dce", "cse", "match", "rewrite", "partition", "print")


# --------------------------------------------------------------------------
# torch.fx side (runs in a child process per case)
# --------------------------------------------------------------------------

def block_nodes(i):
    return 3 + (i % 4 == 3) + 2 * (i % 5 == 4)


def num_blocks(target):
    # the same count as bench/passes.c's generate()
    n, nodes = 0, 3
    while nodes + block_nodes(n) <= target or n < 1:
        nodes += block_nodes(n)
        n += 1
    return n


def build_torch_graph(target):
    import torch
    import torch.fx as fx
    aten = torch.ops.aten
    g = fx.Graph()
    x = g.placeholder("x")
    w = g.placeholder("w")
    prev_prev, prev = x, w
    cf = g.create_node
    for i in range(num_blocks(target)):
        a = cf("call_function", aten.add.Tensor, (prev, prev_prev), name=f"add_{i}")
        m = cf("call_function", aten.mul.Tensor, (a, w), name=f"mul_{i}")
        r = cf("call_function", aten.relu.default, (m,), name=f"relu_{i}")
        res = r
        if i % 4 == 3:
            res = cf("call_function", aten.mm.default, (r, w), name=f"mm_{i}")
        if i % 5 == 4:
            ng = cf("call_function", aten.neg.default, (r,), name=f"neg_{i}")
            cf("call_function", aten.relu.default, (ng,), name=f"drelu_{i}")
        prev_prev, prev = prev, res
    g.output(prev)
    return g


def torch_case(case, target):
    """Runs one case; returns {"seconds": {...}, "counts": {...}}."""
    sys.setrecursionlimit(10 ** 6)  # the 1.13 matcher recurses per node
    import torch
    import torch.fx as fx
    aten = torch.ops.aten
    out = {"seconds": {}, "counts": {}}
    t0 = time.perf_counter()
    g = build_torch_graph(target)
    out["seconds"]["construct"] = time.perf_counter() - t0
    out["counts"]["nodes"] = len(g.nodes)
    if case == "construct":
        return out

    def gm_of(graph):
        return fx.GraphModule(torch.nn.Module(), graph)

    if case == "lint":
        t0 = time.perf_counter()
        g.lint()
        out["seconds"]["lint"] = time.perf_counter() - t0
    elif case == "dce":
        n0 = len(g.nodes)
        t0 = time.perf_counter()
        g.eliminate_dead_code()
        out["seconds"]["dce"] = time.perf_counter() - t0
        out["counts"]["dce_removed"] = n0 - len(g.nodes)
    elif case == "cse":
        from torch.fx.passes.dialect.common.cse_pass import CSEPass
        gm = gm_of(g)
        n0 = len(g.nodes)
        t0 = time.perf_counter()
        res = CSEPass()(gm)
        out["seconds"]["cse"] = time.perf_counter() - t0
        out["counts"]["cse_removed"] = n0 - len(res.graph_module.graph.nodes)
    elif case in ("match", "rewrite"):
        def pattern(a, b, c):
            return aten.mul.Tensor(aten.add.Tensor(a, b), c)

        def replacement(a, b, c):
            return aten.add.Tensor(aten.mul.Tensor(a, c), aten.mul.Tensor(b, c))

        if case == "match":
            from torch.fx.passes.utils.matcher_utils import SubgraphMatcher
            pg = fx.symbolic_trace(pattern).graph
            t0 = time.perf_counter()
            matches = SubgraphMatcher(pg).match(g)
            out["seconds"]["match"] = time.perf_counter() - t0
            out["counts"]["matches"] = len(matches)
        else:
            from torch.fx import subgraph_rewriter
            gm = gm_of(g)
            t0 = time.perf_counter()
            replaced = subgraph_rewriter.replace_pattern(gm, pattern, replacement)
            out["seconds"]["rewrite"] = time.perf_counter() - t0
            out["counts"]["replaced"] = len(replaced)
            out["counts"]["nodes_after_rewrite"] = len(gm.graph.nodes)
    elif case == "partition":
        from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
        from torch.fx.passes.operator_support import OperatorSupportBase
        targets = {getattr(getattr(aten, s.split(".")[0]), s.split(".")[1]) for s in SUPPORTED}

        class Support(OperatorSupportBase):
            def is_node_supported(self, submodules, node):
                return node.op == "call_function" and node.target in targets

        gm = gm_of(g)
        t0 = time.perf_counter()
        part = CapabilityBasedPartitioner(gm, Support(), allows_single_node_partition=False)
        parts = part.propose_partitions()
        t1 = time.perf_counter()
        out["seconds"]["partition_propose"] = t1 - t0
        out["counts"]["partitions"] = len(parts)
        # reported before fusing, so that a fuse past the limit still
        # leaves the propose time behind
        print(json.dumps(out), flush=True)
        fused = part.fuse_partitions(parts)
        t2 = time.perf_counter()
        out["seconds"]["partition_fuse"] = t2 - t1
        out["seconds"]["partition"] = t2 - t0
        out["counts"]["nodes_after_fuse"] = len(fused.graph.nodes)
    elif case == "print":
        t0 = time.perf_counter()
        s = str(g)
        out["seconds"]["print"] = time.perf_counter() - t0
        out["counts"]["print_bytes"] = len(s)
    else:
        raise SystemExit(f"unknown case {case}")
    return out


def child_main(case, target):
    import threading
    # deep recursion in the 1.13 matcher needs a large C stack
    threading.stack_size(1 << 29)
    result = {}

    def run():
        result["r"] = torch_case(case, target)

    th = threading.Thread(target=run)
    th.start()
    th.join()
    if "r" not in result:
        sys.exit(1)
    print(json.dumps(result["r"]), flush=True)


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def have_torch():
    try:
        r = subprocess.run([sys.executable, "-c", "import torch; print(torch.__version__)"],
                           capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def run_torch_case(case, n, timeout):
    """(result dict or None, note)."""
    cmd = [sys.executable, os.path.abspath(__file__), "--torch-case", case, "--n", str(n)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        stdout, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        rc = None
    lines = [ln for ln in stdout.splitlines() if ln.startswith("{")]
    last = json.loads(lines[-1]) if lines else None
    if rc is None:
        return last, f"skipped: over the {timeout:g} s limit"
    if rc != 0:
        err = (p.stderr or "").strip().splitlines()
        return last, "failed: " + (err[-1] if err else f"exit status {rc}")
    return last, None


def ensure_binary(build_dir):
    exe = os.path.join(build_dir, "bench", "passes")
    if not os.path.exists(exe):
        subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                        "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG", "-DAIRC_BUILD_TESTS=OFF",
                        "-DAIRC_BUILD_EXAMPLES=OFF"], check=True, stdout=sys.stderr)
        subprocess.run(["cmake", "--build", build_dir, "-j2", "--target", "bench_passes"],
                       check=True, stdout=sys.stderr)
    return exe


def same_graph_check(exe):
    """torch.fx's str(graph) equals the text airc parses (1k nodes)."""
    text = subprocess.run([exe, "--emit", "1000"], capture_output=True, text=True,
                          check=True).stdout
    r = subprocess.run([sys.executable, "-c",
                        "import sys; sys.path.insert(0, %r); import passes; "
                        "print(str(passes.build_torch_graph(1000)), end='')" % HERE],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        return {"equal": False, "error": r.stderr.strip().splitlines()[-1:]}
    return {"equal": r.stdout.rstrip("\n") == text.rstrip("\n"), "nodes": 1000}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"))
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--runs", type=int, default=0)
    ap.add_argument("--e2e-size", default="1000000")
    ap.add_argument("--torch-sizes", default="10000,100000")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--out", help="also write the JSON here")
    ap.add_argument("--torch-case", help=argparse.SUPPRESS)
    ap.add_argument("--n", type=int, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.torch_case:
        child_main(a.torch_case, a.n)
        return

    exe = ensure_binary(os.path.abspath(a.build_dir))
    cmd = [exe, "--sizes", a.sizes, "--e2e-size", a.e2e_size]
    if a.runs:
        cmd += ["--runs", str(a.runs)]
    with open("/proc/loadavg") as f:
        load_before = f.read().split()[:3]
    result = json.loads(subprocess.run(cmd, capture_output=True, text=True,
                                       check=True).stdout)
    result["machine"]["loadavg_after_airc"] = [float(x) for x in open("/proc/loadavg")
                                               .read().split()[:3]]
    result["machine"]["loadavg_before"] = [float(x) for x in load_before]

    version = None if a.no_torch else have_torch()
    if not version:
        result["torch_fx"] = None
    else:
        tf = {"version": version, "timeout_s": a.timeout,
              "graph_check": same_graph_check(exe), "sizes": []}
        prev = {}
        for n in [int(s) for s in a.torch_sizes.split(",") if s]:
            entry = {"target_nodes": n, "seconds": {}, "counts": {}, "skipped": {}}
            for case in TORCH_CASES:
                keys = (["partition_propose", "partition_fuse", "partition"]
                        if case == "partition" else [case])
                guess = [prev[k] * n / prev["n"] for k in keys if k in prev]
                # run when some part may finish (partition: propose may,
                # even when fuse will not)
                if prev and (not guess or min(guess) > a.timeout):
                    why = ("skipped: not run at the previous size" if not guess else
                           f"skipped: {prev['n']} nodes took {min(guess) * prev['n'] / n:.3g} s, "
                           f"so at least {min(guess):.3g} s here (limit {a.timeout:g} s)")
                    for k in keys:
                        entry["skipped"][k] = why
                    continue
                print(f"bench/passes.py: torch.fx {case}, {n} nodes", file=sys.stderr)
                r, note = run_torch_case(case, n, a.timeout)
                if r:
                    for k, v in r["seconds"].items():
                        if k == case or k in keys:
                            entry["seconds"][k] = v
                    if case == "construct":
                        entry["seconds"]["construct"] = r["seconds"]["construct"]
                    entry["counts"].update(r["counts"])
                for k in keys:
                    if k not in entry["seconds"]:
                        entry["skipped"][k] = note or "skipped: no result"
            prev = dict(entry["seconds"], n=n)
            tf["sizes"].append(entry)
        result["torch_fx"] = tf
        # torch.fx seconds / airc seconds, for the sizes both ran
        speed = {}
        for entry in tf["sizes"]:
            ours = next((s for s in result["sizes"]
                         if s["target_nodes"] == entry["target_nodes"]), None)
            if not ours:
                continue
            speed[str(entry["target_nodes"])] = {
                k: round(v / ours["seconds"][k], 1)
                for k, v in entry["seconds"].items()
                if ours["seconds"].get(k)}
        result["torch_fx_over_airc"] = speed
        rw10k = next((e["seconds"].get("rewrite") for e in tf["sizes"]
                      if e["target_nodes"] == 10000), None)
        t = result["targets"]["rewrite_100k_under_1pct_of_torch_fx_19s"]
        if rw10k is not None and t["seconds"] is not None:
            result["targets"]["rewrite_100k_under_1pct_of_torch_fx_10k_measured_now"] = {
                "torch_fx_10k_s": rw10k, "limit_s": rw10k / 100, "seconds": t["seconds"],
                "pass": t["seconds"] < rw10k / 100}

    text = json.dumps(result, indent=2)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
