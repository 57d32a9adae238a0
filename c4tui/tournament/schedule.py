"""The schedule of a round robin, made game by game as the games are needed.

Every pair plays `games` games, alternating who moves first; the games of the pairs are
interleaved, so a run stopped early has about as many games of every pair. Nothing is
built ahead: 20,000,000 games start as quickly as 20, in the same memory.

Openings: deterministic engines would replay one game forever, so a round robin may
start its games from short random openings, each played once with each colour, as
engine-testing tools do. An opening is kept only when neither side has a winning spot
anywhere on the board yet (no immediate win, no threat); optionally also only when the
exact solver scores it near 0, so no colour starts from a position won early.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations

from c4tui.engine.board.position import Position
from c4tui.tournament.games import GameTask
from c4tui.tournament.time_control import MoveLimits

# Random play meets every opening of a few plies well within this many tries in a row;
# past them, the openings found so far are played again in turn.
MISSES_BEFORE_REPEATING = 2000


def derive_seed(seed: int, *parts: object) -> int:
    """A 32-bit seed for one use of the tournament seed (string seeding is stable)."""
    return random.Random("/".join(map(str, (seed, *parts)))).getrandbits(32)


def is_balanced(position: Position) -> bool:
    """True when the game goes on and neither side has a cell that would complete a line."""
    if position.is_over():
        return False
    g = position.geometry
    return not (
        g.winning_spots(position.current, position.mask)
        or g.winning_spots(position.opponent_stones, position.mask)
    )


def random_openings(
    plies: int, seed: int, max_score: int | None = None
) -> Iterator[tuple[int, ...]]:
    """Balanced openings of `plies` random moves, distinct up to mirroring, without end.

    With `max_score`, an opening is kept only when the exact solver scores it within
    +-max_score (0: a draw with perfect play). Short openings have few distinct
    positions (4 after one ply, up to mirroring): once random play stops finding new
    ones, the ones found are repeated in turn. Raises ValueError at the first opening
    when there is none.
    """
    if plies <= 0:
        while True:
            yield ()
    rng = random.Random(derive_seed(seed, "openings", plies))
    found: list[tuple[int, ...]] = []
    seen: set[int] = set()
    misses = 0
    while misses < MISSES_BEFORE_REPEATING:
        misses += 1
        position = Position.start()
        for _ in range(plies):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
        if position.moves < plies or not is_balanced(position):
            continue
        key = min(position.key(), position.mirror().key())
        if key in seen:
            continue
        seen.add(key)
        if max_score is None or abs(exact_score(position)) <= max_score:
            found.append(position.path)
            misses = 0
            yield position.path
    if not found:
        within = "" if max_score is None else f" scored within +-{max_score}"
        raise ValueError(f"no balanced opening of {plies} plies{within} found")
    while True:
        yield from found


def exact_score(position: Position) -> int:
    """The solver's score; imported here so tournaments without the check never load it."""
    from c4tui.engine.solver import solve

    return solve(position)


def pairings(engines: int, gauntlet: bool = False) -> list[tuple[int, int]]:
    """The pairs of engines that play: every two in a round robin; in a gauntlet the
    first engine against each of the others, and the others never among themselves."""
    if gauntlet:
        return [(0, other) for other in range(1, engines)]
    return list(combinations(range(engines), 2))


def total_games(engines: int, games: int, gauntlet: bool = False) -> int:
    """How many games a round robin (or gauntlet) of `engines` engines and `games` games
    per pair has."""
    return len(pairings(engines, gauntlet)) * games


def schedule(
    specs: Sequence[str],
    games: int,
    seed: int,
    opening_plies: int = 0,
    opening_max_score: int | None = None,
    *,
    opening_of: Callable[[int], tuple[int, ...]] | None = None,
    adjudicate: int = 0,
    limits: MoveLimits | None = None,
    gauntlet: bool = False,
) -> Iterator[GameTask]:
    """The tasks of a round robin, one at a time (see the module docstring).

    Game g of a pair starts from opening g // 2, so each opening is played with both
    colours: `opening_of(g // 2)` when given (an opening suite's), else random ones of
    `opening_plies`. Bad arguments, and openings that cannot be found, raise ValueError
    here, before the first task. `adjudicate` and `limits`: see GameTask.
    """
    if len(specs) < 2:
        raise ValueError("a tournament needs at least two engines")
    if games < 1:
        raise ValueError("each pair must play at least one game")
    if opening_of is None:
        openings = random_openings(opening_plies, seed, opening_max_score)
        first_opening = next(openings)  # no opening at all: the ValueError comes now
        opening_of = _InTurn(first_opening, openings)
    pairs = pairings(len(specs), gauntlet)
    return _tasks(list(specs), pairs, games, seed, opening_of, adjudicate, limits)


class _InTurn:
    """opening_of for openings found one after another, asked for 0, 1, 2, ... in turn
    (each number for every game of its pairs): only the latest is kept."""

    def __init__(self, first: tuple[int, ...], rest: Iterator[tuple[int, ...]]) -> None:
        self.number = 0
        self.opening = first
        self.rest = rest

    def __call__(self, number: int) -> tuple[int, ...]:
        while self.number < number:
            self.opening = next(self.rest)
            self.number += 1
        return self.opening


def _tasks(
    specs: list[str],
    pairs: list[tuple[int, int]],
    games: int,
    seed: int,
    opening_of: Callable[[int], tuple[int, ...]],
    adjudicate: int,
    limits: MoveLimits | None,
) -> Iterator[GameTask]:
    index = 0
    for g in range(games):
        opening = opening_of(g // 2)
        for a, b in pairs:
            first, second = (a, b) if g % 2 == 0 else (b, a)
            yield GameTask(
                index=index,
                first=first,
                second=second,
                first_spec=specs[first],
                second_spec=specs[second],
                opening=opening,
                first_seed=derive_seed(seed, index, "first"),
                second_seed=derive_seed(seed, index, "second"),
                adjudicate=adjudicate,
                limits=limits,
            )
            index += 1
