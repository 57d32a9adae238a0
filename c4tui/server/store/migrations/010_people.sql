-- People: the password that makes a keyless ssh name its player's, and who blocks whom.

CREATE TABLE passwords (
    player BIGINT PRIMARY KEY REFERENCES players (id),
    hash TEXT NOT NULL,             -- passwords.hashed(): "scrypt$N$r$p$salt$hash", never the words
    updated TEXT NOT NULL
);

CREATE TABLE blocks (
    player BIGINT NOT NULL REFERENCES players (id),    -- who blocks
    blocked BIGINT NOT NULL REFERENCES players (id),   -- whom: no challenges, pairs or chat
    since TEXT NOT NULL,
    PRIMARY KEY (player, blocked)
);

CREATE INDEX blocks_by_blocked ON blocks (blocked);
