"""What a person keeps in the user data directory across matches, without any UI.

kept_games.py  GameLibrary: every game played in the app, one game file each
scorebook.py   the running score against each opponent
lessons.py     which mistakes were played right again in "learn from your mistakes"
trainer.py     the puzzle trainer: a streak, a rating, the puzzles still to do
aside.py       a damaged file renamed beside itself, never deleted
"""
