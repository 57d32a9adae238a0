"""The community of `c4tui serve`, UI-free: who is who, the store that keeps players,
rooms, games, ratings and tournaments (SQLite by default, PostgreSQL for several
servers), and the rules of a community (Glicko-2 ratings, time controls and clocks,
automatch and challenges, tournaments). The room service (c4tui.rooms) builds on it;
it knows only the engine and c4tui.files.
"""
