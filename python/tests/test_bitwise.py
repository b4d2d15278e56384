"""Kernels that follow torch 1.13's scalar CPU kernels step for step give
torch's results bit for bit: torch.special's orthogonal polynomials (whose
recurrences torch's -mfma build computes as fused multiply-adds), on a grid
of x and degrees in f32 and f64, including where f32 overflows to inf."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "python"))

import airc  # noqa: E402

try:
    import numpy as np
    import torch
    from torch.fx.experimental.proxy_tensor import make_fx
except ImportError:  # pragma: no cover
    torch = None

POLYNOMIALS = {
    "chebyshev_polynomial_t": (-1.5, 1.5), "chebyshev_polynomial_u": (-1.5, 1.5),
    "chebyshev_polynomial_v": (-1.5, 1.5), "chebyshev_polynomial_w": (-1.5, 1.5),
    "shifted_chebyshev_polynomial_t": (-0.5, 1.5),
    "shifted_chebyshev_polynomial_u": (-0.5, 1.5),
    "shifted_chebyshev_polynomial_v": (-0.5, 1.5),
    "shifted_chebyshev_polynomial_w": (-0.5, 1.5),
    "hermite_polynomial_h": (-9.0, 9.0), "hermite_polynomial_he": (-9.0, 9.0),
    "laguerre_polynomial_l": (0.0, 30.0), "legendre_polynomial_p": (-1.0, 1.0),
}


def eager(f, *xs):
    cfg = airc.CompilerConfig()
    cfg.mode = "eager"
    return torch.as_tensor(airc.compile(airc.from_fx(make_fx(f)(*xs)), config=cfg)(*xs))


@unittest.skipIf(torch is None, "no torch")
class TestBitwise(unittest.TestCase):
    def test_polynomials(self):
        for name, (lo, hi) in POLYNOMIALS.items():
            fn = getattr(torch.special, name)
            for dt in (torch.float32, torch.float64):
                x = torch.linspace(lo, hi, 151, dtype=dt).reshape(-1, 1)
                n = torch.arange(0, 120, 7, dtype=dt).reshape(1, -1)
                got, want = eager(fn, x, n).numpy(), fn(x, n).numpy()
                same = (got == want) | (np.isnan(got) & np.isnan(want))
                with self.subTest(op=name, dtype=str(dt)):
                    self.assertEqual(int((~same).sum()), 0)

    def test_hermite_overflow_is_inf(self):
        # f32 overflows inside the recurrence: torch's fused steps give inf
        x = torch.tensor([-2.26, 2.26])
        n = torch.tensor([50.0, 50.0])
        got = eager(torch.special.hermite_polynomial_h, x, n)
        self.assertTrue(torch.equal(got, torch.special.hermite_polynomial_h(x, n)))
        self.assertTrue(bool(torch.isinf(got).all()))


if __name__ == "__main__":
    unittest.main()
