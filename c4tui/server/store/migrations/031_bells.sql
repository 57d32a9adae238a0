-- Whether a player hears a terminal bell when it becomes their move in a game while they
-- are connected elsewhere (the lobby's toggle), by identity key. No row: the bell is on.

CREATE TABLE player_bells (
    key TEXT PRIMARY KEY,           -- the identity ("ssh-key:SHA256:...", "web:...")
    bell INTEGER NOT NULL           -- 1 on, 0 off
);
