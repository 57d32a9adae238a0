"""The desks: what puts players into rooms and keeps the community's results.

matchmaking.py          automatch, and the rooms of paired games
challenge_desk.py       challenges between people, answered or gone, on every server
rated_games.py          a rated game's terms, the ratings it moves, the leaderboard
tournaments.py          Swiss tournaments from entry to standings
tournament_rounds.py    a tournament's rounds: begun, paired, seated, recorded, paused
tournament_audience.py  who sees the tournaments, and what each is sent
tournament_seats.py     a tournament's players into their games, on every server
bots.py                 programs with a bot token, seated as people are
bot_feeds.py            a bot's account stream and game streams, as the room's clients
bot_play.py             a bot's moves, thinking and resignations, within its limits
bots_across.py          a bot online, and challenged, on every server
people.py               profiles, blocks and passwords
renaming.py             a player's new name wherever they are
"""
