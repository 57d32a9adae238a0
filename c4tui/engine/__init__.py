"""The UI-free Connect Four engine: positions, games, and every opponent.

Read it as a table of contents:
- board/: the position, its geometry, move strings, games and game files, scores;
- solver/: the exact solver (search, table, opening book, every column), in Python;
- kernels/: the same search and MCTS's random game in C, and their bindings;
- gil.py: how a search in C or Python shares the processor with the app's UI;
- players/: the engine contract and template, spec strings, levels, every opponent;
- study/: the review of a game, puzzles, exact column scores, figures in words.
"""
