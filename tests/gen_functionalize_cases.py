#!/usr/bin/python3
"""Generates functionalize test cases with PyTorch 1.13 as the oracle.

For each function below, writes tests/data/passes/functionalize/NAME.before.fx
(make_fx of the function: in-place ops as traced) and NAME.after.fx
(make_fx(functorch.functionalize(f, remove='mutations'))): the functional
graph, input mutations written back with copy_. tests/unit/test_passes.c runs
airc's functionalize on the first and compares with the second structurally
(node names of new nodes may differ; order, targets, args, users may not).

Run with /usr/bin/python3 (torch 1.13): python3 tests/gen_functionalize_cases.py
"""
import os
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
    for fn, make_inputs in CASES:
        before = make_fx(fn)(*make_inputs()).graph
        after = make_fx(functionalize(fn, remove="mutations"))(*make_inputs()).graph
        for suffix, g in (("before", before), ("after", after)):
            with open(os.path.join(OUT, f"{fn.__name__}.{suffix}.fx"), "w") as f:
                f.write(str(g).strip() + "\n")
        print(fn.__name__)


if __name__ == "__main__":
    main()
