"""The match: one game between two sides (people or engines), kept on disk, without any UI."""
