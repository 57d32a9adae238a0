-- Each held name's skeleton (community/look_alikes.py): a name that looks like one held
-- by another player is theirs too. Filled in by player_records.py, which computes it,
-- for the names held before (NULL until then). Not unique: two look-alikes held before
-- this migration stay with their holders.
ALTER TABLE names ADD COLUMN skeleton TEXT;
CREATE INDEX names_by_skeleton ON names (skeleton);
