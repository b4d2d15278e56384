#!/usr/bin/python3
"""Driver for bench/replay: airc's reduce-overhead numbers, PyTorch's beside
them, and the issue's targets.

    /usr/bin/python3 bench/replay.py [--build-dir build-bench] [--runs 7] [--no-torch]
                                     [--out result.json]

Builds the benchmark in Release (-O2) when the binary is missing, runs it,
and, when this Python has torch, times the same work in PyTorch eager with
one thread: the 500-op chain on 8x8 (relu/tanh/add/mul, as bench/replay.c
builds it) and the transformer block of bench/gen_replay_graphs.py. Prints
one JSON object: airc's records, torch's, and each target with its verdict.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

TARGETS = {
    "replay_vs_airc_eager": 10.0,  # replay >= 10x faster than airc's eager
    "replay_vs_torch_eager": 20.0,  # replay >= 20x faster than torch eager
    "ns_per_launch": 10.0,  # <= 10 ns
    "replay_over_kernels": 1.05,  # transformer: within 5% of its kernels
    "arena_over_lower_bound": 1.10,  # per model
}


def build(build_dir):
    binary = os.path.join(build_dir, "bench", "replay")
    if not os.path.exists(binary):
        subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                        "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG"], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", build_dir, "-j2", "--target", "bench_replay"],
                       check=True, stdout=subprocess.DEVNULL)
    return binary


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def torch_chain(runs, iters=200):
    import torch
    torch.set_num_threads(1)
    x = torch.randn(8, 8)

    def f(h):
        for _ in range(125):
            h = torch.mul(torch.add(torch.tanh(torch.relu(h)), h), 0.5)
        return h

    with torch.no_grad():
        f(x)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            for _ in range(iters):
                f(x)
            times.append((time.perf_counter() - t0) / iters)
    return median(times)


def torch_transformer(runs):
    import torch
    sys.path.insert(0, HERE)
    import gen_replay_graphs as g
    torch.set_num_threads(os.cpu_count() or 1)
    ins = g.example_inputs()
    with torch.no_grad():
        g.block(*ins)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            g.block(*ins)
            times.append(time.perf_counter() - t0)
    return median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"))
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--out")
    a = ap.parse_args()
    binary = build(a.build_dir)
    out = subprocess.run([binary, "--runs", str(a.runs), "--src", ROOT], check=True,
                         capture_output=True, text=True).stdout
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    by_case = {r.get("case"): r for r in records}
    result = {"airc": records, "torch": {}, "targets": {}}
    chain = by_case.get("chain", {})
    if not a.no_torch:
        try:
            result["torch"]["chain_us"] = torch_chain(a.runs) * 1e6
            result["torch"]["transformer_ms"] = torch_transformer(a.runs) * 1e3
        except ImportError:
            result["torch"] = {"skipped": "torch is not importable by this Python"}
    t = result["targets"]
    if chain:
        t["replay_vs_airc_eager"] = {"value": chain["eager_us"] / chain["replay_us"],
                                     "target": f">= {TARGETS['replay_vs_airc_eager']}"}
        if "chain_us" in result["torch"]:
            v = result["torch"]["chain_us"] / chain["replay_us"]
            t["replay_vs_torch_eager"] = {"value": v,
                                          "target": f">= {TARGETS['replay_vs_torch_eager']}"}
    if "launch" in by_case:
        t["ns_per_launch"] = {"value": by_case["launch"]["ns_per_launch"],
                              "target": f"<= {TARGETS['ns_per_launch']}"}
    if "transformer" in by_case:
        t["replay_over_kernels"] = {"value": by_case["transformer"]["replay_over_kernels"],
                                    "target": f"<= {TARGETS['replay_over_kernels']}"}
    if "memory_summary" in by_case:
        t["arena_over_lower_bound"] = {"value": by_case["memory_summary"]["worst_ratio"],
                                       "target": f"<= {TARGETS['arena_over_lower_bound']}"}
    for name, v in t.items():
        lim = TARGETS[name]
        v["met"] = v["value"] >= lim if v["target"].startswith(">=") else v["value"] <= lim
    text = json.dumps(result, indent=1)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
