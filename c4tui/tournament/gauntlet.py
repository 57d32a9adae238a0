"""A gauntlet: one engine against rated opponents, each opponent chosen near its strength so far.

`c4tui rate` runs one against the levels. Games come in pairs, one balanced random
opening of `OPENING_PLIES` plies played once with each colour, as the levels' own
ratings were measured (benchmarks/levels.py): the scale depends on those conditions.
Before each pair the current fit of all the games so far (rating_fit.py) places the
engine, and the pair goes to whichever of the `NEAREST` opponents rated nearest that
estimate has played least: games against opponents far above or below carry little
information (a sure win says little), and spreading over three keeps one opponent's
quirks out of the rating. Play stops at the most games given, or as soon as the fit's
interval is no wider than the margin asked for (after `MIN_GAMES` at least).

Each game is played and judged in a worker process (`play_rated`): the moves of the
rated engine after the opening get their exact verdicts (accuracy.py), and a lost game
the kind of its losing move (loss_kinds.py).

Opponents are chosen from the games finished so far, so with one job a seed gives the
same run every time; with several, the choices depend on the order games finish in.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from c4tui.engine.board.position import Position
from c4tui.engine.solver import SearchStopped
from c4tui.engine.study.accuracy import Accuracy, judge_side, losing_move, tally_of
from c4tui.engine.study.loss_kinds import loss_kind
from c4tui.engine.study.rating_fit import Outcome, RatingFit, fit_rating
from c4tui.tournament.games import GameAborted, GameTask, PlayedGame, play_game
from c4tui.tournament.openings import OpeningSuite
from c4tui.tournament.schedule import derive_seed, random_openings
from c4tui.tournament.standings import result_for

RATED = 0  # the rated engine's index into the gauntlet's specs
OPENING_PLIES = 2
NEAREST = 3
MIN_GAMES = 20
# A position the solver cannot settle in this long is left unjudged (7x6 positions with
# the opening book take milliseconds; this guards a pathological one).
JUDGE_SECONDS = 20.0
FAIR_ENDS = ("line", "full board", "adjudicated")  # any other termination is a forfeit (its reason)


@dataclass(frozen=True)
class RatedGame:
    """A game of the rated engine: how it went, how its moves were judged, and (when it
    lost) the kind of its loss: a loss_kinds key, or a forfeit's (forfeit_kind)."""

    record: PlayedGame
    accuracy: Accuracy
    loss: str | None

    @property
    def colour(self) -> int:
        """The rated engine's colour: 0 moved first."""
        return 0 if self.record.task.first == RATED else 1

    @property
    def opponent(self) -> int:
        task = self.record.task
        return task.second if task.first == RATED else task.first

    @property
    def score(self) -> float:
        """The rated engine's score: 1 won, 0.5 drawn, 0 lost."""
        return (result_for(RATED, self.record.winner) + 1) / 2


def play_rated(task: GameTask, stop: threading.Event | None = None) -> RatedGame:
    """Play one game of the gauntlet and judge the rated engine's moves (a worker's job)."""
    record = play_game(task, stop)
    colour = 0 if task.first == RATED else 1
    game = Position.start()
    for column in record.moves:
        game = game.play(column)
    try:
        reviews = judge_side(game, colour, len(task.opening), JUDGE_SECONDS, stop)
    except SearchStopped:
        raise GameAborted from None
    loss = None
    if record.winner is not None and record.winner != RATED:
        if record.termination not in FAIR_ENDS:
            loss = forfeit_kind(record)
        else:
            losing = losing_move(reviews)
            if losing is None:
                loss = "start"
            else:
                before = Position.start()
                for column in record.moves[: losing.ply - 1]:
                    before = before.play(column)
                loss = loss_kind(before, losing.column)
    return RatedGame(record, tally_of(reviews), loss)


def forfeit_kind(record: PlayedGame) -> str:
    """ "forfeit: crashed", "forfeit: overran its time", "forfeit: illegal move": the
    reason's first words, so forfeits of one kind count together."""
    words = record.reason or record.termination
    return "forfeit: " + words.split(" (")[0].split(":")[0].strip()


class Gauntlet:
    """The schedule of a gauntlet and its running fit (see the module docstring).

    `specs[RATED]` is the rated engine; the others are its opponents, rated
    `ratings[i]`. Feed every finished game to `add`; `tasks()` reads the fit as it
    goes, so hand it to the GameRunner as is.
    """

    def __init__(
        self,
        specs: list[str],
        ratings: Mapping[int, float],
        games: int,
        margin: float,
        seed: int,
        *,
        suite: OpeningSuite | None = None,
        adjudicate: int = 0,
    ) -> None:
        if not ratings or RATED in ratings:
            raise ValueError("a gauntlet needs rated opponents besides the rated engine")
        self.specs = specs
        self.ratings = dict(ratings)
        self.games = games
        self.margin = margin
        self.seed = seed
        self.suite = suite  # None: random openings of OPENING_PLIES, as the levels were rated
        self.adjudicate = adjudicate
        self.outcomes: list[Outcome] = []
        self.fit: RatingFit = fit_rating([])
        self.scheduled: Counter[int] = Counter()
        self.reached_margin = False
        # What the games showed, beside the rating.
        self.results: dict[int, Counter[float]] = {i: Counter() for i in self.ratings}
        self.accuracy = Accuracy()
        self.losses: Counter[str] = Counter()
        # (opening as 0-based columns, the rated engine's colour) -> [lost, played]
        self.openings: dict[tuple[tuple[int, ...], int], list[int]] = {}

    def add(self, game: RatedGame) -> None:
        """Count a finished game, and fit the rating again."""
        opponent = game.opponent
        opening = game.record.task.opening
        self.outcomes.append(Outcome(self.ratings[opponent], game.score, (opponent, opening)))
        self.fit = fit_rating(self.outcomes)
        self.results[opponent][game.score] += 1
        self.accuracy.merge(game.accuracy)
        tally = self.openings.setdefault((opening, game.colour), [0, 0])
        tally[1] += 1
        if game.loss is not None:
            self.losses[game.loss] += 1
            tally[0] += 1

    @property
    def played(self) -> int:
        return len(self.outcomes)

    def tight(self) -> bool:
        """The interval is as narrow as asked, on enough games."""
        margin = self.fit.margin
        return self.played >= MIN_GAMES and margin is not None and margin <= self.margin

    def choose(self) -> int:
        """The opponent for the next pair of games (see the module docstring)."""
        middle = sorted(self.ratings.values())[len(self.ratings) // 2]
        guess = self.fit.guess(middle)
        nearest = sorted(self.ratings, key=lambda i: (abs(self.ratings[i] - guess), i))[:NEAREST]
        return min(nearest, key=lambda i: (self.scheduled[i], nearest.index(i)))

    def tasks(self) -> Iterator[GameTask]:
        """The games, a pair per opening, until enough or the interval is tight."""
        openings = random_openings(OPENING_PLIES, self.seed)
        index = 0
        while index < self.games:
            if self.tight():
                self.reached_margin = True
                return
            opening = next(openings) if self.suite is None else self.suite.opening(index // 2)
            opponent = self.choose()
            for colour in (0, 1):
                if index >= self.games:
                    return
                first, second = (RATED, opponent) if colour == 0 else (opponent, RATED)
                self.scheduled[opponent] += 1
                yield GameTask(
                    index=index,
                    first=first,
                    second=second,
                    first_spec=self.specs[first],
                    second_spec=self.specs[second],
                    opening=opening,
                    first_seed=derive_seed(self.seed, index, "first"),
                    second_seed=derive_seed(self.seed, index, "second"),
                    adjudicate=self.adjudicate,
                )
                index += 1
