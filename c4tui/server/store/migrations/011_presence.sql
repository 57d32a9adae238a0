-- Who is online on which server (several servers on one database): a row for each
-- identity with a live connection to a server, kept by that server as its clients come
-- and go. A row counts only while its server is live (its heartbeat runs): a server
-- that dies drops its people at once, and clears its own rows when it starts again.

CREATE TABLE presence (
    server TEXT NOT NULL,           -- the server the identity is connected to (room_leases.server_id)
    key TEXT NOT NULL,              -- the identity ("ssh-key:SHA256:...", "web:...")
    name TEXT NOT NULL,             -- the name it is online under
    since REAL NOT NULL,            -- Unix seconds
    PRIMARY KEY (server, key)
)
