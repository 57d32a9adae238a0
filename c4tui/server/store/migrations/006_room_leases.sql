-- Which server plays each room: several servers on one database (PostgreSQL) each play
-- the rooms they hold a lease on, renewed every few seconds; a room whose lease ran out
-- (its server died) is taken by a live server, which loads it from `rooms`. A lease is
-- taken or renewed with one upsert, so two servers never both hold one room.

CREATE TABLE room_leases (
    room BIGINT PRIMARY KEY,        -- the room's number (leased before it is first kept)
    server TEXT NOT NULL,           -- the server that holds it (room_leases.py: server_id)
    expires REAL NOT NULL           -- Unix seconds, by the clock of the server that took it
);
