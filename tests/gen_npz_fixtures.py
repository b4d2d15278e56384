#!/usr/bin/python3
"""Writes the .npz fixtures of tests/unit/test_npz.c into tests/data/npz/.

Run with the system Python (numpy 1.24): /usr/bin/python3 tests/gen_npz_fixtures.py
The files are committed. Values are exact so the test checks them from first
principles; test_npz.c derives the malformed archives from these bytes.
"""
import os
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "npz")


def arrays():
    return {
        "a": np.arange(6, dtype="<f4").reshape(2, 3),  # 0..5
        "flag": np.array(True),
        "idx": np.array([-1, 0, 5], dtype="<i8"),
        "layer.weight": np.full((64, 64), 0.5, dtype="<f4"),  # compresses well
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    np.savez(os.path.join(OUT, "stored.npz"), **arrays())
    np.savez_compressed(os.path.join(OUT, "deflated.npz"), **arrays())
    np.savez(os.path.join(OUT, "empty.npz"))


if __name__ == "__main__":
    main()
