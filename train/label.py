#!/usr/bin/env python3
"""Label Go positions with the judgement of an analysis engine (KataGo's protocol).

The engine is any program that speaks KataGo's analysis protocol, as `katago analysis -model M -config C`
does: one JSON query a line on its standard input, one JSON answer a line on its standard output, the
answers in any order. Each chosen position gets the network's win rate, score lead, score uncertainty,
its four favourite moves and, for some games, who owns each point: the fields of the shared teacher
labels (shared/data/teacher/README.md), in one compact format for every board size.

INPUTS (each PATH, in the order given; folders are walked in sorted order):
  - SGF files (.sgf, or .sgf.xz compressed with xz): every game tree of the file, so hoshi's self-play
    shards (selfplay-NNNNN.sgf.xz, one game a line) are read like any SGF file. The main line only;
    SZ (2 to 25), KM, B and W moves (a pass is [] or, up to 19x19, [tt]), AB/AW/AE setup stones before
    the first move (sent as initialStones: handicap stones) and PL.
  - The Tom server's records as `hoshi dataset` reads them: a folder with `Kifu.index` and `kifu/`
    (go-games/Tom: the games in the order of the index, the komi from its fifth column), a folder with
    `kifu.index` and `kifu/` (go-games/AI: no komi), or a file of records, one game a line:
    `ID<TAB>;B[pd];W[dd];...` (19x19).
  - A folder holding any of these (walked recursively; only .sgf and .sgf.xz files are read there).
A file given by name is read as SGF when its name ends in .sgf or .sgf.xz or its text starts with "(",
else as records. A game that cannot be read is skipped with a warning on stderr. The games read make the run's game list, numbered from 0
(the `game` field); --limit-games keeps its first N.

POSITIONS: for each game, every STEP-th turn from a random first turn below STEP, the first turns drawn
in game order from random.Random(SEED), as the shared labels were chosen (tools/teacher/mkq.py). Turn T is
the position after the game's first T moves (0: the setup stones only). Every position is judged with
--komi (a number, or `game` for the komi each game was played with, 7.5 where unknown) and --rules,
whatever the game was played with; the ownership is asked for game G when G % OWNERSHIP_EVERY == 0.

THE ENGINE: --engine "COMMAND LINE" (split as a shell would). Its config must report values from
Black's side (`reportAnalysisWinratesAs = BLACK`, as shared/tools/teacher/analysis.cfg does), or else
--winrates-as must name what it reports (WHITE or SIDETOMOVE: this tool then turns the win rate, the
lead and the ownership to Black's side, for SIDETOMOVE by the side to move that the answer names in
rootInfo.currentPlayer, or that the game gives where it names none). The raw
network outputs are kept (rawWinrate, rawLead, rawScoreSelfplayStdev; winrate, scoreLead and
scoreStdev when an engine reports no raw ones). With --max-visits 1 (the default) both are the
network's own judgement. With --judgement search they are the search's of --max-visits visits (winrate,
scoreLead, scoreStdev), a judgement stronger than the network's own, as AlphaGo Zero's search improved
on its network; the policy stays the network's, the ownership is what the engine reports (KataGo's:
the search's). A query the engine answers with an error is logged on stderr and its positions
are left out; the engine stopping is an error that names it, and what was finished is kept.

OUTPUT, in OUT:
  labels-00000.npz, labels-00001.npz, ...: shard K holds the positions K*SHARD_SIZE .. (K+1)*SHARD_SIZE-1
    of the run's plan (games in order, turns in order) less those left out, written by
    numpy.savez_compressed with the fields
      game u32 (index in games.tsv), turn u16, size u8 (board size),
      winrate f16 (Black's chance to win), lead f16 (Black's lead in points), score_stdev f16,
      policy_top u16 x 4 (the four favourite moves, best first, as points y * size + x, x from the
        left and y from the top, size * size for a pass),
      policy_p u8 x 4 (their probabilities x 255, rounded),
      ownership i8 x W (Black's ownership x 127 of the points y * size + x; W is the square of the
        largest board of the run, the points past size * size and rows without ownership are 0),
      has_ownership bool.
  games.tsv: a header line, then one line a game: game, source (file:line, with the record's ID for Tom
    records), size, komi as played (- if unknown), first (the player to move at turn 0), setup (the
    setup stones, as B:D4 W:Q16), moves (as B:Q16 W:D4 B:pass). A position is the setup stones and the
    first `turn` moves.
  progress.json: the settings of the run, the digest of its games, and the shards finished.

EXAMPLE (the shared labels' settings, on the Tom games, for an hour at most):
  python train/label.py go-games/Tom --out labels --seconds 3600 \
      --engine "katago analysis -model b10.bin.gz -config shared/tools/teacher/analysis.cfg"

RESUMING: a shard is written (to a temporary name, then renamed) only once all its positions are
answered, so a run stopped at any moment (killed, --seconds, the engine dying) loses only the shards it
had not finished. Running the same command again judges only the shards that are not there, and the
shards come out as an uninterrupted run's would. The settings that choose positions or judgements, and
the games read, must be the same as the folder's; the tool refuses to mix others into it.
"""

from __future__ import annotations

import argparse
import array
import functools
import hashlib
import json
import lzma
import os
import queue
import random
import re
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import numpy as np

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
MAX_SIZE = len(GTP_COLUMNS)
TOP_MOVES = 4
TOM_SIZE = 19
PASS = -1
MAX_TURN = 65535
PROGRESS = "progress.json"
GAMES_TSV = "games.tsv"
PROGRESS_FORMAT = 1
# The settings that decide which positions a folder holds and how they are judged: a resumed run must
# use the same ones (the engine command may change, e.g. when the program moves).
KEPT_SETTINGS = ("step", "seed", "ownership_every", "komi", "rules", "max_visits", "shard_size", "winrates_as", "judgement")
# Settings that came after folders were labelled: a folder without one was labelled with this value.
LATER_SETTINGS = {"judgement": "network"}


def warn(message: str) -> None:
    """Reports a problem that the run goes on despite."""
    print(f"label.py: warning: {message}", file=sys.stderr, flush=True)


def note(message: str) -> None:
    """Reports progress on stderr, where the engine's own messages go too."""
    print(f"label.py: {message}", file=sys.stderr, flush=True)


class SgfError(ValueError):
    """A game record that cannot be read."""


class Refused(Exception):
    """A run that must not go on (bad input, a folder of other settings); the message says why."""


class EngineStopped(Exception):
    """The analysis engine stopped, or could not be started, before all its work was answered."""


# ---------------------------------------------------------------------------------------------
# Games


@dataclass(frozen=True)
class Game:
    """One game as the engine is asked about it. Points are y * size + x (x from the left, y from the
    top), PASS for a pass; the moves are kept as a string of players and an array of points, since
    the 50,000 Tom games hold ten million moves."""

    source: str
    size: int
    komi: float | None
    first: str
    setup: tuple = ()  # (player, point) pairs
    colors: str = ""  # the player of each move, "B" or "W"
    points: array.array = field(default_factory=lambda: array.array("h"))

    def moves(self, count: int | None = None) -> list:
        """The first `count` moves (all by default) as (player, point) pairs."""
        return list(zip(self.colors[:count], self.points[:count]))


def other(color: str) -> str:
    return "W" if color == "B" else "B"


def to_move(game: Game, turn: int) -> str:
    """The player to move at `turn`, as KataGo reckons it: after a move, its player's opponent."""
    return game.first if turn == 0 else other(game.colors[turn - 1])


def gtp_vertex(point: int, size: int) -> str:
    """A point as GTP writes it (column letter without I, row counted from the bottom), or "pass"."""
    if point == PASS:
        return "pass"
    return f"{GTP_COLUMNS[point % size]}{size - point // size}"


def sgf_point(value: str, size: int) -> int:
    """An SGF point (`pd`: column p, row d, both from the top-left corner) as y * size + x."""
    if len(value) != 2 or not value.isalpha() or not value.islower():
        raise SgfError(f"bad point [{value}]")
    x, y = ord(value[0]) - ord("a"), ord(value[1]) - ord("a")
    if x >= size or y >= size:
        raise SgfError(f"point [{value}] off the {size}x{size} board")
    return y * size + x


@functools.lru_cache(maxsize=None)
def sgf_moves_of_size(size: int) -> dict:
    """Every SGF move value of a board size and its point: looking moves up is what reading tens of
    thousands of games spends its time on."""
    table = {f"{chr(97 + x)}{chr(97 + y)}": y * size + x for x in range(size) for y in range(size)}
    table[""] = PASS
    if size <= 19:
        table["tt"] = PASS
    return table


def sgf_move(value: str, size: int) -> int:
    """An SGF move: a point, or PASS ([] always, [tt] on boards up to 19x19)."""
    try:
        return sgf_moves_of_size(size)[value.strip()]
    except KeyError:
        return sgf_point(value.strip(), size)  # raises the reason


def sgf_points(value: str, size: int) -> list:
    """The points of a setup value: one point, or a rectangle `aa:cc` (SGF's compressed lists)."""
    first, _, last = value.strip().partition(":")
    y0, x0 = divmod(sgf_point(first, size), size)
    y1, x1 = divmod(sgf_point(last, size), size) if last else (y0, x0)
    ys, xs = range(min(y0, y1), max(y0, y1) + 1), range(min(x0, x1), max(x0, x1) + 1)
    return [y * size + x for y in ys for x in xs]


def parse_size(value: str) -> int:
    """SZ: one number, or `N:N` (a square board written as a rectangle)."""
    parts = value.strip().split(":")
    try:
        sizes = {int(p) for p in parts}
    except ValueError:
        raise SgfError(f"bad board size SZ[{value}]") from None
    if len(sizes) != 1:
        raise SgfError(f"the board SZ[{value}] is not square")
    size = sizes.pop()
    if not 2 <= size <= MAX_SIZE:
        raise SgfError(f"board size {size} is not 2 to {MAX_SIZE}")
    return size


def parse_komi(value: str | None) -> float | None:
    """A komi, or None when there is none or it is not a number."""
    try:
        komi = float(value)
    except (TypeError, ValueError):
        return None
    return komi if abs(komi) < 1000 else None


# An SGF token: "(", ")", ";" or a property with its values. Values may hold "\]" and any text.
SGF_TOKEN = re.compile(
    r"""\s*(?:(?P<open>\()|(?P<close>\))|(?P<node>;)
    |(?P<ident>[A-Za-z]+)\s*(?P<values>(?:\[(?:[^\]\\]|\\.)*\]\s*)+))""",
    re.S | re.X,
)
SGF_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.S)
SGF_ESCAPE = re.compile(r"\\(.)", re.S)
# The properties this tool reads; the others (comments, self-play's search notes) are passed over.
SGF_READ = frozenset(("SZ", "KM", "AB", "AW", "AE", "PL", "B", "W"))


def sgf_property(match) -> tuple:
    """A property's name (FF[3]'s lower-case letters dropped: `AddBlack` is AB) and values."""
    ident = match.group("ident")
    if not ident.isupper():
        ident = "".join(c for c in ident if c.isupper())
    if ident not in SGF_READ:
        return ident, []
    values = SGF_VALUE.findall(match.group("values"))
    return ident, [SGF_ESCAPE.sub(r"\1", v) if "\\" in v else v for v in values]


def sgf_tree(text: str, pos: int) -> tuple:
    """Parses the game tree that opens at text[pos] ("("): returns its main line's nodes (property
    dicts; the main line follows the first variation at each branch) and where the tree ends."""
    stack, nodes = [], []  # stack: per open tree, [on the main line, variations seen]
    for match in SGF_TOKEN.finditer(text, pos):
        if match.start() != pos:
            break
        pos, kind = match.end(), match.lastgroup
        if kind == "open":
            main = not stack or (stack[-1][0] and stack[-1][1] == 0)
            if stack:
                stack[-1][1] += 1
            stack.append([main, 0])
        elif kind == "close":
            stack.pop()
            if not stack:
                return nodes, pos
        elif not (stack[-1][0] and stack[-1][1] == 0):
            continue  # a node of a variation
        elif kind == "node":
            nodes.append({})
        elif not nodes:
            raise SgfError("a property before the first node")
        else:
            ident, values = sgf_property(match)
            if values:
                nodes[-1].setdefault(ident, []).extend(values)
    raise SgfError("unreadable SGF" if text[pos:].strip() else "the file ends inside a game")


def sgf_main_lines(text: str) -> list:
    """The game trees of an SGF collection as (line, nodes), or (line, SgfError) for a tree that cannot
    be parsed: the parse then goes on at the next line that opens a tree, so one bad game of a
    self-play shard (one game a line) costs that game only. Text between trees is skipped."""
    trees, pos, line, counted = [], 0, 1, 0
    while (start := text.find("(", pos)) >= 0:
        line += text.count("\n", counted, start)
        counted = start
        try:
            nodes, pos = sgf_tree(text, start)
            trees.append((line, nodes))
        except SgfError as why:
            trees.append((line, why))
            pos = text.find("\n(", start + 1) + 1
            if pos == 0:
                break
    return trees


def sgf_game(nodes: list, source: str) -> Game:
    """The game of a main line: setup stones must come before the first move."""
    if not nodes:
        raise SgfError("a game without nodes")
    root = nodes[0]
    size = parse_size(root.get("SZ", ["19"])[0])
    komi = parse_komi(root.get("KM", [None])[0])
    setup, colors, points, first = {}, [], array.array("h"), None
    for node in nodes:
        if colors and any(k in node for k in ("AB", "AW", "AE")):
            raise SgfError("setup stones after the first move")
        for color, key in (("B", "AB"), ("W", "AW")):
            for value in node.get(key, []):
                for point in sgf_points(value, size):
                    setup[point] = color
        for value in node.get("AE", []):
            for point in sgf_points(value, size):
                setup.pop(point, None)
        if "PL" in node and not colors:
            first = "W" if node["PL"][0].strip().upper().startswith("W") else "B"
        played = [(color, value) for color in ("B", "W") for value in node.get(color, [])]
        if len(played) > 1:
            raise SgfError("a node with more than one move")
        for color, value in played:
            colors.append(color)
            points.append(sgf_move(value, size))
    if first is None:
        handicap = "B" in setup.values() and "W" not in setup.values()
        first = colors[0] if colors else ("W" if handicap else "B")
    stones = tuple((color, point) for point, color in setup.items())
    return Game(source, size, komi, first, stones, "".join(colors), points)


RECORD = re.compile(r"(?:[\s;]*[BW]\[[a-z]{0,2}\])*[\s;]*")
RECORD_COLOR = re.compile(r"([BW])\[")
RECORD_VALUE = re.compile(r"\[([a-z]{0,2})\]")


def record_game(moves_text: str, source: str, komi: float | None) -> Game:
    """A Tom record's moves (`;B[pd];W[dd];B[]`) on 19x19, as `hoshi dataset` reads them."""
    if RECORD.fullmatch(moves_text) is None:
        raise SgfError("not a list of moves like ;B[pd];W[dd]")
    colors = "".join(RECORD_COLOR.findall(moves_text))
    try:
        points = array.array("h", map(sgf_moves_of_size(TOM_SIZE).__getitem__, RECORD_VALUE.findall(moves_text)))
    except KeyError as why:
        raise SgfError(f"move [{why.args[0]}] off the 19x19 board") from None
    return Game(source, TOM_SIZE, komi, colors[:1] or "B", (), colors, points)


def read_text(path: str) -> str:
    """A file's text, through xz when its name ends in .xz."""
    if path.endswith(".xz"):
        with lzma.open(path, "rt", encoding="utf-8", errors="replace") as f:
            return f.read()
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def sgf_file_games(path: str, text: str) -> list:
    """The readable games of an SGF file, each named by its file and the line its tree opens on."""
    games = []
    trees = sgf_main_lines(text)
    for line, nodes in trees:
        source = f"{path}:{line}"
        try:
            if isinstance(nodes, SgfError):
                raise nodes
            games.append(sgf_game(nodes, source))
        except SgfError as why:
            warn(f"{source}: {why}; game skipped")
    if not trees:
        warn(f"{path}: no SGF game tree in it; skipped")
    return games


def records(path: str, text: str) -> list:
    """The records of a Tom kifu file as (ID, source, moves text); lines without a tab are skipped."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        gid, tab, moves = line.partition("\t")
        if not tab:
            warn(f"{path}:{number}: not a record (ID, a tab, the moves); skipped")
            continue
        found.append((gid.strip(), f"{path}:{number}:{gid.strip()}", moves))
    return found


def record_games(found: list, komis: dict | None = None) -> list:
    """Games of records, komi from `komis` by ID where given."""
    games = []
    for gid, source, moves in found:
        try:
            games.append(record_game(moves, source, (komis or {}).get(gid)))
        except SgfError as why:
            warn(f"{source}: {why}; game skipped")
    return games


def index_file(folder: str) -> str | None:
    """The index of a Tom-style folder (`Kifu.index`, or go-games/AI's `kifu.index`) with a kifu/."""
    if not os.path.isdir(os.path.join(folder, "kifu")):
        return None
    for name in ("Kifu.index", "kifu.index"):
        if os.path.isfile(os.path.join(folder, name)):
            return name
    return None


def indexed_games(folder: str, index: str) -> list:
    """The games of an index folder in the order of its index, as `hoshi dataset` takes them: a record
    of kifu/ by ID (the last file, in sorted order, that has it), the komi from Kifu.index's fifth
    column (go-games/AI's kifu.index has none)."""
    by_id = {}
    kifu = os.path.join(folder, "kifu")
    for name in sorted(os.listdir(kifu)):
        path = os.path.join(kifu, name)
        if os.path.isfile(path):
            by_id.update((r[0], r) for r in records(path, read_text(path)))
    chosen, komis, missing = [], {}, 0
    for line in read_text(os.path.join(folder, index)).splitlines():
        fields = line.split("\t")
        gid = fields[0].strip()
        if not gid or gid in komis:
            continue
        komis[gid] = parse_komi(fields[4]) if index == "Kifu.index" and len(fields) > 4 else None
        if gid in by_id:
            chosen.append(by_id[gid])
        else:
            missing += 1
    if missing:
        warn(f"{folder}: {missing} games of {index} are in no file of kifu/; skipped")
    return record_games(chosen, komis)


def is_sgf_name(name: str) -> bool:
    return name.lower().endswith((".sgf", ".sgf.xz"))


def folder_games(folder: str) -> list:
    """The games of a folder: an index folder's records, or every SGF file under it, in sorted order."""
    index = index_file(folder)
    if index:
        return indexed_games(folder, index)
    games = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if os.path.isdir(path):
            games += folder_games(path)
        elif is_sgf_name(name):
            games += file_games(path)
    return games


def file_games(path: str) -> list:
    """The games of one file: SGF when its name says so or its text opens a tree, else Tom records."""
    try:
        text = read_text(path)
    except (OSError, lzma.LZMAError, EOFError) as why:
        warn(f"{path}: cannot be read ({why}); skipped")
        return []
    if is_sgf_name(path) or text.lstrip("\ufeff \t\r\n").startswith("("):
        return sgf_file_games(path, text)
    return record_games(records(path, text))


def load_games(paths: list) -> list:
    """The run's game list: the games of each input in order."""
    games = []
    for path in paths:
        if os.path.isdir(path):
            found = folder_games(path)
        elif os.path.isfile(path):
            found = file_games(path)
        else:
            raise Refused(f"no file or folder {path}")
        if not found:
            warn(f"{path}: no game read from it")
        games += found
    return games


def games_digest(games: list) -> str:
    """A digest of what the engine is asked about the games (not where they came from), so a resumed
    run can tell that it reads the same games even from another working folder."""
    h = hashlib.sha256()
    for g in games:
        h.update(repr((g.size, g.komi, g.first, g.setup, g.colors)).encode())
        h.update(np.asarray(g.points, dtype="<i2").tobytes())
    return h.hexdigest()


def games_tsv(games: list) -> str:
    """games.tsv's text: enough to rebuild every position from `game` and `turn`."""
    lines = ["game\tsource\tsize\tkomi\tfirst\tsetup\tmoves"]
    for n, g in enumerate(games):
        komi = "-" if g.komi is None else f"{g.komi:g}"
        setup = " ".join(f"{c}:{gtp_vertex(p, g.size)}" for c, p in g.setup)
        moves = " ".join(f"{c}:{gtp_vertex(p, g.size)}" for c, p in g.moves())
        source = g.source.replace("\t", " ")
        lines.append(f"{n}\t{source}\t{g.size}\t{komi}\t{g.first}\t{setup}\t{moves}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Positions, shards and queries


def plan_positions(games: list, step: int, seed: int) -> np.ndarray:
    """The positions to judge, as rows (game, turn): every `step`-th turn of each game from a random
    first one, the first turns drawn in game order from one generator, as tools/teacher/mkq.py does.
    An array, not a list of pairs: a run may plan tens of millions of positions. Turns stop at
    MAX_TURN, the largest that the u16 `turn` field holds."""
    rng = random.Random(seed)
    turns = [np.arange(rng.randrange(step), min(len(g.colors), MAX_TURN) + 1, step, dtype=np.int32) for g in games]
    plan = np.empty((sum(len(t) for t in turns), 2), dtype=np.int32)
    plan[:, 0] = np.repeat(np.arange(len(games), dtype=np.int32), [len(t) for t in turns])
    plan[:, 1] = np.concatenate(turns) if turns else []
    return plan


def shard_name(index: int) -> str:
    return f"labels-{index:05d}.npz"


@dataclass
class Shard:
    """One shard's positions (rows of the plan) and what the engine has said of them so far: `unsent`
    and `open` count its queries not sent yet and those sent but not fully answered."""

    index: int
    positions: np.ndarray
    rows: dict = field(default_factory=dict)
    unsent: int = 0
    open: int = 0

    def __post_init__(self):
        self.unsent = len(np.unique(self.positions[:, 0]))


def query_komi(game: Game, komi: str) -> float:
    """The komi to judge with: --komi's number, or the game's own (7.5 where it is not known)."""
    if komi == "game":
        return 7.5 if game.komi is None else game.komi
    return float(komi)


def make_query(qid: str, game: Game, turns: list, args, ownership: bool) -> dict:
    """One analysis query for some turns of a game. Only the moves up to the last turn asked are sent:
    a later illegal move then spoils no earlier position."""
    size = game.size
    query = {
        "id": qid,
        "moves": [[c, gtp_vertex(p, size)] for c, p in game.moves(max(turns))],
        "initialPlayer": game.first,
        "rules": args.rules,
        "komi": query_komi(game, args.komi),
        "boardXSize": size,
        "boardYSize": size,
        "analyzeTurns": turns,
        "maxVisits": args.max_visits,
        "includePolicy": True,
        "includeOwnership": ownership,
    }
    if game.setup:
        query["initialStones"] = [[c, gtp_vertex(p, size)] for c, p in game.setup]
    return query


def shard_queries(shard: Shard, games: list, args):
    """A shard's queries (with their game), one per game it holds positions of, with those turns. Made
    as they are sent, since all the queries of a long run would fill the memory with their moves."""
    by_game = {}
    for game, turn in shard.positions.tolist():
        by_game.setdefault(game, []).append(turn)
    for game, turns in by_game.items():
        own = args.ownership_every > 0 and game % args.ownership_every == 0
        yield game, make_query(f"{shard.index}/{game}", games[game], turns, args, own)


# ---------------------------------------------------------------------------------------------
# Answers


def root_value(root: dict, raw: str, searched: str, judgement: str = "network") -> float:
    """A raw network output, or the searched value when the engine reports no raw one; with
    `judgement` "search", the searched value first."""
    first, second = (searched, raw) if judgement == "search" else (raw, searched)
    value = root.get(first, root.get(second))
    if value is None:
        raise ValueError(f"rootInfo has neither {raw} nor {searched}")
    return float(value)


def policy_top(policy, size: int) -> tuple:
    """The TOP_MOVES best points of a policy, best first, and their probabilities x 255. Ties go to the
    lower point, so the result never depends on a sort's whims; an illegal point (-1) ranks below
    every legal one and counts as 0. Done by partition, not a full sort: at thousands of answers a
    second, this and the JSON parse are most of this tool's work."""
    p = np.array(policy, dtype=np.float64)
    if p.shape != (size * size + 1,):
        raise ValueError(f"policy has {p.size} values, not {size * size + 1}")
    threshold = -np.partition(-p, TOP_MOVES - 1)[TOP_MOVES - 1]
    candidates = np.flatnonzero(p >= threshold)
    top = candidates[np.lexsort((candidates, -p[candidates]))][:TOP_MOVES]
    return top.astype(np.uint16), np.round(np.maximum(p[top], 0.0) * 255).astype(np.uint8)


def ownership_row(ownership, size: int, width: int, flip: bool):
    """Black's ownership x 127 in a row of `width` points (those past size * size stay 0)."""
    own = np.asarray(ownership, dtype=np.float64)
    if own.shape != (size * size,):
        raise ValueError(f"ownership has {own.size} values, not {size * size}")
    row = np.zeros(width, dtype=np.int8)
    row[: size * size] = np.clip(np.round(own * (-127 if flip else 127)), -127, 127).astype(np.int8)
    return row


def answer_row(answer: dict, game: Game, turn: int, width: int, winrates_as: str, judgement: str = "network") -> tuple:
    """One label row from one answer, turned to Black's side when the engine reports another. For
    SIDETOMOVE the side is the one the engine names (rootInfo.currentPlayer), else the game's. The
    win rate, lead and stdev are the network's own, or with `judgement` "search" the search's; the
    policy is always the network's, the ownership whatever the engine gives (KataGo: the search's)."""
    root = answer["rootInfo"]
    player = root.get("currentPlayer") or to_move(game, turn)
    flip = winrates_as == "WHITE" or (winrates_as == "SIDETOMOVE" and player == "W")
    winrate = root_value(root, "rawWinrate", "winrate", judgement)
    lead = root_value(root, "rawLead", "scoreLead", judgement)
    stdev = root_value(root, "rawScoreSelfplayStdev", "scoreStdev", judgement)
    if flip:
        winrate, lead = 1.0 - winrate, -lead
    top, top_p = policy_top(answer["policy"], game.size)
    own = answer.get("ownership")
    own_row = None if own is None else ownership_row(own, game.size, width, flip)
    return (winrate, lead, stdev, top, top_p, own_row)


def shard_arrays(shard: Shard, games: list, width: int) -> dict:
    """A finished shard's fields, its rows in plan order."""
    keys = [pos for pos in map(tuple, shard.positions.tolist()) if pos in shard.rows]
    rows = [shard.rows[k] for k in keys]
    n = len(rows)
    ownership = np.zeros((n, width), dtype=np.int8)
    for i, row in enumerate(rows):
        if row[5] is not None:
            ownership[i] = row[5]
    return {
        "game": np.array([g for g, _ in keys], dtype=np.uint32),
        "turn": np.array([t for _, t in keys], dtype=np.uint16),
        "size": np.array([games[g].size for g, _ in keys], dtype=np.uint8),
        "winrate": np.array([r[0] for r in rows], dtype=np.float16),
        "lead": np.array([r[1] for r in rows], dtype=np.float16),
        "score_stdev": np.array([r[2] for r in rows], dtype=np.float16),
        "policy_top": np.array([r[3] for r in rows], dtype=np.uint16).reshape(n, TOP_MOVES),
        "policy_p": np.array([r[4] for r in rows], dtype=np.uint8).reshape(n, TOP_MOVES),
        "ownership": ownership,
        "has_ownership": np.array([r[5] is not None for r in rows], dtype=bool),
    }


# ---------------------------------------------------------------------------------------------
# Files


def partial_name(out: str, name: str) -> str:
    return os.path.join(out, f".{name}.partial")


def write_atomically(out: str, name: str, write) -> None:
    """Writes a file whole or not at all: into a temporary name, synced, then renamed over `name`."""
    tmp = partial_name(out, name)
    with open(tmp, "wb") as f:
        write(f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, os.path.join(out, name))
    fd = os.open(out, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_shard(out: str, shard: Shard, games: list, width: int) -> int:
    """Writes a finished shard; returns its rows."""
    arrays = shard_arrays(shard, games, width)
    write_atomically(out, shard_name(shard.index), lambda f: np.savez_compressed(f, **arrays))
    return len(arrays["game"])


def write_json(out: str, name: str, value: dict) -> None:
    text = json.dumps(value, indent=1) + "\n"
    write_atomically(out, name, lambda f: f.write(text.encode()))


def remove_partials(out: str) -> None:
    """Removes what a stopped run left half written: it is never read."""
    for name in os.listdir(out):
        if name.startswith(".") and name.endswith(".partial"):
            os.remove(os.path.join(out, name))


def run_settings(args) -> dict:
    return {
        "step": args.step,
        "seed": args.seed,
        "ownership_every": args.ownership_every,
        "komi": args.komi,
        "rules": args.rules,
        "max_visits": args.max_visits,
        "shard_size": args.shard_size,
        "winrates_as": args.winrates_as,
        "judgement": args.judgement,
        "engine": args.engine,
        "inputs": args.inputs,
        "limit_games": args.limit_games,
    }


class Progress:
    """progress.json: the run's settings and games, checked on resuming, and the shards finished
    (rows, positions left out). The shard files are the truth: one written just before a stop that
    the file does not list yet is counted from the shard itself."""

    def __init__(self, out: str, args, games: list, plan_size: int, shards: int):
        self.out = out
        self.state = {
            "format": PROGRESS_FORMAT,
            "settings": run_settings(args),
            "games": len(games),
            "games_digest": games_digest(games),
            "positions": plan_size,
            "shards": shards,
            "finished": {},
        }

    def start(self, games: list) -> None:
        """Checks a folder being resumed, or lays out a new one (games.tsv, then progress.json)."""
        path = os.path.join(self.out, PROGRESS)
        if os.path.exists(path):
            try:
                with open(path) as f:
                    old = json.load(f)
                self.check(old)
            except (ValueError, KeyError, TypeError, AttributeError):
                raise Refused(f"{path} cannot be read: use another folder") from None
            self.state["finished"] = old.get("finished", {})
            if not os.path.exists(os.path.join(self.out, GAMES_TSV)):
                write_atomically(self.out, GAMES_TSV, lambda f: f.write(games_tsv(games).encode()))
            return
        if any(n.startswith("labels-") and n.endswith(".npz") for n in os.listdir(self.out)):
            raise Refused(f"{self.out} has label shards but no {PROGRESS}: use an empty folder")
        write_atomically(self.out, GAMES_TSV, lambda f: f.write(games_tsv(games).encode()))
        self.save()

    def check(self, old: dict) -> None:
        """Refuses to resume into a folder of other settings or games: its shards would not match."""
        if old.get("format") != PROGRESS_FORMAT:
            raise Refused(f"{self.out}/{PROGRESS} is not of this version of label.py")
        for key in KEPT_SETTINGS:
            was = old["settings"].get(key, LATER_SETTINGS.get(key))
            if was != self.state["settings"][key]:
                raise Refused(
                    f"{self.out} was labelled with --{key.replace('_', '-')} {was}, "
                    f"not {self.state['settings'][key]}: use the same settings or another folder"
                )
        for key in ("games", "games_digest", "positions", "shards"):
            if old.get(key) != self.state[key]:
                raise Refused(f"{self.out} was labelled from other games ({key} differs): use another folder")
        if old["settings"].get("engine") != self.state["settings"]["engine"]:
            warn(f"{self.out} was labelled by the engine {old['settings'].get('engine')!r} until now")

    def finish(self, index: int, rows: int, planned: int) -> None:
        self.state["finished"][str(index)] = {"rows": rows, "left_out": planned - rows}
        self.save()

    def recount(self, done: list, planned: dict) -> None:
        """Makes the list of finished shards that of the shard files: one that a stop between the two
        writes left unlisted is counted from the file, one whose file was removed is dropped."""
        kept = {str(k) for k in done}
        self.state["finished"] = {k: v for k, v in self.state["finished"].items() if k in kept}
        missed = [k for k in done if str(k) not in self.state["finished"]]
        for k in missed:
            with np.load(os.path.join(self.out, shard_name(k))) as shard:
                rows = len(shard["game"])
            self.state["finished"][str(k)] = {"rows": rows, "left_out": planned[k] - rows}
        self.save()

    def save(self) -> None:
        self.state["finished"] = dict(sorted(self.state["finished"].items(), key=lambda kv: int(kv[0])))
        write_json(self.out, PROGRESS, self.state)


# ---------------------------------------------------------------------------------------------
# The engine


class Engine:
    """The analysis engine as a child process. A thread reads its answers into a queue, so the engine
    never blocks on a full pipe while this side is writing queries."""

    def __init__(self, command: str):
        self.command = command
        try:
            argv = shlex.split(command)
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1
            )
        except (OSError, ValueError) as why:
            raise EngineStopped(f"cannot start the analysis engine {command!r}: {why}") from None
        self.answers = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.answers.put(line)
        self.answers.put(None)

    def send(self, queries: list) -> None:
        try:
            self.proc.stdin.write("".join(json.dumps(q, separators=(",", ":")) + "\n" for q in queries))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineStopped(self.stopped_message()) from None

    def stopped_message(self) -> str:
        try:
            status = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            status = "still running"
        return f"the analysis engine {self.command!r} stopped answering (exit status {status})"

    def close(self) -> None:
        """Ends the engine: stdin closed (KataGo then exits), terminated if it lingers."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.stop()

    def stop(self) -> None:
        """Ends the engine at once, its unanswered queries dropped."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Labeller:
    """Keeps about IN_FLIGHT positions queued at the engine, files each answer under its shard, and
    writes a shard as soon as all its positions are answered (or left out)."""

    def __init__(self, engine: Engine, shards: list, games: list, args, progress: Progress, width: int):
        self.engine, self.games, self.args = engine, games, args
        self.progress, self.width = progress, width
        self.to_send = ((s, g, q) for s in shards for g, q in shard_queries(s, games, args))
        self.pending = {}  # query id -> (shard, game, turns not yet answered)
        self.in_flight = 0
        self.more = True
        self.warnings = set()
        self.written = 0
        self.judged_count = 0
        self.started = time.monotonic()

    def run(self, deadline: float | None) -> bool:
        """Labels until all shards are written (True) or the deadline passes (False)."""
        while True:
            if deadline is not None and time.monotonic() >= deadline:
                return False
            self.fill()
            if not self.pending and not self.more:
                return True
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                line = self.engine.answers.get(timeout=timeout)
            except queue.Empty:
                continue
            if line is None:
                unanswered = sum(len(p[2]) for p in self.pending.values())
                raise EngineStopped(f"{self.engine.stopped_message()} with {unanswered} positions unanswered")
            self.handle(line)

    def fill(self) -> None:
        """Sends queries until IN_FLIGHT positions are waiting."""
        batch = []
        while self.more and self.in_flight < self.args.in_flight:
            item = next(self.to_send, None)
            if item is None:
                self.more = False
                break
            shard, game, query = item
            shard.unsent -= 1
            shard.open += 1
            self.pending[query["id"]] = (shard, game, set(query["analyzeTurns"]))
            self.in_flight += len(query["analyzeTurns"])
            batch.append(query)
        if batch:
            self.engine.send(batch)

    def handle(self, line: str) -> None:
        """Files one answer line (a judgement, an error or a warning)."""
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            warn(f"the engine wrote a line that is not JSON: {line.strip()[:200]}")
            return
        if not isinstance(answer, dict):
            warn(f"the engine wrote JSON that is not an object: {line.strip()[:200]}")
            return
        qid = answer.get("id")
        if "error" in answer:
            self.failed_query(qid, answer)
        elif "warning" in answer:
            self.warn_once(f"the engine warns: {answer['warning']} (field {answer.get('field')})")
        elif answer.get("isDuringSearch"):
            return
        elif qid not in self.pending:
            self.warn_once(f"an answer to no open query ({str(qid)[:50]}) ignored")
        else:
            self.judged(qid, answer)

    def warn_once(self, message: str) -> None:
        """Warns of each kind of problem once: an engine may repeat a warning for every query."""
        if message not in self.warnings:
            self.warnings.add(message)
            warn(message)

    def failed_query(self, qid, answer: dict) -> None:
        """Leaves out the positions of a query the engine refused."""
        if qid not in self.pending:
            raise EngineStopped(
                f"the analysis engine {self.engine.command!r} reported an error for no open query: "
                f"{json.dumps(answer)[:300]}"
            )
        shard, game, turns = self.pending[qid]
        warn(
            f"game {game} ({self.games[game].source}): the engine refused the query for turns "
            f"{sorted(turns)}: {answer['error']} (field {answer.get('field')}); they are left out"
        )
        for turn in sorted(turns):
            self.resolve(qid, turn, None)

    def judged(self, qid: str, answer: dict) -> None:
        shard, game, turns = self.pending[qid]
        turn = answer.get("turnNumber")
        if turn not in turns:
            self.warn_once(f"an answer for turn {turn} of game {game}, which was not asked, ignored")
            return
        row = None
        if answer.get("noResults"):
            self.warn_once("the engine gave no result for some positions; they are left out")
        else:
            try:
                row = answer_row(answer, self.games[game], turn, self.width, self.args.winrates_as, self.args.judgement)
            except (KeyError, TypeError, ValueError) as why:
                self.warn_once(f"answers that cannot be read ({why!r}) are left out")
        self.resolve(qid, turn, row)

    def resolve(self, qid: str, turn: int, row) -> None:
        """Records a position's row (None: left out); writes the shard once nothing of it is open."""
        shard, game, turns = self.pending[qid]
        turns.discard(turn)
        self.in_flight -= 1
        self.judged_count += 1
        if row is not None:
            shard.rows[(game, turn)] = row
        if turns:
            return
        del self.pending[qid]
        shard.open -= 1
        if shard.open == 0 and shard.unsent == 0:
            rows = write_shard(self.progress.out, shard, self.games, self.width)
            self.progress.finish(shard.index, rows, len(shard.positions))
            self.written += 1
            rate = self.judged_count / max(1e-9, time.monotonic() - self.started)
            note(
                f"{shard_name(shard.index)}: {rows} positions ({len(shard.positions) - rows} left out); "
                f"{rate:.0f} positions a second"
            )
            shard.rows = {}


# ---------------------------------------------------------------------------------------------
# The command


def komi_setting(value: str) -> str:
    """--komi: a number (written as Python writes the float, so that 7.50 and 7.5 match on resuming)
    or `game`."""
    if value == "game":
        return value
    try:
        return repr(float(value))
    except ValueError:
        raise argparse.ArgumentTypeError("a number, or `game`") from None


def positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def natural(value: str) -> int:
    number = int(value)
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return number


def parse_args(argv: list):
    parser = argparse.ArgumentParser(
        prog="label.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("inputs", nargs="+", metavar="PATH", help="SGF files, record files or folders")
    parser.add_argument("--out", required=True, help="the output folder (made if missing; resumed if not empty)")
    parser.add_argument("--engine", required=True, help='the analysis engine, e.g. "katago analysis -model M -config C"')
    parser.add_argument("--step", type=positive, default=6, help="judge every STEP-th turn (default 6)")
    parser.add_argument("--seed", type=int, default=11, help="seed of the first turns (default 11, as mkq.py)")
    parser.add_argument(
        "--ownership-every", type=natural, default=20, metavar="N", help="ownership for one game in N (0: none; default 20)"
    )
    parser.add_argument("--komi", type=komi_setting, default="7.5", help="komi to judge with, or `game` (default 7.5)")
    parser.add_argument("--rules", default="chinese", help="KataGo's rules (default chinese: area scoring)")
    parser.add_argument("--max-visits", type=positive, default=1, help="visits a position (default 1: the network's own)")
    parser.add_argument(
        "--judgement",
        choices=("network", "search"),
        default="network",
        help="keep the network's own win rate, lead and stdev (default), or the search's of --max-visits visits",
    )
    parser.add_argument(
        "--winrates-as",
        choices=("BLACK", "WHITE", "SIDETOMOVE"),
        default="BLACK",
        help="the engine's reportAnalysisWinratesAs (default BLACK)",
    )
    parser.add_argument("--shard-size", type=positive, default=100_000, help="positions a shard (default 100000)")
    parser.add_argument("--limit-games", type=positive, metavar="N", help="label only the first N games read")
    parser.add_argument("--seconds", type=float, metavar="S", help="stop cleanly after S seconds (finished shards kept)")
    parser.add_argument(
        "--in-flight", type=positive, default=4096, metavar="N", help="positions queued at the engine at once (default 4096)"
    )
    return parser.parse_args(argv)


def shard_count(positions: int, size: int) -> int:
    return (positions + size - 1) // size


def prepare(args) -> tuple:
    """Reads the games and lays out (or checks, when resuming) the output folder. Returns the games,
    the plan, the progress and the shards already written."""
    games = load_games(args.inputs)[: args.limit_games]
    if not games:
        raise Refused("no game to label")
    plan = plan_positions(games, args.step, args.seed)
    count = shard_count(len(plan), args.shard_size)
    os.makedirs(args.out, exist_ok=True)
    remove_partials(args.out)
    progress = Progress(args.out, args, games, len(plan), count)
    progress.start(games)
    done = {k for k in range(count) if os.path.exists(os.path.join(args.out, shard_name(k)))}
    planned = {k: min(args.shard_size, len(plan) - k * args.shard_size) for k in range(count)}
    progress.recount(sorted(done), planned)
    note(f"{len(games)} games, {len(plan)} positions in {count} shards; {len(done)} shards already written")
    return games, plan, progress, done


def run(args) -> int:
    """Labels the shards not yet written, until all are or --seconds have passed."""
    started = time.monotonic()
    deadline = None if args.seconds is None else started + args.seconds
    games, plan, progress, done = prepare(args)
    count = shard_count(len(plan), args.shard_size)
    shards = [Shard(k, plan[k * args.shard_size : (k + 1) * args.shard_size]) for k in range(count) if k not in done]
    if not shards:
        return 0
    engine = Engine(args.engine)
    labeller = Labeller(engine, shards, games, args, progress, max(g.size for g in games) ** 2)
    try:
        finished = labeller.run(deadline)
    except BaseException:
        engine.stop()
        note(f"{labeller.written} shards written in this run; the rest is for the next")
        raise
    if finished:
        engine.close()
        note(f"done: {count} shards, {labeller.written} written in {time.monotonic() - started:.1f} s")
    else:
        engine.stop()
        note(
            f"stopped after {args.seconds:g} s: {labeller.written} shards written in this run, "
            f"{len(shards) - labeller.written} still to do; run the same command again to go on"
        )
    return 0


def main(argv: list | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return run(args)
    except Refused as why:
        print(f"label.py: error: {why}", file=sys.stderr, flush=True)
        return 1
    except EngineStopped as why:
        print(f"label.py: error: {why}; the finished shards are kept: run again to go on", file=sys.stderr, flush=True)
        return 1
    except KeyboardInterrupt:
        print("label.py: interrupted; the finished shards are kept", file=sys.stderr, flush=True)
        return 130


if __name__ == "__main__":
    sys.exit(main())
