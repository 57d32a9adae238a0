-- The clock of a room with a time control (community/clocks.py), kept with the room in
-- the same transaction after every change, and every 30 s while a side's time runs:
-- each side's time left as of its last charge, and whose time runs. A restarted server
-- runs that side's time again from the restart: the time it was down is not charged.

CREATE TABLE room_clocks (
    room BIGINT PRIMARY KEY REFERENCES rooms (number) ON DELETE CASCADE,
    minutes REAL NOT NULL,          -- the time control: minutes per side,
    increment INTEGER NOT NULL,     -- seconds added after each move,
    days INTEGER NOT NULL,          -- or days per move (correspondence; minutes 0)
    left_first REAL NOT NULL,       -- seconds the first player (seat 0) has left
    left_second REAL NOT NULL,      -- seconds the second player (seat 1) has left
    running INTEGER                 -- the seat whose time runs, 0 or 1; NULL: neither
);
