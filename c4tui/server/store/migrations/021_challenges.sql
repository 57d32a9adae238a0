-- Open challenges (community/challenges.py): a correspondence challenge waits days in a
-- lobby, so it outlives a restart. Answered, cancelled or expired ones are deleted.

CREATE TABLE challenges (
    id BIGINT PRIMARY KEY,          -- numbered by the challenge book, not the database
    challenger TEXT NOT NULL,       -- identity keys and names, as the challenge has them
    challenger_name TEXT NOT NULL,
    opponent TEXT NOT NULL,
    opponent_name TEXT NOT NULL,
    control TEXT NOT NULL,          -- "3+2", "1d"
    rated INTEGER NOT NULL,
    correspondence INTEGER NOT NULL,
    made REAL NOT NULL,             -- Unix seconds
    expires REAL NOT NULL
);
