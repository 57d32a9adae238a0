-- The games each person keeps ("My games"): every game they played, kept when it ends
-- or when they leave it. A holder is a digest of the identity's key, as the directories
-- of the state directory before the database were named, so games brought over from
-- them find their owner (and no key is spelled out twice).

CREATE TABLE kept_games (
    holder TEXT NOT NULL,           -- sha256 of the identity's key, its first 24 hex digits
    game BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    PRIMARY KEY (holder, game)
);
