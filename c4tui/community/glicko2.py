"""Ratings of the community: Glicko-2 per rating class, updated the moment a rated game ends.

The arithmetic is Glickman's Glicko-2 ("Example of the Glicko-2 system"), the one the
puzzle trainer uses too (c4tui.engine.study.glicko); this module adds what a server of
players needs on top of it:

- Rating periods. Each rated game is a rating period of its own, so a rating moves
  when the game ends, as players expect; a small server has too few games to fill the
  10-15 games a period that Glickman suggests, and waiting a day to see a result is
  no fun. Between games the deviation grows with the time since the player's last
  rated game, one period's growth (Glickman's step 6) per day away, in fractions of
  a day, up to a newcomer's 350: a player back after a year is less certain than one
  who played yesterday, and meets bigger changes.
- Classes. A rating per class of time control (bullet, blitz, rapid, correspondence:
  `TimeControl.rating_class` in clocks.py says which), as on chess servers, because a
  player's strength at a few seconds a move and at a day a move are different things.
- Provisional. A rating whose deviation is above 110 is provisional (shown with a "?"):
  a newcomer's 350 comes under it after about ten games against settled players.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from c4tui.engine.study.glicko import SCALE, Rating, update

NEWCOMER = Rating()  # 1500, deviation 350, volatility 0.06
PROVISIONAL_RD = 110.0  # a deviation above this: the rating is provisional
PERIOD_SECONDS = 86400.0  # a day away grows the deviation by one rating period's worth


def provisional(rating: Rating) -> bool:
    """Whether the rating is still too uncertain to be taken at its word."""
    return rating.rd > PROVISIONAL_RD


def shown(rating: Rating) -> str:
    """The rating as players read it: "1523", or "1523?" while provisional."""
    return f"{rating.r:.0f}{'?' if provisional(rating) else ''}"


def aged(rating: Rating, idle_seconds: float) -> Rating:
    """The rating after `idle_seconds` without a rated game: its deviation grows as over
    that many (fractional) rating periods, never past a newcomer's."""
    if idle_seconds <= 0:
        return rating
    periods = idle_seconds / PERIOD_SECONDS
    phi = rating.rd / SCALE
    grown = math.sqrt(phi * phi + rating.sigma * rating.sigma * periods) * SCALE
    return Rating(rating.r, min(grown, NEWCOMER.rd), rating.sigma)


@dataclass(frozen=True)
class Rated:
    """A side of a rated game: its rating before the game, and how long since its last."""

    rating: Rating
    idle_seconds: float = 0.0


def after_game(first: Rated, second: Rated, first_score: float) -> tuple[Rating, Rating]:
    """Both ratings after a game of their own rating period; `first_score` is 1 for the
    first side's win, 0.5 for a draw, 0 for its loss. Each side is judged against the
    other's rating as it stood before the game."""
    if first_score not in (0.0, 0.5, 1.0):
        raise ValueError(f"a game's score is 1, 0.5 or 0, not {first_score!r}")
    one = aged(first.rating, first.idle_seconds)
    two = aged(second.rating, second.idle_seconds)
    return update(one, [(two, first_score)]), update(two, [(one, 1.0 - first_score)])
