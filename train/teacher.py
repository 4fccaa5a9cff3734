"""Teacher labels joined to `hoshi dataset` records: the targets of distillation.

A strong network's judgement of a position (its win rate, score lead, favourite moves and
ownership) is a far richer target than the game's result; this module finds, for each judged
position of the shared labels (docs/policy-net.md, "Learning from the teacher"), the dataset
record of the same position and gives the targets of a batch from the mover's side, under the
batch's symmetries.
"""

import collections
import glob
import os
import re

import numpy as np

# the komi and rules the shared labels were judged with (their README): area scoring
TEACHER_KOMI = 7.5
TOP_MOVES = 4


Labels = collections.namedtuple(
    "Labels", "game turn winrate lead stdev top top_p ownership has_ownership")


def read_npz(path, fields):
    """The named arrays of an `.npz` file, or a clear error naming the file."""
    try:
        with np.load(path) as z:
            missing = [f for f in fields if f not in z.files]
            if missing:
                raise SystemExit(f"{path}: no field {', '.join(missing)} (has {z.files})")
            return {f: z[f] for f in fields}
    except (OSError, ValueError) as e:
        raise SystemExit(f"{path}: not a readable .npz file ({e})")


LABEL_FIELDS = ("game", "turn", "winrate", "lead", "score_stdev", "policy_top", "policy_p")
POINTS = 19 * 19

# a self-play shard's file name, as `hoshi selfplay` writes it and label.py may read it (xz)
SELFPLAY_SHARD = re.compile(r"selfplay-(\d+)\.sgf(\.xz)?$")
# self-play games' keys lie above every Tom ID: SELFPLAY_KEY | shard << 20 | line
SELFPLAY_KEY = 1 << 40


def folders_of(teacher):
    """The folders of a --teacher setting: one, or several separated by commas (the first
    folder's judgement of a position wins where two judged it)."""
    return [f for f in teacher.split(",") if f] if isinstance(teacher, str) else list(teacher)


def load_labels(teacher, size=19):
    """The labels of `teacher`'s folders (folders_of) of positions on boards of `size`, one row
    a position, sorted by (game, turn), games as game_key gives them (Tom IDs, self-play
    shards' games). A folder is either the shared labels (labels-*.npz and ownership-*.npz,
    joined to them by game and turn: 19x19 Tom games) or label.py's output (games.tsv naming
    each game's source, labels-*.npz with the ownership inside): the same fields either way,
    so a cheap engine's judgement of more positions joins the strong teacher's, and labels of
    hoshi's own games reach a dataset of them."""
    folders = folders_of(teacher)
    if not folders:
        raise SystemExit("no teacher labels' folder given")
    parts = [read_labelled(f, size) if os.path.exists(os.path.join(f, "games.tsv"))
             else read_shared(f, size) for f in folders]
    cat = {f: np.concatenate([p[f] for p in parts]) for f in parts[0]}
    key = cat["game"].astype(np.int64) << 16 | cat["turn"].astype(np.int64)
    order = np.argsort(key, kind="stable")  # by folder within a key: the first folder's first
    first = np.ones(len(order), bool)
    first[1:] = key[order][1:] != key[order][:-1]
    order = order[first]
    cat = {f: v[order] for f, v in cat.items()}
    return Labels(cat["game"].astype(np.int64), cat["turn"].astype(np.int64),
                  cat["winrate"].astype(np.float32), cat["lead"].astype(np.float32),
                  cat["score_stdev"].astype(np.float32), cat["policy_top"].astype(np.int64),
                  cat["policy_p"].astype(np.float32) / 255, cat["ownership"],
                  cat["has_ownership"])


def checked_fields(cat, where):
    """The label fields `cat` after checking that they have one row a position each."""
    for f in LABEL_FIELDS[1:]:
        if len(cat[f]) != len(cat["game"]):
            raise SystemExit(f"{where}: the field {f} has {len(cat[f])} rows, game "
                             f"{len(cat['game'])}")
    if cat["policy_top"].ndim != 2 or cat["policy_top"].shape[1] != TOP_MOVES:
        raise SystemExit(f"{where}: policy_top is {cat['policy_top'].shape}, not [n, 4]")
    return cat


def read_shared(folder, size=19):
    """The shared labels of `folder` as arrays, ownership joined by game and turn."""
    if size != 19:
        raise SystemExit(f"{folder}: the shared labels are of 19x19 games, not {size}x{size}")
    paths = sorted(glob.glob(os.path.join(folder, "labels-*.npz")))
    if not paths:
        raise SystemExit(f"{folder}: no labels-*.npz files")
    parts = [read_npz(p, LABEL_FIELDS) for p in paths]
    cat = checked_fields({f: np.concatenate([p[f] for p in parts]) for f in LABEL_FIELDS},
                         folder)
    key = cat["game"].astype(np.int64) << 16 | cat["turn"].astype(np.int64)
    order = np.argsort(key, kind="stable")
    key = key[order]
    cat = {f: v[order] for f, v in cat.items()}
    n = len(key)
    cat["ownership"] = np.zeros((n, POINTS), np.int8)
    cat["has_ownership"] = np.zeros(n, bool)
    for path in sorted(glob.glob(os.path.join(folder, "ownership-*.npz"))):
        own = read_npz(path, ("game", "turn", "ownership"))
        if own["ownership"].shape[1:] != (POINTS,):
            raise SystemExit(f"{path}: ownership is {own['ownership'].shape}, not [n, 361]")
        k = own["game"].astype(np.int64) << 16 | own["turn"].astype(np.int64)
        at = np.clip(np.searchsorted(key, k), 0, max(n - 1, 0))
        found = (key[at] == k) if n else np.zeros(len(k), bool)
        cat["ownership"][at[found]] = own["ownership"][found]
        cat["has_ownership"][at[found]] = True
    return cat


def game_key(source):
    """A game's source, as label.py's games.tsv or a self-play dataset's names it, as one
    int64: a Tom record (`FILE:LINE:ID`) its ID; a game of a self-play shard
    (`.../selfplay-NNNNN.sgf[.xz]:LINE`) SELFPLAY_KEY | NNNNN << 20 | LINE, the same whether
    label.py read the shard compressed or `hoshi dataset` read it plain; any other game -1,
    for no dataset names it."""
    path, _, line = source.rpartition(":")
    head, _, record = path.rpartition(":")
    if head and record.isdigit() and line.isdigit():
        return int(line)
    shard = SELFPLAY_SHARD.search(os.path.basename(path))
    if shard and line.isdigit():
        return SELFPLAY_KEY | int(shard.group(1)) << 20 | int(line)
    return -1


def game_keys(folder):
    """Each game's key (game_key) from the games.tsv in `folder`, in its order."""
    path = os.path.join(folder, "games.tsv")
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()[1:]
        return np.asarray([game_key(line.split("\t")[1]) for line in lines], np.int64)
    except (OSError, IndexError) as e:
        raise SystemExit(f"{path}: not a list of games with their sources ({e})")


def read_labelled(folder, size=19):
    """label.py's labels in `folder` as the shared labels' arrays: games as their keys
    (game_key), the positions on boards of `size` of games a dataset can name only."""
    keys = game_keys(folder)
    paths = sorted(glob.glob(os.path.join(folder, "labels-*.npz")))
    if not paths:
        raise SystemExit(f"{folder}: no labels-*.npz files")
    points = size * size
    fields = LABEL_FIELDS + ("size", "ownership", "has_ownership")
    parts = [read_npz(p, fields) for p in paths]
    for p, part in zip(paths, parts):
        own = part["ownership"]
        if own.ndim != 2 or own.shape[1] < points and (part["size"] == size).any():
            raise SystemExit(f"{p}: ownership is {own.shape}, too narrow for {size}x{size}")
        part["ownership"] = np.zeros((len(own), points), np.int8) if own.shape[1] < points \
            else own[:, :points]
    cat = checked_fields({f: np.concatenate([p[f] for p in parts]) for f in fields}, folder)
    if len(cat["game"]) and cat["game"].max() >= len(keys):
        raise SystemExit(f"{folder}: game {cat['game'].max()} is not in games.tsv")
    cat["game"] = keys[cat["game"].astype(np.int64)]
    keep = (cat["size"] == size) & (cat["game"] >= 0)
    cat = {f: v[keep] for f, v in cat.items() if f != "size"}
    cat["has_ownership"] = cat["has_ownership"].astype(bool)
    return cat


def load_judge(folder):
    """Another engine's judgement of Tom games, as `label.py` writes it in `folder`
    (labels-*.npz and games.tsv, whose source names each record's Tom ID): sorted keys (Tom ID
    << 16 | turn) and, by key, Black's win rate and lead, to set beside the teacher's on the same
    positions."""
    ids = game_keys(folder)
    paths = sorted(glob.glob(os.path.join(folder, "labels-*.npz")))
    if not paths:
        raise SystemExit(f"{folder}: no labels-*.npz files")
    parts = [read_npz(p, ("game", "turn", "winrate", "lead")) for p in paths]
    cat = {f: np.concatenate([p[f] for p in parts]) for f in ("game", "turn", "winrate", "lead")}
    if len(cat["game"]) and cat["game"].max() >= len(ids):
        raise SystemExit(f"{folder}: game {cat['game'].max()} is not in games.tsv")
    key = ids[cat["game"].astype(np.int64)] << 16 | cat["turn"].astype(np.int64)
    order = np.argsort(key, kind="stable")
    return (key[order], cat["winrate"][order].astype(np.float32),
            cat["lead"][order].astype(np.float32))


def judged_by(judge, labels, rows):
    """Black's win rate and lead that `judge` (load_judge) gives the label rows `rows`; NaN
    where it did not judge the position."""
    keys, winrate, lead = judge
    key = labels.game[rows] << 16 | labels.turn[rows]
    at = np.clip(np.searchsorted(keys, key), 0, max(len(keys) - 1, 0))
    found = (keys[at] == key) if len(keys) else np.zeros(len(rows), bool)
    return (np.where(found, winrate[at] if len(keys) else np.nan, np.nan),
            np.where(found, lead[at] if len(keys) else np.nan, np.nan))


def tom_lines(games):
    """Tom IDs -> their line in `games`/Kifu.index (the dataset's game field): two sorted
    arrays."""
    path = os.path.join(games, "Kifu.index")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            ids = [int(line.split("\t", 1)[0]) for line in f]
    except (OSError, ValueError) as e:
        raise SystemExit(f"{path}: cannot read the games' IDs ({e})")
    ids = np.asarray(ids, np.int64)
    order = np.argsort(ids)
    return ids[order], order.astype(np.int64)


def selfplay_lines(data):
    """The keys (game_key) of the games of the self-play dataset in the folder `data` -> their
    number in its records, from the games.tsv `hoshi dataset` wrote beside them: two sorted
    arrays, as tom_lines."""
    path = os.path.join(data, "games.tsv")
    try:
        with open(path, encoding="utf-8") as f:
            rows = [line.split("\t") for line in f.read().splitlines()[1:]]
        numbers = np.asarray([int(row[0]) for row in rows], np.int64)
        keys = np.asarray([game_key(row[1]) for row in rows], np.int64)
    except (OSError, ValueError, IndexError) as e:
        raise SystemExit(f"{path}: not hoshi dataset's list of self-play games ({e})")
    order = np.argsort(keys)
    return keys[order], numbers[order]


def dataset_lines(data, games):
    """Game keys -> the dataset's game numbers for the dataset in `data`: a self-play one's
    (selfplay_lines) where `hoshi dataset` wrote its games.tsv there, else the Tom games' of the
    `games` folder (tom_lines)."""
    if os.path.exists(os.path.join(data, "games.tsv")):
        return selfplay_lines(data)
    return tom_lines(games)


def record_keys(dataset):
    """Each record's (game, move number) as one int64 key."""
    tail = np.asarray(dataset.raw[:, dataset.points + 2:dataset.points + 8])
    tail = np.ascontiguousarray(tail)
    number = tail[:, 0:2].copy().view("<u2")[:, 0].astype(np.int64)
    game = tail[:, 2:6].copy().view("<u4")[:, 0].astype(np.int64)
    return game << 16 | number


class Teacher:
    """The labelled records of one dataset file: `records` (record indices) and `rows` (their
    label rows), in record order."""

    def __init__(self, labels, dataset, ids, lines):
        if labels.ownership.shape[1] != dataset.size ** 2:
            raise SystemExit(f"{dataset.path}: the labels are of {labels.ownership.shape[1]} "
                             f"points, the dataset's boards {dataset.size}x{dataset.size}")
        self.labels = labels
        at = np.clip(np.searchsorted(ids, labels.game), 0, len(ids) - 1)
        known = ids[at] == labels.game
        # a record holds the position before its move number: turn t is move number t + 1
        key = np.where(known, lines[at] << 16 | (labels.turn + 1), -1)
        keys = record_keys(dataset)
        order = np.argsort(keys, kind="stable")
        where = np.clip(np.searchsorted(keys[order], key), 0, len(keys) - 1)
        found = known & (keys[order][where] == key)
        records = order[where[found]]
        rows = np.flatnonzero(found)
        sort = np.argsort(records, kind="stable")
        self.records, self.rows = records[sort], rows[sort]

    def __len__(self):
        return len(self.records)

    def draw(self, rng, batch):
        """`batch` random (record, row) pairs, by record order (the memory map reads faster)."""
        pick = np.sort(rng.integers(0, len(self.records), batch))
        return self.records[pick], self.rows[pick]


def to_points(top, size):
    """The labels' points (y * N + x, y from the top; N * N a pass) as the dataset's (row * N +
    col, row from the bottom); a pass stays N * N."""
    on = top < size * size
    y, x = np.divmod(np.where(on, top, 0), size)
    return np.where(on, (size - 1 - y) * size + x, top)


Targets = collections.namedtuple("Targets", "win lead policy ownership has_ownership")


def targets(labels, rows, side, move, which, perm, inverse, size, teacher_policy):
    """The batch's targets from the mover's side (side 0 Black, 1 White), the symmetry
    which[i] applied as to the input bytes: the win probability, the lead in points, the
    policy's target distribution [n, N*N] (the teacher's favourite moves, renormalised, at
    weight `teacher_policy`, the move played at the rest; either alone where the other is
    missing or a pass) and the ownership [n, N*N] (+1 the mover's) where the labels have it."""
    n, points = len(rows), size * size
    black = side == 0
    win = np.where(black, labels.winrate[rows], 1 - labels.winrate[rows]).astype(np.float32)
    lead = np.where(black, labels.lead[rows], -labels.lead[rows]).astype(np.float32)

    top = to_points(labels.top[rows], size)
    on = top < points
    top = np.where(on, inverse[which[:, None], np.where(on, top, 0)], 0)
    p = np.where(on, labels.top_p[rows], 0)
    teacher = np.zeros((n, points), np.float32)
    np.add.at(teacher, (np.repeat(np.arange(n), TOP_MOVES), top.reshape(-1)), p.reshape(-1))
    total = teacher.sum(1)
    has_teacher = total > 0
    teacher[has_teacher] /= total[has_teacher, None]
    played = np.zeros((n, points), np.float32)
    has_move = (move >= 0) & (move < points)
    played[np.flatnonzero(has_move), move[has_move]] = 1
    w = np.where(has_teacher & has_move, teacher_policy,
                 np.where(has_teacher, 1.0, 0.0)).astype(np.float32)[:, None]
    policy = w * teacher + (1 - w) * played

    own = labels.ownership[rows].reshape(n, size, size)[:, ::-1].reshape(n, points)
    own = own.astype(np.float32) / 127 * np.where(black, 1.0, -1.0)[:, None]
    own = np.take_along_axis(own, perm[which], axis=1)
    return Targets(win, lead, policy.astype(np.float32), own.astype(np.float32),
                   labels.has_ownership[rows])


def unjudged_games(labels, dataset, ids, lines):
    """The Tom IDs (sorted) of `dataset`'s games that no label judges (`ids`, `lines`: tom_lines'
    arrays): the games whose positions a cheaper engine's labels would add to the teacher's,
    once write_records has put them where label.py reads them."""
    played = np.unique(record_keys(dataset) >> 16)
    id_of_line = np.empty(len(ids), np.int64)
    id_of_line[lines] = ids  # `lines` orders every line of the index: each gets its ID
    return np.setdiff1d(id_of_line[played[played < len(ids)]], labels.game)


def write_records(games, ids, path):
    """The Tom records (`ID<TAB>;B[pd];W[dd]...` lines of `games`/kifu/) of the games `ids`
    into `path`, one a line, the last record of an ID where several files have it (as `hoshi
    dataset` takes them): the games `label.py` is to judge. Returns the number written."""
    want = set(int(i) for i in ids)
    found = {}
    kifu = os.path.join(games, "kifu")
    try:
        for name in sorted(os.listdir(kifu)):
            with open(os.path.join(kifu, name), encoding="utf-8", errors="replace") as f:
                for line in f:
                    gid = line.split("\t", 1)[0].strip()
                    if gid.isdigit() and int(gid) in want:
                        found[int(gid)] = line.rstrip("\r\n")
    except OSError as e:
        raise SystemExit(f"{kifu}: cannot read the records ({e})")
    with open(path, "w", encoding="utf-8") as f:
        for gid in sorted(found):
            f.write(found[gid] + "\n")
    return len(found)
