"""The match: one game between two sides (people or engines), local or on a server, without any UI.

What a person keeps across matches (kept games, the running score, lessons, the puzzle
trainer) lives in c4tui.records, below the match.
"""
