#!/usr/bin/python3
"""Driver for bench/kernels: airc's CPU kernels, and PyTorch's side by side.

    /usr/bin/python3 bench/kernels.py [--build-dir build-bench] [--quick] [--no-torch]
                                      [--out result.json] [--op NAME[,NAME...]]

Builds the benchmark in Release (-O2) when the binary is missing, runs it
(GEMMs beside cblas_sgemm, elementwise and sum beside memcpy, softmax /
layer_norm / conv2d / topk / sort / index / flip / grid_sample /
grid_sample3d / bicubic / im2col times), then times the same calls in
PyTorch (torch.ops.aten, the same shapes), single-threaded
(torch.set_num_threads(1), and OpenBLAS's pool, which torch's GEMMs and
LAPACK calls use, set to one thread too) and with torch's default thread
count, and
merges the numbers: each entry of "ops" gains us_torch_1t, us_torch and the
ratios torch_1t_over_airc_1t / torch_over_airc (> 1: airc is faster).

Prints one JSON object (see bench/README.md).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def build(build_dir):
    exe = os.path.join(build_dir, "bench", "kernels")
    if os.path.exists(exe):
        return exe
    subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                    "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG"], check=True, stdout=sys.stderr)
    subprocess.run(["cmake", "--build", build_dir, "-j2", "--target", "bench_kernels"],
                   check=True, stdout=sys.stderr)
    return exe


def median_time(fn, budget):
    for _ in range(3):
        fn()
    t0 = time.perf_counter()
    fn()
    est = time.perf_counter() - t0
    runs = max(5, min(50, int(budget / est) if est > 0 else 50))
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)



def loaded_openblas():
    """OpenBLAS as this process has it loaded (torch's), or None."""
    import ctypes
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f if "libopenblas" in line}
    except OSError:
        return None
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_num_threads.restype = ctypes.c_int
            lib.openblas_set_num_threads.argtypes = [ctypes.c_int]
            return lib
        except (OSError, AttributeError):
            continue
    return None

def torch_ops(quick, only=None):
    """The same calls as bench/kernels.c's bench_ops, in microseconds (only: the
    names to time, or None for all)."""
    import torch
    aten = torch.ops.aten
    torch.manual_seed(0)
    x = torch.rand(4096, 1024) * 2 - 1
    w = torch.rand(1024) * 2 - 1
    b = torch.rand(1024) * 2 - 1
    xi = torch.rand(1, 64, 56, 56) * 2 - 1
    wc = torch.rand(64, 64, 3, 3) * 2 - 1
    bc = torch.rand(64) * 2 - 1
    xl = torch.rand(8, 50257) * 2 - 1
    xt = torch.rand(32000, 512) * 2 - 1
    xp = torch.rand(16, 3, 224, 224) * 2 - 1
    ix = (torch.arange(8 * 50) * 7919 + 13).remainder(32000).reshape(8, 50)
    xf = torch.rand(8, 64, 64, 64) * 2 - 1
    gf = torch.rand(8, 64, 64, 2) * 2 - 1
    xg = torch.rand(1, 16, 32, 64, 64) * 2 - 1
    gg = torch.rand(1, 32, 64, 64, 3) * 2 - 1
    c1 = torch.rand(4, 256, 64) * 2 - 1
    c2 = torch.rand(4, 256, 64) * 2 - 1
    xy = torch.rand(4096, 1024) * 2 - 1
    xn = torch.rand(8192, 1000) * 2 - 1
    tgt = (torch.arange(8192) * 7919 + 13).remainder(1000)
    sn = torch.rand(10000, 64) * 2 - 1
    im = (torch.arange(50000 * 64) * 7919 + 13).remainder(10000).reshape(50000, 64)
    sm = torch.rand(50000, 64) * 2 - 1
    enc = [torch.rand(*s) * 2 - 1 for s in ((1, 128, 256), (768, 256), (768,), (256, 256),
                                            (256,), (256,), (256,), (256,), (256,), (1024, 256),
                                            (1024,), (256, 1024), (256,))]
    grid = -1 + 2 * torch.arange(1024, dtype=torch.float32) / 1024
    xv = torch.rand(1, 32, 8, 28, 28) * 2 - 1
    wv = torch.rand(32, 32, 3, 3, 3) * 2 - 1
    bv = torch.rand(32) * 2 - 1
    b1 = torch.rand(64, 256) * 2 - 1
    bw = torch.rand(128, 256, 256) * 2 - 1
    b2 = torch.rand(64, 256) * 2 - 1
    sa = torch.rand(64, 64, 64) * 2 - 1
    sb = torch.rand(64, 64, 8) * 2 - 1
    sm2 = torch.rand(256, 256) * 2 - 1
    la, lb = torch.rand(64, 128, 32) * 2 - 1, torch.rand(64, 128, 4) * 2 - 1
    me = torch.rand(64, 64) * 2 - 1
    calls = {
        "softmax": lambda: aten._softmax(x, -1, False),
        "layer_norm": lambda: aten.native_layer_norm(x, [1024], w, b, 1e-5),
        "conv2d": lambda: aten.convolution(xi, wc, bc, [1, 1], [1, 1], [1, 1], False, [0, 0], 1),
        "topk": lambda: aten.topk(xl, 50),
        "sort": lambda: aten.sort(xl, -1, True),
        "index": lambda: aten.index(xt, [ix]),
        "flip": lambda: aten.flip(xp, [-1]),
        "grid_sample": lambda: aten.grid_sampler_2d(xf, gf, 0, 0, False),
        "grid_sample3d": lambda: aten.grid_sampler_3d(xg, gg, 0, 0, False),
        "bicubic": lambda: aten.upsample_bicubic2d(xi, [112, 112], False, None),
        "im2col": lambda: aten.im2col(xi, [3, 3], [1, 1], [1, 1], [1, 1]),
        "cdist_p1": lambda: aten._cdist_forward(c1, c2, 1.0, None),
        "cdist_p2": lambda: aten._cdist_forward(c1, c2, 2.0, None),
        "mse_loss": lambda: aten.mse_loss(x, xy, 1),
        "nll_loss": lambda: aten.nll_loss_forward(xn, tgt, None, 1, -100),
        "scatter_amax": lambda: aten.scatter_reduce(sn, 0, im, sm, "amax"),
        "cummax": lambda: aten.cummax(x, 1),
        "logcumsumexp": lambda: aten.logcumsumexp(x, 1),
        "searchsorted": lambda: aten.searchsorted(grid, x),
        "conv3d": lambda: aten.convolution(xv, wv, bv, [1, 1, 1], [1, 1, 1], [1, 1, 1], False,
                                           [0, 0, 0], 1),
        "max_pool3d": lambda: aten.max_pool3d_with_indices(xv, [2, 2, 2]),
        "encoder_layer": lambda: aten._transformer_encoder_layer_fwd(
            enc[0], 256, 8, enc[1], enc[2], enc[3], enc[4], True, False, 1e-5, *enc[5:13]),
        "bilinear": lambda: aten._trilinear(b1, bw, b2, [1, 3], [0], [1, 2], [2, 3]),
        "solve": lambda: aten._linalg_solve_ex(sa, sb),
        "svd": lambda: aten._linalg_svd(sm2),
        "lstsq": lambda: aten.linalg_lstsq(la, lb),
        "matrix_exp": lambda: aten.linalg_matrix_exp(me),
    }
    budget = 0.1 if quick else 0.5
    default_threads = torch.get_num_threads()
    # torch.set_num_threads does not reach OpenBLAS's own pthreads pool,
    # which torch's GEMMs and LAPACK calls run on: without this, "1t"
    # timed torch's matmuls on every core against airc's one.
    blas = loaded_openblas()
    blas_threads = blas.openblas_get_num_threads() if blas else None
    out = {"version": torch.__version__, "default_threads": default_threads,
           "openblas_threads": blas_threads, "openblas_threads_1t": 1 if blas else None,
           "config": torch.__config__.parallel_info().splitlines()[:6], "ops": {}}
    with torch.no_grad():
        for name, fn in calls.items():
            if only is not None and name not in only:
                continue
            torch.set_num_threads(1)
            if blas:
                blas.openblas_set_num_threads(1)
            t1 = median_time(fn, budget)
            torch.set_num_threads(default_threads)
            if blas:
                blas.openblas_set_num_threads(blas_threads)
            tn = median_time(fn, budget)
            out["ops"][name] = {"us_1t": round(t1 * 1e6, 1), "us": round(tn * 1e6, 1)}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"))
    ap.add_argument("--quick", action="store_true", help="fewer sizes and runs")
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--out", help="also write the JSON here")
    ap.add_argument("--op", help="only these rows of ops (comma-separated); implies --only ops")
    args = ap.parse_args()

    exe = build(args.build_dir)
    cmd = [exe] + (["--quick"] if args.quick else [])
    if args.op:
        cmd += ["--only", "ops", "--op", args.op]
    res = json.loads(subprocess.run(cmd, check=True, stdout=subprocess.PIPE).stdout)
    if not args.no_torch:
        try:
            t = torch_ops(args.quick, args.op.split(",") if args.op else None)
        except ImportError as e:
            t = {"skipped": str(e)}
        res["torch"] = t
        for op in res.get("ops", []):
            tt = t.get("ops", {}).get(op["op"])
            if not tt:
                continue
            op["us_torch_1t"] = tt["us_1t"]
            op["us_torch"] = tt["us"]
            op["torch_1t_over_airc_1t"] = round(tt["us_1t"] / op["us_kernel_1t"], 3)
            op["torch_over_airc"] = round(tt["us"] / op["us_kernel"], 3)
            op["torch_over_airc_eager"] = round(tt["us"] / op["us_eager"], 3)
    with open("/proc/loadavg") as f:
        res["loadavg_after"] = [float(v) for v in f.read().split()[:3]]
    text = json.dumps(res, indent=2)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
