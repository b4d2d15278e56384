#!/usr/bin/python3
"""Writes the .npy fixtures of tests/unit/test_npy.c into tests/data/npy/.

Run with the system Python (numpy 1.24): /usr/bin/python3 tests/gen_npy_fixtures.py
The files are committed; rerun only to add fixtures. Values are chosen so a
test can check them from first principles (limits, exact binary fractions).
"""
import os
import numpy as np
from numpy.lib import format as npf

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "npy")


def save(name, arr, version=None, allow_pickle=False):
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        if version is None:
            np.save(f, arr, allow_pickle=allow_pickle)
        else:
            npf.write_array(f, arr, version=version, allow_pickle=allow_pickle)


def main():
    os.makedirs(OUT, exist_ok=True)
    # every dtype airc reads, written by np.save (format 1.0)
    save("f4_2x3.npy", np.array([[0, 1.5, -2.25], [np.inf, -np.inf, 3.4028234663852886e38]], "<f4"))
    save("f8_3.npy", np.array([1e-300, -0.0, np.nan], "<f8"))
    save("f2_4.npy", np.array([0.5, -1.0, 65504.0, 2.0 ** -24], "<f2"))
    save("i8_2x2.npy", np.array([[-2**63, -1], [0, 2**63 - 1]], "<i8"))
    save("i4_3.npy", np.array([-2**31, 7, 2**31 - 1], "<i4"))
    save("i2_2.npy", np.array([-32768, 32767], "<i2"))
    save("i1_4.npy", np.array([-128, -1, 0, 127], "|i1"))
    save("u1_3x1x2.npy", (np.arange(6, dtype="|u1") * 50 + 5).reshape(3, 1, 2))
    save("b1_2x2.npy", np.array([[True, False], [False, True]]))
    save("scalar_f8.npy", np.array(3.5))
    save("empty_f4_0x3.npy", np.zeros((0, 3), "<f4"))
    save("dims16_u1.npy", np.full((1,) * 16, 9, "|u1"))
    # header versions 2.0 and 3.0
    save("v2_i4.npy", np.array([1, 2, 3], "<i4"), version=(2, 0))
    save("v3_f4.npy", np.array([[1, 2], [3, 4]], "<f4"), version=(3, 0))
    # big-endian data (read by byte-swapping)
    save("be_f4.npy", np.array([1.0, -2.5], ">f4"))
    save("be_i8.npy", np.array([1, -2, 0x0102030405060708], ">i8"))
    # two arrays saved one after the other: np.load reads the first
    with open(os.path.join(OUT, "two_arrays.npy"), "wb") as f:
        np.save(f, np.array([10, 20], "<i2"))
        np.save(f, np.array([1.0], "<f8"))
    # refused
    save("fortran_f4.npy", np.asfortranarray(np.arange(6, dtype="<f4").reshape(2, 3)))
    save("c8.npy", np.array([1 + 2j], "<c8"))
    save("u2.npy", np.array([1], "<u2"))
    save("object.npy", np.array([1, "a"], dtype=object), allow_pickle=True)
    save("structured.npy", np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")]))
    save("datetime.npy", np.array(["2020-01-01"], dtype="datetime64[D]"))
    save("dims17_f4.npy", np.zeros((1,) * 17, "<f4"))


if __name__ == "__main__":
    main()
