-- Games, each with its moves, how it ended and its result. A game outlives its room:
-- the room points at the game it plays now; a rematch starts a new game.

CREATE TABLE games (
    id {id},
    name TEXT NOT NULL UNIQUE,      -- "20261123-211502-r3-000001": when it began, the room
    room BIGINT,                    -- the room it was played in (no reference: rooms close)
    began TEXT NOT NULL,            -- the game file's Date: ISO 8601, UTC
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    connect INTEGER NOT NULL,       -- discs in a row that win
    player1 TEXT NOT NULL,          -- who plays the first disc, as the game file names them:
    player2 TEXT NOT NULL,          --   a person's name or an engine spec
    key1 TEXT,                      -- the identity of the person at each side, if a person
    key2 TEXT,
    plies INTEGER NOT NULL,         -- moves made (the moves table holds them)
    ended TEXT,                     -- an ending off the board: resigned, agreed, time,
                                    --   abandoned, forfeit; NULL on the board or not over
    winner INTEGER,                 -- 0 (first player), 1 (second); NULL: a draw or not over
    result TEXT NOT NULL,           -- the game file's Result: 1-0, 0-1, 1/2-1/2, or * going on
    updated TEXT NOT NULL
);

CREATE INDEX games_by_key1 ON games (key1);
CREATE INDEX games_by_key2 ON games (key2);

CREATE TABLE moves (
    game BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,           -- 0 for the first move
    col INTEGER NOT NULL,           -- the column, 0-based (1-based wherever a person sees it)
    played TEXT NOT NULL,           -- when it was kept: ISO 8601, UTC
    PRIMARY KEY (game, ply)
);
