"""A list of games in the screen-reader mode: one sentence a game, said whole, in a list
whose highlight the terminal cursor follows (kept games, a server's My games).

The normal mode's table puts a game's facts in columns under a header, with rules and
stripes between them; read line by line, a row is a string of words without their
headings. Here each game is a sentence that says them: "Game 3, against Level 4, you
won with ● in 21 moves, 28 November 2026 18:30".
"""

from __future__ import annotations

from datetime import datetime

from textual.widgets import OptionList
from textual.widgets.option_list import Option

from c4tui.engine.board.gamefile import GameRecord
from c4tui.engine.board.notation import move_name
from c4tui.engine.players.specs import SpecError, parse_spec
from c4tui.match.sides import GLYPHS, engine_title


def player_title(player: str) -> str:
    """A game file's player as a sentence names it: an engine by its title ("Level 4"),
    a person by their name."""
    try:
        parse_spec(player)
    except SpecError:
        return player
    return engine_title(player)


def game_sentence(number: int, record: GameRecord, me: str, when: str) -> str:
    """ "Game 3, against Level 4, you won with ● in 21 moves, 28 November 2026 18:30".
    `me`: the name of the person reading ("You" in the kept games, the player's name on
    a server); a game between others names both sides."""
    mine = [side for side, name in enumerate(record.players) if name == me]
    you = mine[0] if len(mine) == 1 else None
    names = [player_title(name) for name in record.players]
    if you is None:
        players = f"{names[0]} {GLYPHS[0]} against {names[1]} {GLYPHS[1]}"
    else:
        players = f"against {names[1 - you]}"
    parts = [f"Game {number}", players, _outcome(record, you, names)]
    if (record.width, record.height, record.connect) != (7, 6, 4):
        connect = "" if record.connect == 4 else f" connect {record.connect}"
        parts.append(f"on {record.width} by {record.height}{connect}")
    parts.append(when)
    return ", ".join(parts)


def played_sentence(record: GameRecord, side: int, when: str) -> str:
    """A game from one player's side, as their profile lists it: "28 November 2026
    21:30 UTC, against Level 3, won with ○ in 2 moves, Level 3 resigned"."""
    names = [player_title(name) for name in record.players]
    outcome = _outcome(record, side, names, subject="")
    return f"{when}, against {names[1 - side]}, {outcome}"


def _outcome(record: GameRecord, you: int | None, names: list[str], subject: str = "you") -> str:
    """How the game went, from the side `you` when one is given ("you won", or with no
    `subject`, "won"), else naming the winner."""
    plies = record.plies
    result = record.result
    ended = f", {record.ended.words((names[0], names[1]))}" if record.ended is not None else ""
    if result in ("1-0", "0-1"):
        winner = 0 if result == "1-0" else 1
        stones = (plies + 1 - winner) // 2  # the winner's own moves
        if you is None:
            won = f"{names[winner]} {GLYPHS[winner]} won"
        else:
            verb = "won" if you == winner else "lost"
            won = f"{subject} {verb}".lstrip() + f" with {GLYPHS[you]}"
        return f"{won} in {stones} move{'s' * (stones != 1)}{ended}"
    if not plies:
        return "no move played"
    at = f"at move {move_name(plies - 1)}"
    if result == "*":
        return f"unfinished {at}"
    return f"{'draw agreed' if ended else 'a draw'} {at}"


def when_words(stamp: str | datetime) -> str:
    """ "28 November 2026 18:30" (UTC) from a game file's date or a time."""
    if isinstance(stamp, datetime):
        return f"{stamp.day} {stamp:%B %Y %H:%M} UTC"
    try:
        return when_words(datetime.fromisoformat(stamp.replace("Z", "+00:00")))
    except ValueError:
        return stamp  # a date the file gives in its own words


class GamesLines(OptionList):
    """The games, a sentence each; Enter picks the highlighted one (OptionSelected, its
    option's id the game's name)."""

    def __init__(self, games: list[tuple[str, str]], **options: object) -> None:
        """`games`: (name, sentence) in the order listed."""
        super().__init__(
            *(Option(sentence, id=name) for name, sentence in games),
            **options,  # type: ignore[arg-type]  # OptionList's own keywords
        )

    @property
    def chosen(self) -> str | None:
        """The name of the highlighted game."""
        if self.highlighted is None:
            return None
        return self.get_option_at_index(self.highlighted).id
