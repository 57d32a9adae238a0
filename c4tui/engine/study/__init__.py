"""Studying games: the review of a game, puzzles, every column's exact score, how a
search's figures read to a person, threats and the zugzwang, why a move loses, and the
lessons of "learn from your mistakes"."""
