#!/usr/bin/python3
"""Generates airc's own graph suite in tests/data/graphs/ with PyTorch as the oracle.

Run with Debian's interpreter (PyTorch 1.13):  /usr/bin/python3 tests/gen_graphs.py

For each model NAME, traced with make_fx (the ATen graphs TorchAir's AOT
tracing hands to custom passes), it writes the layout of ../shared/conformance:
  NAME.fx         str(gm.graph) + "\\n"
  NAME.in{i}.npy  the i-th input (fixed seed)
  NAME.out{i}.npy the i-th output computed by PyTorch (eager)
  NAME.json       {"inputs": [[dtype, shape]...], "outputs": [...], "ops": [...], "nodes": N}
The files are committed; rerunning with the same PyTorch gives the same bytes.

Together the models cover every op of issue 4's kernel list (REQUIRED below),
every op of ../shared/conformance/ops.txt and a few argument variants
(VARIANTS); the script writes COVERAGE.md (op -> models) and exits 1 if any
of them is used by no model. Models never hold tensor constants (get_attr),
so each graph runs from its .npy inputs alone.
"""
import glob
import json
import math
import os
import re
import sys

import numpy as np
import torch
import torch.nn.functional as F
from torch.fx.experimental.proxy_tensor import make_fx

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "graphs")
SEED = 20240501


def randn(*shape):
    return torch.randn(*shape)


def seed001(x):
    # seed 001's model: mm, abs, add, sub
    mm = torch.mm(x, x)
    a = torch.abs(mm)
    add = torch.add(a, 1)
    sub = torch.sub(x, mm)
    return add, sub


def mlp(x, w1, b1, w2, b2, w3, b3):
    h = F.relu(F.linear(x, w1, b1))
    h = F.silu(F.linear(h, w2, b2))
    return F.linear(h, w3, b3)


def attention(x, wq, wk, wv, wo, g, b):
    h = F.layer_norm(x, (16,), g, b, 1e-5)
    B, T, C = h.shape
    q = (h @ wq).view(B, T, 4, 4).transpose(1, 2)
    k = (h @ wk).view(B, T, 4, 4).transpose(1, 2)
    v = (h @ wv).view(B, T, 4, 4).transpose(1, 2)
    att = (q @ k.transpose(-2, -1)) * 0.5
    att = torch.softmax(att, dim=-1)
    y = (att @ v).transpose(1, 2).reshape(B, T, C)
    return x + y @ wo


def layer_norm(x, g, b):
    y = F.layer_norm(x, (8,), g, b, eps=1e-6)
    z = F.layer_norm(x, (6, 8))  # no affine parameters: None arguments
    return y, z


def conv_pool(x, w, bias):
    y = F.conv2d(x, w, bias, stride=1, padding=1)
    y = F.relu(y)
    y = F.max_pool2d(y, 2)
    z = F.avg_pool2d(y, 2)
    a = F.adaptive_avg_pool2d(y, (1, 1))
    return z, a


def softmax(x):
    return torch.softmax(x, dim=1), torch.log_softmax(x, dim=-1), torch.softmax(x, dim=0)


def reductions(x):
    s = x.sum(dim=(0, 2), keepdim=True)
    m = x.mean(dim=-1)
    mx = x.amax(dim=[-2, -1])
    mn = x.amin(dim=0, keepdim=True)
    v = x.var(dim=1, unbiased=True)
    t = x.sum()
    return s, m, mx, mn, v, t


def broadcast(x, y, z):
    a = x * 2.5 + y
    b = a - 1e-05
    c = torch.pow(b, 2) / (z + 3)
    d = 1 - c
    e = torch.clamp(d, min=-0.5, max=0.5)
    f = torch.sqrt(torch.abs(e) + 1e-12) * torch.exp(-x)
    g = torch.maximum(f, y)
    return g, torch.rsqrt(torch.abs(c) + 1.0), torch.tanh(a) * 1e+16


def views(x, y):
    p = x.permute(2, 0, 1)
    t = p.transpose(0, 1)
    s = t[:, 1:3]
    sel = s.select(2, 0)
    u = sel.unsqueeze(0)
    e = u.expand(2, -1, -1)
    c = torch.cat([e, e * 2], dim=1)
    parts = torch.split(c, 2, dim=1)
    q = parts[0].squeeze(0) if parts[0].shape[0] == 1 else parts[0]
    r = y.reshape(4, 6).t().contiguous()
    sq = y.unsqueeze(1).squeeze(1)
    return q + 1, parts[1], r, sq


def compare_where(x, y):
    m = x > 0
    n = torch.lt(y, 0.25)
    both = torch.logical_and(m, n)
    w = torch.where(both, x, y)
    f = w.masked_fill(~m, -1.0)
    eq = (x == y)
    ne = x != 0.5
    return f, eq, ne, torch.logical_or(m, n)


def inplace(x, y):
    a = x.clone()
    a.add_(y)
    a.mul_(2.0)
    a.relu_()
    b = y.clone()
    b.sub_(1, alpha=2)
    b.clamp_(min=-1.0)
    return a, b, a.sum()


def gelu_tanh(x, w):
    a = F.gelu(x @ w, approximate="tanh")
    b = F.gelu(x)
    c = F.silu(a) + torch.sigmoid(b)
    return a, c


def int_ops(x, idx):
    am = torch.argmax(x, dim=1)
    cs = torch.cumsum(idx, dim=0)
    ci = idx * 3 + 2
    mx = torch.max(x, dim=1)
    ar = torch.arange(6, dtype=torch.int64)
    return am, cs, ci, mx.values, mx.indices, ar + idx


def embedding(ids, table, w):
    e = F.embedding(ids, table)
    h = e.sum(dim=1)
    return h @ w, torch.index_select(table, 0, ids[0])


def creation(x):
    o = torch.ones_like(x)
    z = torch.zeros(2, 3, dtype=torch.float32)
    f = torch.full((2, 3), 0.1)
    d = x.to(torch.float64) * 3
    i = x.to(torch.int32)
    e = torch.empty(2, 3).fill_(7.0)
    return o + z + f + e, d, i


def bmm_chain(a, b, c):
    ab = torch.bmm(a, b)
    abc = torch.bmm(ab, c)
    y = torch.matmul(a, b.mean(dim=0))
    return abc / 4, y


def padding_tril(x):
    p = F.pad(x, (1, 2, 0, 1), value=0.5)
    lo = torch.tril(p)
    up = torch.triu(p, diagonal=1)
    return lo - up, torch.stack([x, -x], dim=0)


def literals(x, y):
    # literals at the edges of the text format: int64 bounds, -inf, nan-free
    # softmax over an -inf mask, tiny and huge floats
    big = (x - 2) + 9223372036854775807
    small = x - 9223372036854775807
    lo = torch.full((2,), -9223372036854775808, dtype=torch.int64)
    mask = y > 0.5
    att = torch.softmax(y.masked_fill(mask, float("-inf")), dim=-1)
    tiny = y * 1e-300 + 2.5e-08
    return big, small, lo, att, torch.clamp(tiny, max=float("inf"))


def I64(*shape, hi=10):
    return torch.randint(0, hi, shape, dtype=torch.int64)

# ---- op-by-op models: together with the ones above they cover every op of
# issue 4's kernel list (see REQUIRED below and COVERAGE.md) -----------------

def unary_all(x, p):
    # x: any sign; p: strictly positive (log, sqrt, rsqrt, reciprocal)
    return (torch.abs(x), torch.neg(x), torch.exp(x), torch.log(p), torch.sqrt(p),
            torch.rsqrt(p), torch.reciprocal(p), torch.sigmoid(x), torch.tanh(x),
            torch.relu(x), F.gelu(x), F.gelu(x, approximate="tanh"), F.silu(x),
            torch.sin(x), torch.cos(x))


def unary_inplace(x, p):
    outs = []
    for name in ("abs_", "neg_", "exp_", "sigmoid_", "tanh_", "relu_", "silu_", "sin_", "cos_"):
        outs.append(getattr(torch.ops.aten, name)(x.clone()))
    for name in ("log_", "sqrt_", "rsqrt_", "reciprocal_"):
        outs.append(getattr(p.clone(), name)())
    g = x.clone()
    torch.ops.aten.gelu_(g)
    h = x.clone()
    torch.ops.aten.gelu_(h, approximate="tanh")
    # a chain of in-place ops on one buffer, the result read after each step
    c = x.clone()
    c.exp_().sqrt_()
    s = c.sum()
    c.neg_()
    return outs + [g, h, c, s]


def binary_all(x, y, p, q):
    # x [6, 7], y [7] (broadcast), p, q > 0 (pow with a tensor exponent)
    return (torch.add(x, y, alpha=2.5), torch.sub(x, y, alpha=-3), torch.mul(x, y),
            torch.div(x, y), torch.div(x, y, rounding_mode="trunc"),
            torch.div(x, y, rounding_mode="floor"), torch.div(x, 0.75, rounding_mode="floor"),
            torch.maximum(x, y), torch.minimum(x, y), torch.pow(p, q), torch.pow(x, 3),
            torch.pow(p, 0.5), torch.pow(2.0, x), torch.pow(x, 2.0), 1.5 - x, x / 4,
            torch.ops.aten.add.Scalar(x, 2), torch.ops.aten.mul.Scalar(x, 0.5),
            torch.ops.aten.sub.Scalar(x, 1.5), torch.ops.aten.div.Scalar(x, -2.0),
            torch.ops.aten.div.Scalar_mode(x, 0.3, rounding_mode="trunc"))


def binary_inplace(x, y, p, q):
    a = x.clone()
    a.add_(y, alpha=0.5)
    a.sub_(y, alpha=2)
    a.mul_(y)
    a.div_(y.abs() + 1)
    b = x.clone()
    b.div_(0.4, rounding_mode="floor")
    c = x.clone()
    c.div_(y, rounding_mode="trunc")
    d = p.clone()
    d.pow_(q)
    e = p.clone()
    e.pow_(1.5)
    f = x.clone()
    torch.ops.aten.add_.Scalar(f, 3)
    torch.ops.aten.mul_.Scalar(f, -1.5)
    torch.ops.aten.sub_.Scalar(f, 0.25)
    torch.ops.aten.div_.Scalar(f, 8)
    g = x.clone()
    g.clamp_(-0.5, 0.5)
    h = x.clone()
    h.clamp_min_(0.1)
    i = x.clone()
    i.clamp_max_(-0.1)
    j = x.clone()
    j.clamp_(min=y * 0.5, max=y.abs())
    k = x.clone()
    k.masked_fill_(x > 0.3, -2.0)
    # writes into a strided view of a buffer: the base sees them
    m = x.clone()
    m[:, 1::2].mul_(10)
    m.t()[2].add_(100)
    return a, b, c, d, e, f, g, h, i, j, k, m


def compare_all(x, y):
    # small integers as floats: ties make eq/le/ge matter
    outs = [torch.eq(x, y), torch.ne(x, y), torch.lt(x, y), torch.le(x, y), torch.gt(x, y),
            torch.ge(x, y), torch.eq(x, 1), torch.ne(x, 0), torch.lt(x, -1), torch.le(x, 1),
            torch.gt(x, 0.5), torch.ge(x, 2)]
    m, n = x > 0, y < 1
    outs += [torch.logical_and(m, n), torch.logical_or(m, n), torch.logical_not(m),
             torch.logical_xor(m, n), torch.logical_not(x), torch.logical_and(x, y)]
    outs += [torch.where(m, x, y), torch.where(m, x, 0.0), torch.where(n, -1.0, y),
             x.masked_fill(n, 7.0), x.masked_fill(m, torch.scalar_tensor(-3.0))]
    # in-place compares write 0/1 in the float buffer
    for name in ("eq_", "ne_", "lt_", "le_", "gt_", "ge_"):
        outs.append(getattr(x.clone(), name)(y))
        outs.append(getattr(x.clone(), name)(1.0))
    a, b = m.clone(), m.clone()
    a.logical_and_(n)
    b.logical_or_(n)
    c = m.clone()
    c.logical_not_()
    d = x.clone()
    d.masked_fill_(n, torch.scalar_tensor(0.5))
    outs += [a, b, c, d]
    return outs


def clamp_all(x, lo, hi):
    return (torch.clamp(x, -0.5, 0.5), torch.clamp(x, min=0.0), torch.clamp(x, max=0.25),
            torch.clamp(x, min=lo, max=hi), torch.clamp(x, min=lo), torch.clamp_min(x, -0.2),
            torch.clamp_max(x, 0.2), torch.ops.aten.clamp_min.Tensor(x, lo),
            torch.ops.aten.clamp_max.Tensor(x, hi), torch.clamp(x.to(torch.int64), -1, 1))


def reductions_all(x, i):
    # x f32 [4, 6, 7]; i int64 [5, 6] with ties (argmax/max.dim return the first)
    mx = torch.max(x, dim=1)
    mn = torch.min(x, dim=-1, keepdim=True)
    imx = torch.max(i, dim=1)
    return (x.sum(), x.sum(dim=[0, 2]), x.sum(dim=-1, keepdim=True), x.mean(),
            x.mean(dim=(1, 2)), x.amax(dim=1), x.amin(dim=(0, -1), keepdim=True),
            mx.values, mx.indices, mn.values, mn.indices, torch.argmax(x), torch.argmax(x, dim=2),
            torch.argmin(x, dim=0, keepdim=True), x.var(dim=(0, 2)), x.var(dim=1, unbiased=False),
            x.var(), torch.prod(x[0]), torch.prod(x, dim=1), torch.cumsum(x, dim=-1),
            torch.cumsum(x, dim=0), x.max(), x.min(), imx.values, imx.indices,
            torch.argmax(i, dim=0), torch.argmin(i, dim=1), i.sum(dim=0), torch.cumsum(i, 1),
            torch.prod(i, dim=1), i.amax(dim=0), torch.any(x > 2), torch.all(x > -3, dim=1),
            (x > 0).sum(dim=-1), torch.cumsum(i.to(torch.int32), 0))


def views_all(x, y):
    # x [2, 3, 4, 5], y [6, 4]
    a = x.view(6, 20)
    b = x.reshape(2, 60)
    c = x.permute(3, 1, 0, 2)
    d = c.reshape(5, -1)           # not viewable: a copy (_unsafe_view of a clone)
    e = x.transpose(1, 3)
    f = y.t()
    g = y[:, None, :].expand(6, 3, 4)
    h = x[:, :1].squeeze(1)
    k = x[:1].squeeze()
    m = h.unsqueeze(-1)
    n = x[..., 1:4:2, -3:]
    o = x.select(2, -1)
    p = x[1, 2]
    s1, s2, s3 = torch.split(y, [1, 2, 3], dim=0)
    t1, t2 = torch.split(y, 3, dim=-1)
    u = torch.cat([s1, s3, y[:2]], dim=0)
    v = torch.cat([t1, t2 * 2], dim=-1)
    w = x.transpose(0, 2).contiguous()
    r = torch.stack([y, y + 1], dim=1)
    ub = torch.unbind(y[:2], dim=0)
    return (a + 1, b * 2, c.sum(dim=0), d, e + 0, f @ y, g * g, h, k, m, n, o, p,
            s2, u, v, w, r, ub[0], ub[1])


def indexing(x, ids, idx, table, pad_in):
    # x [5, 6]; ids int64 [3, 4] < 10; idx int64 [5, 3] < 6; table [10, 8]
    emb = F.embedding(ids, table)
    sel0 = torch.index_select(x, 0, ids[0].clamp(max=4))
    sel1 = torch.index_select(x, 1, torch.arange(5, -1, -2))
    g1 = torch.gather(x, 1, idx)
    g0 = torch.gather(x, 0, idx.clamp(max=4))
    p1 = F.pad(pad_in, (2, 1))
    p2 = F.pad(pad_in, (1, 1, 2, 0, 0, 1), value=-1.5)
    p3 = F.pad(pad_in, (-1, 2, 1, -2))     # negative padding crops
    return (emb, sel0, sel1, g1, g0, p1, p2, p3, torch.tril(pad_in, -1), torch.triu(pad_in, 2),
            torch.tril(x, 1), torch.triu(x), torch.tril(ids))


def creation_all(x, i):
    # x f32 [3, 4]; i int64 [3, 4]
    buf = torch.empty(3, 4)
    buf.copy_(i)                       # copy_ casts int64 -> float32
    e2 = torch.empty(2, 2, dtype=torch.int64).fill_(-4)
    z = torch.zeros(3, 4)
    z.zero_()
    return (torch.ones(2, 3), torch.ones(4, dtype=torch.int64), torch.zeros(3, dtype=torch.bool),
            torch.full((2, 2), 7, dtype=torch.int64), torch.full((3,), True, dtype=torch.bool),
            torch.full((2, 3), -2.5), torch.arange(5), torch.arange(2, 11, dtype=torch.float32),
            torch.arange(1.0, 4.0, 0.5), torch.arange(10, 0, -3), torch.scalar_tensor(3.5),
            torch.scalar_tensor(2, dtype=torch.int64), torch.ones_like(i), torch.zeros_like(x),
            torch.full_like(x, 0.125), torch.full_like(i, 9), x.new_zeros(2), x.new_ones((1, 2)),
            x.new_full((2,), 4.0), buf, e2, z + x,
            x.to(torch.int64), i.to(torch.float32), (x > 0).to(torch.float32), x.to(torch.bool),
            x.double(), i.int(), x.to(torch.float64).to(torch.float32), torch.zeros(0, 3) + 1)


def conv_variants(x, w1, b1, w2, w3, wd, bd):
    # x [2, 4, 11, 9]
    a = F.conv2d(x, w1, b1, stride=2, padding=(1, 2))
    b = F.conv2d(x, w2, None, stride=(1, 2), padding=2, dilation=2, groups=2)
    c = F.conv2d(x, w3, None)                              # 1x1, no bias
    d = F.conv2d(x, wd, bd, padding=1, groups=4)           # depthwise
    mp, mi = F.max_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, return_indices=True)
    mp2 = F.max_pool2d(x, (2, 3), stride=(2, 1), dilation=(1, 2))
    ap = F.avg_pool2d(x, 3, stride=2, padding=1)
    ap2 = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
    ap3 = F.avg_pool2d(x, 2, divisor_override=3)
    ad = F.adaptive_avg_pool2d(x, (3, 2))                  # uneven windows
    ad1 = F.adaptive_avg_pool2d(x, 1)
    return a, b, c, d, mp, mi, mp2, ap, ap2, ap3, ad, ad1


def decoder(x, wt, bt, wg, w, z, wt1):
    # x [2, 8, 5, 5]: upsampling by transposed convolutions, as in a U-Net decoder
    u = F.relu(F.conv_transpose2d(x, wt, bt, stride=2, padding=1, output_padding=1))
    c = F.conv2d(u, w, None, padding=1)
    g = F.conv_transpose2d(x, wg, None, stride=(2, 1), padding=(0, 1), dilation=(1, 2), groups=2)
    s = F.conv_transpose1d(z, wt1, None, stride=3, output_padding=2)
    return c, g, s


def batchnorm_eval(x, w, rm, rv, g, b, y, rm1, rv1):
    # a conv + BatchNorm2d + ReLU block of a model in eval mode, and a
    # BatchNorm1d without affine parameters over [N, C, L]
    c = F.conv2d(x, w, None, padding=1)
    a = F.relu(F.batch_norm(c, rm, rv, g, b, training=False, eps=1e-3))
    d = F.batch_norm(y, rm1, rv1, None, None, training=False)
    return a, d


def mobilenet_block(x, w1, rm, rv, g, b, wd, wse1, wse2):
    # MobileNetV3's inverted residual: 1x1 conv + BN + hardswish, depthwise
    # 3x3, squeeze-and-excitation gated by hardsigmoid
    y = F.hardswish(F.batch_norm(F.conv2d(x, w1), rm, rv, g, b, training=False))
    y = F.conv2d(y, wd, padding=1, groups=8)
    s = F.adaptive_avg_pool2d(y, 1)
    s = F.hardsigmoid(F.conv2d(F.relu(F.conv2d(s, wse1)), wse2))
    return y * s


def fpn_upsample(c3, c4, w3, w4):
    # an FPN top-down step (nearest 2x of the coarser map, added to the
    # lateral 1x1 conv), and bilinear resizes as segmentation heads do
    p4 = F.conv2d(c4, w4)
    p3 = F.conv2d(c3, w3) + F.interpolate(p4, scale_factor=2, mode="nearest")
    seg = F.interpolate(p3, size=(13, 11), mode="bilinear", align_corners=False)
    seg2 = F.interpolate(p4, scale_factor=2.5, mode="bilinear", align_corners=True)
    return p3, seg, seg2


def resize_modes(img, vol, sig):
    # nearest-exact (diffusion and super-resolution upsamplers) in 1-d, 2-d
    # and 3-d, and torchvision-style antialiased resizes: bilinear and
    # bicubic with antialias=True, down- and upsampling, align_corners
    # both ways
    ne1 = F.interpolate(sig, scale_factor=2, mode="nearest-exact")
    ne2 = F.interpolate(img, size=(11, 7), mode="nearest-exact")
    ne3 = F.interpolate(vol, scale_factor=(2, 1.5, 0.5), mode="nearest-exact")
    down = F.interpolate(img, size=(3, 4), mode="bilinear", antialias=True, align_corners=False)
    down_c = F.interpolate(img, scale_factor=0.5, mode="bicubic", antialias=True,
                           align_corners=True)
    up = F.interpolate(img, size=(12, 9), mode="bilinear", antialias=True, align_corners=True)
    up_c = F.interpolate(img, scale_factor=1.5, mode="bicubic", antialias=True)
    return ne1, ne2, ne3, down, down_c, up, up_c


def sampling_head(logits, table, ids, pos):
    # a decoding step: the top-k logits and their rows of a table by
    # advanced indexing, sorted cumulative probabilities (nucleus
    # sampling) read backwards, and indices apart (None between them)
    vals, idx = torch.topk(logits, 4, dim=-1)
    rows = table[idx]
    sv, si = torch.sort(logits, dim=-1, descending=True)
    tail = torch.flip(torch.cumsum(torch.softmax(sv, -1), -1), [-1])
    apart = rows[ids, :, pos]
    middle = rows[:, pos[:2]]
    return torch.softmax(vals, -1), rows, si, tail, apart, middle


def embed_pool_normalize(tokens, mask, w, logits):
    # a sentence embedder's head: mask-weighted mean pooling, L2
    # normalization (F.normalize: norm + clamp_min + div), cosine scores,
    # and log-probabilities through logsumexp; std for a feature scale
    m = mask.unsqueeze(-1).to(tokens.dtype)
    pooled = (tokens * m).sum(1) / m.sum(1).clamp_min(1e-9)
    emb = F.normalize(pooled @ w, dim=-1)
    scores = emb @ emb.t()
    logp = logits - torch.logsumexp(logits, dim=-1, keepdim=True)
    return emb, scores, logp, torch.std(tokens, dim=1)


def sr_swin_bits(x, w, t):
    # a super-resolution tail (reflect-padded conv, pixel shuffle), a
    # replicate-padded border, and a Swin-style cyclic shift and back
    y = F.conv2d(F.pad(x, [1, 1, 1, 1], mode="reflect"), w)
    up = F.pixel_shuffle(y, 2)
    edge = F.pad(x, [2, 0, 1, 1], mode="replicate")
    shifted = torch.roll(t, shifts=(-2, -2), dims=(1, 2))
    return up, edge, torch.roll(shifted * 2, shifts=(2, 2), dims=(1, 2)), torch.roll(t, 3)


def kv_cache_update(cache, new, pos, x, counts_at):
    # a static KV cache written at the step's positions (index_put_ on a
    # clone), a masked assignment (x[mask] = 0: one value, torch's
    # masked_fill path), and a histogram by accumulating index_put
    cache = cache.clone()
    cache[:, pos] = new
    y = x.clone()
    y[y < 0] = x.amin() * 0
    hist = torch.zeros(6).index_put((counts_at,), torch.ones(counts_at.shape[0]), accumulate=True)
    return cache, y, hist


def vector_products(m, v, u, v2, w, b, bt):
    # matmul with a 1-d operand as make_fx records it: matrix @ vector is
    # mv, vector @ vector dot, vector @ matrix mm then squeeze_ (an in-place
    # view of the product), linear of one token the same; batch @ vector is
    # mv of the flattened batch. Then in-place views of a fresh tensor.
    z = m + 1
    z.t_()
    z.unsqueeze_(0)
    z.transpose_(0, 2)
    z.squeeze_()
    return m @ v, v @ v2, u @ m, F.linear(v, w, b), bt @ v, z * 2


def trig_threshold(x, p, i):
    # the trigonometric and hyperbolic ops (x in (-1, 1), p >= 1), erfc,
    # log10, frac, sgn, threshold (in place too), logsigmoid; an integer
    # input promoted
    z = x.clone()
    F.threshold(z, 0.0, 5.0, inplace=True)
    return (torch.tan(x), torch.atan(x * 3), torch.asin(x), torch.acos(x), torch.sinh(x * 2),
            torch.cosh(x * 2), torch.asinh(x * 4), torch.acosh(p), torch.atanh(x * 0.9),
            torch.erfc(x * 2), torch.log10(p), torch.frac(x * 5), torch.sgn(i),
            F.threshold(x, 0.1, -2.0), z, torch.tan(i), torch.sgn(x), F.logsigmoid(x * 30))


def audio_1d(x, w, img):
    # a vocoder-style 1-d stack: reflection padding, conv1d, nearest and
    # linear upsampling (by factor and by size, align_corners), replication
    # padding; and space-to-depth of an image (pixel_unshuffle)
    h = F.conv1d(F.pad(x, (3, 3), mode="reflect"), w)
    up = F.interpolate(h, scale_factor=2, mode="nearest")
    lin = F.interpolate(h, size=13, mode="linear", align_corners=False)
    lin2 = F.interpolate(h, scale_factor=2, mode="linear", align_corners=True)
    return F.pad(up, (2, 1), mode="replicate"), lin, lin2, F.pixel_unshuffle(img, 2)


def pos_embed_pool_head(pos, feat):
    # a ViT position embedding resized to a new grid by bicubic
    # interpolation (timm's resample_abs_pos_embed), and a CNN head that
    # concatenates adaptive max and average pooling (fastai's concat pool)
    grid = pos.reshape(1, 5, 5, 8).permute(0, 3, 1, 2)
    grid = F.interpolate(grid, size=(7, 6), mode="bicubic", align_corners=False)
    resized = grid.permute(0, 2, 3, 1).reshape(1, 42, 8)
    up = F.interpolate(feat, scale_factor=1.5, mode="bicubic", align_corners=True)
    pooled = torch.cat([F.adaptive_max_pool2d(feat, 1), F.adaptive_avg_pool2d(feat, 1)], 1)
    m, idx = F.adaptive_max_pool2d(feat, (3, 2), return_indices=True)
    return resized, up, pooled.flatten(1), m, idx


def spatial_transformer(x, w, b, flow):
    # a spatial transformer: theta from a linear layer, affine_grid and
    # grid_sample (bilinear, zeros); sampling by a flow field (optical
    # flow warping) in nearest / border and bicubic / reflection
    theta = F.linear(x.mean((2, 3)), w, b).view(-1, 2, 3)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    warped = F.grid_sample(x, grid, align_corners=False)
    near = F.grid_sample(x, flow, mode="nearest", padding_mode="border", align_corners=True)
    cubic = F.grid_sample(x, flow, mode="bicubic", padding_mode="reflection", align_corners=False)
    return warped, near, cubic


def unfold_fold(x, w):
    # patches as columns (F.unfold, as T2T-ViT and involution layers take
    # them), a linear map over each patch, folded back (overlaps add)
    cols = F.unfold(x, 3, padding=1)
    mixed = torch.matmul(w, cols)
    back = F.fold(mixed, (6, 7), 3, padding=1)
    coarse = F.unfold(x, (2, 3), dilation=(1, 2), stride=2)
    return back, coarse, F.fold(coarse, (6, 7), (2, 3), dilation=(1, 2), stride=2)


def rnn_seq(x, h0, c0, wih, whh, bih, bhh, gih, ghh, gbi, gbh, rih, rhh, cw, cx):
    # recurrent layers as make_fx records them (torch.lstm / gru / rnn_tanh
    # decompose into per-step addmm, unsafe_split of the gates and in-place
    # activations on them), stacked, and an LSTM cell
    out, h, c = torch.lstm(x, (h0, c0), [wih, whh, bih, bhh], True, 1, 0.0, False, False, True)
    g, hg = torch.gru(out, h0, [gih, ghh, gbi, gbh], True, 1, 0.0, False, False, True)
    r, hr = torch.rnn_tanh(g, hg, [rih, rhh], False, 1, 0.0, False, False, True)
    hc, cc = torch.lstm_cell(cx, (h0[0], c0[0]), cw, whh)
    return out, h, c, g, hg, r, hr, hc, cc


def optimizer_step(p, g, m, v, ema):
    # an Adam step as fused optimizers write it (lerp_ of the first moment,
    # addcmul_ of the second, addcdiv_ of the update) and an EMA of the
    # weights (lerp with a tensor weight), on copies of the state
    m, v, p = m.clone(), v.clone(), p.clone()
    m.lerp_(g, 0.1)
    v.mul_(0.999).addcmul_(g, g, value=0.001)
    denom = (v / 0.001).sqrt().add_(1e-8)
    p.addcdiv_(m, denom, value=-0.01)
    decay = torch.full_like(p, 0.9).lerp(torch.ones_like(p), 0.5)
    return p, m, v, torch.lerp(ema, p, 1 - decay), torch.addcmul(p, m, v, value=2)


def stats_head(x, counts, alpha, u):
    # probabilistic heads: a Poisson log-likelihood (lgamma), a Dirichlet
    # entropy (lgamma, digamma), a probit link (erfinv), the logit of a
    # probability, shrinkage activations (hardshrink, softshrink, celu),
    # sinc features of an angle in degrees, and a sign / step pair
    rate = F.softplus(x) + 0.1
    ll = counts * torch.log(rate) - rate - torch.lgamma(counts + 1)
    a0 = alpha.sum(-1, keepdim=True)
    ent = torch.lgamma(alpha).sum(-1) - torch.lgamma(a0.squeeze(-1)) + \
        (a0.squeeze(-1) - alpha.shape[-1]) * torch.digamma(a0.squeeze(-1)) - \
        ((alpha - 1) * torch.digamma(alpha)).sum(-1)
    z = torch.erfinv(2 * u - 1) * math.sqrt(2)
    lg = torch.logit(u, eps=1e-3)
    act = F.hardshrink(x, 0.3) + F.softshrink(x, 0.2) + F.celu(x, 0.7)
    feat = torch.sinc(torch.deg2rad(x * 90))
    step = torch.heaviside(torch.round(x), torch.full_like(x, 0.5))
    return ll, ent, z, lg, act, feat, step, torch.signbit(x - 0.25)


def windows_diag(x, s, v, m):
    # framing a signal with Tensor.unfold and a Hann window from linspace,
    # log-spaced band weights, the diagonal and trace of score matrices, an
    # identity mask from eye, and diagonal matrices from diag / diag_embed
    frames = x.unfold(-1, 16, 8)
    hann = 0.5 - 0.5 * torch.cos(torch.linspace(0, 2 * math.pi, 16))
    bands = torch.logspace(-1, 1, 16, base=2.0)
    spec = (frames * hann * bands).sum(-1)
    self_scores = s.diagonal(0, -2, -1)
    tr = torch.trace(m)
    masked = s.masked_fill(torch.eye(4, dtype=torch.bool), float("-inf")).softmax(-1)
    scaled = torch.diag_embed(v) @ s + torch.diag(v[0], 1)[:4, :4]
    return spec, self_scores, tr, masked, scaled, torch.diag(m, -1)


def losses(logits, labels, seg, seg_labels, pred, target, prob_logits, w):
    # evaluation losses: cross entropy (log_softmax + nll_loss_forward) with
    # class weights and an ignored label, per-pixel cross entropy
    # (nll_loss2d_forward), regression losses and binary cross entropy
    ce = F.cross_entropy(logits, labels, weight=w, ignore_index=2)
    ce_each = F.cross_entropy(logits, labels, reduction="none")
    seg_ce = F.cross_entropy(seg, seg_labels)
    mse = F.mse_loss(pred, target)
    sl1 = F.smooth_l1_loss(pred, target, beta=0.5, reduction="sum")
    hub = F.huber_loss(pred, target, delta=0.7)
    prob = torch.sigmoid(prob_logits)  # in (0, 1) for any input (test_replay scales them)
    bce = F.binary_cross_entropy(prob, (target > 0).float(), reduction="none")
    bcel = F.binary_cross_entropy_with_logits(pred, (target > 0).float(),
                                              pos_weight=torch.full((5,), 2.0))
    return ce, ce_each, seg_ce, mse, sl1, hub, bce, bcel


def shuffle_metric(x, w, q, keys, a, b):
    # a ShuffleNet unit (grouped conv, channel shuffle), nearest keys by
    # cdist (euclidean in torch's matrix form past 25 rows, and p = 1), and
    # normals of triangles by the cross product
    y = F.conv2d(x, w, groups=2)
    y = F.channel_shuffle(y, 2).relu()
    d2 = torch.cdist(q, keys)
    d1 = torch.cdist(q[:4], keys, p=1.0)
    n = torch.linalg.cross(a, b)
    return y, d2, d2.argmin(-1), d1, F.normalize(n, dim=-1)


def graph_aggregate(x, src, dst, w):
    # message passing as GNN layers write it: gather the sources' features,
    # sum them into the destinations with index_add (alpha too), mean by
    # in-degree, then a linear update
    msg = torch.index_select(x, 0, src)
    agg = torch.zeros_like(x).index_add(0, dst, msg)
    deg = torch.zeros(x.shape[0]).index_add_(0, dst, torch.ones(dst.shape[0]), alpha=1)
    mean = agg / deg.clamp_min(1).unsqueeze(1)
    scaled = x.index_add(0, dst.int(), msg, alpha=0.5)
    return F.relu(mean @ w), scaled, deg


def running_stats(x, scores, edges, q, m, v, w, img):
    # the ops of quantization observers, sequence heads and binning:
    # aminmax / nansum / count_nonzero statistics, running extremes and a
    # log-space running sum, bucketize and searchsorted of values into
    # bins, index_fill masking of classes, take, rot90 augmentation, and
    # addmv / addr / addbmm updates with hypot and copysign, median /
    # nanmedian / kthvalue, and a triangle's entries by tril_indices
    lo, hi = torch.aminmax(x, dim=1)
    total = torch.nansum(torch.where(x > 1.0, torch.full_like(x, float("nan")), x), 1)
    nz = torch.count_nonzero(torch.relu(x), dim=0)
    run_max, arg_max = torch.cummax(scores, 1)
    run_min, _ = torch.cummin(scores, 0)
    lse = torch.logcumsumexp(scores, 1)
    bins = torch.bucketize(x, edges, right=True)
    pos = torch.searchsorted(edges, q, side="left")
    masked = scores.index_fill(1, arg_max[:, -1], -1.0)
    picked = torch.take(scores, arg_max)
    rotated = torch.rot90(img, 1, [2, 3])
    upd = torch.addmv(v, m, x[0], beta=0.5, alpha=2.0) + torch.addr(m, v, x[1]).sum(1)
    acc = torch.addbmm(m[:, :4], w, w.transpose(1, 2))
    mag = torch.hypot(x, torch.copysign(scores[:, :5], x))
    med, med_at = torch.median(scores, 1)
    nanmed = torch.nanmedian(torch.where(x > 1.0, torch.full_like(x, float("nan")), x))
    kth, kth_at = torch.kthvalue(scores, 3, 0, keepdim=True)
    tri = torch.tril_indices(4, 7, 1)
    lower = scores[tri[0], tri[1]]
    return (lo, hi, total, nz, run_max, arg_max, run_min, lse, bins, pos, masked, picked,
            rotated, upd, acc, mag, med, med_at, nanmed, kth, kth_at, lower)


def video_block(x, w, wt):
    # a video / volumetric stage: replication and reflection padding in
    # depth, a strided 3-d convolution and its transpose, max pooling with
    # indices (and ceil_mode) undone by max_unpool3d, average pooling
    # without padded cells, adaptive average and max pooling, trilinear
    # and nearest 3-d upsampling
    h = F.conv3d(F.pad(x, (1, 1, 1, 1, 1, 1), mode="replicate"), w, stride=(1, 2, 2))
    p, idx = F.max_pool3d(h, 2, return_indices=True)
    un = F.max_unpool3d(p, idx, 2, output_size=h.shape[2:])
    pc = F.max_pool3d(h, (2, 3, 2), stride=1, ceil_mode=True, dilation=(1, 1, 2))
    a = F.avg_pool3d(h, (1, 2, 2), padding=(0, 1, 1), count_include_pad=False)
    ad = F.adaptive_avg_pool3d(h, (2, 3, 3))
    am, am_at = F.adaptive_max_pool3d(h, (1, 2, 2), return_indices=True)
    up = F.interpolate(a, scale_factor=(1, 2, 2), mode="trilinear", align_corners=False)
    near = F.interpolate(ad, size=(4, 6, 5), mode="nearest")
    refl = F.pad(x, (1, 1, 2, 2, 1, 1), mode="reflect")
    tr = F.conv_transpose3d(p, wt, stride=2, output_padding=(1, 0, 1))
    return un, pc, up, near, am, am_at, refl, tr


def vocoder_wn(x, v1, g1, v2, g2, y, img):
    # a weight-normalized 1-d vocoder stack (HiFi-GAN style): conv1d and a
    # transposed conv1d whose weights are weight_norm(v, g), a soft-margin
    # loss on its output; and a SegNet decoder step (max_unpool2d)
    h = F.leaky_relu(F.conv1d(x, torch._weight_norm(v1, g1, 0), padding=1), 0.1)
    up = F.conv_transpose1d(h, torch._weight_norm(v2, g2, 0), stride=2)
    loss = F.soft_margin_loss(up.mean(1), y)
    p, idx = F.max_pool2d(img, 2, return_indices=True)
    seg = F.max_unpool2d(torch.relu(p), idx, 2, output_size=img.shape[2:])
    return up, loss, seg


def groupnorm_block(x, g, b, w, y):
    # a diffusion U-Net's residual block: GroupNorm + SiLU + conv, and a
    # GroupNorm without affine parameters over [N, C, L]
    h = F.conv2d(F.silu(F.group_norm(x, 4, g, b)), w, padding=1)
    return h + x, F.group_norm(y, 2)


def layer_norm_all(x, g, b):
    # all three outputs of native_layer_norm (mean and rstd keep normalized dims as 1)
    y, mean, rstd = torch.native_layer_norm(x, [5, 8], g, b, 1e-5)
    y2, mean2, rstd2 = torch.native_layer_norm(x, [8], None, None, 1e-3)
    return y, mean, rstd, y2, mean2, rstd2


def matmul_batched(a, b, c, d, x, w, bias):
    # matmul's batched and broadcast cases, linear on a 3-d input
    return (torch.matmul(a, b), torch.matmul(a, c), torch.matmul(d, b), torch.matmul(b[0].t(), c[0, 0]),
            torch.matmul(a[0, 0], c[0]), F.linear(x, w, bias), F.linear(x, w),
            torch.addmm(bias, x[0], w.t(), beta=0.5, alpha=2.0), torch.mm(x[1], w.t()))


def edge_shapes(s, x, y, e):
    # s 0-d, x [3, 1], y [1, 4], e [0, 4]: broadcasting of size-1 dims, 0-d and 0-size tensors
    z = torch.zeros_like(e)
    return (x + y * s, s.exp(), e.sum(0), e * 2, torch.cat([e, y], 0), z,
            x.expand(3, 4).sum(1), (x @ y).t(), e.view(0, 2, 2), e.amax(1))


def cat_fusion(x, w, y):
    # remove_cat_ops: dim-0 cats of fresh results are written in place (the
    # first three, one with dim=-2 and a nested one), and cats that must stay:
    # a producer read twice, a producer with another user, dim 1, a view input
    a = x @ w
    b = torch.relu(x * 2)
    c = torch.sigmoid(y)
    first = torch.cat([a, b, c], 0)
    d, e = torch.tanh(x), x - 1
    second = torch.cat([d, e], -2)
    f, g = x.exp(), x.neg()
    nested = torch.cat([torch.cat([f, g], 0), x.abs()], 0)
    h = x + 3
    twice = torch.cat([h, h], 0)
    k = x * x
    shared = torch.cat([k, x.cos()], 0)
    m, n = x.sin(), x.abs().sqrt()
    dim1 = torch.cat([m, n], 1)
    view = torch.cat([x.t(), y.t().contiguous()], 1)
    return first * 2, second.sum(0), nested, twice, shared, k, dim1, view


def multistream(x):
    # seed 001's model with the TorchAir multi-stream ops the seed pass inserts
    _air_library()
    torch.ops.air.scope_enter(["_user_stream_label"], ["stream_1"])
    mm = torch.mm(x, x)
    a = torch.abs(mm)
    r = torch.ops.air.record()
    torch.ops.air.scope_exit()
    torch.ops.air.wait([r])
    return torch.add(a, 1), torch.sub(x, mm)


_AIR_LIBS = []


def _air_library():
    """Defines torch.ops.air.* with TorchAir's schemas (no-ops on the CPU), so
    that make_fx records them."""
    if _AIR_LIBS:
        return
    lib = torch.library.Library("air", "DEF")
    lib.define("scope_enter(str[] keys, str[] values, bool need_execute=False) -> ()")
    lib.define("scope_exit(bool need_execute=False) -> ()")
    lib.define("record(*, Device? device=None) -> Tensor")
    lib.define("wait(Tensor[] x) -> ()")
    impl = torch.library.Library("air", "IMPL", "CompositeExplicitAutograd")
    impl.impl("scope_enter", lambda keys, values, need_execute=False: None)
    impl.impl("scope_exit", lambda need_execute=False: None)
    impl.impl("record", lambda device=None: torch.empty(0))
    impl.impl("wait", lambda x: None)
    _AIR_LIBS.extend([lib, impl])


# ---- larger models ----------------------------------------------------------

def resnet_block(x, w1, s1, t1, w2, s2, t2, wp, fc_w, fc_b):
    # conv-bn-relu, conv-bn, residual (1x1 projection, stride 2), relu, max pool,
    # global average pool, linear. Batch norm folded into a per-channel affine.
    h = F.conv2d(x, w1, None, stride=2, padding=1)
    h = F.relu(h * s1.view(1, -1, 1, 1) + t1.view(1, -1, 1, 1))
    h = F.conv2d(h, w2, None, padding=1)
    h = h * s2.view(1, -1, 1, 1) + t2.view(1, -1, 1, 1)
    h = F.relu(h + F.conv2d(x, wp, None, stride=2))
    h = F.max_pool2d(h, 2)
    feat = F.adaptive_avg_pool2d(h, (1, 1)).flatten(1)
    logits = F.linear(feat, fc_w, fc_b)
    return logits, torch.log_softmax(logits, dim=1), h


def _encoder_layer(x, mask, p, heads):
    ln1_g, ln1_b, wqkv, bqkv, wo, bo, ln2_g, ln2_b, w1, b1, w2, b2 = p
    B, T, C = x.shape
    d = C // heads
    h = F.layer_norm(x, (C,), ln1_g, ln1_b)
    q, k, v = F.linear(h, wqkv, bqkv).split(C, dim=-1)
    q = q.view(B, T, heads, d).transpose(1, 2)
    k = k.view(B, T, heads, d).transpose(1, 2)
    v = v.view(B, T, heads, d).transpose(1, 2)
    att = (q @ k.transpose(-2, -1)) / math.sqrt(d)
    att = att.masked_fill(mask, float("-inf")).softmax(dim=-1)
    y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
    x = x + F.linear(y, wo, bo)
    h = F.layer_norm(x, (C,), ln2_g, ln2_b)
    return x + F.linear(F.gelu(F.linear(h, w1, b1)), w2, b2)


def transformer(x, *params):
    # 2-layer pre-norm encoder, causal mask, 4 heads: x [2, 16, 32]
    T = x.shape[1]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    for layer in range(2):
        x = _encoder_layer(x, mask, params[12 * layer:12 * layer + 12], 4)
    return F.layer_norm(x, (x.shape[-1],)), x.mean(dim=1)


def _transformer_inputs():
    C, H = 32, 128
    params = []
    for _ in range(2):
        params += [1 + 0.1 * randn(C), 0.1 * randn(C), randn(3 * C, C) / math.sqrt(C),
                   0.1 * randn(3 * C), randn(C, C) / math.sqrt(C), 0.1 * randn(C),
                   1 + 0.1 * randn(C), 0.1 * randn(C), randn(H, C) / math.sqrt(C),
                   0.1 * randn(H), randn(C, H) / math.sqrt(H), 0.1 * randn(C)]
    return [randn(2, 16, C)] + params


def mlp_gelu(x, w1, b1, w2, b2, w3, b3):
    h = F.gelu(F.linear(x, w1, b1))
    h = F.gelu(F.linear(h, w2, b2), approximate="tanh")
    logits = F.linear(h, w3, b3)
    return torch.log_softmax(logits, dim=-1), logits.argmax(dim=-1)


def bag_ranker(ids, offsets, table, wts, w, b, pos, wb):
    # a recommender's pooled features: bags of ids summed (with per-id
    # weights and a padding id), averaged and maxed (bag 1 is empty), an
    # include_last_offset bag, a bilinear cross of two of them
    # (_trilinear), L2 normalization by linalg.vector_norm, then scores
    # ranked by a stable argsort
    s = F.embedding_bag(ids, table, offsets, mode="sum", per_sample_weights=wts, padding_idx=0)
    m = F.embedding_bag(ids, table, offsets, mode="mean")
    x = F.embedding_bag(ids, table, offsets, mode="max")
    last = F.embedding_bag(ids, table, torch.cat([offsets, pos]), mode="sum",
                           include_last_offset=True)
    h = torch.cat([s, m, x, last, F.bilinear(s, m, wb)], dim=1)
    h = h / torch.linalg.vector_norm(h, dim=1, keepdim=True).clamp(min=1e-6)
    scores = F.linear(h, w, b).squeeze(1)
    order = torch.argsort(scores, descending=True, stable=True)
    return h, scores, order, torch.linalg.vector_norm(table, ord=3.5, dim=0)


def gp_solver(x, y, xs, a, b, pts):
    # a Gaussian-process head and the classic solvers: an RBF kernel made
    # positive-definite, its Cholesky factor (upper too), the posterior
    # mean by cholesky_solve, the log-determinant by slogdet and by the
    # factor's diagonal, the inverse and det of a batch of transforms, a
    # solve with a vector right-hand side, QR least squares through a
    # triangular solve, whitening by eigh, the SVD's spectrum and its
    # best rank-2 approximation, and the LU factors
    k = torch.exp(-torch.cdist(x, x) ** 2 / 2) + 0.1 * torch.eye(x.shape[0])
    L = torch.linalg.cholesky(k)
    U = torch.linalg.cholesky(k, upper=True)
    alpha = torch.cholesky_solve(y, L)
    mean = torch.exp(-torch.cdist(xs, x) ** 2 / 2) @ alpha
    sign, logdet = torch.linalg.slogdet(k)
    logdet2 = 2 * torch.log(torch.diagonal(L)).sum()
    inv = torch.linalg.inv(a)
    det = torch.linalg.det(a)
    sol = torch.linalg.solve(a, b[..., 0])
    q, r = torch.linalg.qr(pts)
    coef = torch.linalg.solve_triangular(r, q.mT @ y[: pts.shape[0]], upper=True)
    xc = x - x.mean(0)
    evals, evecs = torch.linalg.eigh(xc.mT @ xc / 5 + 0.01 * torch.eye(3))
    white = xc @ evecs @ torch.diag(evals.rsqrt())
    u, s, vh = torch.linalg.svd(pts, full_matrices=False)
    rank2 = u[:, :2] @ torch.diag(s[:2]) @ vh[:2]
    p, l, up = torch.linalg.lu(a)
    return (mean, sign * logdet, logdet2, U, inv, det, sol, coef, white, s, rank2,
            torch.cholesky_inverse(L), p, l, up)


def regression_fit(x, y, a, b, c):
    # fitting and reusing factorizations: polynomial least squares by
    # lstsq (gelsy, and gelsd with residuals and the spectrum), one LU of
    # a batch of systems reused for two right-hand sides (lu_factor, then
    # lu_solve, its transposed solve too) and unpacked, an orthonormal
    # basis of the features from geqrf's reflectors (householder_product)
    # and Q^T y by ormqr, and symeig's spectrum
    feats = torch.stack([torch.ones_like(x), x, x * x], dim=-1)
    coef = torch.linalg.lstsq(feats, y).solution
    fit = torch.linalg.lstsq(feats, y, driver="gelsd")
    lu, piv = torch.linalg.lu_factor(a)
    s1 = torch.linalg.lu_solve(lu, piv, b)
    s2 = torch.linalg.lu_solve(lu, piv, b, adjoint=True)
    p, l, u = torch.lu_unpack(lu, piv)
    qr, tau = torch.geqrf(feats)
    q = torch.linalg.householder_product(qr, tau)
    qty = torch.ormqr(qr, tau, y, transpose=True)
    w = torch.symeig(c + c.mT)[0]
    return coef, fit.residuals, fit.singular_values, s1, s2, p, l, u, q, qty, w


def lie_group(w, pts, twist, a, t, x0):
    # a Lie-group layer: rotation vectors to skew-symmetric generators,
    # exponentiated to rotations (angles up to ~10 rad: several squarings)
    # that turn point clouds; rigid motions from SE(3) twists as 4x4
    # exponentials in homogeneous coordinates; a linear ODE's flow
    # exp(A t) x0 at a few times (norms from small to large in one batch)
    z = torch.zeros_like(w[:, 0])
    k = torch.stack([z, -w[:, 2], w[:, 1], w[:, 2], z, -w[:, 0], -w[:, 1], w[:, 0], z],
                    -1).reshape(-1, 3, 3)
    r = torch.linalg.matrix_exp(k)
    turned = pts @ r.mT
    g = torch.zeros(twist.shape[0], 4, 4)
    g[:, :3, :3] = k[: twist.shape[0]]
    g[:, :3, 3] = twist
    m = torch.matrix_exp(g)
    moved = (torch.cat([pts[: twist.shape[0]], torch.ones(twist.shape[0], pts.shape[1], 1)], -1)
             @ m.mT)[..., :3]
    flow = torch.linalg.matrix_exp(a * t.reshape(-1, 1, 1)) @ x0
    return turned, r.mT @ r, moved, flow


def kan_layer(x, coef, r):
    # a Chebyshev KAN layer (the degrees a constant tensor, as make_fx
    # records them), Legendre and Laguerre features, and radial Bessel
    # features of distances
    t = torch.tanh(x).unsqueeze(-1)
    degrees = torch.arange(6)
    basis = torch.special.chebyshev_polynomial_t(t, degrees)
    y = torch.einsum("bid,oid->bo", basis, coef)
    leg = torch.special.legendre_polynomial_p(t, torch.arange(2, 4))
    lag = torch.special.laguerre_polynomial_l(t.abs(), torch.arange(1, 5, 3))
    radial = torch.cat([torch.special.bessel_j0(r), torch.special.modified_bessel_i0(r / 4),
                        torch.special.spherical_bessel_j0(r)], dim=-1)
    return y, leg, lag, radial


def _scatter_views(x, w):
    # in-place updates of views, as a training step or a cache update
    # writes them; functionalized they become diagonal_scatter and
    # as_strided_scatter
    y = x.clone()
    y.diagonal().add_(w)
    y.diagonal(1, 0, 1).mul_(2)
    y.as_strided((2, 2), (4, 1), 1).sub_(1)
    return y, y.sum(0)


def scatter_views(x, w):
    from functorch import functionalize
    return functionalize(_scatter_views)(x, w)


def embed_classifier(ids, table, w, b):
    # mean over the non-padding tokens (id 0 is padding), then a linear classifier
    e = F.embedding(ids, table)
    keep = (ids != 0).unsqueeze(-1)
    summed = e.masked_fill(~keep, 0.0).sum(dim=1)
    count = keep.sum(dim=1).clamp(min=1)
    pooled = summed / count
    probs = torch.softmax(F.linear(pooled, w, b), dim=-1)
    return probs, probs.argmax(dim=-1), pooled


def int_pipeline(scores, lengths, values, codes):
    # scores f32 [6, 9]; lengths int64 [6] (1..4); values int64 [6, 9]; codes int64 [8] (may be < 0)
    best = torch.argmax(scores, dim=1)                     # int64 [6]
    offsets = torch.cumsum(lengths, dim=0) - lengths       # exclusive prefix sum
    picked = torch.gather(values, 1, best.unsqueeze(1)).squeeze(1)
    rows = torch.index_select(values, 0, torch.argmin(lengths, dim=0, keepdim=True))
    q_floor = torch.div(codes, 3, rounding_mode="floor")
    q_trunc = torch.div(codes, 3, rounding_mode="trunc")
    true_div = codes / 4                                   # int / int -> float32
    clipped = torch.clamp(codes, -5, 5)
    magnitude = torch.where(codes > 0, codes, -codes)
    masked = values.masked_fill(values > 6, -1)
    mx = torch.max(values, dim=0)
    pos = torch.arange(9).unsqueeze(0).expand(6, 9)
    within = pos < lengths.unsqueeze(1)
    total = (values * within).sum(dim=1)
    return (best, offsets, picked + offsets, rows, q_floor, q_trunc, true_div, clipped, magnitude,
            masked, mx.values, mx.indices, within, total, total.to(torch.int32) * 2,
            (codes * codes).sum(), codes.abs().max())


def bit_tricks(x, ids, w, idx, src):
    # float bits by view(dtype) and shifts (a sign / exponent split, a hash of int ids),
    # rounding to decimals, the fused addmm + gelu and add + relu that torch's own
    # passes emit, norm / dist, scatter with reduce, isposinf
    A = torch.ops.aten
    bits = x.view(torch.int32)
    sign = (bits >> 31) & 1
    expo = (bits >> 23) & 0xFF
    half = x.to(torch.float64).view(torch.int16)[..., 3::4]
    h = (ids << 7) ^ (ids >> 3)
    bucket = torch.remainder(1000003, h.abs() + 1)
    r = torch.round(x * 10, decimals=-1) + torch.round(x, decimals=2)
    act = A._addmm_activation.default(torch.zeros(6), x, w, use_gelu=True)
    y = A._add_relu.Tensor(act, r[:, :6], alpha=0.5)
    big = torch.isposinf(x.exp() * 1e38)
    s = x.scatter(1, idx, src, reduce="multiply").scatter(1, idx, 1.5, reduce="add")
    return (sign, expo, half, h, bucket, r, act, y, torch.dist(x, r, 3), A.norm.Scalar(y, 1),
            big, s, torch.special.i1e(x), torch.vdot(x[0], x[1]))


# name -> (function, example-input factory)
def scalar_conversion(u, h, x, b, i):
    # A Python number converts to the tensors' common dtype first: -2 is 254
    # next to uint8 (a wrapped bound, comparison or fill), 70000 is inf next
    # to float16; sum/prod/cumsum with dtype= convert self first (bool: any /
    # all); argmin/argmax with no dim and keepdim; an int64 alpha exact
    return (torch.clamp_max(u, -2), torch.clamp(u, min=-2), torch.gt(u, -2), torch.eq(u, -2),
            u.masked_fill(u > 100, -1), torch.ge(u, -56),
            h + 70000, torch.sub(h, 2**63 - 2, alpha=0), h * 1e5, torch.eq(b, 2**63 - 2), b + 3,
            torch.prod(x, dtype=torch.bool), torch.sum(x, dtype=torch.bool),
            torch.sum(x, 1, dtype=torch.bool), torch.prod(x, 0, dtype=torch.bool),
            torch.cumsum(x, 0, dtype=torch.int32), torch.prod(x, dtype=torch.int32),
            torch.sum(x, 0, dtype=torch.int32), torch.argmin(x, None, True),
            torch.argmax(x, None, True), torch.add(i, 4, alpha=-(2**63 - 1)))


# ---- torch's inference "fast path": nn.MultiheadAttention and
# nn.TransformerEncoderLayer in eval mode under no_grad record the fused
# _native_multi_head_attention and _transformer_encoder_layer_fwd. The
# modules hold no tensors of the graph: their parameters are inputs
# (functional_call), built on first use, outside the trace.
_FASTPATH = {}


def fastpath_modules():
    if not _FASTPATH:
        with torch.random.fork_rng():
            torch.manual_seed(0)
            nn = torch.nn
            _FASTPATH["mha"] = nn.MultiheadAttention(16, 2, batch_first=True).eval()
            _FASTPATH["enc"] = nn.TransformerEncoderLayer(16, 2, 32, batch_first=True).eval()
            _FASTPATH["pre"] = nn.TransformerEncoderLayer(
                16, 2, 32, batch_first=True, norm_first=True, activation="gelu").eval()
    return _FASTPATH


def fastpath_inputs():
    mods = fastpath_modules()
    pad = torch.zeros(2, 5, dtype=torch.bool)
    pad[1, 3:] = True  # batch 1's last two keys are padding
    params = [p.detach() * 0.5 for k in ("mha", "enc", "pre") for p in mods[k].parameters()]
    return [randn(2, 5, 16), pad] + params


def qat_net(x, w1, b1, ws1, wz1, s_in, z_in, s1, z1, w2, b2, ws2, wz2, s2, z2, ls, lz):
    """A QAT-exported net in eval mode: what FakeQuantize calls with its
    buffers (scale f32, zero_point int32) on activations, per tensor, and
    on weights, per channel along the output channels; a fixed-qparams
    (float scale, int zero point) fake quantization of the logits and the
    learnable form of _LearnableFakeQuantize. (FakeQuantize's forward tests
    fake_quant_enabled[0] in Python, which make_fx cannot trace: the model
    makes the calls it makes.)"""
    x = torch.fake_quantize_per_tensor_affine(x, s_in, z_in, 0, 255)
    w = torch.fake_quantize_per_channel_affine(w1, ws1, wz1, 0, -128, 127)
    h = F.relu(F.conv2d(x, w, b1, padding=1))
    h = torch.fake_quantize_per_tensor_affine(h, s1, z1, 0, 255)
    h = h.mean((2, 3))
    w = torch.fake_quantize_per_channel_affine(w2, ws2, wz2, 0, -128, 127)
    y = torch.fake_quantize_per_tensor_affine(F.linear(h, w, b2), s2, z2, -128, 127)
    fixed = torch.fake_quantize_per_tensor_affine(y, 1.0 / 16, 0, -128, 127)
    learned = torch._fake_quantize_learnable_per_tensor_affine(y, ls, lz, 0, 255, 1.0)
    return y, fixed, learned


def qat_inputs():
    w1, w2 = randn(6, 3, 3, 3) / 4, randn(5, 6) / 2
    ws1 = w1.abs().amax((1, 2, 3)) / 127
    ws2 = w2.abs().amax(1) / 127
    i32 = torch.int32
    return [randn(2, 3, 6, 6), w1, randn(6) / 10, ws1, torch.zeros(6, dtype=i32),
            torch.tensor([4.0 / 255]), torch.tensor([128], dtype=i32),
            torch.tensor([3.0 / 255]), torch.tensor([0], dtype=i32), w2, randn(5) / 10, ws2,
            torch.tensor([0, 1, -1, 2, 0], dtype=i32), torch.tensor([0.02]),
            torch.tensor([3], dtype=i32), torch.tensor([0.01]), torch.tensor([127.5])]


def transformer_fastpath(x, pad, *params):
    from torch.nn.utils.stateless import functional_call
    mods = fastpath_modules()
    outs, i = [], 0
    named = {}
    for k in ("mha", "enc", "pre"):
        names = [n for n, _ in mods[k].named_parameters()]
        named[k] = dict(zip(names, params[i:i + len(names)]))
        i += len(names)
    with torch.no_grad():  # the fast path runs only without autograd
        a, w = functional_call(mods["mha"], named["mha"], (x, x, x),
                               {"key_padding_mask": pad})
        b, _ = functional_call(mods["mha"], named["mha"], (x, x, x), {"need_weights": False})
        _, wh = functional_call(mods["mha"], named["mha"], (x, x, x),
                                {"average_attn_weights": False})
        e = functional_call(mods["enc"], named["enc"], (x,), {"src_key_padding_mask": pad})
        p = functional_call(mods["pre"], named["pre"], (e,))
    return a, w, b, wh, e, p


MODELS = {
    "seed001": (seed001, lambda: [randn(3, 3)]),
    "mlp": (mlp, lambda: [randn(4, 16), randn(32, 16), randn(32), randn(32, 32), randn(32),
                          randn(8, 32), randn(8)]),
    "attention": (attention, lambda: [randn(2, 5, 16), randn(16, 16), randn(16, 16),
                                      randn(16, 16), randn(16, 16), randn(16), randn(16)]),
    "layer_norm": (layer_norm, lambda: [randn(3, 6, 8), randn(8), randn(8)]),
    "conv_pool": (conv_pool, lambda: [randn(2, 3, 8, 8), randn(4, 3, 3, 3), randn(4)]),
    "softmax": (softmax, lambda: [randn(4, 7)]),
    "reductions": (reductions, lambda: [randn(3, 4, 5)]),
    "broadcast": (broadcast, lambda: [randn(4, 5), randn(5), randn(4, 1)]),
    "views": (views, lambda: [randn(3, 4, 5), randn(2, 12)]),
    "compare_where": (compare_where, lambda: [randn(4, 6), randn(4, 6)]),
    "inplace": (inplace, lambda: [randn(4, 6), randn(4, 6)]),
    "gelu_tanh": (gelu_tanh, lambda: [randn(4, 8), randn(8, 8)]),
    "int_ops": (int_ops, lambda: [randn(6, 5), I64(6)]),
    "embedding": (embedding, lambda: [I64(2, 3, hi=10), randn(10, 8), randn(8, 4)]),
    "creation": (creation, lambda: [randn(2, 3) * 4]),
    "bmm_chain": (bmm_chain, lambda: [randn(3, 4, 5), randn(3, 5, 6), randn(3, 6, 2)]),
    "padding_tril": (padding_tril, lambda: [randn(4, 5)]),
    "literals": (literals, lambda: [I64(4, hi=3), torch.rand(3, 4) + 0.1 * torch.eye(3, 4)]),
    # op by op
    "unary_all": (unary_all, lambda: [randn(8, 33) * 2, torch.rand(8, 33) * 4 + 0.05]),
    "unary_inplace": (unary_inplace, lambda: [randn(5, 17), torch.rand(5, 17) + 0.1]),
    "binary_all": (binary_all, lambda: [randn(6, 7) * 3, randn(7) + 0.1 * torch.sign(randn(7)),
                                        torch.rand(6, 7) + 0.5, randn(6, 7)]),
    "binary_inplace": (binary_inplace, lambda: [randn(6, 7) * 3, randn(7) + 0.5,
                                                torch.rand(6, 7) + 0.5, randn(6, 7)]),
    "compare_all": (compare_all, lambda: [torch.randint(-2, 3, (5, 6)).float(),
                                          torch.randint(-2, 3, (6,)).float()]),
    "clamp_all": (clamp_all, lambda: [randn(5, 8), -torch.rand(8) * 0.5, torch.rand(5, 1) * 0.5]),
    "reductions_all": (reductions_all, lambda: [randn(4, 6, 7), I64(5, 6, hi=4)]),
    "views_all": (views_all, lambda: [randn(2, 3, 4, 5), randn(6, 4)]),
    "indexing": (indexing, lambda: [randn(5, 6), I64(3, 4, hi=10), I64(5, 3, hi=6), randn(10, 8),
                                    randn(2, 4, 5)]),
    "creation_all": (creation_all, lambda: [randn(3, 4) * 3, I64(3, 4, hi=100) - 50]),
    "conv_variants": (conv_variants, lambda: [randn(2, 4, 11, 9), randn(6, 4, 3, 3), randn(6),
                                              randn(4, 2, 3, 2), randn(3, 4, 1, 1),
                                              randn(4, 1, 3, 3), randn(4)]),
    "decoder": (decoder, lambda: [randn(2, 8, 5, 5), randn(8, 4, 3, 3) / 4, randn(4),
                                  randn(8, 3, 2, 3) / 3, randn(4, 4, 3, 3) / 4, randn(2, 3, 7),
                                  randn(3, 2, 4) / 2]),
    "batchnorm_eval": (batchnorm_eval, lambda: [
        randn(2, 3, 8, 8), randn(6, 3, 3, 3) / 4, 0.1 * randn(6), torch.rand(6) + 0.5,
        1 + 0.1 * randn(6), 0.1 * randn(6), randn(4, 5, 3), randn(5), torch.rand(5) + 0.5]),
    "mobilenet_block": (mobilenet_block, lambda: [
        randn(2, 4, 8, 8) * 2, randn(8, 4, 1, 1) / 2, 0.1 * randn(8), torch.rand(8) + 0.5,
        1 + 0.1 * randn(8), 0.1 * randn(8), randn(8, 1, 3, 3) / 3, randn(2, 8, 1, 1) / 3,
        randn(8, 2, 1, 1)]),
    "fpn_upsample": (fpn_upsample, lambda: [randn(2, 4, 8, 6), randn(2, 8, 4, 3),
                                            randn(5, 4, 1, 1) / 2, randn(5, 8, 1, 1) / 3]),
    "resize_modes": (resize_modes, lambda: [randn(2, 3, 8, 6), randn(1, 2, 3, 4, 6),
                                            randn(2, 3, 5)]),
    "sampling_head": (sampling_head, lambda: [randn(3, 10), randn(10, 6), I64(5, hi=3),
                                              I64(5, hi=4)]),
    "embed_pool_normalize": (embed_pool_normalize, lambda: [
        randn(3, 7, 8), torch.rand(3, 7) > 0.3, randn(8, 6) / 3, randn(3, 11) * 3]),
    "sr_swin_bits": (sr_swin_bits, lambda: [randn(2, 3, 6, 5), randn(12, 3, 3, 3) / 3,
                                            randn(2, 6, 6, 4)]),
    "kv_cache_update": (kv_cache_update, lambda: [
        randn(2, 8, 4), randn(2, 3, 4), torch.tensor([5, 1, 6]), randn(3, 5),
        I64(10, hi=6)]),
    "vector_products": (vector_products, lambda: [randn(4, 5), randn(5), randn(4), randn(5),
                                                  randn(3, 5), randn(3), randn(2, 3, 5)]),
    "pos_embed_pool_head": (pos_embed_pool_head, lambda: [randn(1, 25, 8), randn(2, 4, 5, 7)]),
    "spatial_transformer": (spatial_transformer, lambda: [
        randn(2, 3, 6, 7), randn(6, 3) / 4, torch.tensor([1., 0, 0, 0, 1, 0]) + randn(6) / 10,
        torch.rand(2, 5, 4, 2) * 2.4 - 1.2]),
    "rnn_seq": (rnn_seq, lambda: [
        randn(2, 4, 5), randn(1, 2, 6) / 2, randn(1, 2, 6) / 2, randn(24, 5) / 2,
        randn(24, 6) / 2, randn(24) / 4, randn(24) / 4, randn(18, 6) / 2, randn(18, 6) / 2,
        randn(18) / 4, randn(18) / 4, randn(6, 6) / 2, randn(6, 6) / 2, randn(24, 3) / 2,
        randn(2, 3)]),
    "optimizer_step": (optimizer_step, lambda: [
        randn(4, 6), randn(4, 6) / 10, randn(4, 6) / 10, torch.rand(4, 6) / 100, randn(4, 6)]),
    "stats_head": (stats_head, lambda: [
        randn(4, 6), torch.randint(0, 8, (4, 6)).float(), torch.rand(3, 5) * 3 + 0.2,
        torch.rand(4, 6) * 0.98 + 0.01]),
    "windows_diag": (windows_diag, lambda: [randn(2, 50), randn(2, 4, 4), randn(2, 4),
                                            randn(5, 6)]),
    "losses": (losses, lambda: [
        randn(6, 4), torch.tensor([0, 2, 1, 3, 2, 0]), randn(2, 3, 4, 5),
        torch.randint(0, 3, (2, 4, 5)), randn(3, 5), randn(3, 5), randn(3, 5) * 2,
        torch.rand(4) + 0.5]),
    "shuffle_metric": (shuffle_metric, lambda: [
        randn(2, 4, 5, 5), randn(6, 2, 3, 3) / 3, randn(30, 8), randn(7, 8), randn(5, 3),
        randn(5, 3)]),
    "running_stats": (running_stats, lambda: [
        randn(4, 5), randn(4, 7), torch.linspace(-1.5, 1.5, 7), randn(3, 2), randn(4, 5),
        randn(4), randn(3, 4, 6) / 2, randn(1, 2, 3, 4)]),
    "video_block": (video_block, lambda: [randn(1, 2, 4, 7, 6), randn(3, 2, 2, 3, 3) / 4,
                                          randn(3, 2, 2, 2, 2) / 4]),
    "scatter_views": (scatter_views, lambda: [randn(3, 4), randn(3)]),
    "lie_group": (lie_group, lambda: [3 * randn(5, 3), randn(5, 7, 3), randn(2, 3),
                                      randn(4, 4) - 2 * torch.eye(4),
                                      torch.tensor([1e-4, 0.1, 1.0, 6.0]), randn(4, 2)]),
    "gp_solver": (gp_solver, lambda: [randn(6, 3), randn(6, 2), randn(4, 3),
                                      randn(2, 3, 3) + 3 * torch.eye(3), randn(2, 3, 2),
                                      randn(5, 3)]),
    "kan_layer": (kan_layer, lambda: [randn(4, 3), randn(5, 3, 6) / 3, torch.rand(4, 2) * 6]),
    "regression_fit": (regression_fit, lambda: [
        torch.linspace(-1, 1, 7), randn(7, 2), randn(2, 3, 3) + 3 * torch.eye(3), randn(2, 3, 2),
        randn(4, 4)]),
    "bag_ranker": (bag_ranker, lambda: [
        torch.tensor([3, 0, 7, 1, 1, 5, 2, 9, 4]), torch.tensor([0, 3, 3, 6]), randn(10, 4),
        torch.rand(9), randn(1, 19), randn(1), torch.tensor([9]), randn(3, 4, 4)]),
    "vocoder_wn": (vocoder_wn, lambda: [randn(2, 3, 8), randn(4, 3, 3), randn(4, 1, 1) + 2,
                                        randn(4, 2, 4), randn(4, 1, 1), torch.randn(2, 18).sign(),
                                        randn(1, 2, 6, 5)]),
    "graph_aggregate": (graph_aggregate, lambda: [
        randn(6, 4), torch.tensor([0, 1, 2, 3, 4, 5, 0, 2]), torch.tensor([1, 2, 0, 0, 5, 4, 3, 1]),
        randn(4, 3)]),
    "unfold_fold": (unfold_fold, lambda: [randn(2, 3, 6, 7), randn(27, 27) / 5]),
    "audio_1d": (audio_1d, lambda: [randn(2, 3, 10), randn(4, 3, 7) / 4, randn(1, 3, 4, 6)]),
    "trig_threshold": (trig_threshold, lambda: [torch.rand(4, 6) * 1.98 - 0.99,
                                                torch.rand(3, 5) * 9 + 1, I64(7, hi=9) - 4]),
    "groupnorm_block": (groupnorm_block, lambda: [randn(2, 8, 6, 6) * 2 + 1, 1 + 0.1 * randn(8),
                                                  0.1 * randn(8), randn(8, 8, 3, 3) / 8,
                                                  randn(3, 4, 5)]),
    "layer_norm_all": (layer_norm_all, lambda: [randn(3, 5, 8) * 2 + 1, 1 + 0.5 * randn(5, 8),
                                                randn(5, 8)]),
    "matmul_batched": (matmul_batched, lambda: [randn(2, 3, 4, 5), randn(3, 5, 6),
                                                randn(2, 1, 5, 2), randn(6, 5),
                                                randn(2, 7, 5), randn(3, 5), randn(3)]),
    "edge_shapes": (edge_shapes, lambda: [torch.tensor(0.5), randn(3, 1), randn(1, 4),
                                          torch.zeros(0, 4)]),
    "multistream": (multistream, lambda: [randn(3, 3)]),
    "cat_fusion": (cat_fusion, lambda: [randn(4, 5), randn(5, 5), randn(2, 5)]),
    # larger models
    "resnet_block": (resnet_block, lambda: [randn(2, 8, 16, 16), randn(16, 8, 3, 3) / 8,
                                            1 + 0.1 * randn(16), 0.1 * randn(16),
                                            randn(16, 16, 3, 3) / 12, 1 + 0.1 * randn(16),
                                            0.1 * randn(16), randn(16, 8, 1, 1) / 3,
                                            randn(10, 16) / 4, randn(10)]),
    "transformer": (transformer, _transformer_inputs),
    "mlp_gelu": (mlp_gelu, lambda: [randn(32, 64), randn(128, 64) / 8, randn(128) * 0.1,
                                    randn(128, 128) / 11, randn(128) * 0.1,
                                    randn(10, 128) / 11, randn(10) * 0.1]),
    "embed_classifier": (embed_classifier, lambda: [
        torch.cat([I64(4, 9, hi=50), torch.zeros(4, 3, dtype=torch.int64)], dim=1),
        randn(50, 16), randn(5, 16) / 4, randn(5)]),
    "int_pipeline": (int_pipeline, lambda: [randn(6, 9), I64(6, hi=4) + 1, I64(6, 9, hi=10),
                                            I64(8, hi=21) - 10]),
    "scalar_conversion": (scalar_conversion, lambda: [
        torch.randint(0, 256, (2, 5)).to(torch.uint8), (randn(3) * 4).half(),
        torch.tensor([[0.5, -1.75, 0.0, 3.25], [2.5, 0.25, -0.5, 1.0], [0.0, 0.0, 7.5, -2.0]]),
        torch.tensor([True, False, True, True]), I64(3) - 5]),
    "transformer_fastpath": (transformer_fastpath, fastpath_inputs),
    "qat_net": (qat_net, qat_inputs),
    "bit_tricks": (bit_tricks, lambda: [randn(4, 8) * 3, I64(4, 8, hi=1 << 40) - (1 << 39),
                                        randn(8, 6), I64(4, 3, hi=8), randn(4, 3)]),
}


# ---- coverage ---------------------------------------------------------------

# Issue 4's kernel list, item by item, as the qualnames make_fx records. Ops
# that are CompositeImplicitAutograd in PyTorch 1.13 (linear, matmul, reshape,
# contiguous, to, adaptive_avg_pool2d) never appear in a make_fx graph: they
# are listed with the ops they decompose into.
REQUIRED = [
    ("mm", ["aten.mm.default"]),
    ("addmm", ["aten.addmm.default"]),
    ("bmm", ["aten.bmm.default"]),
    ("matmul-style batched cases (decomposed: expand + bmm + _unsafe_view)",
     ["aten.expand.default", "aten.bmm.default", "aten._unsafe_view.default"]),
    ("linear (decomposed: t + addmm)", ["aten.t.default", "aten.addmm.default"]),
    ("convolution (2-d)", ["aten.convolution.default"]),
    ("max_pool2d_with_indices", ["aten.max_pool2d_with_indices.default"]),
    ("avg_pool2d", ["aten.avg_pool2d.default"]),
    ("adaptive_avg_pool2d (decomposed: _adaptive_avg_pool2d; mean.dim for 1x1)",
     ["aten._adaptive_avg_pool2d.default", "aten.mean.dim"]),
    ("_softmax", ["aten._softmax.default"]),
    ("_log_softmax", ["aten._log_softmax.default"]),
    ("native_layer_norm (all three outputs)", ["aten.native_layer_norm.default"]),
] + [(op, ["aten.%s.default" % op]) for op in (
    "abs", "neg", "exp", "log", "sqrt", "rsqrt", "reciprocal", "sigmoid", "tanh", "relu")] + [
    ("gelu (none and tanh)", ["aten.gelu.default"]),
    ("silu", ["aten.silu.default"]),
    ("sin", ["aten.sin.default"]),
    ("cos", ["aten.cos.default"]),
    ("pow (tensor/scalar)", ["aten.pow.Tensor_Tensor", "aten.pow.Tensor_Scalar", "aten.pow.Scalar"]),
    ("clamp", ["aten.clamp.default", "aten.clamp.Tensor"]),
    ("clamp_min", ["aten.clamp_min.default", "aten.clamp_min.Tensor"]),
    ("clamp_max", ["aten.clamp_max.default", "aten.clamp_max.Tensor"]),
    ("add (alpha)", ["aten.add.Tensor", "aten.add.Scalar"]),
    ("sub (alpha)", ["aten.sub.Tensor", "aten.sub.Scalar", "aten.rsub.Scalar"]),
    ("mul", ["aten.mul.Tensor", "aten.mul.Scalar"]),
    ("div (rounding modes)", ["aten.div.Tensor", "aten.div.Scalar", "aten.div.Tensor_mode",
                              "aten.div.Scalar_mode"]),
    ("maximum", ["aten.maximum.default"]),
    ("minimum", ["aten.minimum.default"]),
    ("where", ["aten.where.self"]),
] + [(op, ["aten.%s.Tensor" % op, "aten.%s.Scalar" % op])
     for op in ("eq", "ne", "lt", "le", "gt", "ge")] + [
    ("logical_and", ["aten.logical_and.default"]),
    ("logical_or", ["aten.logical_or.default"]),
    ("logical_not", ["aten.logical_not.default"]),
    ("masked_fill", ["aten.masked_fill.Scalar", "aten.masked_fill.Tensor"]),
    ("sum", ["aten.sum.default", "aten.sum.dim_IntList"]),
    ("mean", ["aten.mean.default", "aten.mean.dim"]),
    ("amax", ["aten.amax.default"]),
    ("amin", ["aten.amin.default"]),
    ("max.dim", ["aten.max.dim"]),
    ("min.dim", ["aten.min.dim"]),
    ("argmax", ["aten.argmax.default"]),
    ("argmin", ["aten.argmin.default"]),
    ("var", ["aten.var.correction"]),
    ("prod", ["aten.prod.default", "aten.prod.dim_int"]),
    ("cumsum", ["aten.cumsum.default"]),
    ("view", ["aten.view.default"]),
    ("reshape (decomposed: view / _reshape_alias / clone + _unsafe_view)",
     ["aten._reshape_alias.default", "aten._unsafe_view.default"]),
    ("_unsafe_view", ["aten._unsafe_view.default"]),
    ("_reshape_alias", ["aten._reshape_alias.default"]),
    ("permute", ["aten.permute.default"]),
    ("transpose", ["aten.transpose.int"]),
    ("t", ["aten.t.default"]),
    ("expand", ["aten.expand.default"]),
    ("squeeze", ["aten.squeeze.default", "aten.squeeze.dim"]),
    ("unsqueeze", ["aten.unsqueeze.default"]),
    ("slice", ["aten.slice.Tensor"]),
    ("select", ["aten.select.int"]),
    ("cat", ["aten.cat.default"]),
    ("split", ["aten.split.Tensor"]),
    ("split_with_sizes", ["aten.split_with_sizes.default"]),
    ("clone", ["aten.clone.default"]),
    ("contiguous (decomposed: clone(memory_format=contiguous_format))", ["aten.clone.default"]),
    ("copy_", ["aten.copy_.default"]),
    ("index_select", ["aten.index_select.default"]),
    ("gather", ["aten.gather.default"]),
    ("embedding", ["aten.embedding.default"]),
    ("constant_pad_nd", ["aten.constant_pad_nd.default"]),
    ("tril", ["aten.tril.default"]),
    ("triu", ["aten.triu.default"]),
    ("ones", ["aten.ones.default"]),
    ("zeros", ["aten.zeros.default"]),
    ("full", ["aten.full.default"]),
    ("arange", ["aten.arange.default", "aten.arange.start", "aten.arange.start_step"]),
    ("empty (values always overwritten: fill_ / copy_)", ["aten.empty.memory_format"]),
    ("scalar_tensor", ["aten.scalar_tensor.default"]),
    ("ones_like", ["aten.ones_like.default"]),
    ("zeros_like", ["aten.zeros_like.default"]),
    ("full_like", ["aten.full_like.default"]),
    ("_to_copy / to (dtype casts)", ["aten._to_copy.default"]),
    ("in-place unary (op_)", ["aten.%s_.default" % op for op in (
        "abs", "neg", "exp", "log", "sqrt", "rsqrt", "reciprocal", "sigmoid", "tanh", "relu",
        "gelu", "silu", "sin", "cos", "logical_not")]),
    ("in-place binary (op_)", [
        "aten.add_.Tensor", "aten.add_.Scalar", "aten.sub_.Tensor", "aten.sub_.Scalar",
        "aten.mul_.Tensor", "aten.mul_.Scalar", "aten.div_.Tensor", "aten.div_.Scalar",
        "aten.div_.Tensor_mode", "aten.pow_.Tensor", "aten.pow_.Scalar",
        "aten.logical_and_.default", "aten.logical_or_.default"]),
    ("in-place compare (op_)", ["aten.%s_.%s" % (op, ov) for op in ("eq", "ne", "lt", "le", "gt", "ge")
                                for ov in ("Tensor", "Scalar")]),
    ("in-place clamp (op_)", ["aten.clamp_.default", "aten.clamp_.Tensor", "aten.clamp_min_.default",
                              "aten.clamp_max_.default"]),
    ("in-place masked_fill (op_)", ["aten.masked_fill_.Scalar", "aten.masked_fill_.Tensor"]),
    ("in-place fills", ["aten.fill_.Scalar", "aten.zero_.default"]),
    ("operator.getitem", ["<built-in function getitem>"]),
    ("air ops", ["air.scope_enter.default", "air.scope_exit.default", "air.record.default",
                 "air.wait.default"]),
]

# ../shared/conformance/ops.txt, as of this writing (the shared set's ops);
# when ../shared is there, the script also checks the file has not grown.
SHARED_OPS = """
<built-in function getitem>
aten._log_softmax.default aten._reshape_alias.default aten._softmax.default
aten._unsafe_view.default aten.abs.default aten.add.Tensor aten.add_.Tensor aten.addmm.default
aten.amax.default aten.bmm.default aten.clamp.default aten.clone.default aten.div.Tensor
aten.exp.default aten.expand.default aten.gt.Scalar aten.mean.dim aten.mm.default
aten.mul.Tensor aten.mul_.Tensor aten.native_layer_norm.default aten.neg.default
aten.permute.default aten.relu.default aten.relu_.default aten.sigmoid.default
aten.sub.Tensor aten.sum.default aten.sum.dim_IntList aten.t.default aten.tanh.default
aten.transpose.int aten.view.default aten.where.self
"""


def shared_ops():
    ops = ["<built-in function getitem>"] + SHARED_OPS.replace(
        "<built-in function getitem>", "").split()
    path = os.path.join(os.path.dirname(OUT_DIR), "..", "..", "..", "shared", "conformance",
                        "ops.txt")
    if os.path.exists(path):
        with open(path) as f:
            extra = sorted({line.strip() for line in f if line.strip()} - set(ops))
        ops += extra
    return ops


# Argument variants the kernels must get right: (what, qualname, regex on the
# node's "(args = ..., kwargs = ...)").
VARIANTS = [
    ("gelu approximate=none", "aten.gelu", r"kwargs = \{\}"),
    ("gelu approximate=tanh", "aten.gelu", r"approximate: tanh"),
    ("conv stride > 1", "aten.convolution.default", r"\[(?:[2-9]\d*, \d+|\d+, [2-9]\d*)\], \[\d+, \d+\], \[\d+, \d+\], False"),
    ("conv padding > 0", "aten.convolution.default", r"\[\d+, \d+\], \[(?:[1-9]\d*, \d+|\d+, [1-9]\d*)\], \[\d+, \d+\], False"),
    ("conv dilation > 1", "aten.convolution.default", r"\[\d+, \d+\], \[\d+, \d+\], \[(?:[2-9]\d*, \d+|\d+, [2-9]\d*)\], False"),
    ("conv groups > 1", "aten.convolution.default", r"False, \[0, 0\], [2-9]\d*\)"),
    ("conv with bias", "aten.convolution.default", r"args = \(%\w+, %\w+, %\w+,"),
    ("conv without bias", "aten.convolution.default", r"args = \(%\w+, %\w+, None,"),
    ("conv transposed (2-d, output_padding)", "aten.convolution.default", r"\[\d+, \d+\], True, \[(?:[1-9]\d*, \d+|\d+, [1-9]\d*)\]"),
    ("conv transposed groups > 1", "aten.convolution.default", r"True, \[\d+, \d+\], [2-9]\d*\)"),
    ("conv transposed 1-d", "aten.convolution.default", r"\[\d+\], True, \[\d+\]"),
    ("max_pool2d ceil_mode", "aten.max_pool2d_with_indices.default", r"True\)"),
    ("max_pool2d dilation > 1", "aten.max_pool2d_with_indices.default", r"\[1, 2\]"),
    ("avg_pool2d count_include_pad=False", "aten.avg_pool2d.default", r"True, False\)"),
    ("avg_pool2d divisor_override", "aten.avg_pool2d.default", r"False, True, \d+\)"),
    ("add alpha", "aten.add.Tensor", r"alpha: "),
    ("sub alpha", "aten.sub.Tensor", r"alpha: "),
    ("div rounding_mode=trunc", "aten.div", r"rounding_mode: trunc"),
    ("div rounding_mode=floor", "aten.div", r"rounding_mode: floor"),
    ("var unbiased", "aten.var.correction", r"kwargs = \{\}|correction: 1"),
    ("var biased", "aten.var.correction", r"correction: 0"),
    ("contiguous -> clone(memory_format)", "aten.clone.default", r"memory_format: torch.contiguous_format"),
    ("_to_copy to int64", "aten._to_copy.default", r"dtype: torch.int64"),
    ("_to_copy to float32", "aten._to_copy.default", r"dtype: torch.float32"),
    ("_to_copy to float64", "aten._to_copy.default", r"dtype: torch.float64"),
    ("_to_copy to int32", "aten._to_copy.default", r"dtype: torch.int32"),
    ("_to_copy to bool", "aten._to_copy.default", r"dtype: torch.bool"),
    ("constant_pad_nd negative (cropping)", "aten.constant_pad_nd.default", r"\[-\d|, -\d+[,\]]"),
    ("tril/triu diagonal", "aten.tril.default", r", -?\d+\)"),
    ("cumsum on int32 (promotes to int64)", "aten.cumsum.default", r"_to_copy"),
]


def node_calls(fx_text):
    """(qualname, argument text) for each call_function node of a printed graph."""
    out = []
    for m in re.finditer(r"call_function\[target=([^\]]+)\](\(args = .*\))$", fx_text, re.M):
        target = m.group(1)
        if target == "operator.getitem":
            target = "<built-in function getitem>"
        elif target.startswith("torch.ops."):
            target = target[len("torch.ops."):]
        out.append((target, m.group(2)))
    return out


def check_coverage():
    """Writes COVERAGE.md from the committed graphs; returns what is missing."""
    uses, calls = {}, {}
    for name in MODELS:
        with open(os.path.join(OUT_DIR, name + ".fx")) as f:
            for target, args in node_calls(f.read()):
                uses.setdefault(target, set()).add(name)
                calls.setdefault(target, []).append((name, args))
    missing = []
    lines = ["# Op coverage of tests/data/graphs", "",
             "Generated by `tests/gen_graphs.py` (PyTorch %s); do not edit." % torch.__version__,
             "The script exits 1 if an op below is used by no model.", "",
             "## Issue 4's kernel list", "",
             "| item | op | models |", "|---|---|---|"]

    def row(item, op):
        models = sorted(uses.get(op, ()))
        if not models:
            missing.append(op)
        shown = ", ".join(models[:6]) + (" (+%d)" % (len(models) - 6) if len(models) > 6 else "")
        lines.append("| %s | `%s` | %s |" % (item, op, shown or "**MISSING**"))

    for item, ops in REQUIRED:
        for op in ops:
            row(item, op)
    lines += ["", "## ../shared/conformance/ops.txt", "", "| item | op | models |", "|---|---|---|"]
    for op in shared_ops():
        row("shared", op)
    lines += ["", "## Argument variants", "", "| variant | op | models |", "|---|---|---|"]
    for what, prefix, rx in VARIANTS:
        if what.startswith("cumsum on int32"):
            # the cast is a separate node: look for cumsum of a _to_copy
            found = sorted({n for n, a in calls.get("aten.cumsum.default", ())
                            if re.search(r"args = \(%_to_copy", a)})
        else:
            found = sorted({n for op, cs in calls.items() if op.startswith(prefix)
                            for n, a in cs if re.search(rx, a)})
        if not found:
            missing.append(what)
        lines.append("| %s | `%s` | %s |" % (what, prefix, ", ".join(found) or "**MISSING**"))
    others = sorted(set(uses) - {op for _, ops in REQUIRED for op in ops} - set(shared_ops()))
    lines += ["", "## Other ops the models use", ""]
    lines += ["- `%s`: %s" % (op, ", ".join(sorted(uses[op]))) for op in others]
    lines += ["", "## Notes", "",
              "- `empty`: `aten.empty.memory_format` is used only where every element is",
              "  overwritten before it is read (`fill_`, `copy_`), so outputs are deterministic.",
              "- `linear`, `matmul`, `reshape`, `contiguous`, `to`, `adaptive_avg_pool2d` are",
              "  CompositeImplicitAutograd in PyTorch 1.13: make_fx records what they decompose into.",
              "- `air.*`: defined in the generator with TorchAir's schemas as no-op CPU ops",
              "  (torch.library), so make_fx records them (model `multistream`).",
              ""]
    with open(os.path.join(OUT_DIR, "COVERAGE.md"), "w") as f:
        f.write("\n".join(lines))
    return missing


def flat_outputs(out):
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res.extend(flat_outputs(o))
        return res
    return [out]


def dtype_name(t):
    return str(t.dtype).replace("torch.", "")


def generate(name, fn, make_inputs, registered):
    torch.manual_seed(SEED + sum(map(ord, name)))
    inputs = make_inputs()
    gm = make_fx(fn)(*[t.clone() for t in inputs])
    outs = flat_outputs(fn(*[t.clone() for t in inputs]))
    # the graph is the reference: where torch 1.13's trace computes something
    # else than the eager model (torch.full((3,), True) traces without its
    # bool dtype and gives int64), the model must be written unambiguously
    graph_outs = flat_outputs(gm(*[t.clone() for t in inputs]))
    for i, (a, b) in enumerate(zip(outs, graph_outs)):
        if a.dtype != b.dtype or a.shape != b.shape or not torch.equal(a.detach(), b.detach()):
            if not (a.dtype.is_floating_point and a.dtype == b.dtype and a.shape == b.shape
                    and torch.allclose(a.detach(), b.detach(), equal_nan=True)):
                sys.exit(f"error: {name}: output {i} of the traced graph ({b.dtype}, "
                         f"{list(b.shape)}) differs from the model's ({a.dtype}, {list(a.shape)})")
    if len(outs) != len(graph_outs):
        sys.exit(f"error: {name}: the traced graph has {len(graph_outs)} outputs, the model {len(outs)}")
    text = str(gm.graph)
    ops = sorted({str(n.target) for n in gm.graph.nodes if n.op == "call_function"})
    if any(n.op == "get_attr" for n in gm.graph.nodes):
        # a tensor constant in the model (torch.tensor(...)): its value would
        # not be in the suite's files
        sys.exit(f"error: {name}: the graph has get_attr constants; build them from ops instead")
    missing = [o for o in ops if registered is not None and o not in registered
               and o != "<built-in function getitem>"]
    if missing:
        print(f"warning: {name}: ops unknown to airc: {missing}", file=sys.stderr)
    with open(os.path.join(OUT_DIR, name + ".fx"), "w") as f:
        f.write(text + "\n")
    # a model that now has fewer inputs or outputs leaves no stale files
    for old in glob.glob(os.path.join(OUT_DIR, glob.escape(name) + ".in*.npy")) + \
            glob.glob(os.path.join(OUT_DIR, glob.escape(name) + ".out*.npy")):
        os.remove(old)
    for i, t in enumerate(inputs):
        np.save(os.path.join(OUT_DIR, f"{name}.in{i}.npy"), t.numpy())
    for i, t in enumerate(outs):
        np.save(os.path.join(OUT_DIR, f"{name}.out{i}.npy"), t.detach().numpy())
    meta = {
        "inputs": [[dtype_name(t), list(t.shape)] for t in inputs],
        "outputs": [[dtype_name(t), list(t.shape)] for t in outs],
        "ops": ops,
        "nodes": len(gm.graph.nodes),
    }
    with open(os.path.join(OUT_DIR, name + ".json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")


def registered_ops():
    """Op names airc registers (from src/ops/builtin_ops.c), to warn early."""
    path = os.path.join(os.path.dirname(OUT_DIR), "..", "..", "src", "ops", "builtin_ops.c")
    try:
        with open(path) as f:
            src = f.read()
    except OSError:
        return None
    return set(re.findall(r'^\s*\{"([a-z_]+\.[A-Za-z0-9_]+\.[A-Za-z0-9_]+)"', src, re.M))


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    names = sys.argv[1:] or list(MODELS)
    registered = registered_ops()
    for name in names:
        fn, make_inputs = MODELS[name]
        generate(name, fn, make_inputs, registered)
    print(f"wrote {len(names)} models to {OUT_DIR}")
    missing = check_coverage()
    if missing:
        print("error: not covered by any model: " + ", ".join(missing), file=sys.stderr)
        sys.exit(1)
    print(f"coverage: every listed op and variant is used (see {OUT_DIR}/COVERAGE.md)")


if __name__ == "__main__":
    main()
