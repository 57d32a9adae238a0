"""Rooms and who is in them (UI-free: it knows the engine, never the app).

host.py           RoomHost: the rooms and who is in them; seats held; kept after every change
room.py           Room: one authoritative game, its seats, offers and clock
views.py          what people see of a room: the whole room from a seat, its lobby line
access.py         one-time tokens, room and seat codes, the limit on guessing them
keeping.py        the rooms and each identity's games, kept in the store
watching.py       the spectators of this server's rooms, kept so they follow a room on
old_state.py      the state directory's files before the store: brought in once, set aside
ai_pool.py        the AI seats' searches in a bounded pool of worker processes
worker.py         one worker process
relay.py          this server's clients in rooms other servers hold
other_servers.py  the other servers' rooms and players in this server's lobby
"""
