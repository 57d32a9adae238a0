-- Automatch across servers (several servers on one database): every waiting seek, so a
-- seeker on one server meets one on another, and each player's last opponent, for the
-- rule "not the same two twice in a row while someone else waits" (automatch.py).
-- Pairing reads and deletes seeks under one lock (seek_records.py): each is paired once.

CREATE TABLE seeks (
    key TEXT PRIMARY KEY,           -- the seeking identity: one seek each
    name TEXT NOT NULL,
    rating REAL NOT NULL,           -- in the rating class of the control
    control TEXT NOT NULL,          -- "3+2", "1d"
    since REAL NOT NULL,            -- Unix seconds: the wait began
    server TEXT NOT NULL            -- the server the seeker is connected to
);

CREATE TABLE last_opponents (
    key TEXT PRIMARY KEY,           -- an identity...
    opponent TEXT NOT NULL          -- ...and whom automatch or a challenge paired it with last
)
