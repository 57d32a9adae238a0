-- Swiss tournaments (community/tournament.py): each tournament, its players, its rounds
-- and the boards of each round with their rooms and results, so a restarted server has
-- every tournament back where it was (a round under way, its games in their rooms).
-- Players are identity keys and names, as the room service knows them.

CREATE TABLE tournaments (
    id BIGINT PRIMARY KEY,          -- numbered by the room service
    name TEXT NOT NULL,
    maker TEXT NOT NULL,            -- who made it: a player's name, or "the operator"
    control TEXT NOT NULL,          -- every game's time control: "5+3"
    rounds_planned INTEGER NOT NULL,
    starts_at REAL NOT NULL,        -- Unix seconds
    phase TEXT NOT NULL,            -- registration, playing, finished, cancelled
    note TEXT                       -- why it was cancelled or ended early
);

CREATE TABLE tournament_entries (
    tournament BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    rating REAL NOT NULL,           -- the rating the player came in with
    withdrawn INTEGER NOT NULL,
    entered INTEGER NOT NULL,       -- the order of entry
    PRIMARY KEY (tournament, player)
);

CREATE TABLE tournament_rounds (
    tournament BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL,
    bye TEXT,                       -- the player who sat out with a point, if any
    PRIMARY KEY (tournament, round_number)
);

CREATE TABLE tournament_boards (
    tournament BIGINT NOT NULL,
    round_number INTEGER NOT NULL,
    board INTEGER NOT NULL,
    first_player TEXT NOT NULL,     -- plays the first move
    second_player TEXT NOT NULL,
    room BIGINT,                    -- the room the game is played in
    points REAL,                    -- the first player's 1, 0.5 or 0 once over
    how TEXT,                       -- how it ended
    PRIMARY KEY (tournament, round_number, board),
    FOREIGN KEY (tournament, round_number)
        REFERENCES tournament_rounds (tournament, round_number) ON DELETE CASCADE
);
