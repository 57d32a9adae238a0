"""Tournaments between engines: schedule, games, worker processes, saved games, standings."""
