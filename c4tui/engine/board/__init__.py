"""The board: positions on a bitboard, their geometry, move strings, games and game files.

Everything here is about one board and the stones on it; nothing searches. The score
convention (scores.py) and the threat evaluation (heuristic.py) live here because every
searcher, exact or not, reads positions through them.
"""
