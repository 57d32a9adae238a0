#!/usr/bin/env python3
"""A starter bot for The AI Games' "Four In A Row", as competitors wrote them.

It reads the settings and the field, and answers `action move` with the leftmost
column that is not full. `crash`, `hang` or `junk` as the first argument makes it
misbehave on its third move.
"""

import sys


class Bot:
    def __init__(self):
        self.settings = {}
        self.field = []
        self.moves = 0

    def update(self, key, value):
        if key == "field":
            self.field = [row.split(",") for row in value.split(";")]

    def move(self, mode):
        self.moves += 1
        if self.moves == 3 and mode == "crash":
            sys.exit(3)
        if self.moves == 3 and mode == "hang":
            while True:
                sys.stdin.readline()
        if self.moves == 3 and mode == "junk":
            return "place_disk left"
        top = self.field[0]
        for column, cell in enumerate(top):
            if cell == "0" or cell == ".":
                return "place_disc " + str(column)
        return "no_moves"


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    bot = Bot()
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        parts = line.strip().split(" ")
        if parts[0] == "settings":
            bot.settings[parts[1]] = parts[2]
        elif parts[0] == "update":
            bot.update(parts[2], parts[3])
        elif parts[0] == "action":
            print(bot.move(mode))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
