#!/usr/bin/env python3
"""Train hoshi's network (policy and value heads) from `hoshi dataset` files, export it as `.hnet`.

The formats (dataset records, input planes, network shape, weights file, fixture) are the
contract in docs/policy-net.md. Modes:

  train.py                       train (or resume: the same command continues from the checkpoint)
  train.py --value-only --init W.hnet   train only a value head on W's frozen trunk and policy
  train.py --init W.hnet         train all of W further (its trunk and policy; its value head
                                 where the run's has that shape, else a new one)
  train.py --export FILE.hnet    write the checkpoint's weights, batch norm folded, and stop
  train.py --evaluate            policy and value figures of the checkpoint on all of test.bin
                                 (and ai.bin), by game phase
  train.py --write-fixture DIR   a small random network and the logits and value it gives on a
                                 few positions
"""

import collections

import argparse
import os
import random
import signal
import struct
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import teacher as teaching

HERE = os.path.dirname(os.path.abspath(__file__))
PLANES = 19
# the bytes each version's records have after the N*N input bytes
RECORD_VISITS = 8  # the root moves a version 3 record keeps of the search's visits
DATASET_TAILS = {b"HOSHIDS1": 8, b"HOSHIDS2": 12, b"HOSHIDS3": 14 + 4 * RECORD_VISITS}
DATASET_MAGIC = b"HOSHIDS3"
NO_SEARCH_VALUE = 65535  # a record's search-value field when its game has none
NO_VISIT_POINT = 65535  # the point of an unused visits slot
DATASET_HEADER = 16
NET_MAGIC = b"HOSHINET"
NET_HEADER = {1: 24, 2: 36, 3: 44}  # bytes of the header of each version
VALUE_HEAD = 1  # bits of the heads flags (v2: the value head only; v3: all three)
SCORE_HEAD = 2
OWNERSHIP_HEAD = 4


def log(*parts):
    print(*parts, flush=True)


# --- input planes ------------------------------------------------------------------------------


def plane_table():
    """The 256 x 19 table that expands a point's byte into its input planes."""
    table = np.zeros((256, PLANES), np.float32)
    for code in range(256):
        colour = code & 3
        field = (code >> 2) & 3
        age = (code >> 4) & 7
        planes = table[code]
        if colour == 1:  # own stone; field = liberties - 1, capped at 3
            planes[0] = 1
            planes[3 + field] = 1
        elif colour == 2:  # opponent stone
            planes[1] = 1
            planes[7 + field] = 1
        elif colour == 0:  # empty point
            planes[2] = 1
            planes[11] = (code >> 2) & 1  # illegal for the side to move
            planes[12] = (code >> 3) & 1  # ladder capture
            planes[13] = (code >> 7) & 1  # ladder escape that is caught
        if 1 <= age <= 4:
            planes[13 + age] = 1
        planes[18] = 1  # on the board
    return table


# --- the dataset -------------------------------------------------------------------------------


Records = collections.namedtuple("Records",
                                 "codes move number game side winner komi2 search visits")


class Dataset:
    """A `hoshi dataset` file, memory-mapped: records of N*N input bytes + move, move number,
    game and, from version 2 on, side to move, winner and komi, from version 3 on the search's
    win rate and its most visited root moves."""

    def __init__(self, path):
        with open(path, "rb") as f:
            header = f.read(DATASET_HEADER)
        if len(header) != DATASET_HEADER or header[:8] not in DATASET_TAILS:
            raise SystemExit(f"{path}: not a hoshi dataset file (magic {header[:8]!r})")
        self.path = path
        self.version = int(header[7:8])
        self.size = struct.unpack("<H", header[8:10])[0]
        self.points = self.size * self.size
        self.record = self.points + DATASET_TAILS[header[:8]]
        body = os.path.getsize(path) - DATASET_HEADER
        if body % self.record:
            raise SystemExit(f"{path}: {body} bytes after the header, not a whole number of "
                             f"{self.record}-byte records")
        self.count = body // self.record
        if self.count == 0:
            raise SystemExit(f"{path}: no records")
        self.raw = np.memmap(path, np.uint8, "r", offset=DATASET_HEADER,
                             shape=(self.count, self.record))

    def read(self, index):
        """Records `index` (an array): input bytes [n, N*N] uint8 and the fields as int64 arrays
        (a version 1 file: side 0, winner 0 (unknown) and komi 0), the search's win rate for the
        side to move as float32 (NaN where there is none, as in every file before version 3),
        and its most visited moves [n, RECORD_VISITS, 2] (point, visits; unused slots, all of
        them before version 3, NO_VISIT_POINT and 0)."""
        rows = np.asarray(self.raw[index])
        tail = np.ascontiguousarray(rows[:, self.points:])

        def field(at, kind):
            kind = np.dtype(kind)
            return tail[:, at:at + kind.itemsize].view(kind)[:, 0].astype(np.int64)

        move, number, game = field(0, "<u2"), field(2, "<u2"), field(4, "<u4")
        if self.version == 1:
            side = winner = komi2 = np.zeros(len(rows), np.int64)
        else:
            side, winner, komi2 = field(8, "u1"), field(9, "u1"), field(10, "<i2")
        search = np.full(len(rows), np.nan, np.float32)
        visits = np.zeros((len(rows), RECORD_VISITS, 2), np.int64)
        visits[:, :, 0] = NO_VISIT_POINT
        if self.version >= 3:
            raw = field(12, "<u2")
            search = np.where(raw == NO_SEARCH_VALUE, np.nan, raw / 65534).astype(np.float32)
            pairs = tail[:, 14:14 + 4 * RECORD_VISITS].copy().view("<u2")
            visits = pairs.reshape(len(rows), RECORD_VISITS, 2).astype(np.int64)
        return Records(rows[:, :self.points], move, number, game, side, winner, komi2, search,
                       visits)


def value_targets(records):
    """Per record: 1.0 where the side to move won the game, else 0.0; and whether the winner is
    known (the value is learnt and measured only there)."""
    known = records.winner != 0
    won = records.winner == records.side + 1
    return won.astype(np.float32), known


def value_training_targets(records, search_weight):
    """The value's training targets and where they are known: the game's result, or where the
    record has the search's win rate, (1 - w) x result + w x win rate. The search's estimate is
    far less noisy than one game's result (at 800 playouts it names the winner of hoshi's
    self-play 76% of the time), and half of each learnt best of the mixes tried
    (docs/policy-net.md); measuring always uses the result alone."""
    won, known = value_targets(records)
    if search_weight <= 0:
        return won, known
    has = ~np.isnan(records.search)
    mixed = np.where(has, (1 - search_weight) * won + search_weight * records.search, won)
    return mixed.astype(np.float32), known


def mover_komi(records):
    """The komi the side to move receives, in points: Black's komi for White, its negation for
    Black (the value head's scalar input, before its division by 15)."""
    komi = records.komi2.astype(np.float32) / 2
    return np.where(records.side == 1, komi, -komi).astype(np.float32)


def value_selected(game, number, every):
    """Whether the value loss counts the record of `game` at move `number`: 1 in `every`
    (game, move) pairs chosen by a hash, the same in every sitting and every epoch."""
    if every <= 1:
        return np.ones(len(game), bool)
    with np.errstate(over="ignore"):  # splitmix64's finaliser of game * 2^16 + number
        h = (game.astype(np.uint64) << np.uint64(16)) + number.astype(np.uint64)
        h += np.uint64(0x9E3779B97F4A7C15)
        h = (h ^ (h >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        h = (h ^ (h >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(31)
    return h % np.uint64(every) == 0


def symmetries(n):
    """The 8 symmetries of the N x N square as point permutations.

    perm[s][p] is the point whose byte lands on p (transformed[p] = original[perm[s][p]]),
    inverse[s][q] is where the byte of point q lands. Points are row * N + col.
    """
    grid = np.arange(n * n).reshape(n, n)  # grid[row][col]
    perm = []
    for s in range(8):
        g = grid.T if s & 4 else grid
        perm.append(np.rot90(g, s & 3).reshape(-1))
    perm = np.stack(perm).astype(np.int64)
    inverse = np.argsort(perm, axis=1)
    return perm, inverse


def apply_symmetry(codes, move, which, perm, inverse):
    """Transform each sample's bytes [n, N*N] and move by symmetry which[i] (moves off the board kept)."""
    codes = np.take_along_axis(codes, perm[which], axis=1)
    return codes, move_points(move, which, inverse)


def move_points(points, which, inverse):
    """Points [n] or [n, k] moved by each sample's symmetry which[i]; points off the board (an
    unused slot, a pass) kept as they are."""
    on_board = (points >= 0) & (points < inverse.shape[1])
    rows = which if points.ndim == 1 else which[:, None]
    return np.where(on_board, inverse[rows, np.where(on_board, points, 0)], points)


# --- the network -------------------------------------------------------------------------------


def conv_bn(inputs, outputs, kernel, folded):
    """A convolution and its batch norm; `folded`: a convolution with a bias and no batch norm,
    which is what a `.hnet` file holds (a network started from one, frozen or trained further)."""
    conv = nn.Conv2d(inputs, outputs, kernel, padding=kernel // 2, bias=folded)
    return conv, (nn.Identity() if folded else nn.BatchNorm2d(outputs))


def board_pool(x):
    """KataGo's global pooling of activations x [n, C, N, N]: each channel's mean over the
    points, that mean scaled by (N - 14) / 10 (so that one network can tell board sizes apart)
    and its maximum, [n, 3C]."""
    n = x.shape[-1]
    mean = x.mean((2, 3))
    return torch.cat([mean, mean * ((n - 14) / 10), x.amax((2, 3))], 1)


class Block(nn.Module):
    """Two 3x3 convolutions and the skip; a pooled block (`pooled`) also adds to its middle
    activations a bias computed from their pooling over the whole board (KataGo's global
    pooling), which lets a small trunk carry what happens far away (a group's life, who leads)
    to every point. The bias starts at zero: a block started from a `.hnet` file computes what
    it did."""

    def __init__(self, channels, folded=False, pooled=False):
        super().__init__()
        self.conv1, self.bn1 = conv_bn(channels, channels, 3, folded)
        self.pool = nn.Linear(3 * channels, channels, bias=False) if pooled else None
        if pooled:
            nn.init.zeros_(self.pool.weight)
        self.conv2, self.bn2 = conv_bn(channels, channels, 3, folded)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        if self.pool is not None:
            y = F.relu(y + self.pool(board_pool(y))[:, :, None, None])
        y = self.bn2(self.conv2(y))
        return F.relu(x + y)


SCORE_SCALE = 20.0  # points: the score output is the mover's lead divided by this


class ValueHead(nn.Module):
    """KataGo's pooling, so that one head serves every board size: a 1x1 convolution to V
    channels, their mean, their mean scaled by the board's size and their max over the points,
    the komi the side to move receives; a hidden layer; one logit of the mover's win and, with
    `score`, the mover's lead in points / SCORE_SCALE. With `ownership`, a 1x1 convolution of
    the V channels gives each point's ownership logit (tanh of it: +1 the mover's)."""

    def __init__(self, channels, value_channels, hidden, score=False, ownership=False):
        super().__init__()
        self.channels, self.hidden = value_channels, hidden
        self.score, self.ownership = score, ownership
        self.conv = nn.Conv2d(channels, value_channels, 1, bias=False)
        self.bn = nn.BatchNorm2d(value_channels)
        self.fc1 = nn.Linear(3 * value_channels + 1, hidden)
        self.fc2 = nn.Linear(hidden, 2 if score else 1)
        self.own = nn.Conv2d(value_channels, 1, 1) if ownership else None

    def activations(self, trunk):
        return F.relu(self.bn(self.conv(trunk)))

    def forward(self, trunk, komi):
        """The value logit [n]."""
        return self.outputs(trunk, komi)[0]

    def outputs(self, trunk, komi):
        """The value logit [n], the score (the mover's lead / SCORE_SCALE) [n] or None, the
        ownership logits [n, N*N] or None."""
        v = self.activations(trunk)
        out = value_pool(v, komi, self.fc1.weight, self.fc1.bias, self.fc2.weight,
                         self.fc2.bias)
        score = out[:, 1] if self.score else None
        own = self.own(v).flatten(1) if self.own is not None else None
        return out[:, 0], score, own


def value_pool(v, komi, w1, b1, w2, b2):
    """The value head's outputs [n, 1 or 2] from its activations v [n, V, N, N] and the
    mover's komi [n] (the part after the convolution, shared by the training network and the
    folded one)."""
    pooled = torch.cat([board_pool(v), (komi.to(v.dtype) / 15)[:, None]], 1)
    return F.linear(F.relu(F.linear(pooled, w1, b1)), w2, b2)


def value_pool_logit(v, komi, w1, b1, w2, b2):
    """The value logit alone (see value_pool)."""
    return value_pool(v, komi, w1, b1, w2, b2)[:, 0]


class Net(nn.Module):
    """Stem 3x3 conv + BN + ReLU, residual blocks (those whose index is in `pool_blocks` with
    global pooling); a 1x1 policy head with bias (one logit a point) and, unless value_channels
    is 0, a value head (one logit: the mover wins), with a score and an ownership output if
    asked."""

    def __init__(self, channels, blocks, value_channels=0, value_hidden=64, folded=False,
                 pool_blocks=(), score=False, ownership=False):
        super().__init__()
        self.channels = channels
        self.blocks_count = blocks
        self.pool_blocks = tuple(sorted(set(pool_blocks)))
        if any(not 0 <= i < blocks for i in self.pool_blocks):
            raise SystemExit(f"pooled blocks {self.pool_blocks}: the network has {blocks}")
        if (score or ownership) and not value_channels:
            raise SystemExit("the score and ownership outputs are part of the value head")
        self.stem, self.stem_bn = conv_bn(PLANES, channels, 3, folded)
        self.blocks = nn.ModuleList(Block(channels, folded, i in self.pool_blocks)
                                    for i in range(blocks))
        self.head = nn.Conv2d(channels, 1, 1, bias=True)
        self.value = ValueHead(channels, value_channels, value_hidden, score, ownership) \
            if value_channels else None
        for block in self.blocks:  # each block starts as the identity: trains faster
            if not folded:
                nn.init.zeros_(block.bn2.weight)

    @property
    def version(self):
        """The `.hnet` version that holds it: 1 a policy network, 2 with a value head, 3 with
        pooled blocks, a score or an ownership output."""
        if self.pool_blocks or (self.value is not None and (self.value.score or
                                                            self.value.ownership)):
            return 3
        return 2 if self.value is not None else 1

    def trunk(self, x):
        x = F.relu(self.stem_bn(self.stem(x)))
        for block in self.blocks:
            x = block(x)
        return x

    def forward(self, x, komi=None):
        """Policy logits [batch, N*N] (point row * N + col) and value logits [batch] (None
        without a value head or a komi)."""
        t = self.trunk(x)
        policy = self.head(t).flatten(1)
        if self.value is None or komi is None:
            return policy, None
        return policy, self.value(t, komi)

    def judge(self, x, komi):
        """Policy logits, value logits, score (lead / SCORE_SCALE, or None) and ownership
        logits (or None) of a network with a value head."""
        t = self.trunk(x)
        return (self.head(t).flatten(1),) + self.value.outputs(t, komi)


def fold(conv, bn):
    """The convolution's weights and bias with the (eval-mode) batch norm after it folded in; a
    convolution without one (a network started from a `.hnet` file) as it is, bit for bit."""
    if isinstance(bn, nn.Identity):
        bias = conv.bias if conv.bias is not None else torch.zeros(conv.out_channels)
        return conv.weight.detach().float(), bias.detach().float()
    w = conv.weight.detach().double()
    scale = bn.weight.detach().double() / torch.sqrt(bn.running_var.detach().double() + bn.eps)
    bias = bn.bias.detach().double() - bn.running_mean.detach().double() * scale
    if conv.bias is not None:
        bias = bias + conv.bias.detach().double() * scale
    return (w * scale[:, None, None, None]).float(), bias.float()


def folded_tensors(model):
    """The weights file's trunk and policy tensors in its order (a version 1 file's, with a
    pooled block's [C][3C] pooling weights after its first convolution)."""
    tensors = list(fold(model.stem, model.stem_bn))
    for block in model.blocks:
        tensors += fold(block.conv1, block.bn1)
        if block.pool is not None:
            tensors.append(block.pool.weight.detach().float())
        tensors += fold(block.conv2, block.bn2)
    tensors.append(model.head.weight.detach().float().reshape(1, model.channels))
    tensors.append(model.head.bias.detach().float().reshape(1))
    return tensors


def folded_value_tensors(value):
    """The value head's tensors in the file's order: conv [V][C], bias [V], W1 [H][3V+1], b1 [H],
    W2 [O][H], b2 [O] (O: 2 with the score output, else 1), and with the ownership output its
    1x1 convolution [1][V] and bias [1]."""
    w, b = fold(value.conv, value.bn)
    tensors = [w.reshape(value.channels, -1), b] + [t.detach().float() for t in (
        value.fc1.weight, value.fc1.bias, value.fc2.weight, value.fc2.bias)]
    if value.own is not None:
        tensors += [value.own.weight.detach().float().reshape(1, value.channels),
                    value.own.bias.detach().float()]
    return tensors


def heads_flags(score, ownership):
    return VALUE_HEAD | (SCORE_HEAD if score else 0) | (OWNERSHIP_HEAD if ownership else 0)


def write_hnet(model, path):
    """Version 1 for a policy network, 2 with a value head, 3 with pooled blocks, a score or an
    ownership output (`Net.version`)."""
    tensors = folded_tensors(model)
    fields = [model.version, PLANES, model.channels, model.blocks_count]
    value = model.value
    if value is not None:
        fields += [heads_flags(value.score, value.ownership), value.channels, value.hidden]
        tensors += folded_value_tensors(value)
    elif model.version == 3:
        fields += [0, 0, 0]
    if model.version == 3:
        mask = sum(1 << i for i in model.pool_blocks)
        fields += [mask & 0xFFFFFFFF, mask >> 32]
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(NET_MAGIC + struct.pack(f"<{len(fields)}I", *fields))
        for t in tensors:
            f.write(t.cpu().contiguous().numpy().astype("<f4").tobytes())
    os.replace(tmp, path)
    return os.path.getsize(path)


def policy_shapes(c, b, pool_blocks=()):
    shapes = [(c, PLANES, 3, 3), (c,)]
    for i in range(b):
        shapes += [(c, c, 3, 3), (c,)] + ([(c, 3 * c)] if i in pool_blocks else []) + \
            [(c, c, 3, 3), (c,)]
    return shapes + [(1, c), (1,)]


def value_shapes(c, v, h, score=False, ownership=False):
    outputs = 2 if score else 1
    return [(v, c), (v,), (h, 3 * v + 1), (h,), (outputs, h), (outputs,)] + \
        ([(1, v), (1,)] if ownership else [])


def hnet_size(channels, blocks, value_channels=0, value_hidden=0, version=None, pool_blocks=(),
              score=False, ownership=False):
    """The bytes of a weights file: by default the lowest version that holds the network."""
    shapes = policy_shapes(channels, blocks, pool_blocks)
    if value_channels:
        shapes += value_shapes(channels, value_channels, value_hidden, score, ownership)
    if version is None:
        version = 3 if (pool_blocks or score or ownership) else (2 if value_channels else 1)
    return NET_HEADER[version] + 4 * sum(int(np.prod(s)) for s in shapes)


Hnet = collections.namedtuple("Hnet", "channels blocks value_channels value_hidden tensors "
                                      "value_tensors pool_blocks score ownership version")


def read_hnet(path):
    """A weights file of version 1, 2 or 3: its shape and float32 tensors in file order
    (value_tensors empty and value_channels 0 without a value head)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < NET_HEADER[1] or data[:8] != NET_MAGIC:
        raise SystemExit(f"{path}: not a hoshi weights file")
    version, planes, c, b = struct.unpack("<IIII", data[8:24])
    if version not in NET_HEADER or planes != PLANES:
        raise SystemExit(f"{path}: version {version} with {planes} planes: not a version 1, 2 "
                         f"or 3 hoshi weights file of {PLANES} planes")
    if len(data) < NET_HEADER[version]:
        raise SystemExit(f"{path}: the version {version} header is truncated")
    v = h = flags = 0
    pool_blocks = ()
    if version >= 2:
        flags, v, h = struct.unpack("<III", data[24:36])
        known = VALUE_HEAD | (SCORE_HEAD | OWNERSHIP_HEAD if version == 3 else 0)
        valued = flags & VALUE_HEAD and v and h
        if flags & ~known or not (valued or (flags == 0 and v == h == 0)):
            raise SystemExit(f"{path}: heads flags {flags} with a value head of {v} x {h}")
    if version == 3:
        low, high = struct.unpack("<II", data[36:44])
        mask = low | high << 32
        pool_blocks = tuple(i for i in range(64) if mask >> i & 1)
        if any(i >= b for i in pool_blocks):
            raise SystemExit(f"{path}: pooled blocks {pool_blocks} in a network of {b} blocks")
    score, ownership = bool(flags & SCORE_HEAD), bool(flags & OWNERSHIP_HEAD)
    expected = hnet_size(c, b, v, h, version, pool_blocks, score, ownership)
    if len(data) != expected:
        raise SystemExit(f"{path}: {len(data)} bytes, expected {expected}")
    values = np.frombuffer(data, "<f4", offset=NET_HEADER[version])
    tensors, at = [], 0
    shapes = policy_shapes(c, b, pool_blocks)
    for shape in shapes + (value_shapes(c, v, h, score, ownership) if v else []):
        n = int(np.prod(shape))
        tensors.append(torch.from_numpy(values[at:at + n].copy()).reshape(shape))
        at += n
    split = len(shapes)
    return Hnet(c, b, v, h, tensors[:split], tensors[split:], pool_blocks, score, ownership,
                version)


def folded_trunk(net, x):
    """The trunk of a weights file (`read_hnet`) in float32, and the iterator over its tensors,
    left at the policy head's."""
    t = iter(net.tensors)
    h = F.relu(F.conv2d(x, next(t), next(t), padding=1))
    for i in range(net.blocks):
        y = F.relu(F.conv2d(h, next(t), next(t), padding=1))
        if i in net.pool_blocks:
            y = F.relu(y + F.linear(board_pool(y), next(t))[:, :, None, None])
        y = F.conv2d(y, next(t), next(t), padding=1)
        h = F.relu(h + y)
    return h, t


def folded_forward(net, x, komi=None):
    """The network of a weights file (`read_hnet`), in float32: what the Rust forward pass
    computes. Policy logits, and the mover's win probability when the file has a value head and
    `komi` (the mover's, [n]) is given."""
    logits, value, _, _ = folded_judge(net, x, komi)
    return logits, value


def folded_judge(net, x, komi=None):
    """folded_forward and, where the file has them, the mover's lead in points [n] and its
    ownership [n, N*N] (-1 to +1); None where it has not."""
    h, t = folded_trunk(net, x)
    w, b = next(t), next(t)
    logits = F.conv2d(h, w.reshape(1, net.channels, 1, 1), b).flatten(1)
    if not net.value_channels or komi is None:
        return logits, None, None, None
    conv, bias, w1, b1, w2, b2 = net.value_tensors[:6]
    v = F.relu(F.conv2d(h, conv.reshape(net.value_channels, net.channels, 1, 1), bias))
    out = value_pool(v, komi, w1, b1, w2, b2)
    score = out[:, 1] * SCORE_SCALE if net.score else None
    own = None
    if net.ownership:
        wo, bo = net.value_tensors[6:]
        own = torch.tanh(F.conv2d(v, wo.reshape(1, net.value_channels, 1, 1), bo).flatten(1))
    return logits, torch.sigmoid(out[:, 0]), score, own


def load_hnet(model, net):
    """Copies a weights file's trunk and policy head into `model`, built with `folded=True` and
    the same shape (pooled blocks the file has not start at zero), and its value head with its
    score and ownership outputs where the model's has the same shape (`load_hnet_heads`); True
    when the heads were copied, False when the model's train afresh."""
    if (net.channels, net.blocks) != (model.channels, model.blocks_count):
        raise SystemExit(f"the weights file is {net.blocks} x {net.channels}, the model "
                         f"{model.blocks_count} x {model.channels}")
    missing = set(net.pool_blocks) - set(model.pool_blocks)
    if missing:
        raise SystemExit(f"the weights file pools in blocks {sorted(missing)}, the model not")
    t = iter(net.tensors)
    with torch.no_grad():
        for conv in [model.stem]:
            conv.weight.copy_(next(t))
            conv.bias.copy_(next(t))
        for i, block in enumerate(model.blocks):
            block.conv1.weight.copy_(next(t))
            block.conv1.bias.copy_(next(t))
            if i in net.pool_blocks:
                block.pool.weight.copy_(next(t))
            block.conv2.weight.copy_(next(t))
            block.conv2.bias.copy_(next(t))
        model.head.weight.copy_(next(t).reshape(model.head.weight.shape))
        model.head.bias.copy_(next(t))
    return load_hnet_heads(model, net)


def load_hnet_heads(model, net):
    """The file's value head (and score and ownership outputs) into the model's, where both
    have the same channels, hidden width and outputs. The file's 1x1 convolution carries a bias
    where the model's has a batch norm: that starts as the identity plus the bias (exact in
    eval mode) until `calibrate_copied_head` fits it to the training positions. Why copy: a
    judge carried to another board size starts from its judgement, not from nothing."""
    head = model.value
    if head is None or not net.value_channels:
        return False
    if (net.value_channels, net.value_hidden, net.score, net.ownership) != \
            (head.channels, head.hidden, head.score, head.ownership):
        return False
    t = iter(net.value_tensors)
    with torch.no_grad():
        head.conv.weight.copy_(next(t).reshape(head.conv.weight.shape))
        head.bn.weight.fill_(1.0)
        head.bn.bias.copy_(next(t))
        head.bn.running_mean.zero_()
        head.bn.running_var.fill_(1.0 - head.bn.eps)
        for layer in (head.fc1, head.fc2) + ((head.own,) if head.own is not None else ()):
            layer.weight.copy_(next(t).reshape(layer.weight.shape))
            layer.bias.copy_(next(t))
    return True


@torch.no_grad()
def calibrate_copied_head(model, dataset, index, batcher, device, amp):
    """A value head copied from a weights file computes, in training as in use, what the file's
    did: its batch norm's scale becomes the spread of the convolution's outputs over the
    records `index` and its shift their mean plus the file's bias, so that normalising by the
    positions' statistics undoes itself."""
    bn = model.value.bn
    bias = bn.bias.clone()
    settle_batch_norm(model, dataset, index, batcher, device, amp)
    bn.weight.copy_(torch.sqrt(bn.running_var + bn.eps))
    bn.bias.copy_(bias + bn.running_mean)


# --- batches -----------------------------------------------------------------------------------


class Batcher:
    """Turns input bytes into plane tensors, legal-move masks and targets on the device."""

    def __init__(self, device):
        self.device = device
        self.table = torch.from_numpy(plane_table()).to(device)

    def tensors(self, codes, move, size):
        codes = torch.from_numpy(np.ascontiguousarray(codes))
        move = torch.from_numpy(np.ascontiguousarray(move))
        if self.device.type == "cuda":
            codes = codes.pin_memory().to(self.device, non_blocking=True)
            move = move.pin_memory().to(self.device, non_blocking=True)
        n = codes.shape[0]
        codes = codes.long()
        # [n, N*N, 19] is already channels-last for [n, 19, N, N]
        x = self.table[codes].view(n, size, size, PLANES).permute(0, 3, 1, 2)
        # the search chooses among empty points legal for the mover; the move played is one
        legal = (codes & 7) == 0
        on_board = (move >= 0) & (move < size * size)
        target = torch.where(on_board, move, torch.full_like(move, -100))
        legal[on_board.nonzero(as_tuple=True)[0], move[on_board]] = True
        return x, legal, target


def masked_logits(logits, legal):
    # finite: a row with nothing legal (a pass) must not turn the gradients into NaN
    return logits.float().masked_fill(~legal, -1e9)


def hits(logits, target):
    """Top-1 and top-5 hit per sample (logits already masked)."""
    top = logits.topk(5, dim=1).indices
    match = top == target[:, None]
    return match[:, 0], match.any(dim=1)


# --- devices and precision ---------------------------------------------------------------------


def cpu_bf16_supported():
    try:
        return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except Exception:  # noqa: BLE001 - an older or stripped build: no bf16
        return False


def setup_device(args):
    if args.threads:
        torch.set_num_threads(args.threads)
    if args.device == "auto":
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    else:
        device = torch.device(args.device)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
        supported = torch.cuda.is_bf16_supported()
    else:
        supported = cpu_bf16_supported()
    amp = supported if args.bf16 is None else args.bf16
    if amp and not supported:
        log(f"warning: bf16 asked for but {device.type} does not support it; float32")
        amp = False
    return device, amp


def autocast(device, amp):
    return torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp)


# --- evaluation --------------------------------------------------------------------------------


@torch.no_grad()
def evaluate(model, dataset, index, batcher, device, amp, batch=1024):
    """Per-record figures on records `index` (no symmetry), as arrays: for the policy (records
    whose move is on the board) "loss", "top1", "top5", "number"; for the value (records whose
    winner is known, when the model has a value head) "value" (the mover's win probability),
    "won" and "value_number"."""
    was_training = model.training
    model.eval()
    parts = collections.defaultdict(list)
    for start in range(0, len(index), batch):
        records = dataset.read(index[start:start + batch])
        x, legal, target = batcher.tensors(records.codes, records.move, dataset.size)
        komi = torch.from_numpy(mover_komi(records)).to(device)
        with autocast(device, amp):
            logits, value = model(x, komi)
        logits = masked_logits(logits, legal)
        keep = (target >= 0).cpu()
        h1, h5 = hits(logits[keep], target[keep])
        parts["loss"].append(F.cross_entropy(logits[keep], target[keep], reduction="none").cpu())
        parts["top1"].append(h1.cpu())
        parts["top5"].append(h5.cpu())
        parts["number"].append(torch.from_numpy(records.number)[keep])
        won, known = value_targets(records)
        if value is not None and known.any():
            parts["value"].append(torch.sigmoid(value.float()).cpu()[known])
            parts["won"].append(torch.from_numpy(won[known]))
            parts["value_number"].append(torch.from_numpy(records.number[known]))
    model.train(was_training)
    return {k: torch.cat(v).numpy() for k, v in parts.items()}


def summary(losses, top1, top5):
    if len(losses) == 0:
        return float("nan"), float("nan"), float("nan")
    return float(losses.mean()), float(top1.mean()), float(top5.mean())


def value_summary(value, won):
    """Binary cross-entropy, mean squared error of the win probability against the result (1 a
    win, 0 a loss), and the share of records whose winner it names (value > 0.5)."""
    if len(value) == 0:
        return float("nan"), float("nan"), float("nan")
    p = np.clip(value.astype(np.float64), 1e-7, 1 - 1e-7)
    bce = -(won * np.log(p) + (1 - won) * np.log(1 - p))
    return float(bce.mean()), float(((p - won) ** 2).mean()), float(((p > 0.5) == won).mean())


# --- checkpoints -------------------------------------------------------------------------------

# hyperparameters kept in the checkpoint; a flag given on the command line replaces the kept one
CONFIG_DEFAULTS = {
    "channels": 32,
    "blocks": 6,
    "batch": 256,
    "optimizer": "sgd",
    "lr": None,  # per optimizer: LR_DEFAULTS
    "weight_decay": 1e-4,
    "samples": 10_000_000,
    "warmup": 200_000,
    "decay": 0.25,
    "value_channels": 32,  # 0: no value head
    "value_hidden": 64,
    "value_weight": 1.0,
    "value_every": 1,
    "value_search_weight": 0.0,  # share of the search's win rate in the value's target
    "policy_target": "move",  # or "visits": the search's visit shares where a record has them
    "value_only": False,  # the trunk and policy of --init frozen, only the value head trains
    "folded": False,  # the trunk without batch norm, as a `.hnet` file holds it (set by --init)
    "trunk_lr_scale": 1.0,  # the trunk's and policy head's rate, as a share of the value head's
    "pool_blocks": [],  # the blocks with global pooling (indices from 0)
    "score_head": False,  # the value head also gives the mover's lead
    "ownership_head": False,  # and each point's ownership
    "teacher": None,  # the teacher labels' folder: learn from them (teacher.py)
    "teacher_policy": 0.5,  # the teacher's favourite moves' share of the policy's target
    "result_weight": 0.1,  # with a teacher: the weight of the games' results beside its win rate
    "score_weight": 0.5,  # with a teacher: the weight of the score lead's loss
    "ownership_weight": 1.0,  # with a teacher: the weight of the ownership's loss
}
LR_DEFAULTS = {"sgd": 0.1, "adamw": 2e-3}
ARCHITECTURE = ("channels", "blocks", "optimizer", "value_channels", "value_hidden", "value_only",
                "folded", "pool_blocks", "score_head", "ownership_head")
# what the checkpoints written before the value head (or --init without --value-only) existed
# stand for
LEGACY = {"value_channels": 0, "value_only": False, "folded": False, "trunk_lr_scale": 1.0,
          "pool_blocks": [], "score_head": False, "ownership_head": False, "teacher": None}


def resolve_config(args, stored):
    config = dict(CONFIG_DEFAULTS)
    if stored:
        # a value-only run's trunk was always the folded one of its --init
        stored = {**LEGACY, "folded": stored.get("value_only", False), **stored}
        config.update(stored)
    for key in CONFIG_DEFAULTS:
        value = getattr(args, key)
        if value is None:
            continue
        if stored and key in ARCHITECTURE and value != stored[key]:
            raise SystemExit(f"the checkpoint has {key}={stored[key]}, not {value}: use another "
                             f"--name or --checkpoint for a different network")
        if stored and value != stored.get(key):
            log(f"{key}: {stored.get(key)} -> {value}")
        config[key] = value
    if config["lr"] is None:
        config["lr"] = LR_DEFAULTS[config["optimizer"]]
    return config


def learning_rate(config, samples):
    """Warm up linearly, hold, then fall linearly to zero over the last `decay` of the budget.

    Holding the rate flat until the final stretch lets the budget grow between sittings: until
    the decay starts, a longer budget changes nothing that was already done."""
    peak, total = config["lr"], config["samples"]
    warmup = min(config["warmup"], total // 10)
    if samples < warmup:
        return peak * (samples + 1) / warmup
    decay_start = total * (1 - config["decay"])
    if samples < decay_start:
        return peak
    return peak * max(0.0, (total - samples) / max(1.0, total - decay_start))


def make_model(config):
    """The network a config describes; from --init, without batch norm, as the `.hnet` file
    its trunk and policy come from; with value_only, that trunk and policy head frozen."""
    model = Net(config["channels"], config["blocks"], config["value_channels"],
                config["value_hidden"], folded=config["value_only"] or config["folded"],
                pool_blocks=config["pool_blocks"], score=config["score_head"],
                ownership=config["ownership_head"])
    if config["value_only"]:
        for name, p in model.named_parameters():
            p.requires_grad_(name.startswith("value."))
    return model


def make_optimizer(model, config):
    """Parameter groups by weight decay (none on batch norm and biases) and, with a
    trunk_lr_scale other than 1, by rate: the value head at the schedule's rate, the rest at
    that share of it, so that a trained policy is not shaken while a new value head learns
    (each group's "scale" multiplies the schedule's rate)."""
    split = config["trunk_lr_scale"] != 1.0
    groups = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:  # frozen parameters get no momentum and no decay either
            continue
        scale = 1.0 if not split or name.startswith("value.") else config["trunk_lr_scale"]
        decayed = p.dim() > 1  # no decay on BN and biases
        group = groups.setdefault((scale, decayed), {
            "params": [], "scale": scale,
            "weight_decay": config["weight_decay"] if decayed else 0.0})
        group["params"].append(p)
    # the order of a run without the split is that of the checkpoints written before it
    groups = [groups[key] for key in sorted(groups, key=lambda k: (-k[0], not k[1]))]
    if config["optimizer"] == "sgd":
        return torch.optim.SGD(groups, lr=config["lr"], momentum=0.9, nesterov=True)
    if config["optimizer"] == "adamw":
        # AdamW's decay is decoupled (multiplied by the rate, not by the gradient's scale): the
        # same nominal value is much weaker than SGD's, hence the factor
        for g in groups:
            g["weight_decay"] *= 100
        return torch.optim.AdamW(groups, lr=config["lr"], betas=(0.9, 0.99))
    raise SystemExit(f"unknown optimizer {config['optimizer']}")


def rng_state(rng):
    state = {"torch": torch.get_rng_state(), "numpy": rng.bit_generator.state,
             "python": random.getstate()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(rng, state):
    torch.set_rng_state(state["torch"])
    rng.bit_generator.state = state["numpy"]
    random.setstate(state["python"])
    if "cuda" in state and torch.cuda.is_available():
        try:
            torch.cuda.set_rng_state_all(state["cuda"])
        except Exception:  # noqa: BLE001 - another number of GPUs: fresh CUDA streams
            pass


def save_checkpoint(path, model, optimizer, config, progress, rng):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "config": config, "progress": progress, "rng": rng_state(rng)}, tmp)
    os.replace(tmp, path)


def load_checkpoint(path):
    if not os.path.exists(path):
        return None
    return torch.load(path, map_location="cpu", weights_only=False)


def model_from_checkpoint(path, device):
    checkpoint = load_checkpoint(path)
    if checkpoint is None:
        raise SystemExit(f"no checkpoint at {path}")
    model = make_model({**LEGACY, **checkpoint["config"]})
    model.load_state_dict(checkpoint["model"])
    model.to(device).to(memory_format=torch.channels_last).eval()
    return model, checkpoint


# --- training ----------------------------------------------------------------------------------


class Stop:
    """Ctrl-C or SIGTERM: finish the step, save, leave. A second Ctrl-C leaves at once."""

    def __init__(self):
        self.requested = False
        signal.signal(signal.SIGINT, self.handle)
        signal.signal(signal.SIGTERM, self.handle)

    def handle(self, signum, frame):
        if self.requested and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.requested = True
        log(f"signal {signum}: saving the checkpoint and stopping")


CURVE_HEADER = "samples,seconds,loss,top1,top5,value_loss,value_mse,value_accuracy," \
               "judged_winner,value_vs_teacher,lead_error,ownership_error"
OLD_CURVE_HEADER = "samples,seconds,loss,top1,top5,value_loss,value_mse,value_accuracy"


def open_curve(path):
    """Starts curve.csv, or gives one written before the value columns existed those columns
    (nan), so that every row of a file has the same fields."""
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(CURVE_HEADER + "\n")
        return
    with open(path) as f:
        rows = f.read().splitlines()
    if rows and rows[0] in ("samples,seconds,loss,top1,top5", OLD_CURVE_HEADER):
        missing = CURVE_HEADER.count(",") - rows[0].count(",")
        with open(path, "w") as f:
            f.write("\n".join([CURVE_HEADER] + [r + ",nan" * missing for r in rows[1:]]) + "\n")


def grow_state(model, state, channels):
    """Load into `model` the state of a trained network with fewer `channels` or blocks (or
    fewer pooled blocks) so that the grown network computes exactly what the smaller one did:
    the old weights fill the first channels of each tensor, every weight that reads a new
    channel is zero (so the new channels change nothing until training gives them a use), the
    new channels' own weights keep their fresh random start (so they compute something worth
    reading), and a new block or pooling starts as the identity (Net2Net's growing, in the
    form that needs no copying of units)."""
    missing = sorted(set(state) - set(model.state_dict()))
    if missing:
        raise SystemExit(f"the network to grow has parts the grown one lacks: {missing[:4]} "
                         f"(a pooled block must stay pooled, a head must stay)")
    grown = model.state_dict()
    for name, new in grown.items():
        if name not in state:
            if ".conv2." in name:  # a new block of a folded trunk (no batch norm to zero)
                grown[name] = torch.zeros_like(new)
            continue  # a new block or pooling: its start is the identity
        old = state[name]
        if old.dim() != new.dim() or any(o > n for o, n in zip(old.shape, new.shape)):
            raise SystemExit(f"{name}: {tuple(old.shape)} does not fit in {tuple(new.shape)}")
        t = new.clone()
        if name.endswith("pool.weight"):
            # its inputs are three runs of the channels (board_pool): each run's new ones zero
            wide = new.shape[0]
            t.zero_()
            for k in range(3):
                t[:channels, k * wide:k * wide + channels] = old[:, k * channels:(k + 1) * channels]
        else:
            if new.dim() >= 2 and name != "stem.weight":
                t[:, old.shape[1]:] = 0  # what reads a new channel
            t[tuple(slice(0, n) for n in old.shape)] = old
        grown[name] = t
    model.load_state_dict(grown)


def grow_config(args, base):
    """A grown run's config: the network's (--grow) with the command line's changes, of which
    the architecture may only grow (channels, blocks, pooled blocks)."""
    stored = {**LEGACY, **base["config"]}
    for key in ARCHITECTURE:
        value = getattr(args, key)
        if value is None:
            setattr(args, key, stored[key])
        elif key not in ("channels", "blocks", "pool_blocks") and value != stored[key]:
            raise SystemExit(f"--grow keeps {key} ({stored[key]}); it grows only channels, "
                             f"blocks and pooled blocks")
    if args.channels < stored["channels"] or args.blocks < stored["blocks"] or \
            not set(stored["pool_blocks"]) <= set(args.pool_blocks):
        raise SystemExit(f"--grow: {args.blocks} blocks x {args.channels} channels, pooled "
                         f"{args.pool_blocks}, is not a growth of {stored['blocks']} x "
                         f"{stored['channels']}, pooled {stored['pool_blocks']}")
    for key in CONFIG_DEFAULTS:
        if key not in ARCHITECTURE and getattr(args, key) is None and key != "samples":
            setattr(args, key, stored[key])
    return resolve_config(args, None)


def start_model(args, config, checkpoint):
    """The model and optimizer of a new run (from --init for a value-only one) or of the
    checkpoint, the progress, the sample-drawing generator, and whether the value heads came
    from --init's file (`load_hnet_heads`)."""
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    model = make_model(config)
    rng = np.random.default_rng(args.seed)
    progress = {"samples": 0, "steps": 0, "seconds": 0.0}
    heads = False
    if checkpoint:
        model.load_state_dict(checkpoint["model"])
        progress = checkpoint["progress"]
        set_rng_state(rng, checkpoint["rng"])
        log(f"resuming {args.checkpoint} at {progress['samples']:,} samples "
            f"({progress['seconds'] / 3600:.2f} h of training so far)"
            f"{'; --init is not read again' if args.init else ''}")
    else:
        if args.grow:
            base = load_checkpoint(args.grow)
            grow_state(model, base["model"], base["config"]["channels"])
            log(f"grown from {args.grow} ({base['config']['blocks']} blocks x "
                f"{base['config']['channels']} channels, {base['progress']['samples']:,} "
                f"samples): it computes what that network did")
        elif args.init:
            heads = load_hnet(model, read_hnet(args.init))
            log(f"trunk and policy head{' and value heads' if heads else ''} from {args.init}"
                f"{', frozen' if config['value_only'] else ', trained further'}")
        trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
        value = f"value head {config['value_channels']} x {config['value_hidden']}" \
            if config["value_channels"] else "no value head"
        log(f"new network {config['blocks']} blocks x {config['channels']} channels, {value} "
            f"({trainable:,} parameters to train) at {args.checkpoint}")
    optimizer = make_optimizer(model, config)
    if checkpoint:
        stored = {**LEGACY, **checkpoint["config"]}
        load_optimizer_state(optimizer, model, config, stored["trunk_lr_scale"],
                             checkpoint["optimizer"])
    return model, optimizer, progress, rng, heads


def load_optimizer_state(optimizer, model, config, stored_scale, state):
    """The checkpoint's optimizer state (each parameter's momentum and the like) into
    `optimizer`, whose groups follow `config`; where the run's trunk_lr_scale has changed
    (so the groups have: a trunk rate raised once the value head has caught up), the state is
    moved parameter by parameter from the groups of the stored scale."""
    if stored_scale == config["trunk_lr_scale"]:
        optimizer.load_state_dict(state)
        return
    old = make_optimizer(model, {**config, "trunk_lr_scale": stored_scale})
    old.load_state_dict(state)
    for group in old.param_groups:
        for p in group["params"]:
            if p in old.state:
                optimizer.state[p] = old.state[p]


def step_losses(model, config, batcher, records, size, device, amp):
    """One batch's policy loss (None when the policy is frozen), top-1 hits (None likewise) and
    value loss (None without a value head or without a record it learns from)."""
    x, legal, target = batcher.tensors(records.codes, records.move, size)
    komi = torch.from_numpy(mover_komi(records)).to(device)
    won, known = value_training_targets(records, config["value_search_weight"])
    chosen = torch.from_numpy(known & value_selected(records.game, records.number,
                                                      config["value_every"])).to(device)
    with autocast(device, amp):
        if config["value_only"]:
            with torch.no_grad():
                trunk = model.trunk(x)
            logits, value = None, model.value(trunk, komi)
        else:
            logits, value = model(x, komi)
    policy_loss = top1 = value_loss = None
    if logits is not None:
        if config["policy_target"] == "visits":
            policy_loss, top1 = visits_policy_loss(logits, legal, target, records.visits, device)
        else:
            logits = masked_logits(logits, legal)
            policy_loss = F.cross_entropy(logits, target, ignore_index=-100)
            top1 = (logits.detach().argmax(1) == target).float().mean()
    if value is not None and bool(chosen.any()):
        won = torch.from_numpy(won).to(device)
        value_loss = F.binary_cross_entropy_with_logits(value.float()[chosen], won[chosen])
    return policy_loss, top1, value_loss


def visit_shares(visits, points):
    """The search's visits [n, RECORD_VISITS, 2] as a distribution over the points [n, points]
    and whether each record has one (some visits on the board)."""
    n = len(visits)
    used = (visits[:, :, 0] < points) & (visits[:, :, 1] > 0)
    shares = np.zeros((n, points), np.float32)
    rows = np.repeat(np.arange(n)[:, None], visits.shape[1], 1)
    np.add.at(shares, (rows[used], visits[:, :, 0][used]), visits[:, :, 1][used])
    total = shares.sum(1)
    has = total > 0
    shares[has] /= total[has, None]
    return shares, has


def visits_policy_loss(logits, legal, target, visits, device):
    """The policy's cross-entropy against the search's visit shares where a record has them (as
    AlphaZero and KataGo learn the policy from their own search), against the move played
    elsewhere; and the top-1 hits on the move played."""
    shares, has = visit_shares(visits, logits.shape[1])
    shares = torch.from_numpy(shares).to(device)
    has = torch.from_numpy(has).to(device)
    legal = legal | (shares > 0)  # every visited point is a legal move
    logits = masked_logits(logits, legal)
    soft = -(shares * F.log_softmax(logits, 1)).sum(1)
    hard = F.cross_entropy(logits, target, ignore_index=-100, reduction="none")
    counted = has | (target != -100)
    loss = torch.where(has, soft, hard)[counted].mean()
    top1 = (logits.detach().argmax(1) == target).float().mean()
    return loss, top1


# --- learning from a teacher (teacher.py) --------------------------------------------------------


def teacher_komi(records):
    """The komi the mover receives in the teacher's judgement (TEACHER_KOMI for White)."""
    return np.where(records.side == 1, teaching.TEACHER_KOMI,
                    -teaching.TEACHER_KOMI).astype(np.float32)


def teacher_losses(model, config, batcher, records, labels, rows, which, perm, inverse, size,
                   device, amp):
    """One batch's losses against the teacher's judgement, as a dict: "policy" (the soft
    target of teaching.targets), "value" (cross-entropy toward the teacher's win
    probability, a soft target, at its komi), "score" (the lead, a Huber loss: quadratic
    within 10 points, linear beyond, so that a few lopsided positions do not drown the rest, as
    KataGo's), "ownership" (per-point cross-entropy, where the labels have it), "result" (the
    game's result at the game's komi, where it is known) and "top1" (hits on the move
    played); None where a batch has nothing to learn a part from."""
    x, legal, target = batcher.tensors(records.codes, records.move, size)
    t = teaching.targets(labels, rows, records.side, records.move, which, perm, inverse, size,
                         config["teacher_policy"])
    tensor = lambda a: torch.from_numpy(np.ascontiguousarray(a)).to(device)  # noqa: E731
    with autocast(device, amp):
        trunk = model.trunk(x)
        logits = model.head(trunk).flatten(1)
        value, score, own = model.value.outputs(trunk, tensor(teacher_komi(records)))
        at_game_komi = model.value(trunk, tensor(mover_komi(records)))
    policy = tensor(t.policy)
    logits = masked_logits(logits, legal | (policy > 0))
    losses = {"policy": -(policy * F.log_softmax(logits, 1)).sum(1).mean(),
              "top1": (logits.detach().argmax(1) == target).float().mean(),
              "value": F.binary_cross_entropy_with_logits(value.float(), tensor(t.win)),
              "score": None, "ownership": None, "result": None}
    if score is not None:
        lead = tensor(t.lead / SCORE_SCALE)
        losses["score"] = F.smooth_l1_loss(score.float(), lead, beta=10 / SCORE_SCALE)
    has_own = tensor(t.has_ownership)
    if own is not None and bool(has_own.any()):
        target_own = (tensor(t.ownership)[has_own] + 1) / 2
        losses["ownership"] = F.binary_cross_entropy_with_logits(2 * own.float()[has_own],
                                                                 target_own)
    won, known = value_targets(records)
    if known.any():
        known = tensor(known)
        losses["result"] = F.binary_cross_entropy_with_logits(at_game_komi.float()[known],
                                                              tensor(won)[known])
    return losses


def teacher_total(losses, config):
    """The weighted sum that trains: policy + value + the others at their weights."""
    weights = {"policy": 1.0, "value": 1.0, "score": config["score_weight"],
               "ownership": config["ownership_weight"], "result": config["result_weight"]}
    return sum(w * losses[k] for k, w in weights.items() if losses[k] is not None)


SETTLE_RECORDS = 8192  # training positions over which batch norm's statistics are recomputed


def settle_records(dataset, teacher, count=SETTLE_RECORDS):
    """The records batch norm's statistics are settled on: `count` of the teacher's judged
    training positions where there is a teacher (the positions the value head learnt from),
    else of the file's, drawn by a fixed seed, in record order."""
    pool = teacher.records if teacher is not None else np.arange(dataset.count)
    rng = np.random.default_rng(0)
    return np.sort(rng.choice(pool, size=min(count, len(pool)), replace=False))


@torch.no_grad()
def settle_batch_norm(model, dataset, index, batcher, device, amp, batch=256):
    """Recomputes every batch norm's running statistics as the plain mean over the records
    `index`, with the weights as they are. Why: at a high rate, and with weight decay shrinking
    the weights a batch norm makes scale-free, the running averages lag the weights so far
    that the network in eval mode (what is exported and played) judges much worse than in
    training (a value head's winner share fell from 58% to 46% so). The training itself never
    reads them."""
    norms = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    if not norms:
        return
    momenta = [m.momentum for m in norms]
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # a cumulative average
    was_training = model.training
    model.train()
    for start in range(0, len(index), batch):
        records = dataset.read(index[start:start + batch])
        x, _, _ = batcher.tensors(records.codes, records.move, dataset.size)
        with autocast(device, amp):
            trunk = model.trunk(x)
            if model.value is not None:
                model.value.activations(trunk)
    for m, momentum in zip(norms, momenta):
        m.momentum = momentum
    model.train(was_training)


@torch.no_grad()
def evaluate_teacher(model, dataset, teacher, batcher, device, amp, limit=None, batch=512):
    """Per judged position of `dataset` (the first `limit`): the move number, the mover's
    result (won, known), the network's win probability at the teacher's komi, the teacher's,
    the network's lead and the teacher's, the policy's hit on the move played and on the
    teacher's favourite, and where the labels have ownership, the mean absolute difference of
    the two ownership maps. Arrays in a dict."""
    was_training = model.training
    model.eval()
    parts = collections.defaultdict(list)
    records_all, rows_all = teacher.records, teacher.rows
    if limit is not None:
        records_all, rows_all = records_all[:limit], rows_all[:limit]
    perm, inverse = symmetries(dataset.size)
    for start in range(0, len(records_all), batch):
        index, rows = records_all[start:start + batch], rows_all[start:start + batch]
        records = dataset.read(index)
        which = np.zeros(len(rows), np.int64)
        t = teaching.targets(teacher.labels, rows, records.side, records.move, which, perm,
                             inverse, dataset.size, 1.0)
        x, legal, target = batcher.tensors(records.codes, records.move, dataset.size)
        with autocast(device, amp):
            logits, value, score, own = model.judge(x, torch.from_numpy(teacher_komi(records))
                                                    .to(device))
        logits = masked_logits(logits, legal | torch.from_numpy(t.policy > 0).to(device))
        best = logits.argmax(1).cpu().numpy()
        won, known = value_targets(records)
        parts["number"].append(records.number)
        parts["row"].append(rows)
        parts["side"].append(records.side)
        parts["won"].append(won)
        parts["known"].append(known)
        parts["value"].append(torch.sigmoid(value.float()).cpu().numpy())
        parts["teacher"].append(t.win)
        parts["lead"].append(score.float().cpu().numpy() * SCORE_SCALE if score is not None
                             else np.full(len(rows), np.nan, np.float32))
        parts["teacher_lead"].append(t.lead)
        parts["played"].append(best == records.move)
        parts["favourite"].append(best == t.policy.argmax(1))
        error = np.full(len(rows), np.nan, np.float32)
        if own is not None and t.has_ownership.any():
            mine = torch.tanh(own.float()).cpu().numpy()
            error[t.has_ownership] = np.abs(mine - t.ownership)[t.has_ownership].mean(1)
        parts["ownership_error"].append(error)
    model.train(was_training)
    return {k: np.concatenate(v) for k, v in parts.items()}


def teacher_summary(f, keep=None):
    """The figures of evaluate_teacher's arrays (rows `keep`): the share of positions whose
    winner the network names (and the teacher, on the same ones), the mean squared error of the
    network's win probability against the results, its mean absolute difference from the
    teacher's, the lead's mean absolute error against the teacher's, the policy's top-1 on the
    move played and on the teacher's favourite, the ownership's mean absolute difference."""
    keep = np.ones(len(f["number"]), bool) if keep is None else keep
    if not keep.any():
        return {"positions": 0, "winner": np.nan, "teacher_winner": np.nan, "mse": np.nan,
                "value_vs_teacher": np.nan, "lead_error": np.nan, "top1_played": np.nan,
                "top1_teacher": np.nan, "ownership_error": np.nan, "ownership_positions": 0}
    k = keep & f["known"]
    right = lambda p: float(((p[k] > 0.5) == (f["won"][k] > 0.5)).mean()) if k.any() else np.nan  # noqa: E731
    own = f["ownership_error"][keep]
    own = own[~np.isnan(own)]
    return {"positions": int(keep.sum()), "winner": right(f["value"]),
            "teacher_winner": right(f["teacher"]),
            "mse": float(((f["value"][k] - f["won"][k]) ** 2).mean()) if k.any() else np.nan,
            "value_vs_teacher": float(np.abs(f["value"][keep] - f["teacher"][keep]).mean()),
            "lead_error": float(np.abs(f["lead"][keep] - f["teacher_lead"][keep]).mean()),
            "top1_played": float(f["played"][keep].mean()),
            "top1_teacher": float(f["favourite"][keep].mean()),
            "ownership_error": float(own.mean()) if len(own) else np.nan,
            "ownership_positions": len(own)}


def teacher_report(name, f):
    log(f"  {name}: {len(f['number']):,} judged positions")
    for phase, low, high in [("all", 1, 1 << 30)] + PHASES:
        keep = (f["number"] >= low) & (f["number"] <= high)
        r = teacher_summary(f, keep)
        log(f"    {phase:<13} winner {r['winner']:.4f} (teacher {r['teacher_winner']:.4f})  "
            f"MSE {r['mse']:.4f}  |v - teacher| {r['value_vs_teacher']:.4f}  "
            f"|lead - teacher| {r['lead_error']:.2f}  top-1 played {r['top1_played']:.4f} "
            f"teacher {r['top1_teacher']:.4f}  ownership |diff| {r['ownership_error']:.4f} "
            f"({r['ownership_positions']:,})  ({r['positions']:,} positions)")


def load_teacher(folder, data, games, train_set, test_set):
    """The labels and the Teacher of the training and the test file (of the folder `data`,
    a self-play dataset's or the Tom games' of `games`)."""
    labels = teaching.load_labels(folder, train_set.size)
    ids, lines = teaching.dataset_lines(data, games)
    found = [teaching.Teacher(labels, d, ids, lines) for d in (train_set, test_set)]
    log(f"teacher labels {len(labels.game):,} from {folder}: {len(found[0]):,} found in "
        f"{train_set.path}, {len(found[1]):,} in {test_set.path}")
    return labels, found[0], found[1]


def eval_row(model, test_set, eval_index, batcher, device, amp):
    """The curve's figures on the test subset: loss, top-1, top-5, value loss, MSE, accuracy."""
    figures = evaluate(model, test_set, eval_index, batcher, device, amp)
    value = value_summary(figures.get("value", np.zeros(0)), figures.get("won", np.zeros(0)))
    return summary(figures["loss"], figures["top1"], figures["top5"]) + value


def train(args):
    device, amp = setup_device(args)
    checkpoint = load_checkpoint(args.checkpoint)
    if args.grow and not checkpoint:
        base = load_checkpoint(args.grow)
        if base is None:
            raise SystemExit(f"--grow: no checkpoint at {args.grow}")
        config = grow_config(args, base)
    else:
        config = resolve_config(args, checkpoint["config"] if checkpoint else None)
    if config["value_only"] and not checkpoint and not args.init:
        raise SystemExit("--value-only needs --init NET.hnet: the trunk and policy to keep")
    run_dir = os.path.dirname(os.path.abspath(args.checkpoint))
    os.makedirs(run_dir, exist_ok=True)
    curve_path = os.path.join(run_dir, "curve.csv")

    train_set = Dataset(os.path.join(args.data, "train.bin"))
    test_set = Dataset(os.path.join(args.data, "test.bin"))
    if train_set.size != test_set.size:
        raise SystemExit("train.bin and test.bin have different board sizes")
    if config["value_channels"] and train_set.version < 2:
        raise SystemExit(f"{train_set.path}: a version 1 dataset has no results to learn a "
                         f"value from: rebuild it with hoshi dataset, or --value-channels 0")
    size = train_set.size
    perm, inverse = symmetries(size)
    eval_index = np.arange(min(args.eval_records, test_set.count))
    labels = teacher_train = teacher_test = None
    if config["teacher"]:
        if not (config["value_channels"] and config["score_head"]):
            raise SystemExit("learning from a teacher needs a value head with a score output "
                             "(--score-head)")
        labels, teacher_train, teacher_test = load_teacher(config["teacher"], args.data,
                                                           args.games, train_set, test_set)

    model, optimizer, progress, rng, heads_copied = start_model(args, config, checkpoint)
    model.to(device).to(memory_format=torch.channels_last)
    for state in optimizer.state.values():  # the optimizer's buffers follow the model
        for k, v in state.items():
            if torch.is_tensor(v):
                state[k] = v.to(device)
    model.train()
    batcher = Batcher(device)
    log(f"device {device}, bf16 autocast {'on' if amp else 'off'}, {torch.get_num_threads()} "
        f"threads; train {train_set.count:,} records, test {test_set.count:,} "
        f"(evaluating on {len(eval_index):,}); {size}x{size}")
    log(f"config {config}")

    total, batch = config["samples"], config["batch"]
    if progress["samples"] >= total:
        log(f"the budget of {total:,} samples is spent: nothing to do (--samples to extend it)")
        return
    stop = Stop()
    next_eval = (progress["samples"] // args.eval_every + 1) * args.eval_every
    started = time.time()
    seconds_before = progress["seconds"]
    last_save = started

    def new_window():
        return {"time": time.time(), "samples": 0, "steps": 0, "loss": 0.0, "top1": 0.0,
                "value": 0.0, "value_steps": 0, "extra": collections.defaultdict(float),
                "extra_steps": collections.defaultdict(int)}

    window = new_window()

    def elapsed():
        return seconds_before + time.time() - started

    def checkpoint_now():
        progress["seconds"] = elapsed()
        save_checkpoint(args.checkpoint, model, optimizer, config, progress, rng)

    def evaluate_now():
        """The eval line and the curve's row at the run's progress; the seconds it took."""
        t0 = time.time()
        settle_batch_norm(model, train_set, settle_records(train_set, teacher_train),
                          batcher, device, amp)
        row = eval_row(model, test_set, eval_index, batcher, device, amp)
        if labels is not None:
            judged = teacher_summary(evaluate_teacher(model, test_set, teacher_test, batcher,
                                                      device, amp))
            row = row + (judged["winner"], judged["value_vs_teacher"], judged["lead_error"],
                         judged["ownership_error"])
        else:
            row = row + (float("nan"),) * 4
        log(f"eval at {progress['samples']:,}: loss {row[0]:.4f}  top-1 {row[1]:.4f}  "
            f"top-5 {row[2]:.4f}  value loss {row[3]:.4f}  MSE {row[4]:.4f}  "
            f"winner {row[5]:.4f}; judged positions: winner {row[6]:.4f}  "
            f"|v - teacher| {row[7]:.4f}  |lead - teacher| {row[8]:.2f}  "
            f"ownership |diff| {row[9]:.4f}  ({time.time() - t0:.1f} s)")
        with open(curve_path, "a") as f:
            f.write(f"{progress['samples']},{elapsed():.1f}," +
                    ",".join(f"{v:.5f}" for v in row) + "\n")
        return time.time() - t0

    open_curve(curve_path)
    if heads_copied:
        # the file's own judgement of these positions, before a step changes it
        calibrate_copied_head(model, train_set, settle_records(train_set, teacher_train),
                              batcher, device, amp)
        spent = evaluate_now()
        started += spent
    deadline = started + args.minutes * 60 if args.minutes else None

    def sitting_over():
        if args.stop_at is not None and progress["samples"] >= args.stop_at:
            return True
        return deadline is not None and time.time() >= deadline

    while progress["samples"] < total and not stop.requested and not sitting_over():
        lr = learning_rate(config, progress["samples"])
        for group in optimizer.param_groups:
            group["lr"] = lr * group.get("scale", 1.0)
        if labels is not None:
            index, rows = teacher_train.draw(rng, batch)
        else:
            index = np.sort(rng.integers(0, train_set.count, batch))
        records = train_set.read(index)
        which = rng.integers(0, 8, batch)
        codes, move = apply_symmetry(records.codes, records.move, which, perm, inverse)
        visits = records.visits.copy()
        visits[:, :, 0] = move_points(visits[:, :, 0], which, inverse)
        records = records._replace(codes=codes, move=move, visits=visits)
        if labels is not None:
            losses = teacher_losses(model, config, batcher, records, labels, rows, which, perm,
                                    inverse, size, device, amp)
            policy_loss, top1, value_loss = losses["policy"], losses["top1"], losses["value"]
            parts = [teacher_total(losses, config)]
            for key in ("score", "ownership", "result"):
                if losses[key] is not None:
                    window["extra"][key] += float(losses[key])
                    window["extra_steps"][key] += 1
        else:
            policy_loss, top1, value_loss = step_losses(model, config, batcher, records, size,
                                                        device, amp)
            parts = [policy_loss] if policy_loss is not None else []
            if value_loss is not None:
                parts.append(value_loss * (1.0 if config["value_only"]
                                           else config["value_weight"]))
        if parts:
            optimizer.zero_grad(set_to_none=True)
            sum(parts).backward()
            optimizer.step()

        progress["samples"] += batch
        progress["steps"] += 1
        window["samples"] += batch
        window["steps"] += 1
        if policy_loss is not None:
            window["loss"] += policy_loss.detach()
            window["top1"] += top1
        if value_loss is not None:
            window["value"] += value_loss.detach()
            window["value_steps"] += 1

        if progress["steps"] % args.log_every == 0:
            now = time.time()
            value = float(window["value"]) / max(1, window["value_steps"])
            policy = "policy frozen" if config["value_only"] else \
                f"loss {float(window['loss']) / window['steps']:.4f}  " \
                f"top-1 {float(window['top1']) / window['steps']:.4f}"
            extra = "".join(f"  {k} {v / window['extra_steps'][k]:.4f}"
                            for k, v in window["extra"].items())
            log(f"{progress['samples']:>12,} samples  {window['samples'] / (now - window['time']):7.0f}/s"
                f"  {policy}  value loss {value:.4f}{extra}  lr {lr:.2e}")
            window = new_window()

        if progress["samples"] >= next_eval or progress["samples"] >= total:
            next_eval = (progress["samples"] // args.eval_every + 1) * args.eval_every
            spent = evaluate_now()
            # evaluating is not training: keep it out of the rate and the curve's seconds
            started += spent
            window["time"] += spent

        if time.time() - last_save >= args.checkpoint_every:
            checkpoint_now()
            last_save = time.time()
            log(f"checkpoint saved at {progress['samples']:,} samples")

    checkpoint_now()
    log(f"checkpoint saved at {progress['samples']:,} samples; "
        f"{'budget done' if progress['samples'] >= total else 'stopped; rerun to resume'}")


# --- the other modes ---------------------------------------------------------------------------


def settle_for_use(model, config, args, device, amp):
    """settle_batch_norm on the run's training positions (train.bin of --data, the teacher's
    where the run learnt from one), before the network is exported or measured; where
    train.bin is missing, the running statistics stay as trained, with a warning."""
    if not any(isinstance(m, nn.BatchNorm2d) for m in model.modules()):
        return
    path = os.path.join(args.data, "train.bin")
    if not os.path.exists(path):
        log(f"warning: no {path}: batch norm's statistics are the running averages of training")
        return
    train_set = Dataset(path)
    teacher = None
    if config.get("teacher"):
        labels = teaching.load_labels(config["teacher"], train_set.size)
        teacher = teaching.Teacher(labels, train_set,
                                   *teaching.dataset_lines(args.data, args.games))
    settle_batch_norm(model, train_set, settle_records(train_set, teacher), Batcher(device),
                      device, amp)
    model.eval()


def export(args):
    model, checkpoint = model_from_checkpoint(args.checkpoint, torch.device("cpu"))
    settle_for_use(model, checkpoint["config"], args, torch.device("cpu"), False)
    size = write_hnet(model, args.export)
    value = model.value
    assert size == hnet_size(model.channels, model.blocks_count, value.channels if value else 0,
                             value.hidden if value else 0, None, model.pool_blocks,
                             bool(value and value.score), bool(value and value.ownership))
    extras = [name for name, on in (("score", value and value.score),
                                    ("ownership", value and value.ownership)) if on]
    log(f"wrote {args.export} (version {model.version}): {model.blocks_count} blocks x "
        f"{model.channels} channels"
        f"{f', pooled blocks {list(model.pool_blocks)}' if model.pool_blocks else ''}"
        f"{f', value head {value.channels} x {value.hidden}' if value else ''}"
        f"{''.join(', ' + e for e in extras)}, "
        f"{size:,} bytes, after {checkpoint['progress']['samples']:,} samples")


PHASES = [("moves 1-50", 1, 50), ("moves 51-150", 51, 150), ("moves 151+", 151, 1 << 30)]


def held_out_index(dataset, every):
    """The records of every `every`-th game of a file (all of them for 1)."""
    if every <= 1:
        return np.arange(dataset.count)
    games = np.asarray(dataset.raw[:, dataset.points + 4:dataset.points + 8])
    games = np.ascontiguousarray(games).view("<u4")[:, 0]
    return np.flatnonzero(games % every == 0)


def report(name, figures):
    """The policy's and the value's figures on one file, overall and by phase."""
    log(f"  {name}: {len(figures['loss']):,} positions")
    phases = [("all", 1, 1 << 30)] + PHASES
    for phase, low, high in phases:
        keep = (figures["number"] >= low) & (figures["number"] <= high)
        loss, t1, t5 = summary(figures["loss"][keep], figures["top1"][keep], figures["top5"][keep])
        log(f"    policy {phase:<13} loss {loss:.4f}  top-1 {t1:.4f}  top-5 {t5:.4f}  "
            f"({int(keep.sum()):,} positions)")
    if "value" not in figures:
        return
    for phase, low, high in phases:
        keep = (figures["value_number"] >= low) & (figures["value_number"] <= high)
        bce, mse, right = value_summary(figures["value"][keep], figures["won"][keep])
        log(f"    value  {phase:<13} MSE {mse:.4f}  winner {right:.4f}  loss {bce:.4f}  "
            f"({int(keep.sum()):,} positions)")


def evaluate_all(args):
    device, amp = setup_device(args)
    if args.float32:
        amp = False
    model, checkpoint = model_from_checkpoint(args.checkpoint, device)
    settle_for_use(model, checkpoint["config"], args, device, amp)
    log(f"{args.checkpoint} after {checkpoint['progress']['samples']:,} samples:")
    for name, every in (("test.bin", 1), ("ai.bin", args.ai_every)):
        path = os.path.join(args.data, name)
        if name == "ai.bin" and not os.path.exists(path):
            continue
        dataset = Dataset(path)
        t0 = time.time()
        figures = evaluate(model, dataset, held_out_index(dataset, every), Batcher(device),
                           device, amp)
        games = f", every {every}th game" if every > 1 else ""
        report(f"{name}{games} ({time.time() - t0:.0f} s)", figures)
    folder = checkpoint["config"].get("teacher")
    if folder:
        test_set = Dataset(os.path.join(args.data, "test.bin"))
        labels = teaching.load_labels(folder, test_set.size)
        teacher = teaching.Teacher(labels, test_set,
                                   *teaching.dataset_lines(args.data, args.games))
        figures = evaluate_teacher(model, test_set, teacher, Batcher(device), device, amp)
        teacher_report(f"test.bin's positions judged by the teacher ({folder}), the value at "
                       f"its komi {teaching.TEACHER_KOMI}", figures)
        for judge in args.judge or []:
            winrate, lead = teaching.judged_by(teaching.load_judge(judge), labels, figures["row"])
            black = figures["side"] == 0
            judge_report(judge, figures, np.where(black, winrate, 1 - winrate),
                         np.where(black, lead, -lead))


def held_out_records(args):
    """--held-out-records FILE: the records of test.bin's games with teacher labels."""
    if not args.teacher:
        raise SystemExit("--held-out-records needs --teacher DIR: the labels whose games to write")
    test_set = Dataset(os.path.join(args.data, "test.bin"))
    labels = teaching.load_labels(args.teacher, test_set.size)
    teacher = teaching.Teacher(labels, test_set, *teaching.tom_lines(args.games))
    ids = np.unique(labels.game[teacher.rows])
    count = teaching.write_records(args.games, ids, args.held_out_records)
    log(f"wrote {args.held_out_records}: {count:,} of the {len(ids):,} held-out games judged "
        f"({len(teacher):,} positions)")


def unjudged_records(args):
    """--unjudged-records FILE: the records of train.bin's games that no teacher label judges,
    for label.py to judge with a cheaper engine (docs/policy-net.md, "Learning from the
    teacher")."""
    if not args.teacher:
        raise SystemExit("--unjudged-records needs --teacher DIR: the labels whose games to leave out")
    train_set = Dataset(os.path.join(args.data, "train.bin"))
    labels = teaching.load_labels(args.teacher, train_set.size)
    ids = teaching.unjudged_games(labels, train_set, *teaching.tom_lines(args.games))
    count = teaching.write_records(args.games, ids, args.unjudged_records)
    log(f"wrote {args.unjudged_records}: {count:,} of the {len(ids):,} training games that "
        f"no label judges")


def judge_report(name, f, value, lead):
    """Another judge's figures (its win probability `value` and `lead`, the mover's, NaN where
    it judged nothing) on the teacher-judged positions of evaluate_teacher's arrays `f`, beside
    the network's and the teacher's on the same positions."""
    judged = ~np.isnan(value)
    log(f"  {name}: {int(judged.sum()):,} of them judged")
    for phase, low, high in [("all", 1, 1 << 30)] + PHASES:
        keep = judged & (f["number"] >= low) & (f["number"] <= high)
        k = keep & f["known"]
        if not k.any():
            continue
        right = lambda p: float(((p[k] > 0.5) == (f["won"][k] > 0.5)).mean())  # noqa: E731
        log(f"    {phase:<13} winner {right(value):.4f} (network {right(f['value']):.4f}, "
            f"teacher {right(f['teacher']):.4f})  |lead - teacher| "
            f"{np.abs(lead[keep] - f['teacher_lead'][keep]).mean():.2f} (network "
            f"{np.abs(f['lead'][keep] - f['teacher_lead'][keep]).mean():.2f})  "
            f"({int(k.sum()):,} positions)")


def random_position(size, rng):
    """Random but plausible input bytes: stones with liberty counts, a few recent moves, and
    empty points now and then illegal, a ladder capture or a caught escape."""
    points = size * size
    codes = np.zeros(points, np.uint8)
    stone = rng.random(points) < rng.uniform(0.2, 0.6)
    colour = rng.integers(1, 3, points)
    liberties = np.minimum(rng.geometric(0.45, points) - 1, 3)
    codes[stone] = (colour | liberties << 2)[stone]
    stones = np.flatnonzero(stone)
    recent = rng.choice(stones, size=min(7, len(stones)), replace=False)
    for age, p in enumerate(recent, start=1):
        codes[p] |= age << 4
    empty = np.flatnonzero(~stone)
    for bit, share in ((2, 0.04), (3, 0.02), (7, 0.02)):
        chosen = empty[rng.random(len(empty)) < share]
        codes[chosen] |= 1 << bit
    return codes


# the value fixture's sides to move and komi (Black's), one pair per position in turn
FIXTURE_KOMI = [("b", 7.5), ("w", 7.5), ("w", 6.5), ("b", 0.0), ("b", -3.5), ("w", 15.0)]


def fixture_model(seed, value, pool_blocks=(), score=False, ownership=False):
    """A 3-block, 8-channel network (with a 6 x 10 value head if `value`, pooled blocks and
    score and ownership outputs if asked) of random weights and random batch-norm statistics,
    in eval mode."""
    torch.manual_seed(seed)
    model = Net(8, 3, 6 if value else 0, 10, pool_blocks=pool_blocks, score=score,
                ownership=ownership)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.Conv2d):  # weights that keep the activations' scale
                nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
            if isinstance(m, nn.BatchNorm2d):
                m.weight.uniform_(0.5, 1.5)
                m.bias.normal_(0.0, 0.2)
                m.running_mean.normal_(0.0, 0.3)
                m.running_var.uniform_(0.3, 2.0)
        for block in model.blocks:  # a pooling bias that moves the activations
            if block.pool is not None:
                block.pool.weight.normal_(0.0, 0.5)
        model.head.bias.normal_(0.0, 0.5)  # logits spread over a few units: a wrong tap shows
    return model.eval()


def fixture_positions(args, rng):
    """Three 19x19 positions from --data's test.bin (random bytes without it), two 9x9 and two
    13x13 of random bytes."""
    positions = []
    if args.data:
        path = os.path.join(args.data, "test.bin")
        if not os.path.exists(path):
            path = os.path.join(args.data, "train.bin")
        dataset = Dataset(path)
        for i in np.linspace(0, dataset.count - 1, 3).astype(np.int64):
            positions.append((dataset.size, dataset.read(np.array([i])).codes[0].copy()))
    else:
        log("warning: no --data: the 19x19 positions are random bytes, not from games")
        positions += [(19, random_position(19, rng)) for _ in range(2)]
    positions += [(9, random_position(9, rng)) for _ in range(2)]
    positions += [(13, random_position(13, rng)) for _ in range(2)]
    return positions


def spread_values(model, positions):
    """Rescales the value head's last layer so that the fixture's value logits have mean 0 and
    standard deviation 2 (its scores standard deviation 0.5, 10 points, and its ownership
    logits 1): values stuck at 0 or 1 would not show a wrong pooling or komi."""
    with torch.no_grad():
        outputs = torch.cat([model.value.outputs(model.trunk(x), mover)[0][:, None]
                             if not model.value.score else
                             torch.stack(model.value.outputs(model.trunk(x), mover)[:2], 1)
                             for *_, x, _, _, mover in positions])
        fc2 = model.value.fc2
        for row, spread in enumerate([2.0, 0.5][:outputs.shape[1]]):
            k = spread / float(outputs[:, row].std())
            fc2.bias[row] = (fc2.bias[row] - outputs[:, row].mean()) * k
            fc2.weight[row] *= k
        own = model.value.own
        if own is not None:  # ownership logits spread around 0, not stuck at +-1
            logits = torch.cat([model.value.outputs(model.trunk(x), mover)[2].flatten()
                                for *_, x, _, _, mover in positions])
            k = 1.0 / float(logits.std())
            own.bias.copy_((own.bias - logits.mean()) * k)
            own.weight.mul_(k)


def write_fixture(args):
    """A small network of random weights (a version 2 file with a value head, version 1 with
    --value-channels 0, version 3 with --pool-blocks, --score-head or --ownership-head) and
    the float32 outputs its folded weights give on a few positions, checked against the
    batch-norm network."""
    rng = np.random.default_rng(args.seed)
    model = fixture_model(args.seed, args.value_channels != 0, args.pool_blocks or (),
                          bool(args.score_head), bool(args.ownership_head))
    table = torch.from_numpy(plane_table())
    positions = []
    for i, (size, codes) in enumerate(fixture_positions(args, rng)):
        x = table[torch.from_numpy(codes.astype(np.int64))].T.reshape(1, PLANES, size, size)
        side, komi = FIXTURE_KOMI[i % len(FIXTURE_KOMI)]
        mover = torch.tensor([komi if side == "w" else -komi])
        positions.append((size, codes, x.contiguous(), side, komi, mover))
    if model.value is not None:
        spread_values(model, positions)
    os.makedirs(args.write_fixture, exist_ok=True)
    net_path = os.path.join(args.write_fixture, "small.hnet")
    write_hnet(model, net_path)
    net = read_hnet(net_path)
    lines = []
    for size, codes, x, side, komi, mover in positions:
        with torch.no_grad():
            logits, value, score, own = folded_judge(net, x, mover)
            check = model.judge(x, mover) if model.value is not None else \
                (model(x)[0], None, None, None)
        error = float((logits - check[0]).abs().max())
        if value is not None:
            error = max(error, float((value - torch.sigmoid(check[1])).abs().max()))
        if score is not None:
            error = max(error, float((score - check[2] * SCORE_SCALE).abs().max()) / 10)
        if own is not None:
            error = max(error, float((own - torch.tanh(check[3])).abs().max()))
        if error > 1e-4:
            raise SystemExit(f"the folded network differs from the batch-norm one by {error}")
        lines.append(f"position {size} {codes.tobytes().hex()}")
        lines.append("logits " + " ".join(f"{v:.8e}" for v in logits[0].tolist()))
        if value is not None:
            lines.append(f"value {side} {komi} {float(value[0]):.8e}")
        if score is not None:
            lines.append(f"score {float(score[0]):.8e}")
        if own is not None:
            lines.append("ownership " + " ".join(f"{v:.8e}" for v in own[0].tolist()))
    with open(os.path.join(args.write_fixture, "positions.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log(f"wrote {net_path} (version {net.version}, {os.path.getsize(net_path)} bytes) and "
        f"positions.txt ({len(positions)} positions)")


# --- command line ------------------------------------------------------------------------------


def block_list(text):
    """"2,4" -> [2, 4] (an empty string: no block)."""
    try:
        return sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of block indices: {text!r}")


def shape_from_init(args):
    """--init gives the network's shape (--channels and --blocks, if given, must agree) and a
    trunk without batch norm."""
    args.folded = True
    net = read_hnet(args.init)
    for key, have in (("channels", net.channels), ("blocks", net.blocks)):
        if getattr(args, key) not in (None, have):
            raise SystemExit(f"{args.init} has {key} {have}, not {getattr(args, key)}")
        setattr(args, key, have)


def main(argv=None):
    p = argparse.ArgumentParser(
        description="Train hoshi's network, policy and value heads (docs/policy-net.md). "
                    "Rerunning the same command resumes from the checkpoint.")
    p.add_argument("--data", default=None,
                   help="folder with train.bin and test.bin from `hoshi dataset` (default train/data)")
    p.add_argument("--name", default=None,
                   help="run name: the checkpoint and curve go to train/runs/NAME/ "
                        "(default BLOCKSxCHANNELS, e.g. 6x32)")
    p.add_argument("--checkpoint", default=None,
                   help="checkpoint file (default train/runs/NAME/checkpoint.pt)")
    g = p.add_argument_group("network and optimisation (kept in the checkpoint; a flag given "
                             "on resuming replaces the kept value)")
    g.add_argument("--channels", type=int, default=None, help="channels (default 32)")
    g.add_argument("--blocks", type=int, default=None, help="residual blocks (default 6)")
    g.add_argument("--samples", type=int, default=None,
                   help="the budget: samples to train on in all, over every sitting (default "
                        "10,000,000); raise it to train further")
    g.add_argument("--batch", type=int, default=None, help="batch size (default 256)")
    g.add_argument("--optimizer", choices=["sgd", "adamw"], default=None,
                   help="sgd (Nesterov momentum 0.9, default) or adamw")
    g.add_argument("--lr", type=float, default=None,
                   help="peak learning rate (default 0.1 for sgd, 2e-3 for adamw)")
    g.add_argument("--weight-decay", dest="weight_decay", type=float, default=None,
                   help="weight decay on convolution weights (default 1e-4; x100 for adamw)")
    g.add_argument("--warmup", type=int, default=None,
                   help="samples of linear warm-up (default 200,000)")
    g.add_argument("--decay", type=float, default=None,
                   help="the final share of the budget over which the rate falls to 0 (default 0.25)")
    g.add_argument("--value-channels", dest="value_channels", type=int, default=None,
                   help="the value head's 1x1 convolution's channels V (default 32; 0: no value "
                        "head, a policy network written as a version 1 file)")
    g.add_argument("--value-hidden", dest="value_hidden", type=int, default=None,
                   help="the value head's hidden layer H (default 64)")
    g.add_argument("--value-weight", dest="value_weight", type=float, default=None,
                   help="the value loss's weight beside the policy's (default 1.0)")
    g.add_argument("--value-every", dest="value_every", type=int, default=None,
                   help="the value loss on 1 in K (game, move) pairs, chosen by a hash "
                        "(default 1: every position whose winner is known)")
    g.add_argument("--value-search-weight", dest="value_search_weight", type=float, default=None,
                   help="where a record has the search's win rate (self-play, dataset version "
                        "3), the value's target is (1 - W) x result + W x win rate (default 0)")
    g.add_argument("--policy-target", dest="policy_target", choices=["move", "visits"],
                   default=None,
                   help="what the policy learns: the move played (default) or, where a record "
                        "has them (self-play, dataset version 3), the search's visit shares")
    g.add_argument("--trunk-lr-scale", dest="trunk_lr_scale", type=float, default=None,
                   help="the rate of everything but the value head, as a share of the value "
                        "head's (default 1; 0.2 with --init keeps a trained policy steady while "
                        "the new value head learns; it may change on resuming, the optimizer's "
                        "momentum kept)")
    g.add_argument("--pool-blocks", dest="pool_blocks", type=block_list, default=None,
                   help="the blocks with global pooling, as indices from 0 (e.g. 2,4; default "
                        "none): a version 3 file")
    g.add_argument("--score-head", dest="score_head", action="store_true", default=None,
                   help="the value head also gives the mover's score lead (a version 3 file)")
    g.add_argument("--ownership-head", dest="ownership_head", action="store_true", default=None,
                   help="the value head also gives each point's ownership (a version 3 file)")
    g.add_argument("--teacher", default=None, metavar="DIR[,DIR...]",
                   help="learn from the teacher labels in DIR (the shared ones, labels-*.npz and "
                        "ownership-*.npz, e.g. ../shared/data/teacher, or label.py's output on "
                        "Tom records, or on the self-play shards that --data's dataset was made "
                        "from; several folders separated by commas, the first one's "
                        "judgement winning where two judged a position): only the judged "
                        "positions, toward the teacher's win rate, lead, ownership and favourite "
                        "moves; needs --score-head")
    g.add_argument("--teacher-policy", dest="teacher_policy", type=float, default=None,
                   help="with --teacher: the teacher's favourite moves' share of the policy's "
                        "target, the move played the rest (default 0.5)")
    g.add_argument("--result-weight", dest="result_weight", type=float, default=None,
                   help="with --teacher: the weight of the games' results (default 0.1)")
    g.add_argument("--score-weight", dest="score_weight", type=float, default=None,
                   help="with --teacher: the weight of the score lead's loss (default 0.5)")
    g.add_argument("--ownership-weight", dest="ownership_weight", type=float, default=None,
                   help="with --teacher: the weight of the ownership's loss (default 1.0)")
    g.add_argument("--value-only", dest="value_only", action="store_true", default=None,
                   help="train only the value head, on the frozen trunk and policy head of --init")
    g.add_argument("--init", metavar="NET.hnet", default=None,
                   help="a new run's trunk and policy head (the shape is the file's), frozen "
                        "with --value-only, trained further without it; the file's value head "
                        "(score, ownership) too where the run's has the same shape, else the "
                        "run's trains afresh")
    g.add_argument("--grow", metavar="CHECKPOINT.pt", default=None,
                   help="a new run starting from another run's network grown to --channels, "
                        "--blocks and --pool-blocks (each at least the old one's): the grown "
                        "network computes what the old one did; the other settings are the old "
                        "run's unless given")
    p.add_argument("--games", default=None,
                   help="with --teacher: the Tom games' folder whose Kifu.index maps the labels' "
                        "game IDs to the dataset's (default DATA/games/go-games/Tom)")
    r = p.add_argument_group("running")
    r.add_argument("--device", default="auto", help="auto (CUDA when available), cpu, cuda, cuda:1...")
    r.add_argument("--threads", type=int, default=None, help="CPU threads (default all cores)")
    r.add_argument("--bf16", action=argparse.BooleanOptionalAction, default=None,
                   help="bf16 autocast (default on where the CPU or GPU supports it)")
    r.add_argument("--minutes", type=float, default=None,
                   help="stop this sitting (saving the checkpoint) after so many minutes")
    r.add_argument("--stop-at", dest="stop_at", type=int, default=None,
                   help="stop this sitting once the samples seen in all reach this")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--log-every", type=int, default=100, help="steps between progress lines")
    r.add_argument("--eval-every", type=int, default=500_000,
                   help="samples between evaluations on the test subset (default 500,000)")
    r.add_argument("--eval-records", type=int, default=20_000,
                   help="the test subset: the first records of test.bin (default 20,000)")
    r.add_argument("--checkpoint-every", type=float, default=300,
                   help="seconds between checkpoints (default 300; also at the end and on a signal)")
    m = p.add_argument_group("other modes (no training)")
    m.add_argument("--export", metavar="FILE.hnet", help="write the checkpoint's weights, BN folded")
    m.add_argument("--evaluate", action="store_true",
                   help="top-1/top-5 of the checkpoint on all of test.bin, and by game phase")
    m.add_argument("--float32", action="store_true", help="with --evaluate: no bf16")
    m.add_argument("--unjudged-records", dest="unjudged_records", metavar="FILE",
                   help="with --teacher: write the Tom records of train.bin's games that no label "
                        "judges (label.py's input for more labels), then stop")
    m.add_argument("--held-out-records", dest="held_out_records", metavar="FILE",
                   help="write the records of test.bin's games that --teacher DIR judged (Tom "
                        "records, one a line), for label.py to judge with another engine")
    m.add_argument("--judge", action="append", metavar="DIR",
                   help="with --evaluate: another engine's judgement of the Tom games, label.py's "
                        "output in DIR, set beside the network's and the teacher's on the same "
                        "held-out positions (repeatable)")
    m.add_argument("--ai-every", dest="ai_every", type=int, default=10,
                   help="with --evaluate: measure on every Kth game of ai.bin (default 10)")
    m.add_argument("--write-fixture", metavar="DIR",
                   help="write DIR/small.hnet and DIR/positions.txt (19x19 positions from --data "
                        "when given)")
    args = p.parse_args(argv)

    if args.write_fixture:
        write_fixture(args)
        return
    if args.data is None:
        args.data = os.path.join(HERE, "data")
    if args.games is None:
        args.games = os.path.join(args.data, "games", "go-games", "Tom")
    args.folded = None
    if args.init:
        shape_from_init(args)
    if args.checkpoint is None:
        if args.name is None:
            args.name = f"{args.blocks or CONFIG_DEFAULTS['blocks']}x" \
                        f"{args.channels or CONFIG_DEFAULTS['channels']}" \
                        f"{'-value' if args.value_only else ''}"
        args.checkpoint = os.path.join(HERE, "runs", args.name, "checkpoint.pt")
    if args.export:
        export(args)
    elif args.evaluate:
        evaluate_all(args)
    elif args.held_out_records:
        held_out_records(args)
    elif args.unjudged_records:
        unjudged_records(args)
    else:
        train(args)


if __name__ == "__main__":
    main()
