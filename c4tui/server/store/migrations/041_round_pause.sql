-- The pause between a tournament's rounds (server/desks/tournaments.py): when the round's last
-- game ends, the next round is paired this many seconds later, so every player sees how
-- their game ended first. Kept, so a server restarted in the pause pairs it on time.

ALTER TABLE tournaments ADD COLUMN next_round_at REAL      -- Unix seconds; NULL: no pause on
