"""The room service of `c4tui serve` (UI-free: it knows the engine, never the app).

service.py   RoomService: the Unix socket, logins by one-time token, each connection
             read and checked; the seam with the fronts (c4tui/serve)
identity.py  Identity and RoomLimits, what the fronts hand the service
protocol.py  the versioned line-delimited JSON: every client message's schema
codec.py     shapes declared once as dataclasses, and the one codec that checks them
access.py    one-time tokens, room and seat codes, the limit on guessing them
requests.py  what clients ask of rooms, done or refused with a reason
host.py      RoomHost: the rooms and who is in them; seats held; kept after every change
room.py      Room: one authoritative game, its seats and offers, what each client sees
keeping.py   the rooms and each identity's games, kept in the community's store
old_state.py the state directory's files before the store: brought in once, set aside
ai_pool.py   the AI seats' searches in a bounded pool of worker processes
worker.py    one worker process
room_client.py  RoomClient: a client process's side of the socket (the served app's)
"""
