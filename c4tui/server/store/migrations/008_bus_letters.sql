-- The bus's messages too long for a NOTIFY (PostgreSQL's payload is under 8000 bytes):
-- the message is kept here and its id is notified (bus_postgres.py); each is deleted a
-- minute after it was sent, when every listener has read it.

CREATE TABLE bus_letters (
    id {id},
    body TEXT NOT NULL,             -- the message as JSON (its kind, sender and body)
    sent REAL NOT NULL              -- Unix seconds
);
