"""The rules of a community, shared by the served client and the server, with no store
and no socket; time is always handed in.

automatch.py        seeks paired by rating
challenges.py       one player asks another for a game
clocks.py           time controls and the clock of a game
endings.py          every way a served game ends, in words, and whether it is rated
glicko2.py          Glicko-2 ratings per class
swiss.py            one Swiss round's pairing
swiss_standings.py  points, Buchholz, Sonneborn-Berger
tournament.py       a Swiss tournament from entry to standings
chosen_names.py     the rules a chosen name keeps
passwords.py        the rules of a password, and its salted scrypt hash
bot_tokens.py       bot names, tokens and their digests

The server (c4tui.server) keeps and runs them; the client asks them as a first look.
It knows only the engine.
"""
