-- Players, the identities they log in with, and the names they hold.
-- A player is one person of the community; an identity is one way of proving to be
-- that person (an ssh key, a browser's cookie, a keyless ssh name); a name belongs to
-- one player, whichever identity claimed it.

CREATE TABLE players (
    id {id},
    name TEXT NOT NULL,             -- the name shown, as first claimed
    created TEXT NOT NULL           -- ISO 8601, UTC
);

CREATE TABLE identities (
    key TEXT PRIMARY KEY,           -- "ssh-key:SHA256:...", "ssh-name:ann", "web:<id>"
    player BIGINT NOT NULL REFERENCES players (id),
    created TEXT NOT NULL
);

CREATE INDEX identities_by_player ON identities (player);

CREATE TABLE names (
    folded TEXT PRIMARY KEY,        -- the name casefolded: Ann and ANN are one name
    name TEXT NOT NULL,             -- as it was claimed
    player BIGINT NOT NULL REFERENCES players (id),
    claimed TEXT NOT NULL
);

CREATE INDEX names_by_player ON names (player);
