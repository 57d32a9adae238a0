"""Studying games: the review of a game, puzzles, every column's exact score, and how a
search's figures read to a person."""
