#!/usr/bin/env python3
"""Checks of learning from teacher labels and of the version 3 network, on tiny synthetic data
(seconds on two cores).

    python train/test_teacher.py
"""

import copy
import os
import struct
import sys
import tempfile
import unittest

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import teacher as TT  # noqa: E402
import train as T  # noqa: E402
from test_train import random_bn, write_dataset  # noqa: E402


def judge_model(pool_blocks=(1,), score=True, ownership=True, folded=False):
    torch.manual_seed(3)
    model = T.Net(8, 2, 4, 6, folded=folded, pool_blocks=pool_blocks, score=score,
                  ownership=ownership)
    with torch.no_grad():
        for block in model.blocks:
            if block.pool is not None:
                block.pool.weight.normal_(0, 0.3)
    return random_bn(model)


def inputs(size, count, seed):
    rng = np.random.default_rng(seed)
    table = torch.from_numpy(T.plane_table())
    codes = np.stack([T.random_position(size, rng) for _ in range(count)])
    x = table[torch.from_numpy(codes.astype(np.int64))].permute(0, 2, 1)
    return x.reshape(count, T.PLANES, size, size).contiguous()


class Version3(unittest.TestCase):
    def test_the_file_holds_every_head(self):
        model = judge_model()
        self.assertEqual(model.version, 3)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "j.hnet")
            size = T.write_hnet(model, path)
            self.assertEqual(size, T.hnet_size(8, 2, 4, 6, None, (1,), True, True))
            net = T.read_hnet(path)
            self.assertEqual((net.version, net.pool_blocks, net.score, net.ownership),
                             (3, (1,), True, True))
            with open(path, "rb") as f:
                header = struct.unpack("<9I", f.read(44)[8:])
            self.assertEqual(header, (3, T.PLANES, 8, 2, 7, 4, 6, 0b10, 0))
            for n in (9, 19):
                x = inputs(n, 3, n)
                komi = torch.tensor([7.5, -7.5, 0.5])
                logits, value, score, own = T.folded_judge(net, x, komi)
                with torch.no_grad():
                    p, v, s, o = model.judge(x, komi)
                self.assertLess(float((logits - p).abs().max()), 1e-4)
                self.assertLess(float((value - torch.sigmoid(v)).abs().max()), 1e-5)
                self.assertLess(float((score - s * T.SCORE_SCALE).abs().max()), 1e-3)
                self.assertLess(float((own - torch.tanh(o)).abs().max()), 1e-5)
            # a version 3 file without a score or ownership output, and pooling alone
            for kwargs in ({"score": False, "ownership": False}, {"ownership": False},
                           {"pool_blocks": ()}):
                m = judge_model(**kwargs)
                T.write_hnet(m, path)
                net = T.read_hnet(path)
                self.assertEqual(os.path.getsize(path), T.hnet_size(
                    8, 2, 4, 6, None, m.pool_blocks, m.value.score, m.value.ownership))

    def test_a_bad_header_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "j.hnet")
            T.write_hnet(judge_model(), path)
            with open(path, "rb") as f:
                data = bytearray(f.read())
            for at, value in ((24, 8), (24, 2), (36, 0b100), (36, 0b11)):
                bad = bytearray(data)
                bad[at:at + 4] = struct.pack("<I", value)
                with open(path, "wb") as f:
                    f.write(bad)
                with self.assertRaises(SystemExit, msg=f"field at {at} = {value}"):
                    T.read_hnet(path)

    def test_a_version_2_trunk_starts_a_pooled_network(self):
        """--init from a file without pooling: the pooled blocks start at zero, so the network
        computes the file's policy."""
        torch.manual_seed(5)
        old = random_bn(T.Net(8, 2, 4, 6))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "v2.hnet")
            T.write_hnet(old, path)
            new = T.Net(8, 2, 4, 6, folded=True, pool_blocks=(0, 1), score=True, ownership=True)
            T.load_hnet(new, T.read_hnet(path))
            new.eval()
            x = inputs(19, 2, 1)
            with torch.no_grad():
                self.assertLess(float((new(x)[0] - old(x)[0]).abs().max()), 1e-4)
            with self.assertRaises(SystemExit):  # a file's pooled block the model lacks
                pooled = os.path.join(d, "v3.hnet")
                T.write_hnet(judge_model(), pooled)
                T.load_hnet(T.Net(8, 2, 4, 6, folded=True), T.read_hnet(pooled))


def labels_folder(d, rows, ownership_rows=()):
    """labels-0.npz from rows of (game, turn, winrate, lead, top [(x, y) or 'pass'], p) and
    ownership-0.npz from (game, turn, {(x, y): value})."""
    points = [[19 * 19 if t == "pass" else t[1] * 19 + t[0] for t in r[4]] for r in rows]
    np.savez_compressed(
        os.path.join(d, "labels-0.npz"),
        game=np.array([r[0] for r in rows], np.uint32),
        turn=np.array([r[1] for r in rows], np.uint16),
        winrate=np.array([r[2] for r in rows], np.float16),
        lead=np.array([r[3] for r in rows], np.float16),
        score_stdev=np.full(len(rows), 10, np.float16),
        policy_top=np.array(points, np.uint16),
        policy_p=np.array([r[5] for r in rows], np.uint8))
    own = np.zeros((len(ownership_rows), 361), np.int8)
    for i, (_, _, marks) in enumerate(ownership_rows):
        for (x, y), v in marks.items():
            own[i, y * 19 + x] = v
    np.savez_compressed(
        os.path.join(d, "ownership-0.npz"),
        game=np.array([r[0] for r in ownership_rows], np.uint32),
        turn=np.array([r[1] for r in ownership_rows], np.uint16), ownership=own)


def tom_folder(d, ids):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "Kifu.index"), "w") as f:
        f.write("".join(f"{i}\t2020.01.01 00:00\ta\tb\t6.5\tB+R\t100\t30/3\n" for i in ids))


class Join(unittest.TestCase):
    def test_labels_find_their_records_and_turn_into_the_movers_targets(self):
        with tempfile.TemporaryDirectory() as d:
            tom_folder(os.path.join(d, "tom"), [900, 700, 800])  # lines 0, 1, 2
            # records: (game line, move number, side, move)
            recs = [(1, 1, 0, 100), (1, 7, 0, 61), (1, 8, 1, 62), (2, 3, 0, 63), (0, 5, 1, 64)]
            codes = [np.zeros(361, np.uint8) for _ in recs]
            codes[2][5] = 1  # an own stone of White's record at A1 + 5
            write_dataset(os.path.join(d, "train.bin"), 19, codes, [r[3] for r in recs],
                          numbers=np.array([r[1] for r in recs]),
                          games=np.array([r[0] for r in recs]),
                          value=[(r[2], 1, 13) for r in recs])
            labels_folder(d, [
                (700, 0, 0.8, 5.0, [(3, 15), (15, 3), "pass", (0, 0)], [128, 64, 32, 0]),
                (700, 7, 0.25, -4.0, [(5, 18), (0, 0), (1, 1), (2, 2)], [255, 0, 0, 0]),
                (800, 2, 0.6, 1.0, [(0, 0)] * 4, [100, 0, 0, 0]),
                (555, 3, 0.5, 0.0, [(0, 0)] * 4, [100, 0, 0, 0]),  # no such game
                (800, 9, 0.5, 0.0, [(0, 0)] * 4, [100, 0, 0, 0]),  # no such record
            ], [(700, 7, {(5, 18): 127, (18, 0): -127})])
            labels = TT.load_labels(d)
            ids, lines = TT.tom_lines(os.path.join(d, "tom"))
            dataset = T.Dataset(os.path.join(d, "train.bin"))
            teacher = TT.Teacher(labels, dataset, ids, lines)
            self.assertEqual(list(teacher.records), [0, 2, 3])  # turn t is move number t + 1
            # the game at line 0 has records but no label: the one more labels would add
            self.assertEqual(list(TT.unjudged_games(labels, dataset, ids, lines)), [900])
            records = dataset.read(teacher.records)
            perm, inverse = T.symmetries(19)
            which = np.zeros(3, np.int64)
            t = TT.targets(labels, teacher.rows, records.side, records.move, which, perm, inverse,
                           19, 0.5)
            np.testing.assert_allclose(t.win, [0.8, 0.75, 0.6], atol=1e-3)
            np.testing.assert_allclose(t.lead, [5.0, 4.0, 1.0])  # White's record: its lead
            # SGF's y counts from the top, the dataset's rows from the bottom: (3, 15) is D4,
            # point 3 * 19 + 3; the pass is dropped and the rest renormalised to 1
            first = t.policy[0]
            self.assertAlmostEqual(first[3 * 19 + 3], 0.5 * 128 / 192, places=5)
            self.assertAlmostEqual(first[15 * 19 + 15], 0.5 * 64 / 192, places=5)
            self.assertAlmostEqual(first[100], 0.5)  # the move played
            self.assertAlmostEqual(float(first.sum()), 1.0, places=5)
            # (5, 18) is F1, point 5; ownership of Black's +127 there is the White mover's -1
            self.assertAlmostEqual(t.policy[1][5], 0.5)
            self.assertEqual(list(t.has_ownership), [False, True, False])
            self.assertAlmostEqual(t.ownership[1][5], -1.0)
            self.assertAlmostEqual(t.ownership[1][18 * 19 + 18], 1.0)  # T19 was White's
            self.assertEqual(int((t.ownership[1] != 0).sum()), 2)
            # under a symmetry, the ownership and favourite moves follow the stones
            for s in range(8):
                which = np.full(3, s)
                sym_codes, sym_move = T.apply_symmetry(records.codes, records.move, which, perm,
                                                       inverse)
                ts = TT.targets(labels, teacher.rows, records.side, sym_move, which, perm,
                                inverse, 19, 0.5)
                stone = int(np.flatnonzero(sym_codes[1] == 1)[0])
                self.assertEqual(stone, int(inverse[s][5]))
                self.assertAlmostEqual(ts.ownership[1][inverse[s][5]], -1.0)
                self.assertAlmostEqual(ts.policy[1][inverse[s][5]], 0.5)
                self.assertAlmostEqual(ts.policy[0][sym_move[0]], 0.5)

    def test_a_bad_labels_file_names_itself(self):
        with tempfile.TemporaryDirectory() as d:
            np.savez(os.path.join(d, "labels-0.npz"), game=np.zeros(2, np.uint32))
            with self.assertRaises(SystemExit) as e:
                TT.load_labels(d)
            self.assertIn("labels-0.npz", str(e.exception))
            with open(os.path.join(d, "labels-0.npz"), "wb") as f:
                f.write(b"not a zip")
            with self.assertRaises(SystemExit) as e:
                TT.load_labels(d)
            self.assertIn("labels-0.npz", str(e.exception))


class MoreLabels(unittest.TestCase):
    def test_label_py_labels_of_tom_games_join_the_shared_ones(self):
        """A label.py folder (games.tsv's sources end in Tom IDs, the ownership inside each
        shard) reads as the shared labels do; with two folders, the first one's judgement of a
        position wins, and a position only the other judged joins; 9x9 rows are left out."""
        with tempfile.TemporaryDirectory() as d:
            shared = os.path.join(d, "shared")
            os.makedirs(shared)
            labels_folder(shared, [
                (700, 0, 0.8, 5.0, [(0, 0)] * 4, [100, 0, 0, 0]),
                (700, 7, 0.25, -4.0, [(0, 0)] * 4, [100, 0, 0, 0]),
            ], [])
            other = os.path.join(d, "other")
            os.makedirs(other)
            with open(os.path.join(other, "games.tsv"), "w") as f:
                f.write("game\tsource\tsize\tkomi\tfirst\tsetup\tmoves\n")
                f.write("0\tkifu/2003-09:3:800\t19\t6.5\tB\t\tB:D4\n")
                f.write("1\tkifu/2003-09:1:700\t19\t6.5\tB\t\tB:D4\n")
                f.write("2\tnine.sgf:1\t9\t7\tB\t\tB:E5\n")
            own = np.zeros((3, 361), np.int8)
            own[1, 5] = 127
            top = np.array([[60, 361, 0, 0]] * 3, np.uint16)
            np.savez_compressed(os.path.join(other, "labels-00000.npz"),
                                game=np.array([1, 0, 2], np.uint32),
                                turn=np.array([7, 2, 4], np.uint16),
                                size=np.array([19, 19, 9], np.uint8),
                                winrate=np.array([0.3, 0.7, 0.9], np.float16),
                                lead=np.array([-2.0, 3.0, 8.0], np.float16),
                                score_stdev=np.full(3, 9, np.float16), policy_top=top,
                                policy_p=np.array([[200, 55, 0, 0]] * 3, np.uint8),
                                ownership=own, has_ownership=np.array([False, True, False]))
            alone = TT.load_labels(other)
            self.assertEqual(list(alone.game), [700, 800])
            self.assertEqual(list(alone.turn), [7, 2])
            both = TT.load_labels(f"{shared},{other}")
            self.assertEqual(list(zip(both.game, both.turn)), [(700, 0), (700, 7), (800, 2)])
            np.testing.assert_allclose(both.winrate, [0.8, 0.25, 0.7], atol=1e-3)
            self.assertEqual(list(both.has_ownership), [False, False, True])
            self.assertEqual(int(both.ownership[2, 5]), 127)
            self.assertEqual(list(both.top[2]), [60, 361, 0, 0])
            np.testing.assert_allclose(both.top_p[2], [200 / 255, 55 / 255, 0, 0])
            swapped = TT.load_labels(f"{other},{shared}")
            np.testing.assert_allclose(swapped.winrate, [0.8, 0.3, 0.7], atol=1e-3)
            with open(os.path.join(other, "games.tsv"), "w") as f:  # game 1 is not listed
                f.write("game\tsource\n0\tkifu/2003-09:3:800\n")
            with self.assertRaises(SystemExit) as e:
                TT.load_labels(other)
            self.assertIn("games.tsv", str(e.exception))


class SelfPlayLabels(unittest.TestCase):
    def test_label_py_labels_of_self_play_shards_find_their_records(self):
        """label.py's labels of compressed self-play shards join a 9x9 dataset that `hoshi
        dataset` made of the same shards, by the shard and line its games.tsv names, whatever
        the two numbered the games; a game no dataset holds and a 19x19 row are left out."""
        self.assertEqual(TT.game_key("kifu/2003-09:3:800"), 800)
        self.assertEqual(TT.game_key("sp/selfplay-00002.sgf.xz:7"),
                         TT.game_key("selfplay-00002.sgf:7"))
        self.assertNotEqual(TT.game_key("selfplay-00002.sgf:7"),
                            TT.game_key("selfplay-00007.sgf:2"))
        self.assertEqual(TT.game_key("nine.sgf:1"), -1)
        with tempfile.TemporaryDirectory() as d:
            data = os.path.join(d, "data")
            os.makedirs(data)
            with open(os.path.join(data, "games.tsv"), "w") as f:  # as hoshi dataset writes it
                f.write("game\tsource\n0\tselfplay-00000.sgf:1\n1\tselfplay-00001.sgf:2\n")
            # records: (game, move number, side, move)
            recs = [(0, 1, 0, 40), (0, 2, 1, 41), (1, 1, 0, 30), (1, 4, 1, 31)]
            write_dataset(os.path.join(data, "train.bin"), 9,
                          [np.zeros(81, np.uint8) for _ in recs], [r[3] for r in recs],
                          numbers=np.array([r[1] for r in recs]),
                          games=np.array([r[0] for r in recs]),
                          value=[(r[2], 1, 15) for r in recs])
            labels = os.path.join(d, "labels")
            os.makedirs(labels)
            with open(os.path.join(labels, "games.tsv"), "w") as f:  # label.py's numbering
                f.write("game\tsource\tsize\tkomi\tfirst\tsetup\tmoves\n")
                f.write("0\tsp/selfplay-00001.sgf.xz:2\t9\t7.5\tB\t\tB:C3\n")
                f.write("1\tsp/selfplay-00000.sgf.xz:1\t9\t7.5\tB\t\tB:E5\n")
                f.write("2\tsp/selfplay-00000.sgf.xz:3\t9\t7.5\tB\t\tB:E5\n")
                f.write("3\tsp/selfplay-00000.sgf.xz:2\t19\t7.5\tB\t\tB:D4\n")
            own = np.zeros((4, 361), np.int8)  # as wide as the run's largest board
            own[0, 3 * 9 + 2] = 127  # C6 in label.py's rows from the top: Black's
            np.savez_compressed(os.path.join(labels, "labels-00000.npz"),
                                game=np.array([0, 1, 2, 3], np.uint32),
                                turn=np.array([3, 1, 0, 0], np.uint16),
                                size=np.array([9, 9, 9, 19], np.uint8),
                                winrate=np.array([0.2, 0.9, 0.5, 0.5], np.float16),
                                lead=np.array([-6.0, 4.0, 0.0, 0.0], np.float16),
                                score_stdev=np.full(4, 9, np.float16),
                                policy_top=np.array([[81, 0, 0, 0]] * 4, np.uint16),
                                policy_p=np.array([[255, 0, 0, 0]] * 4, np.uint8),
                                ownership=own,
                                has_ownership=np.array([True, False, False, False]))
            loaded = TT.load_labels(labels, 9)
            self.assertEqual(loaded.ownership.shape, (3, 81))  # the 19x19 row left out
            dataset = T.Dataset(os.path.join(data, "train.bin"))
            teacher = TT.Teacher(loaded, dataset, *TT.dataset_lines(data, "no Tom games"))
            # turn 3 of the second game is its move number 4, record 3; turn 1 of the first,
            # record 1; the dataset does not hold line 3 of the first shard
            self.assertEqual(list(teacher.records), [1, 3])
            records = dataset.read(teacher.records)
            perm, inverse = T.symmetries(9)
            t = TT.targets(loaded, teacher.rows, records.side, records.move,
                           np.zeros(2, np.int64), perm, inverse, 9, 0.5)
            np.testing.assert_allclose(t.win, [0.1, 0.8], atol=1e-3)  # both White's records
            np.testing.assert_allclose(t.lead, [-4.0, 6.0])
            self.assertEqual(list(t.has_ownership), [False, True])
            # C6 counted from the top is row 5 from the bottom: point 5 * 9 + 2, Black's,
            # the White mover's -1
            self.assertAlmostEqual(t.ownership[1][5 * 9 + 2], -1.0)
            self.assertEqual(int((t.ownership[1] != 0).sum()), 1)
            with self.assertRaises(SystemExit) as e:
                TT.Teacher(TT.load_labels(labels, 19), dataset, *TT.dataset_lines(data, ""))
            self.assertIn("9x9", str(e.exception))


class SettledBatchNorm(unittest.TestCase):
    def test_the_statistics_are_the_mean_over_the_records(self):
        """settle_batch_norm replaces stale running statistics by the mean and variance of the
        activations over the records given, and leaves the weights alone."""
        with tempfile.TemporaryDirectory() as d:
            rng = np.random.default_rng(3)
            codes = [T.random_position(9, rng) for _ in range(40)]
            write_dataset(os.path.join(d, "train.bin"), 9, codes, [0] * 40,
                          value=[(i % 2, 1, 15) for i in range(40)])
            dataset = T.Dataset(os.path.join(d, "train.bin"))
            torch.manual_seed(4)
            model = T.Net(8, 2, 6, 10, score=True)
            for m in model.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.running_mean.fill_(5.0)
                    m.running_var.fill_(9.0)
            weights = {k: v.clone() for k, v in model.state_dict().items()
                       if "running" not in k and "num_batches" not in k}
            cpu = torch.device("cpu")
            index = np.arange(0, 40, 2)
            T.settle_batch_norm(model, dataset, index, T.Batcher(cpu), cpu, False, batch=7)
            model.eval()
            records = dataset.read(index)
            x, _, _ = T.Batcher(cpu).tensors(records.codes, records.move, 9)
            twin = copy.deepcopy(model).train()  # each batch's trunk as settling saw it
            with torch.no_grad():
                stem = model.stem(x)
                conv = torch.cat([twin.value.conv(twin.trunk(x[i:i + 7])) for i in (0, 7, 14)])
            # batches of 7, 7 and 6: the mean of the batches' means and unbiased variances
            means = [stem[i:i + 7].mean((0, 2, 3)) for i in (0, 7, 14)]
            variances = [stem[i:i + 7].var((0, 2, 3)) for i in (0, 7, 14)]
            np.testing.assert_allclose(model.stem_bn.running_mean, sum(means) / 3, rtol=1e-4,
                                       atol=1e-5)
            np.testing.assert_allclose(model.stem_bn.running_var, sum(variances) / 3,
                                       rtol=1e-4)
            np.testing.assert_allclose(model.value.bn.running_mean,
                                       sum(conv[i:i + 7].mean((0, 2, 3)) for i in (0, 7, 14)) / 3,
                                       rtol=1e-4, atol=1e-5)
            self.assertEqual(model.stem_bn.momentum, 0.1)
            for k, v in model.state_dict().items():
                if k in weights:
                    self.assertTrue(torch.equal(v, weights[k]), k)


class OtherJudge(unittest.TestCase):
    def test_another_engines_labels_meet_the_teachers_positions(self):
        """The held-out games' records go out to label.py; label.py's output (games numbered in its games.tsv, whose source ends in the Tom ID)
        finds the teacher's rows by Tom ID and turn; a position it did not judge is NaN."""
        with tempfile.TemporaryDirectory() as d:
            labels_folder(d, [
                (700, 0, 0.8, 5.0, [(0, 0)] * 4, [100, 0, 0, 0]),
                (700, 7, 0.25, -4.0, [(0, 0)] * 4, [100, 0, 0, 0]),
                (800, 2, 0.6, 1.0, [(0, 0)] * 4, [100, 0, 0, 0]),
            ], [])
            labels = TT.load_labels(d)
            other = os.path.join(d, "other")
            os.makedirs(other)
            with open(os.path.join(other, "games.tsv"), "w") as f:
                f.write("game\tsource\tsize\tkomi\tfirst\tsetup\tmoves\n")
                f.write("0\theld-out.txt:1:800\t19\t-\tB\t\tB:D4\n")
                f.write("1\theld-out.txt:2:700\t19\t-\tB\t\tB:D4\n")
            np.savez_compressed(os.path.join(other, "labels-00000.npz"),
                                game=np.array([1, 0, 1], np.uint32),
                                turn=np.array([7, 2, 3], np.uint16),
                                winrate=np.array([0.3, 0.7, 0.9], np.float16),
                                lead=np.array([-2.0, 3.0, 8.0], np.float16))
            judge = TT.load_judge(other)
            winrate, lead = TT.judged_by(judge, labels, np.arange(len(labels.game)))
            # the teacher's rows sorted by (game, turn): (700, 0), (700, 7), (800, 2)
            self.assertTrue(np.isnan(winrate[0]) and np.isnan(lead[0]))
            np.testing.assert_allclose(winrate[1:], [0.3, 0.7], atol=1e-3)
            np.testing.assert_allclose(lead[1:], [-2.0, 3.0])
            # the records label.py is to judge: those of the games asked, the later file's
            # where two have one
            kifu = os.path.join(d, "tom", "kifu")
            os.makedirs(kifu)
            with open(os.path.join(kifu, "2003-09"), "w") as f:
                f.write("700\t;B[pd];W[dd]\n555\t;B[aa]\n800\t;B[qq]\n")
            with open(os.path.join(kifu, "2003-10"), "w") as f:
                f.write("800\t;B[qq];W[cc]\r\n")
            held_out = os.path.join(d, "held-out.txt")
            self.assertEqual(TT.write_records(os.path.join(d, "tom"), [800, 700, 900], held_out),
                             2)
            with open(held_out) as f:
                self.assertEqual(f.read(), "700\t;B[pd];W[dd]\n800\t;B[qq];W[cc]\n")
            with open(os.path.join(other, "games.tsv"), "w") as f:
                f.write("game\tsource\n0\tgame.sgf\n")
            with self.assertRaises(SystemExit) as e:
                TT.load_judge(other)
            self.assertIn("games.tsv", str(e.exception))


def teacher_data(d, games, seed):
    """19x19 positions whose teacher says the mover wins (0.9, +12 points, owning its own
    stones) exactly when the position has a ladder-capture mark, loses (0.1, -12) when not;
    every record judged, ownership for every third game; the move played is the marked point
    (or point 0)."""
    rng = np.random.default_rng(seed)
    ids = list(range(1000, 1000 + games))
    tom_folder(os.path.join(d, "tom"), ids)
    codes, moves, numbers, lines, value, rows, own_rows = [], [], [], [], [], [], []
    for line, gid in enumerate(ids):
        for number in range(1, 9):
            c = T.random_position(19, rng)
            c[(c & 3) == 0] &= 0x73  # no marks on empty points
            marked = bool(rng.integers(0, 2))
            empty = np.flatnonzero((c & 3) == 0)
            m = int(rng.choice(empty))
            if marked:
                c[m] |= 8
            side = (number - 1) % 2
            codes.append(c)
            moves.append(m if marked else int(empty[0]))
            numbers.append(number)
            lines.append(line)
            value.append((side, side + 1 if marked else 2 - side, 15))
            mover_win = 0.9 if marked else 0.1
            black_win = mover_win if side == 0 else 1 - mover_win
            x, y = m % 19, 18 - m // 19
            rows.append((gid, number - 1, black_win, 24 * black_win - 12, [(x, y)] * 4,
                         [200, 0, 0, 0]))
            if line % 3 == 0:
                black = (c & 3) == (1 if side == 0 else 2)
                white = (c & 3) == (2 if side == 0 else 1)
                marks = {}
                for p in np.flatnonzero(black | white):
                    marks[(int(p % 19), 18 - int(p // 19))] = 127 if black[p] else -127
                own_rows.append((gid, number - 1, marks))
    return codes, moves, numbers, lines, value, rows, own_rows


class Learning(unittest.TestCase):
    def test_a_network_learns_the_teachers_judgement(self):
        with tempfile.TemporaryDirectory() as d:
            codes, moves, numbers, lines, value, rows, own_rows = teacher_data(d, 60, 1)
            held = np.array(lines) % 10 == 0  # whole games held out, as test.bin's lines
            for name, keep in (("train.bin", ~held), ("test.bin", held)):
                idx = np.flatnonzero(keep)
                write_dataset(os.path.join(d, name), 19, [codes[i] for i in idx],
                              [moves[i] for i in idx], numbers=np.array(numbers)[idx],
                              games=np.array(lines)[idx], value=[value[i] for i in idx])
            labels_folder(d, rows, own_rows)
            run = os.path.join(d, "run", "checkpoint.pt")
            common = ["--data", d, "--games", os.path.join(d, "tom"), "--teacher", d,
                      "--channels", "8", "--blocks", "2", "--pool-blocks", "1",
                      "--value-channels", "8", "--value-hidden", "16", "--score-head",
                      "--ownership-head", "--batch", "32", "--samples", "9600",
                      "--warmup", "320", "--optimizer", "adamw", "--lr", "0.005", "--no-bf16",
                      "--threads", "1", "--eval-every", "9600", "--device", "cpu",
                      "--checkpoint", run]
            with self.assertRaises(SystemExit):  # a teacher needs the score output
                T.main([a for a in common if a != "--score-head"] + ["--checkpoint",
                                                                     run + ".x"])
            T.main(common + ["--stop-at", "4800"])
            T.main(common)  # resumes
            with open(os.path.join(d, "run", "curve.csv")) as f:
                header, *rows_ = f.read().split()
            self.assertEqual(header, T.CURVE_HEADER)
            last = dict(zip(header.split(","), map(float, rows_[-1].split(","))))
            self.assertGreater(last["judged_winner"], 0.9)
            self.assertLess(last["value_vs_teacher"], 0.15)
            self.assertLess(last["lead_error"], 4.0)
            self.assertLess(last["ownership_error"], 0.35)
            self.assertGreater(last["top1"], 0.45)  # the marked point when there is one
            out = os.path.join(d, "judge.hnet")
            T.main(["--checkpoint", run, "--export", out])
            net = T.read_hnet(out)
            self.assertEqual((net.version, net.pool_blocks, net.score, net.ownership),
                             (3, (1,), True, True))
            T.main(["--checkpoint", run, "--data", d, "--games", os.path.join(d, "tom"),
                    "--evaluate", "--device", "cpu"])


if __name__ == "__main__":
    unittest.main()
