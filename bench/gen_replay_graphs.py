#!/usr/bin/env python3
"""Writes bench/data/transformer_block.fx: one pre-norm transformer encoder
block (512 tokens x 768, 12 heads, MLP 3072, GELU) traced by PyTorch's make_fx
at ATen level, weights as placeholders after the activation, placeholders
typed (``%x : f32[512, 768]``) so that `bench/replay` can make inputs.

The same function is timed by bench/replay.py in PyTorch eager.

Run with Debian's torch: /usr/bin/python3 bench/gen_replay_graphs.py
"""
import os
import re
import sys

import torch
import torch.nn.functional as F
from torch.fx.experimental.proxy_tensor import make_fx

TOKENS, DIM, HEADS, HIDDEN = 512, 768, 12, 3072


def block(x, ln1_w, ln1_b, wqkv, bqkv, wo, bo, ln2_w, ln2_b, w1, b1, w2, b2):
    h = F.layer_norm(x, (DIM,), ln1_w, ln1_b)
    qkv = F.linear(h, wqkv, bqkv).view(TOKENS, 3, HEADS, DIM // HEADS)
    q, k, v = qkv.permute(1, 2, 0, 3).unbind(0)  # heads, tokens, head_dim
    att = torch.softmax(q @ k.transpose(-2, -1) / (DIM // HEADS) ** 0.5, dim=-1)
    ctx = (att @ v).transpose(0, 1).reshape(TOKENS, DIM)
    x = x + F.linear(ctx, wo, bo)
    h = F.layer_norm(x, (DIM,), ln2_w, ln2_b)
    return x + F.linear(F.gelu(F.linear(h, w1, b1)), w2, b2)


def example_inputs():
    g = torch.Generator().manual_seed(0)

    def r(*shape, scale=0.02):
        return torch.randn(*shape, generator=g) * scale

    return [r(TOKENS, DIM, scale=1.0), torch.ones(DIM), torch.zeros(DIM), r(3 * DIM, DIM),
            torch.zeros(3 * DIM), r(DIM, DIM), torch.zeros(DIM), torch.ones(DIM),
            torch.zeros(DIM), r(HIDDEN, DIM), torch.zeros(HIDDEN), r(DIM, HIDDEN),
            torch.zeros(DIM)]


DTYPES = {torch.float32: "f32"}


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                       "transformer_block.fx")
    ins = example_inputs()
    gm = make_fx(block)(*ins)
    text = str(gm.graph)
    names = [n.name for n in gm.graph.nodes if n.op == "placeholder"]
    for name, t in zip(names, ins):
        shape = ", ".join(str(s) for s in t.shape)
        text = re.sub(rf"%{name} : \[", f"%{name} : {DTYPES[t.dtype]}[{shape}] [", text, count=1)
    with open(out, "w") as f:
        f.write(text.rstrip("\n") + "\n")
    print(f"wrote {out}: {len(gm.graph.nodes)} nodes", file=sys.stderr)


if __name__ == "__main__":
    main()
