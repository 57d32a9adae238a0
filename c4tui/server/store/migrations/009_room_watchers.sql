-- Who watches which room (server/rooms/watching.py): kept by the room's server as spectators
-- come and go, so a server that takes over a dead server's room (several servers on one
-- database) takes its spectators along, as the seats take its players. One room a
-- person: the room they watched last.

CREATE TABLE room_watchers (
    key TEXT PRIMARY KEY,           -- the spectator's identity
    room BIGINT NOT NULL,           -- the room's number
    since REAL NOT NULL             -- Unix seconds
)
