"""Keeping a match on disk: its game file after every move, and the running score.

A mixin of `Match` (controller.py): the match's game goes into its `library` under its
`name`, and a game that a move played here ends, between one person and an engine, into
its `scores`. A game opened already finished (a kept game, `--load`) counts nothing:
only games played in this app, by the person, count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from c4tui.engine.board.gamefile import GameRecord

if TYPE_CHECKING:
    from c4tui.match.controller import Match

    _Base = Match
else:
    _Base = object


class KeptOnDisk(_Base):
    """The game file and the running score of a match (mixed into Match)."""

    def record(self) -> GameRecord:
        """The game as a game file holds it, with its variations."""
        players = (self.sides.recorded(0), self.sides.recorded(1))
        record = GameRecord.of_game(self.game, players, self.date)
        self.date = record.date
        return record

    def save(self) -> None:
        """Keep the game on disk (atomically). An empty board is not worth a file, but a
        game kept already follows its board back to empty (the list shows 0 moves)."""
        if self.library is None:
            return
        try:
            if self.game.line_ends() or self.library.has(self.name):
                self.library.save(self.name, self.record())
            else:  # a new game, no move yet: the game played before is free for others
                self.library.release()
                self.library.forget_current()
        except OSError as error:
            where = self.library.directory
            said = error.strerror or str(error)  # not the temporary file's name
            self.notify(f"Could not keep the game in {where}: {said}", "error", title="Games")

    def count_result(self) -> None:
        """After a move: a game it ended, of a person against an engine, goes into the
        running score (once; see scorebook.py)."""
        result = self.game.result()
        person = [p for p in (0, 1) if not self.is_ai(p)]
        if result is None or self.scores is None or len(person) != 1:
            return
        you, opponent = person[0], self.sides.spec(1 - person[0])
        outcome = 0 if result.winner is None else (1 if result.winner == you else -1)
        try:
            counted, damage = self.scores.count(self.name, opponent, outcome)  # type: ignore[arg-type]
        except OSError as error:
            said = (
                f"Could not keep the running score in {self.scores.path}: {error.strerror or error}"
            )
            self.notify(said, "error", title="Score")
            return
        if damage is not None:
            self.notify(damage, "warning", title="Score", timeout=10)
        if counted:
            self.notify(f"Running score: {self.running_score()}.", title="Score", timeout=6)

    def running_score(self) -> str | None:
        """ "3-1-2 against level:4" (wins-draws-losses) when a person plays an engine."""
        person = [p for p in (0, 1) if not self.is_ai(p)]
        if self.scores is None or len(person) != 1:
            return None
        opponent = self.sides.spec(1 - person[0])
        return f"you {self.scores.tally(opponent)} against {opponent} (won-drawn-lost)"
