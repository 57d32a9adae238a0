#!/usr/bin/env python3
"""A c4e bot that starts a helper in a session of its own, as a daemon would, and the
helper keeps the bot's output open: ending the bot's process group does not reach it,
and the bot's output never ends while it lives. It plays the lowest playable column.

`c4e_escaper.py PIDFILE` writes the helper's pid to PIDFILE.
"""

import subprocess
import sys

helper = subprocess.Popen(
    [sys.executable, "-c", "import time; time.sleep(600)"],
    start_new_session=True,  # setsid: out of reach of the bot's process group
)
with open(sys.argv[1], "w") as file:
    file.write(str(helper.pid))

width, height, moves = 7, 6, ""
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "c4e":
        print("id name escaper")
        print("c4eok 1", flush=True)
    elif words[0] == "board":
        width, height = int(words[1]), int(words[2])
    elif words[0] == "position":
        moves = words[1] if len(words) > 1 else ""
    elif words[0] == "go":
        full = [col for col in range(width) if moves.count(str(col + 1)) >= height]
        print(f"bestmove {min(set(range(width)) - set(full)) + 1}", flush=True)
    elif words[0] == "quit":
        break
