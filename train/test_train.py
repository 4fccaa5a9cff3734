#!/usr/bin/env python3
"""Checks of the training tool on tiny synthetic data (about half a minute on two cores).

    python train/test_train.py
"""

import os
import struct
import sys
import tempfile
import unittest

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train as T  # noqa: E402


def planes_of(code):
    return [i for i, v in enumerate(T.plane_table()[code]) if v]


def write_dataset(path, size, codes, moves, numbers=None, games=None):
    n = len(codes)
    numbers = np.arange(1, n + 1) if numbers is None else numbers
    games = np.zeros(n, np.int64) if games is None else games
    with open(path, "wb") as f:
        f.write(T.DATASET_MAGIC + struct.pack("<H", size) + bytes(6))
        for c, m, k, g in zip(codes, moves, numbers, games):
            f.write(c.astype(np.uint8).tobytes() + struct.pack("<HHI", m, k, g))


def marker_dataset(path, size, count, seed):
    """Random plausible positions; the move is the one empty point marked a ladder capture."""
    rng = np.random.default_rng(seed)
    codes, moves = [], []
    for _ in range(count):
        c = T.random_position(size, rng)
        c[(c & 3) == 0] &= 0x7F  # no other marks on empty points
        c[(c & 3) == 0] &= ~np.uint8(0x0C)
        empty = np.flatnonzero((c & 3) == 0)
        m = int(rng.choice(empty))
        c[m] |= 8
        codes.append(c)
        moves.append(m)
    write_dataset(path, size, codes, moves, numbers=rng.integers(1, 250, count))


class Planes(unittest.TestCase):
    def test_codes_by_hand(self):
        self.assertEqual(planes_of(0), [2, 18])  # empty
        self.assertEqual(planes_of(1), [0, 3, 18])  # own stone, 1 liberty
        self.assertEqual(planes_of(1 | 1 << 2), [0, 4, 18])  # own, 2 liberties
        self.assertEqual(planes_of(2 | 3 << 2 | 1 << 4), [1, 10, 14, 18])  # opp 4+, last move
        self.assertEqual(planes_of(2 | 2 << 2 | 4 << 4), [1, 9, 17, 18])  # opp 3, 4 moves ago
        self.assertEqual(planes_of(1 | 5 << 4), [0, 3, 18])  # 5 moves ago: no plane
        self.assertEqual(planes_of(1 | 3 << 2 | 7 << 4), [0, 6, 18])
        self.assertEqual(planes_of(4), [2, 11, 18])  # illegal empty point
        self.assertEqual(planes_of(8), [2, 12, 18])  # ladder capture
        self.assertEqual(planes_of(128), [2, 13, 18])  # caught escape
        self.assertEqual(planes_of(4 | 8 | 128), [2, 11, 12, 13, 18])


class Symmetries(unittest.TestCase):
    def torch_symmetry(self, x, s):
        if s & 4:
            x = x.transpose(-1, -2)
        return torch.rot90(x, s & 3, dims=(-2, -1))

    def test_target_follows_the_stone(self):
        table = torch.from_numpy(T.plane_table())
        for n in (9, 13, 19):
            perm, inverse = T.symmetries(n)
            self.assertEqual(len({tuple(p) for p in perm}), 8)
            rng = np.random.default_rng(n)
            for s in range(8):
                for t in rng.integers(0, n * n, 5):
                    codes = np.zeros((1, n * n), np.uint8)
                    codes[0, t] = 1  # one own stone: a one-hot plane 0
                    x = table[torch.from_numpy(codes[0].astype(np.int64))].T.reshape(19, n, n)
                    y = self.torch_symmetry(x, s)
                    new_codes, new_move = T.apply_symmetry(codes, np.array([t]), np.array([s]),
                                                           perm, inverse)
                    self.assertEqual(int(y[0].flatten().argmax()), int(new_move[0]))
                    # the bytes moved the way the planes did
                    x2 = table[torch.from_numpy(new_codes[0].astype(np.int64))].T.reshape(19, n, n)
                    self.assertTrue(torch.equal(x2, y))

    def test_identity_and_a_rotation(self):
        perm, inverse = T.symmetries(3)
        self.assertEqual(list(perm[0]), list(range(9)))
        # symmetry 1 is np.rot90 of the array x[row][col]: x[0][2] (C1) goes to x[0][0] (A1),
        # x[0][0] to x[2][0] (A3)
        self.assertEqual(int(inverse[1][2]), 0)
        self.assertEqual(int(inverse[1][0]), 6)
        _, moved = T.apply_symmetry(np.zeros((1, 9), np.uint8), np.array([9]), np.array([3]),
                                    perm, inverse)
        self.assertEqual(int(moved[0]), 9)  # off the board (a pass) stays off


class Weights(unittest.TestCase):
    def random_bn_model(self, c, b):
        torch.manual_seed(c * 10 + b)
        model = T.PolicyNet(c, b)
        with torch.no_grad():
            for m in model.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.weight.uniform_(0.5, 1.5)
                    m.bias.normal_()
                    m.running_mean.normal_()
                    m.running_var.uniform_(0.5, 2)
        return model.eval()

    def test_sizes_and_folding(self):
        with tempfile.TemporaryDirectory() as d:
            for c, b in ((8, 3), (32, 6), (16, 0)):
                model = self.random_bn_model(c, b)
                path = os.path.join(d, "n.hnet")
                size = T.write_hnet(model, path)
                self.assertEqual(size, 24 + 4 * (c * 19 * 9 + c + b * 2 * (c * c * 9 + c) + c + 1))
                with open(path, "rb") as f:
                    self.assertEqual(f.read(24), b"HOSHINET" + struct.pack("<IIII", 1, 19, c, b))
                c2, b2, tensors = T.read_hnet(path)
                self.assertEqual((c2, b2), (c, b))
                x = torch.rand(2, 19, 9, 9).round()
                with torch.no_grad():
                    want = model(x)
                    got = T.folded_forward(c, b, tensors, x)
                self.assertLess(float((want - got).abs().max()), 1e-4)


class Dataset(unittest.TestCase):
    def test_fields(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.bin")
            codes = [np.full(81, i, np.uint8) for i in range(3)]
            write_dataset(path, 9, codes, [5, 80, 40], numbers=[1, 300, 65535],
                          games=[0, 7, 70000])
            ds = T.Dataset(path)
            self.assertEqual((ds.size, ds.count, ds.record), (9, 3, 89))
            c, m, k, g = ds.read(np.array([0, 2]))
            self.assertEqual(c.shape, (2, 81))
            self.assertEqual(list(c[1][:3]), [2, 2, 2])
            self.assertEqual(list(m), [5, 40])
            self.assertEqual(list(k), [1, 65535])
            self.assertEqual(list(g), [0, 70000])


class Training(unittest.TestCase):
    def test_learns_resumes_exports(self):
        with tempfile.TemporaryDirectory() as d:
            marker_dataset(os.path.join(d, "train.bin"), 9, 3000, 1)
            marker_dataset(os.path.join(d, "test.bin"), 9, 500, 2)
            common = ["--data", d, "--channels", "8", "--blocks", "1", "--batch", "64",
                      "--samples", "12800", "--warmup", "640", "--optimizer", "adamw",
                      "--no-bf16", "--threads", "1", "--log-every", "50", "--eval-every", "6400",
                      "--device", "cpu"]
            one = os.path.join(d, "one", "checkpoint.pt")
            two = os.path.join(d, "two", "checkpoint.pt")
            T.main(common + ["--checkpoint", one])
            T.main(common + ["--checkpoint", two, "--stop-at", "5000"])
            self.assertEqual(torch.load(two, weights_only=False)["progress"]["samples"], 5056)
            T.main(common + ["--checkpoint", two])  # resumes
            a = torch.load(one, weights_only=False)
            b = torch.load(two, weights_only=False)
            self.assertEqual(b["progress"]["samples"], 12800)
            for k in a["model"]:
                self.assertTrue(torch.equal(a["model"][k], b["model"][k]), k)
            with open(os.path.join(d, "one", "curve.csv")) as f:
                rows = f.read().split()
            self.assertEqual(rows[0], "samples,seconds,loss,top1,top5")
            self.assertEqual([r.split(",")[0] for r in rows[1:]], ["6400", "12800"])
            self.assertGreater(float(rows[-1].split(",")[3]), 0.9)  # the marker is learnt
            # the budget can grow
            T.main(common + ["--checkpoint", two, "--samples", "13440"])
            self.assertEqual(torch.load(two, weights_only=False)["progress"]["samples"], 13440)
            net = os.path.join(d, "n.hnet")
            T.main(["--checkpoint", one, "--export", net])
            self.assertEqual(os.path.getsize(net), T.hnet_size(8, 1))
            T.main(["--checkpoint", one, "--data", d, "--evaluate", "--device", "cpu"])

    def test_fixture(self):
        with tempfile.TemporaryDirectory() as d:
            marker_dataset(os.path.join(d, "test.bin"), 19, 10, 3)
            out = os.path.join(d, "fixture")
            T.main(["--write-fixture", out, "--data", d])
            self.assertEqual(os.path.getsize(os.path.join(out, "small.hnet")), T.hnet_size(8, 3))
            with open(os.path.join(out, "positions.txt")) as f:
                lines = f.read().splitlines()
            sizes = []
            for pos, logits in zip(lines[0::2], lines[1::2]):
                _, n, hexcodes = pos.split()
                n = int(n)
                sizes.append(n)
                self.assertEqual(len(bytes.fromhex(hexcodes)), n * n)
                values = logits.split()
                self.assertEqual(values[0], "logits")
                self.assertEqual(len(values) - 1, n * n)
            self.assertEqual(sorted(set(sizes)), [9, 13, 19])


if __name__ == "__main__":
    unittest.main()
