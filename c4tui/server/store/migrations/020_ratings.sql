-- Ratings: one Glicko-2 rating per player and rating class (community/glicko2.py), and
-- the terms of each game the server paired (rated or casual, its class), so a restart
-- neither forgets that a game under way is rated nor rates a finished one twice.

CREATE TABLE ratings (
    player BIGINT NOT NULL REFERENCES players (id),
    rating_class TEXT NOT NULL,     -- bullet, blitz, rapid, correspondence
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,         -- rated games played in this class
    last_game REAL NOT NULL,        -- when the last one ended: Unix seconds
    PRIMARY KEY (player, rating_class)
);

CREATE INDEX ratings_by_class ON ratings (rating_class, rating);

CREATE TABLE game_terms (
    game TEXT PRIMARY KEY,          -- the game's name (games.name)
    rating_class TEXT NOT NULL,
    rated INTEGER NOT NULL,         -- 1 rated, 0 casual
    applied INTEGER NOT NULL        -- 1 once its result moved the ratings
);
