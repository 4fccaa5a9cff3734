#!/usr/bin/env python3
"""A stand-in for `katago analysis`: speaks KataGo's analysis protocol (one JSON query a line on stdin,
one JSON answer a line on stdout for each turn in `analyzeTurns`) with made-up values that follow the
position in a simple, known way, so that train/label.py can be tested without KataGo or a network.

It plays the moves on a board (captures included; a move on a stone, or a suicide, is refused with an
`error` answer for the whole query, as KataGo refuses illegal moves) and, with b Black stones and w
White stones on the board, komi k and T the turn number, answers (Black's side, as KataGo does with
`reportAnalysisWinratesAs = BLACK`):

  rootInfo.rawWinrate = clamp(0.5 + 0.01 * (b - w))     rootInfo.winrate   = clamp(0.5 + 0.02 * (b - w))
  rootInfo.rawLead = b - w - k                           rootInfo.scoreLead = 2 * (b - w) - k
  rootInfo.rawScoreSelfplayStdev = 10 + 0.5 * T          rootInfo.scoreStdev = 20 + T
  policy: -1 on stones; scanning the points row by row from the top-left, starting at the last move's
    point (the first point when turn T has no last move, or it was a pass) and wrapping around, the
    first three empty points get 0.5, 0.25 and 0.125, the pass 0.0625, and the other empty points
    share the last 0.0625 (the pass takes it when there are none).
  ownership (when includeOwnership is true): 1 on Black stones, -1 on White stones, 0.25 elsewhere.

Options (for tests of the paths a real engine takes now and then):
  --report-as WHITE|SIDETOMOVE   report from that side instead of Black's (win rates, leads, ownership)
  --no-raw                       leave out the raw* fields of rootInfo, as older engines do
  --shuffle SEED                 answer the queries waiting at once in a shuffled order
  --error-every N                refuse every N-th analysis query received with an `error` answer
  --die-after N                  exit (status 3) after writing N answer lines
  --delay S                      wait S seconds before each answer line
  --log FILE                     append each query line received to FILE
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import sys
import time

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
POLICY_TOP = (0.5, 0.25, 0.125)
POLICY_PASS = 0.0625
OWN_EMPTY = 0.25


class Refusal(Exception):
    """A query KataGo would answer with an error: the message and the field at fault."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.field = field


def point(vertex: str, size: int) -> int | None:
    """A GTP vertex ("Q16", "pass") as a point y * size + x, y from the top; None for a pass."""
    if vertex.lower() == "pass":
        return None
    try:
        x, row = COLUMNS.index(vertex[0].upper()), int(vertex[1:])
    except (ValueError, IndexError):
        raise Refusal(f"could not parse vertex {vertex!r}", "moves") from None
    if not (x < size and 1 <= row <= size):
        raise Refusal(f"vertex {vertex} is off the board", "moves")
    return (size - row) * size + x


def neighbours(p: int, size: int) -> list:
    x, y = p % size, p // size
    return [q for q, ok in ((p - 1, x > 0), (p + 1, x < size - 1), (p - size, y > 0), (p + size, y < size - 1)) if ok]


def group(board: list, p: int, size: int) -> tuple:
    """The stones of p's chain and whether it has a liberty."""
    color, seen, todo, free = board[p], {p}, [p], False
    while todo:
        for q in neighbours(todo.pop(), size):
            if board[q] is None:
                free = True
            elif board[q] == color and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen, free


def play(board: list, color: str, p: int | None, size: int) -> None:
    """Plays a move with captures; a move on a stone or a suicide is refused."""
    if p is None:
        return
    if board[p] is not None:
        raise Refusal(f"Illegal move: {color} on an occupied point", "moves")
    board[p] = color
    for q in neighbours(p, size):
        if board[q] not in (None, color):
            stones, free = group(board, q, size)
            if not free:
                for s in stones:
                    board[s] = None
    if not group(board, p, size)[1]:
        raise Refusal(f"Illegal move: suicide by {color}", "moves")


def clamp(value: float) -> float:
    return min(1.0, max(0.0, value))


def policy(board: list, last: int | None, size: int) -> list:
    """The made-up policy described in the module's docstring."""
    n = size * size
    start = 0 if last is None else last
    empties = [(start + i) % n for i in range(n) if board[(start + i) % n] is None]
    values = [-1.0] * n + [POLICY_PASS]
    rest = empties[len(POLICY_TOP):]
    for q in rest:
        values[q] = POLICY_PASS / len(rest)
    if not rest:
        values[n] += POLICY_PASS
    for q, v in zip(empties, POLICY_TOP):
        values[q] = v
    return values


def answer(query: dict, board: list, turn: int, player: str, last: int | None, report_as: str, raw: bool) -> dict:
    """The answer for one turn, from the side `report_as` names."""
    size, komi = query["boardXSize"], float(query.get("komi", 7.5))
    diff = board.count("B") - board.count("W")
    flip = report_as == "WHITE" or (report_as == "SIDETOMOVE" and player == "W")
    sign = -1 if flip else 1

    def side(winrate: float) -> float:
        return 1.0 - winrate if flip else winrate

    pol = policy(board, last, size)
    best = max(range(len(pol)), key=lambda q: (pol[q], -q))
    root = {
        "winrate": side(clamp(0.5 + 0.02 * diff)),
        "scoreLead": sign * (2 * diff - komi),
        "scoreSelfplay": sign * (2 * diff - komi),
        "scoreStdev": 20.0 + turn,
        "visits": 1,
        "currentPlayer": player,
    }
    if raw:
        root.update(
            rawWinrate=side(clamp(0.5 + 0.01 * diff)), rawLead=sign * (diff - komi), rawScoreSelfplayStdev=10.0 + 0.5 * turn
        )
    move = "pass" if best == size * size else f"{COLUMNS[best % size]}{size - best // size}"
    result = {
        "id": query["id"],
        "isDuringSearch": False,
        "turnNumber": turn,
        "moveInfos": [{"move": move, "order": 0, "visits": 1, "prior": pol[best], "winrate": root["winrate"], "pv": [move]}],
        "rootInfo": root,
        "policy": pol,
    }
    if query.get("includeOwnership"):
        own = {"B": 1.0, "W": -1.0, None: OWN_EMPTY}
        result["ownership"] = [sign * own[s] for s in board]
    return result


def analyse(query: dict, report_as: str, raw: bool) -> list:
    """All the answers of one analysis query (validating every move first, as KataGo does)."""
    for key in ("id", "moves", "rules", "boardXSize", "boardYSize"):
        if key not in query:
            raise Refusal(f"{key} is required", key)
    size = query["boardXSize"]
    if size != query["boardYSize"] or not 2 <= size <= len(COLUMNS):
        raise Refusal("only square boards of 2 to 25 here", "boardXSize")
    moves = [(c, point(v, size)) for c, v in query["moves"]]
    turns = query.get("analyzeTurns", [len(moves)])
    if any(not 0 <= t <= len(moves) for t in turns):
        raise Refusal("analyzeTurns has a turn past the moves", "analyzeTurns")
    board = [None] * (size * size)
    for color, vertex in query.get("initialStones", []):
        board[point(vertex, size)] = color
    positions, player = {}, query.get("initialPlayer", moves[0][0] if moves else "B")
    for t in range(len(moves) + 1):
        if t in turns:
            last = moves[t - 1][1] if t > 0 else None
            positions[t] = (list(board), player, last)
        if t < len(moves):
            play(board, moves[t][0], moves[t][1], size)
            player = "W" if moves[t][0] == "B" else "B"
    answers = []
    for t in turns:
        stones, to_play, last = positions[t]
        answers.append(answer(query, stones, t, to_play, last, report_as, raw))
    return answers


class LineReader:
    """Lines of a file descriptor, and whether more input is waiting (for --shuffle's batches)."""

    def __init__(self, fd: int):
        self.fd, self.buffer = fd, b""

    def waiting(self, timeout: float) -> bool:
        return b"\n" in self.buffer or bool(select.select([self.fd], [], [], timeout)[0])

    def readline(self) -> str | None:
        while b"\n" not in self.buffer:
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                line, self.buffer = self.buffer, b""
                return line.decode() if line.strip() else None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode()


class FakeEngine:
    """Answers query lines and writes the answers: shuffled, delayed or cut short as the options say."""

    def __init__(self, args):
        self.args, self.queries, self.written = args, 0, 0
        self.rng = random.Random(args.shuffle)

    def replies(self, line: str) -> list:
        """The answer lines for one query line."""
        try:
            query = json.loads(line)
        except json.JSONDecodeError:
            return [json.dumps({"error": "could not parse json"})]
        if "action" in query:
            return [json.dumps(query)]
        self.queries += 1
        try:
            if self.args.error_every and self.queries % self.args.error_every == 0:
                raise Refusal("refused as --error-every asks", "id")
            return [json.dumps(a) for a in analyse(query, self.args.report_as, not self.args.no_raw)]
        except Refusal as why:
            return [json.dumps({"error": str(why), "field": why.field, "id": query.get("id")})]

    def write(self, lines: list) -> None:
        if self.args.shuffle is not None:
            self.rng.shuffle(lines)
        for line in lines:
            if self.args.delay:
                time.sleep(self.args.delay)
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
            self.written += 1
            if self.args.die_after is not None and self.written >= self.args.die_after:
                os._exit(3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--report-as", choices=("BLACK", "WHITE", "SIDETOMOVE"), default="BLACK")
    parser.add_argument("--no-raw", action="store_true")
    parser.add_argument("--shuffle", type=int, metavar="SEED")
    parser.add_argument("--error-every", type=int, metavar="N")
    parser.add_argument("--die-after", type=int, metavar="N")
    parser.add_argument("--delay", type=float, default=0.0, metavar="S")
    parser.add_argument("--log", metavar="FILE")
    args = parser.parse_args()
    reader, engine, waiting = LineReader(sys.stdin.fileno()), FakeEngine(args), []
    while (line := reader.readline()) is not None:
        if not line.strip():
            continue
        if args.log:
            with open(args.log, "a") as log:
                log.write(line.rstrip("\n") + "\n")
        waiting += engine.replies(line)
        if args.shuffle is None or not reader.waiting(0.05):
            engine.write(waiting)
            waiting = []
    engine.write(waiting)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        os._exit(0)
