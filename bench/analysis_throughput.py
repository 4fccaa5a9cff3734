#!/usr/bin/env python3
"""Positions analysed a second by an engine speaking KataGo's JSON analysis protocol
(`hoshi analysis`, `katago analysis`): one query asks for the first TURNS positions of an
SGF game at VISITS visits each, and the clock runs from the query's line to its last answer.

    bench/analysis_throughput.py --sgf GAME.sgf --turns 100 --visits 100 \\
        --engine "hoshi --net weights/g170-b6c96.bin.gz --threads 1 analysis" \\
        --engine "katago analysis -model b6c96.bin.gz -config analysis1.cfg" --rounds 2

The engines take turns, round after round (each in a fresh process, so no cache carries
over), so that a machine's load weighs on each alike; each run prints one line and the
summary gives each engine's best and median. Standard library only.
"""

import argparse
import json
import re
import shlex
import statistics
import subprocess
import sys
import time


def sgf_moves(path):
    """The game's moves as the protocol writes them: [["B", "Q16"], ...] (passes as pass)."""
    text = open(path, encoding="utf-8", errors="replace").read()
    size = int((re.search(r"SZ\[(\d+)\]", text) or [None, 19])[1])
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    moves = []
    for color, point in re.findall(r";\s*([BW])\[([a-z]{0,2})\]", text):
        if point == "" or (point == "tt" and size <= 19):
            moves.append([color, "pass"])
            continue
        x, y = ord(point[0]) - ord("a"), ord(point[1]) - ord("a")
        moves.append([color, f"{letters[x]}{size - y}"])
    return size, moves


def run(engine, query, turns):
    """Seconds from sending `query` to its `turns` final answers; the errors seen."""
    proc = subprocess.Popen(
        shlex.split(engine),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    # Let the engine load its network before the clock starts: a version query first.
    proc.stdin.write(json.dumps({"id": "v", "action": "query_version"}) + "\n")
    proc.stdin.flush()
    while json.loads(proc.stdout.readline()).get("action") != "query_version":
        pass
    start = time.monotonic()
    proc.stdin.write(json.dumps(query) + "\n")
    proc.stdin.flush()
    done, errors = 0, []
    while done < turns:
        line = proc.stdout.readline()
        if not line:
            errors.append("the engine stopped answering")
            break
        answer = json.loads(line)
        if "error" in answer:
            errors.append(answer["error"])
            break
        if answer.get("id") == query["id"] and not answer.get("isDuringSearch", False):
            done += 1
    elapsed = time.monotonic() - start
    proc.stdin.close()
    proc.wait(timeout=60)
    return elapsed, done, errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sgf", required=True)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--visits", type=int, default=100)
    parser.add_argument("--engine", action="append", required=True)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    size, moves = sgf_moves(args.sgf)
    turns = min(args.turns, len(moves) + 1)
    query = {
        "id": "game",
        "moves": moves[: turns - 1],
        "rules": "chinese",
        "komi": 7.5,
        "boardXSize": size,
        "boardYSize": size,
        "analyzeTurns": list(range(turns)),
        "maxVisits": args.visits,
    }
    rates = {engine: [] for engine in args.engine}
    for round_ in range(args.rounds):
        for engine in args.engine:
            elapsed, done, errors = run(engine, query, turns)
            if errors:
                print(f"{engine}: {errors}", file=sys.stderr)
                sys.exit(1)
            rate = done / elapsed
            rates[engine].append(rate)
            print(f"round {round_ + 1}: {rate:.3f} positions/s ({done} in {elapsed:.1f} s): {engine}")
    for engine, seen in rates.items():
        print(f"best {max(seen):.3f}, median {statistics.median(seen):.3f} positions/s: {engine}")


if __name__ == "__main__":
    main()
