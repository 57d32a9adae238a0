"""Rooms and who is in them (UI-free: it knows the engine, never the app).

host.py           RoomHost: the rooms and who is in them; seats held; kept after every change
face.py           the host as its parts see it (they never import host.py)
audience.py       every client, indexed by the room it is in and by who it is
hooks.py          HostListener, the one way the rest of the server follows the rooms
room.py           Room: one authoritative game, its seats, offers and clock
views.py          what people see of a room: the whole room from a seat, its lobby line
showing.py        a room's view made once per seat and once for all spectators
lobby.py          the lobby: whole to a client coming in, then diffs keyed by room
access.py         one-time tokens, room and seat codes, the limit on guessing them
keeping.py        the rooms and each identity's games, kept in the store
keeping_line.py   a room's changes written off the event loop, in order; shown once kept
watching.py       the spectators of this server's rooms, kept so they follow a room on
seat_watch.py     the look at clocks and held seats, once a tick and before a move
leasing.py        which rooms this server plays when several share one database
old_state.py      the state directory's files before the store: brought in once, set aside
ai_seat.py        the AI seats' searches, one a room at most
ai_pool.py        the searches in a bounded pool of worker processes
worker.py         one worker process
relay.py          this server's clients in rooms other servers hold
other_servers.py  the other servers' rooms and players in this server's lobby
"""
