#!/usr/bin/env python3
"""A small engine for the c4e protocol, written from docs/engine-protocol.md alone.

It wins when it can, blocks when it must, and otherwise plays the playable column
nearest the centre. `--crash`, `--hang` and `--junk` make it misbehave on its third
`go`: it dies, it never answers (leaving a helper process of its own running), or it
prints nonsense.
"""

import subprocess
import sys

width, height, connect = 7, 6, 4
moves = ""
goes = 0
mode = sys.argv[1] if len(sys.argv) > 1 else ""


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def grid_of(moves):
    grid = [[0] * height for _ in range(width)]
    for ply, char in enumerate(moves):
        col = int(char) - 1
        grid[col][grid[col].index(0)] = 1 + ply % 2
    return grid


def wins(grid, col, who):
    row = grid[col].index(0)
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while 0 <= c < width and 0 <= r < height and grid[c][r] == who:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= connect:
            return True
    return False


def choose():
    grid = grid_of(moves)
    me = 1 + len(moves) % 2
    playable = [c for c in range(width) if grid[c][-1] == 0]
    for who in (me, 3 - me):
        for col in playable:
            if wins(grid, col, who):
                return col, playable
    centre = (width - 1) / 2
    return min(playable, key=lambda c: abs(c - centre)), playable


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command == "c4e":
        say("id name centre bot")
        say("id author the tests")
        say("c4eok 1")
    elif command == "board":
        width, height, connect = map(int, words[1:4])
    elif command == "position":
        moves = words[1] if len(words) > 1 else ""
    elif command == "go":
        goes += 1
        if goes == 3 and mode == "--crash":
            raise RuntimeError("the bot fell over")
        if goes == 3 and mode == "--hang":
            helper = "import time; time.sleep(600)"
            subprocess.Popen([sys.executable, "-c", helper, __file__])
            continue
        if goes == 3 and mode == "--junk":
            say("I think column four looks nice")
            continue
        col, playable = choose()
        for c in playable:
            say(f"info col {c + 1} score {10 if c == col else 0}")
        say(f"info time 1 depth 1 nodes {len(playable)} pv {col + 1}")
        say(f"bestmove {col + 1}")
    elif command == "quit":
        break
