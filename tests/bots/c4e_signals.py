#!/usr/bin/env python3
"""A c4e bot that notes which signals it started with ignored: `c4e_signals.py FILE`
appends the SigIgn mask from /proc/self/status (hexadecimal, bit N-1 for signal N) to
FILE, then plays the lowest playable column."""

import sys

with open("/proc/self/status") as status, open(sys.argv[1], "a") as out:
    out.write(next(line for line in status if line.startswith("SigIgn:")).split()[1] + "\n")

moves = ""
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "c4e":
        print("c4eok 1", flush=True)
    elif words[0] == "position":
        moves = words[1] if len(words) > 1 else ""
    elif words[0] == "go":
        column = next(col for col in range(1, 8) if moves.count(str(col)) < 6)
        print(f"bestmove {column}", flush=True)
    elif words[0] == "quit":
        break
