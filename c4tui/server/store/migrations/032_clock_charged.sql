-- When a room's clock was last charged (community/clocks.py: a move, or its keep every
-- 30 s while a side's time runs), in Unix seconds by the room's server's clock. A server
-- that takes the room over from one that died charges the running side from then to
-- the dead server's last heartbeat: the time the player saw run is not given back
-- (server/rooms/leasing.py). NULL: not known (kept before this), nothing charged.

ALTER TABLE room_clocks ADD COLUMN charged REAL
