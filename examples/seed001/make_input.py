"""Writes x.npy, the seed-001 model's input: a 3x3 float32 tensor drawn from
a fixed seed (torch.randn([3, 3]) in the original script)."""
import os

import numpy as np

rng = np.random.default_rng(1)
x = rng.standard_normal((3, 3)).astype(np.float32)
np.save(os.path.join(os.path.dirname(os.path.abspath(__file__)), "x.npy"), x)
