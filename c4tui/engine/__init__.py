"""The UI-free Connect Four engine: positions, games, and every opponent.

Read it as a table of contents:
- board/: the position, its geometry, move strings, games and game files, scores;
- solver/: the exact solver (search, table), with the opening book (book.py) and the
  bindings of the C kernels (native.py, gil.py, *.c) beside it;
- players/: the engine contract and template, spec strings, levels, every opponent;
- study/: the review of a game, puzzles, exact column scores, figures in words.
"""
