-- Which server runs each tournament (several servers on one database): the one that
-- pairs its rounds and starts their games, holding a lease it renews every second or so
-- (server/cluster/tournament_runners.py). Any server lists a tournament and takes entries and
-- results for it; a tournament whose runner stopped renewing is taken by a live server.

ALTER TABLE tournaments ADD COLUMN runner TEXT;             -- the server (room_leases.server_id)
ALTER TABLE tournaments ADD COLUMN runner_until REAL        -- Unix seconds, by that server's clock
