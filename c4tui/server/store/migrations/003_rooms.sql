-- The rooms of the room service: each plays one game at a time, has two seats and the
-- offers waiting for an answer. A room is kept after every change and comes back after
-- a restart; a room that closes is deleted (its games stay).

CREATE TABLE rooms (
    number BIGINT PRIMARY KEY,      -- the room's number, as the lobby lists it
    code TEXT NOT NULL,             -- the code that lets people in
    public INTEGER NOT NULL,        -- 1: listed with its code in the lobby
    game BIGINT NOT NULL REFERENCES games (id),
    updated TEXT NOT NULL
);

CREATE TABLE room_seats (
    room BIGINT NOT NULL REFERENCES rooms (number) ON DELETE CASCADE,
    seat INTEGER NOT NULL,          -- 0 plays the first disc, 1 the second
    key TEXT,                       -- the person's identity; NULL: an engine, or open
    name TEXT NOT NULL,
    ai TEXT,                        -- the engine spec of an AI seat
    code TEXT NOT NULL,             -- the seat code that reclaims it from another browser
    PRIMARY KEY (room, seat)
);

CREATE TABLE room_offers (
    room BIGINT NOT NULL REFERENCES rooms (number) ON DELETE CASCADE,
    kind TEXT NOT NULL,             -- draw, take_back
    seat INTEGER NOT NULL,          -- the seat that made it
    PRIMARY KEY (room, kind)
);
