#!/usr/bin/env python3
"""Tests of train/label.py, run against train/fake_analysis_engine.py (no KataGo needed):

    python train/test_label.py

The fake engine's values follow the position in a known way (its docstring), so each test can say
exactly what every field of a label row must hold. The games are tiny and have no captures, so the
tests count stones by replaying the moves of games.tsv without rules.
"""

from __future__ import annotations

import contextlib
import io
import json
import lzma
import os
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import types
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
LABEL = os.path.join(HERE, "label.py")
FAKE = os.path.join(HERE, "fake_analysis_engine.py")
sys.path.insert(0, HERE)
import label  # noqa: E402

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
FIELDS = ("game", "turn", "size", "winrate", "lead", "score_stdev", "policy_top", "policy_p", "ownership", "has_ownership")

# A 9x9 handicap game (two setup stones, White first) with a pass; a 13x13 game whose comment holds an
# escaped bracket; a 19x19 game with a variation (not on the main line) and a pass written [tt].
SGF_GAMES = {
    "g09.sgf": "(;FF[4]GM[1]SZ[9]KM[0.5]HA[2]AB[cc][gg];W[ee];B[ec];W[];B[ce];W[gc];B[eg])\n",
    "g13.sgf": "(;FF[4]GM[1]SZ[13]KM[6.5]C[a \\] bracket];B[dd];W[jj];B[dj];W[jd];B[gg];W[gd];B[gj])\n",
    "g19.sgf": "(;FF[4]GM[1]SZ[19]KM[7.5];B[pd];W[dp](;B[pp];W[dd];B[tt];W[qf])(;B[aa];W[bb]))\n",
}
BROKEN_SGF = "(;FF[4]GM[1]SZ[9];B[dd];W[zz])\n"  # a move off the board
ILLEGAL_SGF = "(;FF[4]GM[1]SZ[9];B[dd];W[ee];B[ee];W[cc])\n"  # Black plays on White's stone
SELFPLAY_LINES = [
    "(;FF[4]GM[1]SZ[9]KM[7.5]RU[French]HS[0:0:1];B[ee]HV[800;ee:10 dd:3]HW[0.5];W[cc]HW[0.4];B[gg];W[cg])",
    "(;FF[4]GM[1]SZ[9]KM[7.5]RU[French]HS[0:1:2];B[dd];W[ff];B[])",
]
TOM_INDEX = (
    "101\t2003.09.25 20:21\tA\tB\t6.5\tB+0.5\t4\t30/3 5m\n"
    "102\t2003.09.25 21:36\tC\tD\t7.5\tW+1.5\t3\t30/3 20m\n"
    "103\t2003.09.26 14:57\tE\tF\t6.5\tB+1.5\t9\t30/3 20m\n"
)
TOM_KIFU = "102\t;B[pd];W[dp];B[]\n101\t;B[dd];W[pp];B[pq];W[qq]\n"
RECORDS = "201\t;B[jj];W[kk]\n"


def write(path: str, text: str) -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def make_inputs(root: str) -> dict:
    """Writes every input kind under `root`; returns their paths by name."""
    for name, text in SGF_GAMES.items():
        write(os.path.join(root, "sgf", name), text)
    write(os.path.join(root, "sgf", "broken.sgf"), BROKEN_SGF)
    write(os.path.join(root, "bad", "g09.sgf"), SGF_GAMES["g09.sgf"])
    write(os.path.join(root, "bad", "illegal.sgf"), ILLEGAL_SGF)
    os.makedirs(os.path.join(root, "selfplay"))
    with lzma.open(os.path.join(root, "selfplay", "selfplay-00000.sgf.xz"), "wt") as f:
        f.write("\n".join(SELFPLAY_LINES) + "\n")
    write(os.path.join(root, "tom", "Kifu.index"), TOM_INDEX)
    write(os.path.join(root, "tom", "kifu", "2003-09"), TOM_KIFU)
    write(os.path.join(root, "records.txt"), RECORDS)
    return {k: os.path.join(root, k) for k in ("sgf", "bad", "selfplay", "tom", "records.txt")}


def engine(*options: str) -> str:
    return shlex.join([sys.executable, FAKE, *options])


def run_label(inputs: list, out: str, *options: str, fake: tuple = ()) -> types.SimpleNamespace:
    """Runs label.py's command line in this process (a new Python would spend most of a test's time
    importing numpy); its exit status and what it wrote on stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = label.main([*inputs, "--out", out, "--engine", engine(*fake), *options])
    return types.SimpleNamespace(returncode=status, stderr=err.getvalue())


def shard_files(out: str) -> list:
    return sorted(n for n in os.listdir(out) if n.startswith("labels-") and n.endswith(".npz"))


def load_shards(out: str) -> list:
    """Every shard of a folder as a dict of arrays, in shard order."""
    shards = []
    for name in shard_files(out):
        with np.load(os.path.join(out, name)) as data:
            shards.append({k: data[k] for k in data.files})
    return shards


def concatenated(out: str) -> dict:
    shards = load_shards(out)
    return {k: np.concatenate([s[k] for s in shards]) for k in FIELDS}


def read_games_tsv(out: str) -> list:
    """games.tsv's lines as dicts (the header names the columns)."""
    with open(os.path.join(out, "games.tsv")) as f:
        lines = [line.rstrip("\n").split("\t") for line in f]
    return [dict(zip(lines[0], line)) for line in lines[1:]]


def vertex_point(vertex: str, size: int) -> int | None:
    """A GTP vertex as y * size + x (y from the top); None for a pass."""
    if vertex == "pass":
        return None
    return (size - int(vertex[1:])) * size + COLUMNS.index(vertex[0])


def rebuild(game: dict, turn: int) -> tuple:
    """The board of a games.tsv game at `turn` (no captures in these games) and its last move."""
    size = int(game["size"])
    board = [None] * (size * size)
    for stone in game["setup"].split():
        color, vertex = stone.split(":")
        board[vertex_point(vertex, size)] = color
    moves = [m.split(":") for m in game["moves"].split()]
    last = None
    for color, vertex in moves[:turn]:
        last = vertex_point(vertex, size)
        if last is not None:
            board[last] = color
    return board, last


def f16(value: float) -> np.float16:
    return np.float16(value)


def expected_row(board: list, last: int | None, size: int, turn: int, komi: float = 7.5) -> dict:
    """What the fake engine's rules (its docstring) make of a position, as label rows hold it."""
    diff = board.count("B") - board.count("W")
    n = size * size
    start = 0 if last is None else last
    empties = [(start + i) % n for i in range(n) if board[(start + i) % n] is None]
    return {
        "winrate": f16(min(1.0, max(0.0, 0.5 + 0.01 * diff))),
        "lead": f16(diff - komi),
        "score_stdev": f16(10.0 + 0.5 * turn),
        "policy_top": empties[:3] + [n],
        "ownership": [127 if s == "B" else -127 if s == "W" else 32 for s in board],
    }


class LabelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.inputs = make_inputs(os.path.join(cls.tmp.name, "in"))
        cls.ref = os.path.join(cls.tmp.name, "reference")
        cls.ref_options = ("--step", "2", "--seed", "3", "--shard-size", "3", "--ownership-every", "2")
        done = run_label([cls.inputs["sgf"]], cls.ref, *cls.ref_options)
        assert done.returncode == 0, done.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        self.dir = tempfile.mkdtemp(dir=self.tmp.name)

    def out(self, name: str = "out") -> str:
        return os.path.join(self.dir, name)

    def assertSameShards(self, out: str, reference: str | None = None) -> None:
        """The shards of `out` hold the same arrays as those of `reference`, shard by shard."""
        mine, theirs = load_shards(out), load_shards(reference or self.ref)
        self.assertEqual(shard_files(out), shard_files(reference or self.ref))
        for a, b in zip(mine, theirs):
            self.assertEqual(sorted(a), sorted(FIELDS))
            for key in FIELDS:
                self.assertEqual(a[key].dtype, b[key].dtype, key)
                np.testing.assert_array_equal(a[key], b[key], err_msg=key)

    # -- reading games ------------------------------------------------------------------------------

    def test_reads_sgf_setup_passes_and_main_line(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            games = label.load_games([self.inputs["sgf"]])
        self.assertEqual([os.path.basename(g.source) for g in games], ["g09.sgf:1", "g13.sgf:1", "g19.sgf:1"])
        g9, g13, g19 = games
        self.assertEqual((g9.size, g9.komi, g9.first), (9, 0.5, "W"))
        self.assertEqual(g9.setup, (("B", 2 * 9 + 2), ("B", 6 * 9 + 6)))
        self.assertEqual(g9.colors, "WBWBWB")
        self.assertEqual(list(g9.points), [40, 2 * 9 + 4, label.PASS, 4 * 9 + 2, 2 * 9 + 6, 6 * 9 + 4])
        self.assertEqual((g13.size, g13.komi, len(g13.colors)), (13, 6.5, 7))
        self.assertEqual(g19.moves(), [("B", 3 * 19 + 15), ("W", 15 * 19 + 3), ("B", 15 * 19 + 15),
                                       ("W", 3 * 19 + 3), ("B", label.PASS), ("W", 5 * 19 + 16)])
        self.assertIn("broken.sgf:1: point [zz] off the 9x9 board; game skipped", err.getvalue())

    def test_reads_selfplay_shards_and_tom_records(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            games = label.load_games([self.inputs["selfplay"], self.inputs["tom"], self.inputs["records.txt"]])
        sources = [g.source.replace(self.inputs["selfplay"], "S").replace(self.inputs["tom"], "T") for g in games]
        self.assertEqual(sources, ["S/selfplay-00000.sgf.xz:1", "S/selfplay-00000.sgf.xz:2",
                                   "T/kifu/2003-09:2:101", "T/kifu/2003-09:1:102", self.inputs["records.txt"] + ":1:201"])
        self.assertEqual([g.size for g in games], [9, 9, 19, 19, 19])
        self.assertEqual([g.komi for g in games], [7.5, 7.5, 6.5, 7.5, None])
        self.assertEqual(games[0].colors, "BWBW")
        self.assertEqual(list(games[1].points), [3 * 9 + 3, 5 * 9 + 5, label.PASS])
        self.assertEqual(games[2].moves(), [("B", 3 * 19 + 3), ("W", 15 * 19 + 15), ("B", 16 * 19 + 15), ("W", 16 * 19 + 16)])
        self.assertEqual(games[3].moves()[2], ("B", label.PASS))
        self.assertIn("1 games of Kifu.index are in no file of kifu/", err.getvalue())

    # -- positions and rows -------------------------------------------------------------------------

    def test_positions_follow_seed_and_step(self):
        games = read_games_tsv(self.ref)
        with contextlib.redirect_stderr(io.StringIO()):
            other_seed = label.plan_positions(label.load_games([self.inputs["sgf"]]), 2, 4)
        rng = random.Random(3)
        expected = []
        for n, game in enumerate(games):
            moves = len(game["moves"].split())
            expected += [(n, t) for t in range(rng.randrange(2), moves + 1, 2)]
        rows = concatenated(self.ref)
        self.assertEqual(list(zip(rows["game"].tolist(), rows["turn"].tolist())), expected)
        # g19 (6 moves, game 2) starts at turn 1 with seed 3 and at turn 0 with seed 4.
        self.assertEqual([t for g, t in expected if g == 2], [1, 3, 5])
        self.assertEqual([t for g, t in other_seed.tolist() if g == 2], [0, 2, 4, 6])

    def test_rows_hold_what_the_engine_said(self):
        out = self.out()
        done = run_label([self.inputs["sgf"]], out, "--step", "1", "--ownership-every", "1", "--shard-size", "100")
        self.assertEqual(done.returncode, 0, done.stderr)
        dtypes = {k: str(v.dtype) for k, v in load_shards(out)[0].items()}
        self.assertEqual(dtypes, {"game": "uint32", "turn": "uint16", "size": "uint8", "winrate": "float16",
                                  "lead": "float16", "score_stdev": "float16", "policy_top": "uint16",
                                  "policy_p": "uint8", "ownership": "int8", "has_ownership": "bool"})
        rows, games = concatenated(out), read_games_tsv(out)
        self.assertEqual(len(rows["game"]), 7 + 8 + 7)
        self.assertEqual((rows["policy_top"].shape, rows["policy_p"].shape), ((22, 4), (22, 4)))
        self.assertEqual(rows["ownership"].shape, (22, 361))
        for i, (g, turn) in enumerate(zip(rows["game"].tolist(), rows["turn"].tolist())):
            size = int(games[g]["size"])
            board, last = rebuild(games[g], turn)
            want = expected_row(board, last, size, turn)
            with self.subTest(game=g, turn=turn):
                self.assertEqual(rows["size"][i], size)
                self.assertEqual(rows["winrate"][i], want["winrate"])
                self.assertEqual(rows["lead"][i], want["lead"])
                self.assertEqual(rows["score_stdev"][i], want["score_stdev"])
                self.assertEqual(rows["policy_top"][i].tolist(), want["policy_top"])
                self.assertEqual(rows["policy_p"][i].tolist(), [128, 64, 32, 16])
                self.assertEqual(rows["ownership"][i, : size * size].tolist(), want["ownership"])
                self.assertFalse(rows["ownership"][i, size * size :].any())
                self.assertTrue(rows["has_ownership"][i])
        # By hand: 19x19 (game 2) after B[pd]: pd is 3 * 19 + 15; the policy starts there, at qd.
        after_pd = np.flatnonzero((rows["game"] == 2) & (rows["turn"] == 1))[0]
        self.assertEqual(rows["ownership"][after_pd, 3 * 19 + 15], 127)
        self.assertEqual(rows["policy_top"][after_pd].tolist(), [3 * 19 + 16, 3 * 19 + 17, 3 * 19 + 18, 361])
        self.assertEqual(rows["lead"][after_pd], -6.5)
        # 9x9 handicap (game 0) at turn 0: the two setup stones only, whatever KM[0.5] says.
        start = np.flatnonzero((rows["game"] == 0) & (rows["turn"] == 0))[0]
        self.assertEqual((rows["lead"][start], rows["winrate"][start]), (f16(-5.5), f16(0.52)))
        self.assertEqual(rows["ownership"][start, [2 * 9 + 2, 6 * 9 + 6, 0]].tolist(), [127, 127, 32])
        self.assertEqual(rows["policy_top"][start].tolist(), [0, 1, 2, 81])
        # After W's pass (turn 3) the policy starts again from the first point.
        after_pass = np.flatnonzero((rows["game"] == 0) & (rows["turn"] == 3))[0]
        self.assertEqual(rows["policy_top"][after_pass].tolist(), [0, 1, 2, 81])

    def test_komi_of_the_game_when_asked(self):
        out = self.out()
        done = run_label([self.inputs["sgf"]], out, "--step", "1", "--komi", "game")
        self.assertEqual(done.returncode, 0, done.stderr)
        rows = concatenated(out)
        # g13: KM[6.5], turn 0; g09: KM[0.5], turn 0 with two Black stones.
        self.assertEqual(rows["lead"][(rows["game"] == 1) & (rows["turn"] == 0)].tolist(), [-6.5])
        self.assertEqual(rows["lead"][(rows["game"] == 0) & (rows["turn"] == 0)].tolist(), [1.5])

    def assertSearchedValues(self, *options, fake=()):
        """A run with `options` into a new folder holds the fake engine's searched values."""
        out = self.out()
        done = run_label([self.inputs["sgf"]], out, *self.ref_options, *options, fake=fake)
        self.assertEqual(done.returncode, 0, done.stderr)
        rows, games = concatenated(out), read_games_tsv(out)
        self.assertGreater(len(rows["game"]), 0)
        for i, (g, turn) in enumerate(zip(rows["game"].tolist(), rows["turn"].tolist())):
            board, _ = rebuild(games[g], turn)
            diff = board.count("B") - board.count("W")
            self.assertEqual(rows["winrate"][i], f16(min(1.0, max(0.0, 0.5 + 0.02 * diff))))
            self.assertEqual(rows["lead"][i], f16(2 * diff - 7.5))
            self.assertEqual(rows["score_stdev"][i], f16(20.0 + turn))

    def test_searched_values_when_the_engine_has_no_raw_ones(self):
        self.assertSearchedValues(fake=("--no-raw",))

    def test_searched_values_when_asked(self):
        self.assertSearchedValues("--judgement", "search", "--max-visits", "16")

    def test_a_folder_from_before_the_judgement_setting_is_the_networks(self):
        out = self.out()
        self.assertEqual(run_label([self.inputs["sgf"]], out, *self.ref_options).returncode, 0)
        path = os.path.join(out, label.PROGRESS)
        with open(path) as f:
            progress = json.load(f)
        del progress["settings"]["judgement"]
        with open(path, "w") as f:
            json.dump(progress, f)
        done = run_label([self.inputs["sgf"]], out, *self.ref_options, "--judgement", "search")
        self.assertEqual(done.returncode, 1)
        self.assertIn("was labelled with --judgement network, not search", done.stderr)
        done = run_label([self.inputs["sgf"]], out, *self.ref_options)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertSameShards(out)

    def test_side_to_move_reports_are_turned_to_black(self):
        out, wrong = self.out(), self.out("wrong")
        fake = ("--report-as", "SIDETOMOVE")
        done = run_label([self.inputs["sgf"]], out, *self.ref_options, "--winrates-as", "SIDETOMOVE", fake=fake)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertSameShards(out)
        # Read as Black's, White-to-move rows come out turned: the conversion is what makes them equal.
        self.assertEqual(run_label([self.inputs["sgf"]], wrong, *self.ref_options, fake=fake).returncode, 0)
        a, b = concatenated(wrong), concatenated(self.ref)
        self.assertFalse(np.array_equal(a["winrate"], b["winrate"]))
        self.assertFalse(np.array_equal(a["ownership"], b["ownership"]))

    def test_ownership_only_where_asked(self):
        rows = concatenated(self.ref)
        asked = rows["game"] % 2 == 0
        np.testing.assert_array_equal(rows["has_ownership"], asked)
        self.assertTrue(asked.any() and not asked.all())
        self.assertFalse(rows["ownership"][~asked].any())
        self.assertTrue((np.abs(rows["ownership"][asked]) >= 32).sum(axis=1).min() >= 81)
        out, log = self.out(), os.path.join(self.dir, "queries.jsonl")
        run_label([self.inputs["sgf"]], out, *self.ref_options, fake=("--log", log))
        with open(log) as f:
            queries = [json.loads(line) for line in f]
        self.assertEqual({q["id"]: q["includeOwnership"] for q in queries},
                         {q["id"]: int(q["id"].split("/")[1]) % 2 == 0 for q in queries})
        self.assertEqual({(q["komi"], q["rules"], q["maxVisits"], q["includePolicy"]) for q in queries},
                         {(7.5, "chinese", 1, True)})
        handicap = [q for q in queries if q["id"].endswith("/0")]
        self.assertEqual(handicap[0]["initialStones"], [["B", "C7"], ["B", "G3"]])
        self.assertEqual(handicap[0]["initialPlayer"], "W")

    def test_shards_have_the_given_size(self):
        sizes = [len(s["game"]) for s in load_shards(self.ref)]
        total = len(concatenated(self.ref)["game"])
        self.assertEqual(total, 4 + 4 + 3)  # every second turn: g09's 0-6, g13's 0-6, g19's 1-5
        self.assertEqual(sizes, [3, 3, 3, 2])
        self.assertEqual(shard_files(self.ref), [f"labels-{k:05d}.npz" for k in range(4)])
        with open(os.path.join(self.ref, "progress.json")) as f:
            progress = json.load(f)
        self.assertEqual((progress["positions"], progress["shards"], len(progress["finished"])), (11, 4, 4))

    def test_games_tsv_rebuilds_positions(self):
        games = read_games_tsv(self.ref)
        g9 = games[0]
        self.assertEqual(g9["source"], os.path.join(self.inputs["sgf"], "g09.sgf") + ":1")
        self.assertEqual((g9["size"], g9["komi"], g9["first"], g9["setup"]), ("9", "0.5", "W", "B:C7 B:G3"))
        self.assertEqual(g9["moves"], "W:E5 B:E7 W:pass B:C5 W:G7 B:E3")
        self.assertEqual(games[2]["moves"], "B:Q16 W:D4 B:Q4 W:D16 B:pass W:R14")
        rows = concatenated(self.ref)
        for i, (g, turn) in enumerate(zip(rows["game"].tolist(), rows["turn"].tolist())):
            board, _ = rebuild(games[g], turn)
            self.assertEqual(rows["lead"][i], f16(board.count("B") - board.count("W") - 7.5))

    def test_all_input_kinds_in_one_run(self):
        out = self.out()
        inputs = [self.inputs["selfplay"], self.inputs["tom"], self.inputs["records.txt"]]
        done = run_label(inputs, out, "--step", "1", "--ownership-every", "1")
        self.assertEqual(done.returncode, 0, done.stderr)
        rows, games = concatenated(out), read_games_tsv(out)
        self.assertEqual([g["komi"] for g in games], ["7.5", "7.5", "6.5", "7.5", "-"])
        self.assertEqual(games[2]["moves"], "B:D16 W:Q4 B:Q3 W:R3")
        self.assertEqual(len(rows["game"]), 5 + 4 + 5 + 4 + 3)
        self.assertEqual(rows["size"].tolist(), [9] * 9 + [19] * 12)
        nine = rows["size"] == 9
        self.assertFalse(rows["ownership"][nine, 81:].any())
        self.assertTrue((rows["ownership"][~nine] != 0).all())
        last = (rows["game"] == 4) & (rows["turn"] == 2)  # records.txt: B[jj] W[kk]
        self.assertEqual(rows["ownership"][last][0, [9 * 19 + 9, 10 * 19 + 10]].tolist(), [127, -127])

    # -- failures -----------------------------------------------------------------------------------

    def test_unreadable_sgf_is_skipped_with_a_warning(self):
        stderr = run_label([self.inputs["sgf"]], self.out(), "--step", "3").stderr
        self.assertIn("broken.sgf:1: point [zz] off the 9x9 board; game skipped", stderr)
        self.assertEqual(len(read_games_tsv(self.out())), 3)

    def test_refused_query_is_left_out(self):
        out = self.out()
        done = run_label([self.inputs["bad"]], out, "--step", "1", "--shard-size", "4")
        self.assertEqual(done.returncode, 0, done.stderr)
        # Shards of 4: g09's turns 0-3 | g09's 4-6 and illegal.sgf's 0 | illegal.sgf's 1-4. Only the
        # last query holds the illegal third move (a query sends the moves up to its last turn).
        self.assertIn(f"game 1 ({self.inputs['bad']}/illegal.sgf:1): the engine refused the query for "
                      "turns [1, 2, 3, 4]: Illegal move", done.stderr)
        rows = concatenated(out)
        self.assertEqual(rows["game"].tolist(), [0] * 7 + [1])
        self.assertEqual(rows["turn"].tolist(), list(range(7)) + [0])
        with open(os.path.join(out, "progress.json")) as f:
            finished = json.load(f)["finished"]
        self.assertEqual([finished[k]["left_out"] for k in sorted(finished, key=int)], [0, 0, 4])
        self.assertEqual(len(load_shards(out)[2]["game"]), 0)

    def test_every_second_query_refused(self):
        out, log = self.out(), os.path.join(self.dir, "log")
        done = run_label([self.inputs["sgf"]], out, *self.ref_options, fake=("--error-every", "2", "--log", log))
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(log) as f:
            queries = [json.loads(line) for line in f]
        refused = {(int(q["id"].split("/")[1]), t) for q in queries[1::2] for t in q["analyzeTurns"]}
        self.assertEqual(done.stderr.count("refused as --error-every asks"), len(queries) // 2)
        reference = concatenated(self.ref)
        kept = [(g, t) not in refused for g, t in zip(reference["game"].tolist(), reference["turn"].tolist())]
        self.assertTrue(0 < sum(kept) < len(kept))
        rows = concatenated(out)
        for key in FIELDS:
            np.testing.assert_array_equal(rows[key], reference[key][kept], err_msg=key)

    def test_engine_that_cannot_start(self):
        command = [sys.executable, LABEL, self.inputs["sgf"], "--out", self.out(), "--engine", "/nonexistent/katago analysis"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 1)
        self.assertIn("cannot start the analysis engine '/nonexistent/katago analysis'", done.stderr)

    def test_other_settings_are_refused(self):
        out = self.out()
        self.assertEqual(run_label([self.inputs["sgf"]], out, *self.ref_options).returncode, 0)
        before = {n: os.path.getmtime(os.path.join(out, n)) for n in os.listdir(out)}
        done = run_label([self.inputs["sgf"]], out, *self.ref_options[2:], "--step", "3")
        self.assertEqual(done.returncode, 1)
        self.assertIn("was labelled with --step 2, not 3", done.stderr)
        self.assertEqual(before, {n: os.path.getmtime(os.path.join(out, n)) for n in os.listdir(out)})
        self.assertSameShards(out)

    # -- resuming -----------------------------------------------------------------------------------

    def resume(self, out: str, log: str) -> None:
        """Runs again into `out` and checks the result is the uninterrupted run's, that no shard kept
        from before was judged again, and that nothing half written is left."""
        kept = set(shard_files(out))
        done = run_label([self.inputs["sgf"]], out, *self.ref_options, fake=("--log", log))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(f"{len(kept)} shards already written", done.stderr)
        self.assertSameShards(out)
        with open(log) as f:
            judged = {label.shard_name(int(json.loads(line)["id"].split("/")[0])) for line in f}
        self.assertFalse(judged & kept)
        self.assertEqual(judged | kept, set(shard_files(self.ref)))
        self.assertEqual([n for n in os.listdir(out) if n.endswith(".partial")], [])

    def test_resume_after_the_engine_dies(self):
        out = self.out()
        done = run_label([self.inputs["sgf"]], out, *self.ref_options, fake=("--die-after", "7"))
        self.assertEqual(done.returncode, 1)
        self.assertIn("the analysis engine", done.stderr)
        self.assertIn("fake_analysis_engine.py --die-after 7' stopped answering (exit status 3)", done.stderr)
        self.assertEqual(shard_files(out), ["labels-00000.npz", "labels-00001.npz"])
        self.resume(out, os.path.join(self.dir, "log"))

    def test_resume_after_seconds(self):
        out = self.out()
        done = run_label([self.inputs["sgf"]], out, *self.ref_options, "--seconds", "0.4", fake=("--delay", "0.1"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("stopped after 0.4 s", done.stderr)
        self.assertLess(len(shard_files(out)), 4)
        self.resume(out, os.path.join(self.dir, "log"))

    def test_resume_after_being_killed(self):
        out = self.out()
        command = [sys.executable, LABEL, self.inputs["sgf"], "--out", out, "--engine", engine("--delay", "0.1"),
                   *self.ref_options]
        proc = subprocess.Popen(command, stderr=subprocess.DEVNULL, process_group=0)
        try:
            deadline = time.monotonic() + 60
            while not os.path.exists(os.path.join(out, "labels-00000.npz")) and time.monotonic() < deadline:
                time.sleep(0.01)
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        self.assertTrue(1 <= len(shard_files(out)) < 4, shard_files(out))
        self.resume(out, os.path.join(self.dir, "log"))

    def test_shuffled_answers_give_the_same_shards(self):
        out = self.out()
        done = run_label([self.inputs["sgf"]], out, *self.ref_options, fake=("--shuffle", "1"))
        self.assertEqual(done.returncode, 0, done.stderr)
        written = [line.split(":")[1].strip() for line in done.stderr.splitlines() if ".npz:" in line]
        self.assertNotEqual(written, sorted(written))  # the answers did come out of order
        self.assertSameShards(out)

    def test_a_small_window_gives_the_same_shards(self):
        out = self.out()
        done = run_label([self.inputs["sgf"]], out, *self.ref_options, "--in-flight", "1", fake=("--shuffle", "2"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertSameShards(out)

    def test_limit_games_keeps_the_first(self):
        out = self.out()
        done = run_label([self.inputs["sgf"]], out, "--limit-games", "2", "--step", "1")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual([os.path.basename(g["source"]) for g in read_games_tsv(out)], ["g09.sgf:1", "g13.sgf:1"])
        self.assertEqual(concatenated(out)["game"].tolist(), [0] * 7 + [1] * 8)

    def test_help_explains_the_tool(self):
        done = subprocess.run([sys.executable, LABEL, "--help"], capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0)
        for words in ("reportAnalysisWinratesAs = BLACK", "labels-00000.npz", "games.tsv", "RESUMING", "--seconds"):
            self.assertIn(words, done.stdout)



# hoshi's own binary, built by `cargo build --release` (or `cargo test --release`, as CI runs first).
HOSHI = os.environ.get("HOSHI_BIN", os.path.join(HERE, "..", "target", "release", "hoshi"))


class HoshiAnalysisTest(unittest.TestCase):
    """label.py against `hoshi analysis`, the real engine speaking KataGo's protocol: every position
    of the three SGF games labelled, with values in range and a policy whose best move is legal."""

    def test_labels_positions_with_hoshi_analysis(self):
        self.assertTrue(os.access(HOSHI, os.X_OK), f"{HOSHI} is missing: build it (cargo build --release)")
        with tempfile.TemporaryDirectory() as root:
            inputs = make_inputs(root)
            out = os.path.join(root, "out")
            err = io.StringIO()
            command = shlex.join([HOSHI, "--threads", "1", "--seed", "1", "analysis"])
            with contextlib.redirect_stderr(err):
                status = label.main(
                    [inputs["sgf"], "--out", out, "--engine", command, "--step", "1", "--max-visits", "8",
                     "--ownership-every", "1"]
                )
            self.assertEqual(status, 0, err.getvalue())
            rows = concatenated(out)
            # broken.sgf is skipped; at --step 1, g09 gives 7 positions, g13 8 (as in
            # test_reads_sgf_setup_passes_and_main_line), g19 (6 moves on its main line) 7.
            self.assertEqual(rows["game"].tolist(), [0] * 7 + [1] * 8 + [2] * 7, err.getvalue())
            self.assertNotIn("left out", err.getvalue().replace("(0 left out)", ""))
            self.assertTrue(((rows["winrate"] >= 0) & (rows["winrate"] <= 1)).all())
            self.assertTrue((rows["score_stdev"] >= 0).all())
            self.assertTrue((np.abs(rows["lead"]) < 400).all())
            self.assertTrue(rows["has_ownership"].all())
            self.assertTrue((rows["policy_p"][:, 0] > 0).all())


if __name__ == "__main__":
    unittest.main()
