"""RatingRecords: the store's part for ratings, the terms of paired games, and the leaderboard.

A player has a rating per class (glicko2.py) once they have played a rated game in it;
before that they are a newcomer (1500, deviation 350). A game the server pairs (by
automatch or a challenge) has its terms kept under its name: rated or casual, and its
class. When a rated game ends, `rate` moves both ratings in one transaction and marks
the game as applied, so a game is never rated twice (a restart, a second look).
The leaderboard lists settled ratings first, then provisional ones (marked by their
deviation, which the lobby shows as a "?").
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.community.bot_tokens import KEY_PREFIX as BOT_KEY_PREFIX
from c4tui.community.glicko2 import NEWCOMER, PROVISIONAL_RD, Rated, after_game, provisional
from c4tui.engine.study.glicko import Rating
from c4tui.server.store.store import Store

LEADERBOARD_SIZE = 10  # players a class lists


@dataclass(frozen=True)
class Standing:
    """A player's rating in one class, with the games behind it."""

    rating: Rating = NEWCOMER
    games: int = 0
    last_game: float | None = None  # Unix seconds; None: never played a rated game here

    def idle(self, now: float) -> float:
        return 0.0 if self.last_game is None else max(0.0, now - self.last_game)


@dataclass(frozen=True)
class Ranked:
    """A line of the leaderboard."""

    name: str
    rating: Rating
    games: int
    bot: bool = False  # a bot's rating (its identity is a bot token's)

    @property
    def provisional(self) -> bool:
        return provisional(self.rating)


@dataclass(frozen=True)
class Terms:
    rating_class: str
    rated: bool
    applied: bool


class RatingRecords:
    """Ratings and the terms of paired games, in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def standing(self, player: int, rating_class: str) -> Standing:
        found = self.store.row(
            "SELECT rating, deviation, volatility, games, last_game FROM ratings"
            " WHERE player = ? AND rating_class = ?",
            (player, rating_class),
        )
        if found is None:
            return Standing()
        r, rd, sigma, games, last = found
        return Standing(Rating(float(r), float(rd), float(sigma)), int(games), float(last))

    def set_terms(self, game: str, rating_class: str, *, rated: bool) -> None:
        """The terms a paired game is played on (kept before its first move)."""
        self.store.execute(
            "INSERT INTO game_terms (game, rating_class, rated, applied) VALUES (?, ?, ?, 0)"
            " ON CONFLICT (game) DO UPDATE SET rating_class = excluded.rating_class,"
            " rated = excluded.rated",
            (game, rating_class, int(rated)),
        )

    def terms(self, game: str) -> Terms | None:
        found = self.store.row(
            "SELECT rating_class, rated, applied FROM game_terms WHERE game = ?", (game,)
        )
        if found is None:
            return None
        return Terms(str(found[0]), bool(found[1]), bool(found[2]))

    def rate(
        self, game: str, players: tuple[int, int], first_score: float, now: float
    ) -> tuple[Rating, Rating] | None:
        """Both players' new ratings after the rated `game` (first_score: 1, 0.5 or 0 for
        the first player); None, and nothing changed, when the game is not rated or was
        rated already."""
        with self.store.transaction():
            terms = self.terms(game)
            if terms is None or not terms.rated or terms.applied or players[0] == players[1]:
                return None
            before = [self.standing(p, terms.rating_class) for p in players]
            new = after_game(
                Rated(before[0].rating, before[0].idle(now)),
                Rated(before[1].rating, before[1].idle(now)),
                first_score,
            )
            for player, standing, rating in zip(players, before, new, strict=True):
                self.store.execute(
                    "INSERT INTO ratings (player, rating_class, rating, deviation, volatility,"
                    " games, last_game) VALUES (?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (player, rating_class) DO UPDATE SET rating = excluded.rating,"
                    " deviation = excluded.deviation, volatility = excluded.volatility,"
                    " games = excluded.games, last_game = excluded.last_game",
                    (
                        player,
                        terms.rating_class,
                        rating.r,
                        rating.rd,
                        rating.sigma,
                        standing.games + 1,
                        now,
                    ),
                )
            self.store.execute("UPDATE game_terms SET applied = 1 WHERE game = ?", (game,))
            return new

    def leaderboard(self, rating_class: str, size: int = LEADERBOARD_SIZE) -> list[Ranked]:
        """The top of a class: settled ratings first, then provisional ones, each by rating."""
        rows = self.store.rows(
            "SELECT players.name, rating, deviation, volatility, games, EXISTS (SELECT 1"
            " FROM identities i WHERE i.player = players.id AND i.key LIKE ?) FROM ratings"
            " JOIN players ON players.id = ratings.player WHERE rating_class = ?"
            " ORDER BY CASE WHEN deviation > ? THEN 1 ELSE 0 END, rating DESC, players.name"
            " LIMIT ?",
            (f"{BOT_KEY_PREFIX}%", rating_class, PROVISIONAL_RD, size),
        )
        return [
            Ranked(str(name), Rating(float(r), float(rd), float(sigma)), int(games), bool(bot))
            for name, r, rd, sigma, games, bot in rows
        ]
