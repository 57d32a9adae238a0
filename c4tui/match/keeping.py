"""Keeping a match on disk: its game file after every move, and the running score.

A `GameKeeper` is given to a `Match` (controller.py): the match's game goes into the
keeper's `library` under the match's name, and a game that ends here (a move, or the
person resigning), between one person and an engine, into its `scores`.

Only games the person played from the empty board count. A game opened already
finished (a kept game, `--load`) counts nothing, and neither does a game set up from a
position (`p`, `--position`): its moves were given, not played, so a pasted position
where the AI wins in one is practice, not a loss. The game file keeps the moves it was
set up with (its `Start` header), so a set-up game resumed after a restart still does
not count. What went wrong comes back as notices for the match to tell.
"""

from __future__ import annotations

from collections.abc import Callable

from c4tui.engine.board.game import Game
from c4tui.engine.board.gamefile import GameRecord
from c4tui.match.search_requests import Notice
from c4tui.match.sides import Sides
from c4tui.records.kept_games import GameLibrary
from c4tui.records.scorebook import ScoreBook


def person_against_engine(sides: Sides) -> tuple[int, str] | None:
    """The person's side and the engine spec they play, when one person plays an engine."""
    person = [p for p in (0, 1) if not sides.is_ai(p)]
    if len(person) != 1:
        return None
    opponent = sides.spec(1 - person[0])
    assert opponent is not None
    return person[0], opponent


class GameKeeper:
    """The game files and the running score of the games a match plays."""

    def __init__(self, library: GameLibrary) -> None:
        self.library = library
        self.scores = ScoreBook(library.directory)

    def save(self, name: str, game: Game, record: Callable[[], GameRecord]) -> list[Notice]:
        """Keep the game on disk (atomically). An empty board is not worth a file, but a
        game kept already follows its board back to empty (the list shows 0 moves)."""
        try:
            if game.line_ends() or self.library.has(name):
                self.library.save(name, record())
            else:  # a new game, no move yet: the game played before is free for others
                self.library.release()
                self.library.forget_current()
        except OSError as error:
            where = self.library.directory
            said = error.strerror or str(error)  # not the temporary file's name
            return [Notice(f"Could not keep the game in {where}: {said}", "error", "Games")]
        return []

    def count(
        self, name: str, winner: int | None, sides: Sides, *, set_up: bool = False
    ) -> list[Notice]:
        """A game that just ended (won by `winner`, None a draw), of a person against an
        engine and not `set_up` from a position, goes into the running score (once; see
        scorebook.py)."""
        players = person_against_engine(sides)
        if players is None:
            return []
        if set_up:
            said = "A game from a set-up position is practice: it does not count in the score."
            return [Notice(said, "information", "Score", timeout=6)]
        you, opponent = players
        outcome = 0 if winner is None else (1 if winner == you else -1)
        try:
            counted, damage = self.scores.count(name, opponent, outcome)
        except OSError as error:
            said = (
                f"Could not keep the running score in {self.scores.path}: {error.strerror or error}"
            )
            return [Notice(said, "error", "Score")]
        notices = [] if damage is None else [Notice(damage, "warning", "Score", timeout=10)]
        if counted:
            notices.append(
                Notice(
                    f"Running score: {self.running_score(sides)}.",
                    "information",
                    "Score",
                    timeout=6,
                )
            )
        return notices

    def running_score(self, sides: Sides) -> str | None:
        """ "3-1-2 against level:4" (wins-draws-losses) when a person plays an engine."""
        players = person_against_engine(sides)
        if players is None:
            return None
        opponent = players[1]
        return f"you {self.scores.tally(opponent)} against {opponent} (won-drawn-lost)"
