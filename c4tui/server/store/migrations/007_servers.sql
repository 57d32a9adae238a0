-- The servers of one community on one database (PostgreSQL): each beats every third of
-- its lease, so the others know it lives; one that stops beating for a lease's length
-- is dead (its relayed players are let go, bus_servers.py). A server that stops cleanly
-- deletes its row.

CREATE TABLE servers (
    server TEXT PRIMARY KEY,        -- its name (room_leases.py: server_id)
    started REAL NOT NULL,          -- Unix seconds: when this run of it started
    seen REAL NOT NULL              -- Unix seconds: its last heartbeat, by its own clock
);
