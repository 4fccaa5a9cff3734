#!/usr/bin/env python3
"""Train hoshi's policy network from `hoshi dataset` files, export it as `.hnet`.

The formats (dataset records, input planes, network shape, weights file, fixture) are the
contract in docs/policy-net.md. Modes:

  train.py                       train (or resume: the same command continues from the checkpoint)
  train.py --export FILE.hnet    write the checkpoint's weights, batch norm folded, and stop
  train.py --evaluate            top-1/top-5 of the checkpoint on all of test.bin, by game phase
  train.py --write-fixture DIR   a small random network and the logits it gives on a few positions
"""

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

HERE = os.path.dirname(os.path.abspath(__file__))
PLANES = 19
DATASET_MAGIC = b"HOSHIDS1"
DATASET_HEADER = 16
NET_MAGIC = b"HOSHINET"
NET_VERSION = 1


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


class Dataset:
    """A `hoshi dataset` file, memory-mapped: records of N*N input bytes + move, move number, game."""

    def __init__(self, path):
        with open(path, "rb") as f:
            header = f.read(DATASET_HEADER)
        if len(header) != DATASET_HEADER or header[:8] != DATASET_MAGIC:
            raise SystemExit(f"{path}: not a hoshi dataset file (magic {header[:8]!r})")
        self.path = path
        self.size = struct.unpack("<H", header[8:10])[0]
        self.points = self.size * self.size
        self.record = self.points + 8
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
        """Records `index` (an array): input bytes [n, N*N] uint8, move, move number, game."""
        rows = np.asarray(self.raw[index])
        tail = np.ascontiguousarray(rows[:, self.points:])
        move = tail[:, 0:2].view("<u2")[:, 0].astype(np.int64)
        number = tail[:, 2:4].view("<u2")[:, 0].astype(np.int64)
        game = tail[:, 4:8].view("<u4")[:, 0].astype(np.int64)
        return rows[:, :self.points], move, number, game


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
    on_board = (move >= 0) & (move < perm.shape[1])
    moved = inverse[which, np.where(on_board, move, 0)]
    return codes, np.where(on_board, moved, move)


# --- the network -------------------------------------------------------------------------------


class Block(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(x + y)


class PolicyNet(nn.Module):
    """Stem 3x3 conv + BN + ReLU, residual blocks, 1x1 head with bias: one logit a point."""

    def __init__(self, channels, blocks):
        super().__init__()
        self.channels = channels
        self.blocks_count = blocks
        self.stem = nn.Conv2d(PLANES, channels, 3, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm2d(channels)
        self.blocks = nn.ModuleList(Block(channels) for _ in range(blocks))
        self.head = nn.Conv2d(channels, 1, 1, bias=True)
        for block in self.blocks:  # each block starts as the identity: trains faster
            nn.init.zeros_(block.bn2.weight)

    def forward(self, x):
        x = F.relu(self.stem_bn(self.stem(x)))
        for block in self.blocks:
            x = block(x)
        return self.head(x).flatten(1)  # [batch, N*N], point row * N + col


def fold(conv, bn):
    """The convolution's weights and bias with the (eval-mode) batch norm after it folded in."""
    w = conv.weight.detach().double()
    scale = bn.weight.detach().double() / torch.sqrt(bn.running_var.detach().double() + bn.eps)
    bias = bn.bias.detach().double() - bn.running_mean.detach().double() * scale
    if conv.bias is not None:
        bias = bias + conv.bias.detach().double() * scale
    return (w * scale[:, None, None, None]).float(), bias.float()


def folded_tensors(model):
    """The weights file's tensors, in its order."""
    tensors = list(fold(model.stem, model.stem_bn))
    for block in model.blocks:
        tensors += fold(block.conv1, block.bn1)
        tensors += fold(block.conv2, block.bn2)
    tensors.append(model.head.weight.detach().float().reshape(1, model.channels))
    tensors.append(model.head.bias.detach().float().reshape(1))
    return tensors


def write_hnet(model, path):
    tensors = folded_tensors(model)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(NET_MAGIC + struct.pack("<IIII", NET_VERSION, PLANES, model.channels,
                                        model.blocks_count))
        for t in tensors:
            f.write(t.cpu().contiguous().numpy().astype("<f4").tobytes())
    os.replace(tmp, path)
    return os.path.getsize(path)


def hnet_size(channels, blocks):
    c = channels
    return 24 + 4 * (c * PLANES * 9 + c + blocks * 2 * (c * c * 9 + c) + c + 1)


def read_hnet(path):
    """The weights file as (channels, blocks, float32 tensors in file order)."""
    with open(path, "rb") as f:
        data = f.read()
    magic, version, planes, c, b = struct.unpack("<8sIIII", data[:24])
    if magic != NET_MAGIC or version != NET_VERSION or planes != PLANES:
        raise SystemExit(f"{path}: not a version {NET_VERSION} hoshi weights file")
    if len(data) != hnet_size(c, b):
        raise SystemExit(f"{path}: {len(data)} bytes, expected {hnet_size(c, b)}")
    shapes = [(c, PLANES, 3, 3), (c,)] + [(c, c, 3, 3), (c,)] * (2 * b) + [(1, c), (1,)]
    values = np.frombuffer(data, "<f4", offset=24)
    tensors, at = [], 0
    for shape in shapes:
        n = int(np.prod(shape))
        tensors.append(torch.from_numpy(values[at:at + n].copy()).reshape(shape))
        at += n
    return c, b, tensors


def folded_forward(channels, blocks, tensors, x):
    """The network from folded weights, in float32: what the Rust forward pass computes."""
    t = iter(tensors)
    h = F.relu(F.conv2d(x, next(t), next(t), padding=1))
    for _ in range(blocks):
        y = F.relu(F.conv2d(h, next(t), next(t), padding=1))
        y = F.conv2d(y, next(t), next(t), padding=1)
        h = F.relu(h + y)
    w, b = next(t), next(t)
    return F.conv2d(h, w.reshape(1, channels, 1, 1), b).flatten(1)


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
    """Per-record loss, top-1 and top-5 hits and move numbers on records `index` (no symmetry)."""
    was_training = model.training
    model.eval()
    losses, top1, top5, numbers = [], [], [], []
    for start in range(0, len(index), batch):
        codes, move, number, _ = dataset.read(index[start:start + batch])
        x, legal, target = batcher.tensors(codes, move, dataset.size)
        with autocast(device, amp):
            logits = model(x)
        logits = masked_logits(logits, legal)
        keep = target >= 0
        loss = F.cross_entropy(logits[keep], target[keep], reduction="none")
        h1, h5 = hits(logits[keep], target[keep])
        losses.append(loss.cpu())
        top1.append(h1.cpu())
        top5.append(h5.cpu())
        numbers.append(torch.from_numpy(number)[keep.cpu()])
    model.train(was_training)
    return (torch.cat(losses).numpy(), torch.cat(top1).numpy(), torch.cat(top5).numpy(),
            torch.cat(numbers).numpy())


def summary(losses, top1, top5):
    if len(losses) == 0:
        return float("nan"), float("nan"), float("nan")
    return float(losses.mean()), float(top1.mean()), float(top5.mean())


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
}
LR_DEFAULTS = {"sgd": 0.1, "adamw": 2e-3}
ARCHITECTURE = ("channels", "blocks", "optimizer")


def resolve_config(args, stored):
    config = dict(CONFIG_DEFAULTS)
    if stored:
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


def make_optimizer(model, config):
    decay, no_decay = [], []
    for p in model.parameters():
        (decay if p.dim() > 1 else no_decay).append(p)  # no decay on BN and biases
    groups = [{"params": decay, "weight_decay": config["weight_decay"]},
              {"params": no_decay, "weight_decay": 0.0}]
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
    config = checkpoint["config"]
    model = PolicyNet(config["channels"], config["blocks"])
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


def train(args):
    device, amp = setup_device(args)
    checkpoint = load_checkpoint(args.checkpoint)
    config = resolve_config(args, checkpoint["config"] if checkpoint else None)
    run_dir = os.path.dirname(os.path.abspath(args.checkpoint))
    os.makedirs(run_dir, exist_ok=True)
    curve_path = os.path.join(run_dir, "curve.csv")

    train_set = Dataset(os.path.join(args.data, "train.bin"))
    test_set = Dataset(os.path.join(args.data, "test.bin"))
    if train_set.size != test_set.size:
        raise SystemExit("train.bin and test.bin have different board sizes")
    size = train_set.size
    perm, inverse = symmetries(size)
    eval_index = np.arange(min(args.eval_records, test_set.count))

    torch.manual_seed(args.seed)
    random.seed(args.seed)
    model = PolicyNet(config["channels"], config["blocks"])
    optimizer = make_optimizer(model, config)
    rng = np.random.default_rng(args.seed)
    progress = {"samples": 0, "steps": 0, "seconds": 0.0}
    if checkpoint:
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        progress = checkpoint["progress"]
        set_rng_state(rng, checkpoint["rng"])
        log(f"resuming {args.checkpoint} at {progress['samples']:,} samples "
            f"({progress['seconds'] / 3600:.2f} h of training so far)")
    else:
        log(f"new network {config['blocks']} blocks x {config['channels']} channels "
            f"({sum(p.numel() for p in model.parameters()):,} parameters) at {args.checkpoint}")
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
    window = {"time": started, "samples": 0, "loss": 0.0, "top1": 0.0, "steps": 0}

    def elapsed():
        return seconds_before + time.time() - started

    def checkpoint_now():
        progress["seconds"] = elapsed()
        save_checkpoint(args.checkpoint, model, optimizer, config, progress, rng)

    if not os.path.exists(curve_path):
        with open(curve_path, "w") as f:
            f.write("samples,seconds,loss,top1,top5\n")

    deadline = started + args.minutes * 60 if args.minutes else None

    def sitting_over():
        if args.stop_at is not None and progress["samples"] >= args.stop_at:
            return True
        return deadline is not None and time.time() >= deadline

    while progress["samples"] < total and not stop.requested and not sitting_over():
        lr = learning_rate(config, progress["samples"])
        for group in optimizer.param_groups:
            group["lr"] = lr
        index = np.sort(rng.integers(0, train_set.count, batch))
        codes, move, _, _ = train_set.read(index)
        codes, move = apply_symmetry(codes, move, rng.integers(0, 8, batch), perm, inverse)
        x, legal, target = batcher.tensors(codes, move, size)
        with autocast(device, amp):
            logits = model(x)
        logits = masked_logits(logits, legal)
        loss = F.cross_entropy(logits, target, ignore_index=-100)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

        progress["samples"] += batch
        progress["steps"] += 1
        window["samples"] += batch
        window["steps"] += 1
        window["loss"] += loss.detach()
        window["top1"] += (logits.detach().argmax(1) == target).float().mean()

        if progress["steps"] % args.log_every == 0:
            now = time.time()
            log(f"{progress['samples']:>12,} samples  {window['samples'] / (now - window['time']):7.0f}/s"
                f"  loss {float(window['loss']) / window['steps']:.4f}"
                f"  top-1 {float(window['top1']) / window['steps']:.4f}  lr {lr:.2e}")
            window = {"time": now, "samples": 0, "loss": 0.0, "top1": 0.0, "steps": 0}

        if progress["samples"] >= next_eval or progress["samples"] >= total:
            next_eval = (progress["samples"] // args.eval_every + 1) * args.eval_every
            t0 = time.time()
            loss_e, top1_e, top5_e = summary(*evaluate(model, test_set, eval_index, batcher,
                                                       device, amp)[:3])
            # evaluating is not training: keep it out of the rate and the curve's seconds
            started += time.time() - t0
            window["time"] += time.time() - t0
            log(f"eval at {progress['samples']:,}: loss {loss_e:.4f}  top-1 {top1_e:.4f}  "
                f"top-5 {top5_e:.4f}  ({time.time() - t0:.1f} s)")
            with open(curve_path, "a") as f:
                f.write(f"{progress['samples']},{elapsed():.1f},{loss_e:.5f},{top1_e:.5f},"
                        f"{top5_e:.5f}\n")

        if time.time() - last_save >= args.checkpoint_every:
            checkpoint_now()
            last_save = time.time()
            log(f"checkpoint saved at {progress['samples']:,} samples")

    checkpoint_now()
    log(f"checkpoint saved at {progress['samples']:,} samples; "
        f"{'budget done' if progress['samples'] >= total else 'stopped; rerun to resume'}")


# --- the other modes ---------------------------------------------------------------------------


def export(args):
    model, checkpoint = model_from_checkpoint(args.checkpoint, torch.device("cpu"))
    size = write_hnet(model, args.export)
    assert size == hnet_size(model.channels, model.blocks_count)
    log(f"wrote {args.export}: {model.blocks_count} blocks x {model.channels} channels, "
        f"{size:,} bytes, after {checkpoint['progress']['samples']:,} samples")


PHASES = [("moves 1-50", 1, 50), ("moves 51-150", 51, 150), ("moves 151+", 151, 1 << 30)]


def evaluate_all(args):
    device, amp = setup_device(args)
    if args.float32:
        amp = False
    model, checkpoint = model_from_checkpoint(args.checkpoint, device)
    test_set = Dataset(os.path.join(args.data, "test.bin"))
    t0 = time.time()
    losses, top1, top5, numbers = evaluate(model, test_set, np.arange(test_set.count),
                                           Batcher(device), device, amp)
    log(f"{args.checkpoint} after {checkpoint['progress']['samples']:,} samples, "
        f"{len(losses):,} test positions ({time.time() - t0:.0f} s):")
    loss, t1, t5 = summary(losses, top1, top5)
    log(f"  all            loss {loss:.4f}  top-1 {t1:.4f}  top-5 {t5:.4f}")
    for name, low, high in PHASES:
        keep = (numbers >= low) & (numbers <= high)
        loss, t1, t5 = summary(losses[keep], top1[keep], top5[keep])
        log(f"  {name:<14} loss {loss:.4f}  top-1 {t1:.4f}  top-5 {t5:.4f}  "
            f"({int(keep.sum()):,} positions)")


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


def write_fixture(args):
    """A 3-block, 8-channel network with random weights and random batch-norm statistics, and
    the float32 logits its folded weights give on a few positions."""
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    model = PolicyNet(8, 3)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.Conv2d):  # weights that keep the activations' scale
                nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
            if isinstance(m, nn.BatchNorm2d):
                m.weight.uniform_(0.5, 1.5)
                m.bias.normal_(0.0, 0.2)
                m.running_mean.normal_(0.0, 0.3)
                m.running_var.uniform_(0.3, 2.0)
        model.head.bias.normal_(0.0, 0.5)  # logits spread over a few units: a wrong tap shows
    model.eval()
    os.makedirs(args.write_fixture, exist_ok=True)
    net_path = os.path.join(args.write_fixture, "small.hnet")
    write_hnet(model, net_path)
    channels, blocks, tensors = read_hnet(net_path)

    positions = []
    if args.data:
        path = os.path.join(args.data, "test.bin")
        if not os.path.exists(path):
            path = os.path.join(args.data, "train.bin")
        dataset = Dataset(path)
        for i in np.linspace(0, dataset.count - 1, 3).astype(np.int64):
            positions.append((dataset.size, dataset.read(np.array([i]))[0][0].copy()))
    else:
        log("warning: no --data: the 19x19 positions are random bytes, not from games")
        positions += [(19, random_position(19, rng)) for _ in range(2)]
    positions += [(9, random_position(9, rng)) for _ in range(2)]
    positions += [(13, random_position(13, rng)) for _ in range(2)]

    table = torch.from_numpy(plane_table())
    lines = []
    for size, codes in positions:
        x = table[torch.from_numpy(codes.astype(np.int64))].T.reshape(1, PLANES, size, size)
        with torch.no_grad():
            logits = folded_forward(channels, blocks, tensors, x.contiguous())[0]
            check = model(x.contiguous())[0]
        error = float((logits - check).abs().max())
        if error > 1e-4:
            raise SystemExit(f"the folded network differs from the batch-norm one by {error}")
        lines.append(f"position {size} {codes.tobytes().hex()}")
        lines.append("logits " + " ".join(f"{v:.8e}" for v in logits.tolist()))
    with open(os.path.join(args.write_fixture, "positions.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log(f"wrote {net_path} ({os.path.getsize(net_path)} bytes) and positions.txt "
        f"({len(positions)} positions: {', '.join(f'{s}x{s}' for s, _ in positions)})")


# --- command line ------------------------------------------------------------------------------


def main(argv=None):
    p = argparse.ArgumentParser(
        description="Train hoshi's policy network (docs/policy-net.md). Rerunning the same "
                    "command resumes from the checkpoint.")
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
    m.add_argument("--write-fixture", metavar="DIR",
                   help="write DIR/small.hnet and DIR/positions.txt (19x19 positions from --data "
                        "when given)")
    args = p.parse_args(argv)

    if args.write_fixture:
        write_fixture(args)
        return
    if args.data is None:
        args.data = os.path.join(HERE, "data")
    if args.checkpoint is None:
        if args.name is None:
            args.name = f"{args.blocks or CONFIG_DEFAULTS['blocks']}x" \
                        f"{args.channels or CONFIG_DEFAULTS['channels']}"
        args.checkpoint = os.path.join(HERE, "runs", args.name, "checkpoint.pt")
    if args.export:
        export(args)
    elif args.evaluate:
        evaluate_all(args)
    else:
        train(args)


if __name__ == "__main__":
    main()
