-- What was brought into the database from elsewhere, once: the room and game files
-- and names.json of a state directory from before the database.

CREATE TABLE imports (
    source TEXT PRIMARY KEY,        -- "state-files": the files of the state directory
    done TEXT NOT NULL,             -- when
    summary TEXT NOT NULL           -- what was brought in, in words
);
