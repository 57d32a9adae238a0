-- Bots (community/bot_tokens.py): a bot's name, the player who made it, and the SHA-256
-- of its token (the token itself is shown once and never kept). A new token for a bot
-- replaces the digest: the old token stops working.

CREATE TABLE bots (
    bot TEXT PRIMARY KEY,           -- its identity key: "bot:" and its name in lower case
    name TEXT NOT NULL,             -- as its owner wrote it
    owner TEXT NOT NULL,            -- the identity key of the player who made it
    digest TEXT NOT NULL UNIQUE,    -- SHA-256 of its token, in hex
    made TEXT NOT NULL
);

CREATE INDEX bots_by_owner ON bots (owner);
