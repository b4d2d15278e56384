#!/usr/bin/python3
"""Generates functionalize test cases with PyTorch 1.13 as the oracle.

For each function below, writes tests/data/passes/functionalize/NAME.before.fx
(make_fx of the function: in-place ops as traced) and NAME.after.fx
(make_fx(functorch.functionalize(f, remove='mutations'))): the functional
graph, input mutations written back with copy_. tests/unit/test_passes.c runs
airc's functionalize on the first and compares with the second structurally
(node names of new nodes may differ; order, targets, args, users may not).

VIEW_CASES write through views and read views after writes. torch 1.13
emits slice_scatter/select_scatter chains and replays views; airc's graph
differs in order (it reuses views that are still up to date), so these are
compared by value: NAME.npz holds the inputs (in0, ...), torch's eager
results (out0, ...) and the inputs after the call (mut0, ...: writes to
inputs). (functorch 1.13's traced graph returns stale views for outputs that
alias a mutated tensor, e.g. stale_chain's second result, and it drops
the writes through unsafe_split's items, which its kernel returns as views
of self: eager is the oracle, the .after.fx files are for reading.)

Run with /usr/bin/python3 (torch 1.13): python3 tests/gen_functionalize_cases.py
"""
import os
import numpy as np
import torch
from torch.fx.experimental.proxy_tensor import make_fx
from functorch import functionalize

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "passes", "functionalize")


def intermediate_and_input(x, y):
    a = torch.mm(x, y)
    a.add_(1)
    b = a.relu_()
    x.mul_(2)
    return b + x


def return_mutated_input(x):
    x.add_(1)
    return x


def two_mutations_of_input(x, y):
    x.add_(y)
    x.mul_(2)
    return x.sum()


def read_before_and_after(x):
    a = x * 2
    x.add_(1)
    return a + x


def alias_result_and_base(x, y):
    a = torch.mm(x, y)
    b = a.relu_()
    return a + b


def chained_results(x):
    a = x.clone()
    b = a.add_(1).mul_(3)
    return a - b


def fill_and_masked_fill(x, m):
    a = x.clone()
    a.masked_fill_(m, 0.5)
    a.sigmoid_()
    return a


def mutate_two_inputs(x, y):
    y.sub_(x)
    x.neg_()
    return x + y


def copy_into_intermediate(x, y):
    a = x.clone()
    a.copy_(y)
    return a + 1


def slice_of_slice(x):
    a = x.clone()
    a[:, 1::2][1:].mul_(10)
    return a


def select_of_transpose(x):
    a = x.clone()
    a.t()[2].add_(100)
    return a


def view_read_after(x):
    a = x.clone()
    v = a.view(-1)
    s = a[0]
    r = s.mul_(2)
    return v + 1, r * 3, a


def input_through_view(x):
    x[1:].add_(1)
    return x.sum()


def input_view_then_read(x, y):
    x.t()[0].add_(y)
    return x * 2


def write_base_read_view(x):
    a = x.clone()
    v = a.t()
    a.add_(1)
    return v * 2


def stale_chain(x):
    a = x.clone()
    v = a[1:]
    a.add_(1)
    v[0].mul_(2)
    return a, v


def two_views(x):
    a = x.clone()
    s1 = a[0]
    s2 = a[:, 1]
    s1.add_(1)
    s2.mul_(2)
    return s1 + 0, s2 + 0, a


def permute_unsqueeze(x):
    a = x.clone()
    p = a.permute(2, 0, 1)
    torch.select(p.unsqueeze(1), 3, 0).add_(5)
    return a, p


def squeeze_transpose(x):
    a = x.clone()
    a.squeeze(1).transpose(0, 1)[1].sub_(4)
    return a


def flat_view_write(x):
    a = x.clone()
    a.view(-1)[1:4].mul_(3)
    return a


def squeeze_all_write(x):
    # squeeze() of every size-1 dim: its inverse views the new value back
    a = x.clone()
    a.squeeze()[1:].add_(1)
    x.squeeze().mul_(2)
    return a


def inplace_views(x):
    # in-place views (t_, unsqueeze_, transpose_, squeeze_) of a fresh
    # tensor, a write through their result, and a view taken before them
    # read after the write
    a = x.clone()
    v = a.t()
    a.unsqueeze_(1)
    a.mul_(2)
    a.transpose_(0, 1).squeeze_(0)
    a.t_()
    return a + 1, v


def split_items_write(x, y):
    # writes through the items of split / unsafe_split (an LSTM's gates) and
    # unbind, items read after other items were written, and an input
    # written through an item
    a = x.clone()
    i, f, g, o = a.unsafe_split(2, 1)
    i.sigmoid_()
    g.tanh_()
    b, c = a.split([1, 2], 0)
    c.mul_(2)
    a.unbind(1)[2].add_(1)
    y.split(1, -1)[1].sub_(3)
    return a, f + o, i, b


def dtype_view_write(x, y):
    # writes through view.dtype: its inverse views the new value back in
    # the parent's dtype (bits, not values); an input written that way too
    a = x.clone()
    v = a.view(torch.int32)
    v.add_(1)
    y.view(torch.int16).add_(3)
    return a, v.float()


VIEW_CASES = [
    (slice_of_slice, lambda: (torch.randn(4, 6),)),
    (select_of_transpose, lambda: (torch.randn(3, 4),)),
    (view_read_after, lambda: (torch.randn(2, 3),)),
    (input_through_view, lambda: (torch.randn(3, 2),)),
    (input_view_then_read, lambda: (torch.randn(3, 2), torch.randn(3))),
    (write_base_read_view, lambda: (torch.randn(2, 3),)),
    (stale_chain, lambda: (torch.randn(3, 4),)),
    (two_views, lambda: (torch.randn(3, 3),)),
    (permute_unsqueeze, lambda: (torch.randn(2, 3, 4),)),
    (squeeze_transpose, lambda: (torch.randn(2, 1, 3),)),
    (flat_view_write, lambda: (torch.randn(2, 3),)),
    (squeeze_all_write, lambda: (torch.randn(1, 3, 1),)),
    (inplace_views, lambda: (torch.randn(2, 3),)),
    (split_items_write, lambda: (torch.randn(3, 8), torch.randn(2, 3))),
    (dtype_view_write, lambda: (torch.randn(2, 3), torch.randn(2, 2))),
]


CASES = [
    (intermediate_and_input, lambda: (torch.randn(3, 3), torch.randn(3, 3))),
    (return_mutated_input, lambda: (torch.randn(4),)),
    (two_mutations_of_input, lambda: (torch.randn(2, 3), torch.randn(2, 3))),
    (read_before_and_after, lambda: (torch.randn(5),)),
    (alias_result_and_base, lambda: (torch.randn(3, 3), torch.randn(3, 3))),
    (chained_results, lambda: (torch.randn(4),)),
    (fill_and_masked_fill, lambda: (torch.randn(4), torch.tensor([True, False, True, False]))),
    (mutate_two_inputs, lambda: (torch.randn(3), torch.randn(3))),
    (copy_into_intermediate, lambda: (torch.randn(3), torch.randn(3))),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)
    for fn, make_inputs in CASES + VIEW_CASES:
        before = make_fx(fn)(*make_inputs()).graph
        after = make_fx(functionalize(fn, remove="mutations"))(*make_inputs()).graph
        for suffix, g in (("before", before), ("after", after)):
            with open(os.path.join(OUT, f"{fn.__name__}.{suffix}.fx"), "w") as f:
                f.write(str(g).strip() + "\n")
        if (fn, make_inputs) in VIEW_CASES:
            inputs = make_inputs()
            arrays = {f"in{i}": t.numpy().copy() for i, t in enumerate(inputs)}
            outs = fn(*inputs)
            outs = outs if isinstance(outs, tuple) else (outs,)
            arrays.update({f"out{i}": t.detach().numpy().copy() for i, t in enumerate(outs)})
            arrays.update({f"mut{i}": t.numpy() for i, t in enumerate(inputs)})
            np.savez(os.path.join(OUT, f"{fn.__name__}.npz"), **arrays)
        print(fn.__name__)


if __name__ == "__main__":
    main()
