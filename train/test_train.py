#!/usr/bin/env python3
"""Checks of the training tool on tiny synthetic data (seconds on two cores).

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


def write_dataset(path, size, codes, moves, numbers=None, games=None, value=None, search=None,
                  visits=None):
    """A dataset file: version 2 when `value` gives each record's (side, winner, komi2),
    version 3 when `search` also gives each its search-value field (and `visits` its list of
    (point, visits), none by default), version 1 without."""
    n = len(codes)
    numbers = np.arange(1, n + 1) if numbers is None else numbers
    games = np.zeros(n, np.int64) if games is None else games
    magic = b"HOSHIDS1" if value is None else b"HOSHIDS2" if search is None else b"HOSHIDS3"
    with open(path, "wb") as f:
        f.write(magic + struct.pack("<H", size) + bytes(6))
        for i, (c, m, k, g) in enumerate(zip(codes, moves, numbers, games)):
            tail = b"" if value is None else struct.pack("<BBh", *value[i])
            if search is not None:
                slots = list(visits[i] if visits and i < len(visits) else [])
                slots += [(T.NO_VISIT_POINT, 0)] * (T.RECORD_VISITS - len(slots))
                tail += struct.pack("<H", search[i])
                tail += b"".join(struct.pack("<HH", *slot) for slot in slots)
            f.write(c.astype(np.uint8).tobytes() + struct.pack("<HHI", m, k, g) + tail)


def komi_values(count, rng):
    """Sides, winners and komi where the side to move wins exactly when it receives a
    positive komi: a value the head can learn from its komi input alone."""
    side = rng.integers(0, 2, count)
    komi2 = rng.choice([-15, -13, 13, 15], count)
    mover_gets = np.where(side == 1, komi2, -komi2) > 0
    winner = np.where(mover_gets, side + 1, 2 - side)
    return list(zip(side, winner, komi2))


def marker_dataset(path, size, count, seed, version=2, visits_only=False):
    """Random plausible positions; the move is the one empty point marked a ladder capture;
    in version 2, results that follow the komi (`komi_values`). `visits_only`: a version 3
    file where the search's visits go to the marked point and the move played is another."""
    rng = np.random.default_rng(seed)
    codes, moves, visits = [], [], []
    for _ in range(count):
        c = T.random_position(size, rng)
        c[(c & 3) == 0] &= 0x7F  # no other marks on empty points
        c[(c & 3) == 0] &= ~np.uint8(0x0C)
        empty = np.flatnonzero((c & 3) == 0)
        m = int(rng.choice(empty))
        c[m] |= 8
        codes.append(c)
        visits.append([(m, 90), (int(rng.choice(empty)), 10)])
        moves.append(int(rng.choice(empty[empty != m])) if visits_only else m)
    value = komi_values(count, rng) if version == 2 else None
    search = [T.NO_SEARCH_VALUE] * count if visits_only else None
    write_dataset(path, size, codes, moves, numbers=rng.integers(1, 250, count),
                  games=rng.integers(0, 100, count), value=value, search=search,
                  visits=visits if visits_only else None)


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


def random_bn(model):
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.weight.uniform_(0.5, 1.5)
                m.bias.normal_()
                m.running_mean.normal_()
                m.running_var.uniform_(0.5, 2)
    return model.eval()


class Weights(unittest.TestCase):
    def random_bn_model(self, c, b, v=0, h=0):
        torch.manual_seed(c * 10 + b)
        return random_bn(T.Net(c, b, v, h))

    def test_sizes_and_folding(self):
        with tempfile.TemporaryDirectory() as d:
            for c, b in ((8, 3), (32, 6), (16, 0)):
                model = self.random_bn_model(c, b)
                path = os.path.join(d, "n.hnet")
                size = T.write_hnet(model, path)
                self.assertEqual(size, 24 + 4 * (c * 19 * 9 + c + b * 2 * (c * c * 9 + c) + c + 1))
                with open(path, "rb") as f:
                    self.assertEqual(f.read(24), b"HOSHINET" + struct.pack("<IIII", 1, 19, c, b))
                net = T.read_hnet(path)
                self.assertEqual((net.channels, net.blocks, net.value_channels), (c, b, 0))
                x = torch.rand(2, 19, 9, 9).round()
                with torch.no_grad():
                    want, _ = model(x)
                    got, value = T.folded_forward(net, x, torch.zeros(2))
                self.assertIsNone(value)
                self.assertLess(float((want - got).abs().max()), 1e-4)

    def test_value_head_shape_and_version_2(self):
        c, b, v, h = 8, 2, 5, 7
        model = self.random_bn_model(c, b, v, h)
        x = torch.rand(3, 19, 13, 13).round()
        komi = torch.tensor([7.5, -7.5, 0.0])
        with torch.no_grad():
            logits, value = model(x, komi)
        self.assertEqual(tuple(logits.shape), (3, 169))
        self.assertEqual(tuple(value.shape), (3,))
        self.assertEqual(model.value.fc1.in_features, 3 * v + 1)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "v.hnet")
            size = T.write_hnet(model, path)
            tensors = c * 19 * 9 + c + b * 2 * (c * c * 9 + c) + c + 1
            tensors += v * c + v + h * (3 * v + 1) + h + h + 1
            self.assertEqual(size, 36 + 4 * tensors)
            with open(path, "rb") as f:
                self.assertEqual(f.read(36), b"HOSHINET" + struct.pack("<IIIIIII", 2, 19, c, b,
                                                                       1, v, h))
            net = T.read_hnet(path)
            self.assertEqual((net.value_channels, net.value_hidden), (v, h))
            for n in (9, 19):  # the pooling's size term: one network for every size
                x = torch.rand(3, 19, n, n).round()
                with torch.no_grad():
                    want_logits, want_value = model(x, komi)
                    got_logits, got_value = T.folded_forward(net, x, komi)
                self.assertLess(float((want_logits - got_logits).abs().max()), 1e-4)
                self.assertLess(float((torch.sigmoid(want_value) - got_value).abs().max()), 1e-5)
            # the komi reaches the value
            with torch.no_grad():
                a = T.folded_forward(net, x[:1], torch.tensor([7.5]))[1]
                b2 = T.folded_forward(net, x[:1], torch.tensor([-7.5]))[1]
            self.assertNotEqual(float(a), float(b2))

    def test_malformed_files_are_refused(self):
        model = self.random_bn_model(4, 1, 3, 2)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "v.hnet")
            T.write_hnet(model, path)
            with open(path, "rb") as f:
                good = f.read()
            bad = {"flags": good[:24] + struct.pack("<I", 3) + good[28:],
                   "no value sizes": good[:28] + struct.pack("<II", 0, 0) + good[36:],
                   "truncated": good[:-4], "trailing": good + bytes(4),
                   "version 3": good[:8] + struct.pack("<I", 3) + good[12:]}
            for what, data in bad.items():
                with open(path, "wb") as f:
                    f.write(data)
                with self.assertRaises(SystemExit, msg=what):
                    T.read_hnet(path)


def v1_net(path, c=8, b=2, seed=5):
    """A version 1 file of a random batch-norm network, as today's weights/policy.hnet is."""
    torch.manual_seed(seed)
    T.write_hnet(random_bn(T.Net(c, b)), path)
    return T.read_hnet(path)


def marker_data_and_init(d):
    """Marker datasets in `d` and a version 1 file of 1 x 8 to start from; the file's path."""
    marker_dataset(os.path.join(d, "train.bin"), 9, 2000, 1)
    marker_dataset(os.path.join(d, "test.bin"), 9, 400, 2)
    init = os.path.join(d, "v1.hnet")
    v1_net(init, c=8, b=1)
    return init


def train_from_init(d, init, *flags):
    """Trains the whole network of `init` further on the marker data of `d`, with a new value
    head of 8 x 16, in `d`/run; the checkpoint's path."""
    run = os.path.join(d, "run", "checkpoint.pt")
    T.main(["--data", d, "--init", init, "--value-channels", "8", "--value-hidden", "16",
            "--batch", "64", "--samples", "9600", "--warmup", "640", "--optimizer", "adamw",
            "--lr", "0.01", "--no-bf16", "--threads", "1", "--eval-every", "4800", "--device",
            "cpu", "--checkpoint", run, *flags])
    return run


def last_curve_row(run_dir):
    """The last row of a run's curve.csv, as floats."""
    with open(os.path.join(run_dir, "curve.csv")) as f:
        return [float(x) for x in f.read().split()[-1].split(",")]


class Init(unittest.TestCase):
    def test_an_older_value_only_checkpoint_resumes_with_its_init(self):
        stored = {k: v for k, v in T.CONFIG_DEFAULTS.items() if k != "folded"}
        stored.update(value_only=True, lr=2e-3)
        args = T.argparse.Namespace(**{k: None for k in T.CONFIG_DEFAULTS})
        args.folded = args.value_only = True  # what --value-only --init sets
        self.assertTrue(T.resolve_config(args, stored)["folded"])
        args.folded, args.value_only = True, None  # --init alone against that run
        self.assertTrue(T.resolve_config(args, stored)["value_only"])

    def test_a_v1_file_loads_as_a_frozen_trunk(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "v1.hnet")
            net = v1_net(path)
            config = dict(T.CONFIG_DEFAULTS, channels=8, blocks=2, value_channels=4,
                          value_hidden=6, value_only=True)
            model = T.make_model(config).eval()
            T.load_hnet(model, net)
            trainable = {n for n, p in model.named_parameters() if p.requires_grad}
            self.assertTrue(trainable and all(n.startswith("value.") for n in trainable))
            x = torch.rand(2, 19, 9, 9).round()
            with torch.no_grad():
                self.assertTrue(torch.equal(model(x)[0], T.folded_forward(net, x)[0]))
            out = os.path.join(d, "v2.hnet")
            T.write_hnet(model, out)
            with open(path, "rb") as f, open(out, "rb") as g:
                v1, v2 = f.read(), g.read()
            self.assertEqual(v2[36:36 + len(v1) - 24], v1[24:])  # the policy, bit for bit


    def test_a_judge_file_carries_its_heads_into_a_new_run(self):
        """--init copies a file's value head with its score and ownership outputs where the
        model's has their shape; calibrated on the training positions, the model judges as the
        file does in eval mode (what is exported, settled on the same positions)."""
        torch.manual_seed(7)
        source = T.Net(8, 2, 4, 6, pool_blocks=(1,), score=True, ownership=True)
        with torch.no_grad():  # no part may start as zero: a weight it reads would hide a slip
            for p in source.parameters():
                p.uniform_(-0.5, 0.5)
        random_bn(source)
        config = dict(T.CONFIG_DEFAULTS, channels=8, blocks=2, value_channels=4,
                      value_hidden=6, pool_blocks=[1], score_head=True, ownership_head=True,
                      folded=True)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "judge.hnet")
            T.write_hnet(source, path)
            net = T.read_hnet(path)
            self.assertFalse(T.load_hnet(T.make_model(dict(config, value_hidden=7)), net))
            model = T.make_model(config)
            self.assertTrue(T.load_hnet(model, net))
            marker_dataset(os.path.join(d, "train.bin"), 9, 600, 1)
            dataset = T.Dataset(os.path.join(d, "train.bin"))
            batcher, cpu = T.Batcher(torch.device("cpu")), torch.device("cpu")
            index = np.arange(512)
            T.calibrate_copied_head(model, dataset, index, batcher, cpu, False)
            T.settle_batch_norm(model, dataset, index, batcher, cpu, False)  # as export does
            records = dataset.read(index[:64])
            x = batcher.tensors(records.codes, records.move, 9)[0]
            komi = torch.linspace(-7.5, 7.5, 64)
            with torch.no_grad():
                logits, value, score, own = model.eval().judge(x, komi)
                want = T.folded_judge(net, x, komi)
            got = (logits, torch.sigmoid(value), score * T.SCORE_SCALE, torch.tanh(own))
            for g, w in zip(got, want):
                self.assertLess(float((g - w).abs().max()), 1e-4)
                self.assertGreater(float(w.abs().max()), 0.01)


class Value(unittest.TestCase):
    def test_targets_and_komi(self):
        r = T.Records(None, None, None, None, side=np.array([0, 1, 0, 1]),
                      winner=np.array([1, 1, 2, 0]), komi2=np.array([15, 15, 13, 13]),
                      search=np.array([0.8, np.nan, 0.25, 0.5], np.float32), visits=None)
        won, known = T.value_targets(r)
        self.assertEqual(list(won), [1, 0, 0, 0])
        self.assertEqual(list(known), [True, True, True, False])
        self.assertEqual(list(T.mover_komi(r)), [-7.5, 7.5, -6.5, 6.5])
        self.assertEqual(list(T.value_training_targets(r, 0)[0]), [1, 0, 0, 0])
        mixed, known = T.value_training_targets(r, 0.5)
        np.testing.assert_allclose(mixed, [0.9, 0, 0.125, 0.25])  # no search value: the result
        self.assertEqual(list(known), [True, True, True, False])

    def test_version_3_records_carry_the_search_value(self):
        rng = np.random.default_rng(3)
        codes = [T.random_position(5, rng) for _ in range(3)]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "train.bin")
            write_dataset(path, 5, codes, [0, 1, 2], value=[(0, 1, 15)] * 3,
                          search=[0, 65534, T.NO_SEARCH_VALUE], visits=[[(7, 30), (3, 10)]])
            r = T.Dataset(path).read(np.arange(3))
        np.testing.assert_array_equal(r.search, [0, 1, np.nan])
        self.assertEqual(list(r.winner), [1, 1, 1])
        self.assertEqual(r.visits[0, :3].tolist(), [[7, 30], [3, 10], [T.NO_VISIT_POINT, 0]])
        self.assertTrue((r.visits[1:, :, 0] == T.NO_VISIT_POINT).all())
        shares, has = T.visit_shares(r.visits, 25)
        self.assertEqual(list(has), [True, False, False])
        self.assertEqual((shares[0, 7], shares[0, 3], shares[0].sum()), (0.75, 0.25, 1.0))

    def test_visits_move_with_the_symmetry(self):
        perm, inverse = T.symmetries(5)
        which = np.array([1, 5])
        points = np.array([[0, 7, T.NO_VISIT_POINT], [24, 12, T.NO_VISIT_POINT]])
        moved = T.move_points(points, which, inverse)
        for row in range(2):
            self.assertEqual(list(moved[row]), [inverse[which[row], p] for p in points[row, :2]]
                             + [T.NO_VISIT_POINT])
        self.assertEqual(list(T.move_points(np.array([7, -1]), which, inverse)),
                         [inverse[1, 7], -1])

    def test_value_every_is_deterministic(self):
        game = np.repeat(np.arange(1000), 200)
        number = np.tile(np.arange(1, 201), 1000)
        chosen = T.value_selected(game, number, 16)
        self.assertTrue(np.array_equal(chosen, T.value_selected(game, number, 16)))
        self.assertAlmostEqual(chosen.mean(), 1 / 16, delta=0.005)
        per_game = chosen.reshape(1000, 200).sum(1)
        self.assertGreater(per_game.min(), 0)  # spread over the games, not whole games
        self.assertTrue(T.value_selected(game[:5], number[:5], 1).all())


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
            self.assertEqual(rows[0], T.CURVE_HEADER)
            self.assertEqual([r.split(",")[0] for r in rows[1:]], ["6400", "12800"])
            self.assertGreater(float(rows[-1].split(",")[3]), 0.9)  # the marker is learnt
            self.assertGreater(float(rows[-1].split(",")[7]), 0.9)  # the komi's winner too
            # the budget can grow
            T.main(common + ["--checkpoint", two, "--samples", "13440"])
            self.assertEqual(torch.load(two, weights_only=False)["progress"]["samples"], 13440)
            net = os.path.join(d, "n.hnet")
            T.main(["--checkpoint", one, "--export", net])
            self.assertEqual(os.path.getsize(net), T.hnet_size(8, 1, 32, 64))
            T.main(["--checkpoint", one, "--data", d, "--evaluate", "--device", "cpu"])

    def test_a_policy_network_from_version_1_data(self):
        with tempfile.TemporaryDirectory() as d:
            for name, count, seed in (("train.bin", 600, 1), ("test.bin", 100, 2)):
                marker_dataset(os.path.join(d, name), 9, count, seed, version=1)
            run = os.path.join(d, "p", "checkpoint.pt")
            T.main(["--data", d, "--channels", "4", "--blocks", "1", "--batch", "32",
                    "--samples", "640", "--value-channels", "0", "--no-bf16", "--threads", "1",
                    "--device", "cpu", "--checkpoint", run])
            net = os.path.join(d, "p.hnet")
            T.main(["--checkpoint", run, "--export", net])
            self.assertEqual(os.path.getsize(net), T.hnet_size(4, 1))
            with self.assertRaises(SystemExit):  # no results in version 1 to learn a value from
                T.main(["--data", d, "--value-only", "--init", net, "--device", "cpu",
                        "--checkpoint", os.path.join(d, "v", "checkpoint.pt")])

    def test_value_only_keeps_the_policy_and_resumes(self):
        with tempfile.TemporaryDirectory() as d:
            init = marker_data_and_init(d)
            common = ["--data", d, "--value-only", "--init", init, "--value-channels", "8",
                      "--value-hidden", "16", "--batch", "64", "--samples", "6400",
                      "--warmup", "640", "--optimizer", "adamw", "--lr", "0.01", "--no-bf16",
                      "--threads", "1", "--eval-every", "3200", "--device", "cpu"]
            one = os.path.join(d, "one", "checkpoint.pt")
            two = os.path.join(d, "two", "checkpoint.pt")
            T.main(common + ["--checkpoint", one])
            T.main(common + ["--checkpoint", two, "--stop-at", "3000"])
            T.main(common + ["--checkpoint", two])
            a = torch.load(one, weights_only=False)
            b = torch.load(two, weights_only=False)
            for k in a["model"]:
                self.assertTrue(torch.equal(a["model"][k], b["model"][k]), k)
            row = last_curve_row(os.path.join(d, "one"))
            self.assertLess(row[5], 0.6)  # value loss, from ln 2 = 0.69
            self.assertGreater(row[7], 0.95)  # winner named
            out = os.path.join(d, "v2.hnet")
            T.main(["--checkpoint", one, "--export", out])
            with open(init, "rb") as f, open(out, "rb") as g:
                v1, v2 = f.read(), g.read()
            self.assertEqual(v2[:12], b"HOSHINET" + struct.pack("<I", 2))
            self.assertEqual(v2[36:36 + len(v1) - 24], v1[24:])  # trunk and policy unchanged
            net = T.read_hnet(out)
            self.assertEqual((net.value_channels, net.value_hidden), (8, 16))

    def test_the_policy_learns_the_visits(self):
        with tempfile.TemporaryDirectory() as d:
            marker_dataset(os.path.join(d, "train.bin"), 9, 3000, 1, visits_only=True)
            marker_dataset(os.path.join(d, "test.bin"), 9, 400, 2)  # the marker is played
            top1 = {}
            for target in ("visits", "move"):
                run = os.path.join(d, target, "checkpoint.pt")
                T.main(["--data", d, "--channels", "8", "--blocks", "1", "--batch", "64",
                        "--samples", "9600", "--warmup", "640", "--optimizer", "adamw",
                        "--no-bf16", "--threads", "1", "--eval-every", "9600", "--device", "cpu",
                        "--policy-target", target, "--checkpoint", run])
                top1[target] = last_curve_row(os.path.join(d, target))[3]
            self.assertGreater(top1["visits"], 0.9)  # learnt from the visits alone
            self.assertLess(top1["move"], 0.2)  # the moves played say nothing of it

    def test_init_without_value_only_trains_the_trunk_further(self):
        with tempfile.TemporaryDirectory() as d:
            init = marker_data_and_init(d)
            run = train_from_init(d, init)
            self.assertTrue(torch.load(run, weights_only=False)["config"]["folded"])
            row = last_curve_row(os.path.join(d, "run"))
            self.assertGreater(row[3], 0.9)  # the marker, which v1_net's is not
            self.assertGreater(row[7], 0.95)  # the komi's winner
            out = os.path.join(d, "v2.hnet")
            T.main(["--checkpoint", run, "--export", out])
            with open(init, "rb") as f, open(out, "rb") as g:
                v1, v2 = f.read(), g.read()
            self.assertNotEqual(v2[36:36 + len(v1) - 24], v1[24:])  # the trunk has learnt
            self.assertEqual(os.path.getsize(out), T.hnet_size(8, 1, 8, 16))

    def test_the_trunk_rate_scale(self):
        config = dict(T.CONFIG_DEFAULTS, channels=8, blocks=1, value_channels=4, value_hidden=6,
                      folded=True, trunk_lr_scale=0.25, optimizer="adamw", lr=1e-3)
        model = T.make_model(config)
        scale = {id(p): g["scale"] for g in T.make_optimizer(model, config).param_groups
                 for p in g["params"]}
        for name, p in model.named_parameters():
            self.assertEqual(scale[id(p)], 1.0 if name.startswith("value.") else 0.25, name)
        with tempfile.TemporaryDirectory() as d:
            # at a scale of 0 the trunk and policy stay the init's, bit for bit, while the value
            # head learns the komi's winner
            init = marker_data_and_init(d)
            run = train_from_init(d, init, "--trunk-lr-scale", "0")
            self.assertGreater(last_curve_row(os.path.join(d, "run"))[7], 0.95)
            out = os.path.join(d, "v2.hnet")
            T.main(["--checkpoint", run, "--export", out])
            with open(init, "rb") as f, open(out, "rb") as g:
                v1, v2 = f.read(), g.read()
            self.assertEqual(v2[36:36 + len(v1) - 24], v1[24:])

    def test_the_trunk_rate_changes_on_resuming(self):
        """A run resumed with another --trunk-lr-scale trains on with the new scale and every
        parameter's momentum kept, whether the groups split or merge."""
        config = dict(T.CONFIG_DEFAULTS, channels=8, blocks=1, value_channels=4, value_hidden=6,
                      folded=True, trunk_lr_scale=0.3, optimizer="sgd", lr=0.01)
        model = T.make_model(config)
        optimizer = T.make_optimizer(model, config)
        for group in optimizer.param_groups:
            for p in group["params"]:
                optimizer.state[p]["momentum_buffer"] = torch.full_like(p, group["scale"])
        state = optimizer.state_dict()
        for scale in (0.5, 1.0):
            resumed = T.make_optimizer(model, {**config, "trunk_lr_scale": scale})
            T.load_optimizer_state(resumed, model, {**config, "trunk_lr_scale": scale}, 0.3,
                                   state)
            for name, p in model.named_parameters():
                trunk = not name.startswith("value.")
                group = next(g for g in resumed.param_groups if any(q is p for q in g["params"]))
                self.assertEqual(group["scale"], scale if trunk else 1.0, name)
                buffer = resumed.state[p]["momentum_buffer"]
                self.assertTrue(torch.equal(buffer, torch.full_like(p, 0.3 if trunk else 1.0)),
                                name)

    def grown_network_computes_the_same(self, folded):
        torch.manual_seed(3)
        small = T.Net(8, 2, 4, 6, folded=folded, pool_blocks=(1,), score=True, ownership=True)
        with torch.no_grad():  # no part may start as zero: a weight it reads would hide a slip
            for p in small.parameters():
                p.uniform_(-0.5, 0.5)
            for name, b in small.named_buffers():
                if name.endswith("running_var"):
                    b.uniform_(0.5, 2.0)
                elif name.endswith("running_mean"):
                    b.uniform_(-0.5, 0.5)
        big = T.Net(16, 3, 4, 6, folded=folded, pool_blocks=(0, 1, 2), score=True, ownership=True)
        T.grow_state(big, small.state_dict(), 8)
        rng = np.random.default_rng(4)
        x = T.Batcher(torch.device("cpu")).tensors(
            np.stack([T.random_position(9, rng) for _ in range(16)]), np.zeros(16, np.int64),
            9)[0]
        komi = torch.linspace(-7.5, 7.5, 16)
        for training in (True, False):
            small.train(training)
            big.train(training)
            with torch.no_grad():
                for a, b in zip(small.judge(x, komi), big.judge(x, komi)):
                    self.assertLess(float((a - b).abs().max()), 1e-5)
                    self.assertGreater(float(a.abs().max()), 0.01)
        with self.assertRaises(SystemExit):  # a pooled block may not lose its pooling
            T.grow_state(T.Net(16, 3, 4, 6, folded=folded, pool_blocks=(0,), score=True,
                               ownership=True), small.state_dict(), 8)

    def test_a_grown_network_computes_what_the_small_one_did(self):
        """grow_state: more channels, a block more and a pooling more, and the same policy,
        value, score and ownership, in training mode (batch statistics) and in eval mode
        (running ones); then a grown run trains from it on the command line."""
        for folded in (False, True):
            self.grown_network_computes_the_same(folded)
        with tempfile.TemporaryDirectory() as d:
            marker_dataset(os.path.join(d, "train.bin"), 9, 3000, 1)
            marker_dataset(os.path.join(d, "test.bin"), 9, 500, 2)
            common = ["--data", d, "--batch", "64", "--warmup", "640", "--no-bf16",
                      "--threads", "1", "--log-every", "50", "--eval-every", "6400",
                      "--device", "cpu"]
            one = os.path.join(d, "one", "checkpoint.pt")
            T.main(common + ["--checkpoint", one, "--channels", "8", "--blocks", "1",
                             "--samples", "6400", "--optimizer", "adamw"])
            grown = os.path.join(d, "grown", "checkpoint.pt")
            with self.assertRaises(SystemExit):  # shrinking is not growing
                T.main(common + ["--checkpoint", grown, "--grow", one, "--channels", "4"])
            with self.assertRaises(SystemExit):  # the optimizer is the grown run's
                T.main(common + ["--checkpoint", grown, "--grow", one, "--optimizer", "sgd"])
            T.main(common + ["--checkpoint", grown, "--grow", one, "--channels", "16",
                             "--samples", "6400"])
            run = torch.load(grown, weights_only=False)
            self.assertEqual((run["config"]["channels"], run["config"]["blocks"],
                              run["config"]["optimizer"]), (16, 1, "adamw"))
            self.assertEqual(run["progress"]["samples"], 6400)
            self.assertGreater(last_curve_row(os.path.join(d, "grown"))[3], 0.9)  # the marker

    def test_an_old_curve_gains_the_value_columns(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "curve.csv")
            with open(path, "w") as f:
                f.write("samples,seconds,loss,top1,top5\n500,1.0,3.1,0.2,0.4\n")
            T.open_curve(path)
            with open(path) as f:
                self.assertEqual(f.read().split(),
                                 [T.CURVE_HEADER, "500,1.0,3.1,0.2,0.4" + ",nan" * 7])
            # and one of the value's columns the teacher's
            with open(path, "w") as f:
                f.write(T.OLD_CURVE_HEADER + "\n500,1.0,3.1,0.2,0.4,0.6,0.2,0.7\n")
            T.open_curve(path)
            with open(path) as f:
                self.assertEqual(f.read().split(),
                                 [T.CURVE_HEADER, "500,1.0,3.1,0.2,0.4,0.6,0.2,0.7" + ",nan" * 4])

    def test_fixture(self):
        with tempfile.TemporaryDirectory() as d:
            marker_dataset(os.path.join(d, "test.bin"), 19, 10, 3)
            out = os.path.join(d, "fixture")
            T.main(["--write-fixture", out, "--data", d])
            self.assertEqual(os.path.getsize(os.path.join(out, "small.hnet")),
                             T.hnet_size(8, 3, 6, 10))
            with open(os.path.join(out, "positions.txt")) as f:
                lines = f.read().splitlines()
            sizes = []
            for pos, logits, value in zip(lines[0::3], lines[1::3], lines[2::3]):
                side, komi, v = value.split()[1:]
                self.assertEqual(value.split()[0], "value")
                self.assertIn(side, ("b", "w"))
                self.assertTrue(0.02 < float(v) < 0.98 and float(komi) == float(komi))
                _, n, hexcodes = pos.split()
                n = int(n)
                sizes.append(n)
                self.assertEqual(len(bytes.fromhex(hexcodes)), n * n)
                self.assertEqual(logits.split()[0], "logits")
                self.assertEqual(len(logits.split()) - 1, n * n)
            self.assertEqual(sorted(set(sizes)), [9, 13, 19])
            # version 1 as before
            T.main(["--write-fixture", out, "--data", d, "--value-channels", "0"])
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
