#!/usr/bin/env python3
"""A c4e engine that keeps to the clock it is given, written from docs/engine-protocol.md.

It writes every `go` and `setoption` line it receives to the file named by its first argument, and
plays the lowest playable column. With `--slow S` it thinks S seconds a move whatever
its clock says, so a short clock runs out.
"""

import sys
import time

log_path = sys.argv[1]
slow = float(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--slow" else 0.0
heights = [0] * 7
width, height = 7, 6


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "c4e":
        say("id name clock bot")
        say("c4eok 1")
    elif words[0] == "board":
        width, height = int(words[1]), int(words[2])
    elif words[0] == "position":
        heights = [0] * width
        for char in words[1] if len(words) > 1 else "":
            heights[int(char) - 1] += 1
    elif words[0] == "setoption":
        with open(log_path, "a") as log:
            log.write(line)
    elif words[0] == "go":
        with open(log_path, "a") as log:
            log.write(line)
        time.sleep(slow)
        column = next(c for c in range(width) if heights[c] < height)
        say(f"bestmove {column + 1}")
    elif words[0] == "quit":
        break
