"""The game in sentences a screen reader says: a move, the board, a column, the result.

Every sentence of the screen-reader mode is made here, from the match's own values
(positions, the game's tree, the search's figures), so nothing about the game is decided
twice. Columns and rows count from 1, rows from the bottom, as the board is labelled.
Discs are named by their glyphs, ● (moves first) and ○, which readers say by name.
"""

from __future__ import annotations

from collections.abc import Sequence

from c4tui.app.status_words import worded
from c4tui.app.threat_marks import threat_caption
from c4tui.app.widgets.clock import clock_words
from c4tui.engine.board.game import Game, Node
from c4tui.engine.board.gamefile import lost_words
from c4tui.engine.board.notation import move_name
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import describe_score
from c4tui.engine.players.contract import ColumnStat, SearchInfo, win_rate
from c4tui.engine.study.threats import playable_now, threats
from c4tui.match.exact_scores import GIVE_UP_SECONDS, ColumnScores, Solve
from c4tui.match.interface import MatchView
from c4tui.match.room_view import ClockView, RoomView
from c4tui.match.sides import GLYPHS

COUNTS = {3: "three", 4: "four", 5: "five", 6: "six"}
# A side's time left at which its clock's warning is said, once each (seconds).
CLOCK_WARNINGS = (60.0, 30.0, 10.0)
LAST_MOVES = 6  # the moves `last` says: enough to follow, short enough for one line


def cell_word(player: int | None) -> str:
    return "empty" if player is None else GLYPHS[player]


def move_line(before: Position, column: int) -> str:
    """ "○ plays column 4, row 2": the move `column` (0-based) from `before`."""
    row = before.column_height(column) + 1
    return f"{GLYPHS[before.to_move]} plays column {column + 1}, row {row}"


def in_a_row(cells: Sequence[tuple[int, int]], connect: int) -> str:
    """ "four in a row, columns 2 to 5 on row 1": where a winning line lies."""
    count = COUNTS.get(connect, str(connect))
    cols = sorted({c for c, _ in cells})
    rows = sorted({r for _, r in cells})
    if len(rows) == 1:
        return f"{count} in a row, columns {cols[0] + 1} to {cols[-1] + 1} on row {rows[0] + 1}"
    if len(cols) == 1:
        return f"{count} in a column, rows {rows[0] + 1} to {rows[-1] + 1} in column {cols[0] + 1}"
    first, last = min(cells), max(cells)
    if len(cols) == len(cells) and len(rows) == len(cells):
        return (
            f"{count} on a diagonal, from column {first[0] + 1} row {first[1] + 1} "
            f"to column {last[0] + 1} row {last[1] + 1}"
        )
    # Two lines at once (a stone completing a row and a diagonal): every cell.
    spots = ", ".join(f"column {c + 1} row {r + 1}" for c, r in sorted(cells))
    return f"{count} in a row twice over: {spots}"


def player_words(view: MatchView, player: int) -> str:
    """ "● you", "○ Level 3": a side with its disc first, as the lines start."""
    return f"{GLYPHS[player]} {'you' if _is_you(view, player) else view.names[player]}"


def _is_you(view: MatchView, player: int) -> bool:
    """This side is the person reading: "You" at home, their seat in a room."""
    room = view.room
    return view.names[player] == "You" or (room is not None and room.seat == player)


def outcome_line(view: MatchView) -> str | None:
    """How the game ended, one line; None while it goes on."""
    if not view.over:
        return None
    pos = view.position
    room = view.room
    if view.how == "agreed" or (room is not None and room.ended == "agreed"):
        return "draw agreed"
    winner = view.winner
    if winner is None:
        return "draw: the board is full"
    wins = "win" if _is_you(view, winner) else "wins"
    if pos.winner() is not None:
        return f"{player_words(view, winner)} {wins}: {in_a_row(pos.winning_cells(), pos.connect)}"
    ending = view.ending or lost_words(view.how or "resigned")
    return f"{player_words(view, 1 - winner)} {ending}: {player_words(view, winner)} {wins}"


def turn_line(view: MatchView) -> str:
    """Whose turn it is, or how the game ended."""
    outcome = outcome_line(view)
    if outcome is not None:
        return outcome
    mover = view.position.to_move
    if view.moves_now():
        return f"your move, {GLYPHS[mover]}"
    who = player_words(view, mover)
    if view.thinking:
        return f"{who} is thinking"
    if view.room is not None and view.room.seats[mover].open:
        return f"{GLYPHS[mover]} waits for a player"
    if view.paused:
        return f"paused: {who} to move"
    return f"{who} to move"


def new_game_line(view: MatchView) -> str:
    """ "new game: ● you against ○ Level 3, 7 columns, 6 rows, connect 4"."""
    pos = view.position
    size = f"{pos.width} columns, {pos.height} rows, connect {pos.connect}"
    start = f", from {pos.to_moves()}" if pos.moves else ""
    return f"new game: {player_words(view, 0)} against {player_words(view, 1)}, {size}{start}"


def position_line(position: Position) -> str:
    """Where a jump in the game landed: "at move 5 ○, 9 discs on the board"."""
    if not position.moves:
        return "at the start, the board is empty"
    discs = "1 disc" if position.moves == 1 else f"{position.moves} discs"
    return f"after move {move_name(position.moves - 1)}, {discs} on the board"


def changed_line(before: tuple[int, ...], position: Position) -> str:
    """A jump from the board whose moves were `before` to `position` (an undo, a redo, a
    take-back, a jump in the game's lines), with the moves it took back, newest first,
    and those it played: "taken back: 3 ● column 4, 2 ○ column 3; after move 2 ●, 3 discs
    on the board"."""
    after = position.path
    common = 0
    while common < min(len(before), len(after)) and before[common] == after[common]:
        common += 1
    said = []
    if common < len(before):
        back = reversed(range(common, len(before)))
        said.append("taken back: " + ", ".join(_move_words(ply, before[ply]) for ply in back))
    if common < len(after):
        played = range(common, len(after))
        said.append("played: " + ", ".join(_move_words(ply, after[ply]) for ply in played))
    return "; ".join([*said, position_line(position)])


def _move_words(ply: int, column: int) -> str:
    """ "3 ● column 4": a move of a game by its number, its side and its column."""
    return f"{move_name(ply)} column {column + 1}"


def board_lines(position: Position) -> list[str]:
    """The board from the top row down, one line a row; empty rows together."""
    lines: list[str] = []
    empty_from: int | None = None
    for row in reversed(range(position.height)):
        cells = [position.cell(col, row) for col in range(position.width)]
        if all(c is None for c in cells):
            empty_from = row if empty_from is None else empty_from
            continue
        if empty_from is not None:
            lines.append(_empty_rows(row + 1, empty_from))
            empty_from = None
        lines.append(f"row {row + 1}: " + ", ".join(cell_word(c) for c in cells))
    if empty_from is not None:
        lines.append(_empty_rows(0, empty_from))
    return lines


def _empty_rows(low: int, high: int) -> str:
    if low == high:
        return f"row {low + 1}: empty"
    return f"rows {low + 1} to {high + 1}: empty"


def column_line(position: Position, column: int) -> str:
    """ "column 4, bottom up: ●, ○; room for 4"."""
    height = position.column_height(column)
    discs = ", ".join(cell_word(position.cell(column, row)) for row in range(height))
    room = position.height - height
    space = "full" if room == 0 else f"room for {room}"
    if not discs:
        return f"column {column + 1}: empty, {space}"
    return f"column {column + 1}, bottom up: {discs}; {space}"


def last_moves_line(game: Game, count: int = LAST_MOVES) -> str:
    """ "last moves: 3 ● column 4, 3 ○ column 5": the moves that led to the board."""
    line = game.line()
    if not line:
        return "no moves yet"
    shown = ", ".join(_move_words(n.position.moves - 1, n.column) for n in line[-count:])
    return f"last moves: {shown}"


def column_view(position: Position, column: int, stat: ColumnStat | None) -> str:
    """One column as a search sees it, from the side to move: "column 4: win in 7"."""
    if stat is None:
        return f"column {column + 1}: full"
    if stat.score is not None and stat.proven is not None:
        said = describe_score(position, stat.score)
    elif stat.proven is not None:
        said = stat.proven
    elif stat.value is not None:
        said = f"{win_rate(stat.value):.0%} to win"
        if stat.visits is not None:
            said += f" in {stat.visits} tries"
    elif stat.chance is not None:
        said = f"{stat.chance:.0%} chance to be played"
    elif stat.score is not None:
        said = f"score {stat.score:+d}" + (f" at depth {stat.depth}" if stat.depth else "")
    else:
        said = "not looked at"
    return f"column {column + 1}: {said}"


def exact_scores_line(position: Position, scores: ColumnScores) -> str:
    """Every column's exact score, for the side to move, as the scores overlay (`o`)
    shows them under the board: "exact scores for ●: column 1 loss in 10, column 2
    draw, …, column 7 full"."""
    if scores.solve is not Solve.SOLVED:
        return f"no exact scores: the solver gave up after {GIVE_UP_SECONDS:.0f} seconds"
    said = ", ".join(
        f"column {col + 1} " + ("full" if score is None else describe_score(position, score))
        for col, score in enumerate(scores.scores)
    )
    return f"exact scores for {GLYPHS[position.to_move]}: {said}"


def search_lines(title: str, position: Position, info: SearchInfo | None) -> list[str]:
    """What an engine thinks of each column of `position`, for its side to move."""
    side = GLYPHS[position.to_move]
    if info is None or not info.columns:
        return [f"{title} has no figures yet for {side}"]
    best = "" if info.best is None else f", best column {info.best + 1}"
    head = f"{title} for {side}{best}" + (", proven" if info.exact else "")
    said = [column_view(position, col, stat) for col, stat in enumerate(info.columns)]
    if all(line.endswith((": not looked at", ": full")) for line in said):
        return [f"{head}; it gives no figures of its columns"]
    return [head, *said]


def threat_lines(position: Position) -> list[str]:
    """Each side's threats, cell by cell, then the parity and zugzwang in one line."""
    found = threats(position)
    lines = []
    for player in (0, 1):
        cells = [
            f"{t.cell_words()} ({t.parity}{', now' if playable_now(position, t) else ''})"
            for t in found
            if t.player == player
        ]
        lines.append(f"threats of {GLYPHS[player]}: {'; '.join(cells) or 'none'}")
    # The board's caption, its separating dots said as pauses.
    lines.append(threat_caption(position, found).replace(" · ", "; "))
    return lines


def winning_threats_line(position: Position) -> str | None:
    """A win one move away, as a chess reader says "check": "● can win now in column 3;
    ○ threatens to win in column 5". The side to move first, then the side that just
    moved; None when neither has a threat its next stone can reach, or the game is over."""
    if position.is_over():
        return None
    reachable = [t for t in threats(position) if playable_now(position, t)]
    said = []
    for player in (position.to_move, 1 - position.to_move):
        columns = sorted({t.col + 1 for t in reachable if t.player == player})
        if not columns:
            continue
        where = f"column {columns[0]}" if len(columns) == 1 else "columns " + _and(columns)
        if player == position.to_move:
            said.append(f"{GLYPHS[player]} can win now in {where}")
        else:
            said.append(f"{GLYPHS[player]} threatens to win in {where}")
    return "; ".join(said) or None


def _and(numbers: Sequence[int]) -> str:
    """ "3, 5 and 6"."""
    return ", ".join(str(n) for n in numbers[:-1]) + f" and {numbers[-1]}"


def variation_lines(game: Game) -> list[str]:
    """Every line of the game: the main line, then each variation from where it leaves."""
    ends = game.line_ends()
    if not ends:
        return ["no moves yet"]
    lines = []
    marked = game.node.parent is None  # the start: no line holds the board's move
    for number, end in enumerate(ends):
        nodes = _path_to(end)
        start = 0
        if number:
            while nodes[start].is_main() or _on_earlier(nodes[start], ends[:number]):
                start += 1
        moves = " ".join(str(n.column + 1) for n in nodes[start:])
        here = ""
        if not marked and game.node in nodes:
            marked, here = True, " (on the board)"
        if number == 0:
            lines.append(f"main line{here}: {moves}")
        else:
            branch = move_name(nodes[start].position.moves - 1)
            lines.append(f"variation {number} from move {branch}{here}: {moves}")
    return lines


def _path_to(node: Node) -> list[Node]:
    nodes = []
    while node.parent is not None:
        nodes.append(node)
        node = node.parent
    return nodes[::-1]


def _on_earlier(node: Node, ends: Sequence[Node]) -> bool:
    return any(node in _path_to(end) for end in ends)


def seat_words(room: RoomView, player: int) -> str:
    """ "● ann", "○ bob (away)", "○ open", "○ bob (left)": a seat of a room and who sits
    in it (an open seat names who played the game and left it)."""
    seat = room.seats[player]
    if seat.open:
        return f"{GLYPHS[player]} {seat.name} (left)" if seat.name else f"{GLYPHS[player]} open"
    away = "" if seat.here else " (away)"
    return f"{GLYPHS[player]} {seat.title}{away}"


def room_line(room: RoomView, seat_code: bool = False) -> str:
    """ "room 3: ● ann against ○ open; you are playing ●; code HKK-MA4 to pass on": the
    room entered; asked (`room`, `code`), with the seat code that brings you back."""
    role = "watching" if room.seat is None else f"playing {GLYPHS[room.seat]}"
    seats = " against ".join(seat_words(room, p) for p in (0, 1))
    code = f"; code {room.code} to pass on" if room.code and room.playing else ""
    if seat_code and room.seat_code:
        code += f"; your seat code {room.seat_code} brings you back to your seat"
    return f"room {room.number}: {seats}; you are {role}{code}"


def notice_line(text: str, title: str = "") -> str:
    """A notice of either mode as a line: the key of each intent it names, its title first."""
    said = worded(text)
    # A title the text says already ("Score" before "Running score: ...") is not said twice.
    return f"{title}: {said}" if title and title.lower() not in said.lower() else said


def clock_line(clock: ClockView, names: tuple[str, str], now: float) -> str:
    """ "clocks, 5+3 blitz: ● ann 4:05 running, ○ bob 5:00"."""
    sides = ", ".join(
        f"{GLYPHS[side]} {names[side]} "
        f"{clock_words(clock.remaining(side, now), clock.correspondence)}"
        + (" running" if clock.running == side else "")
        for side in (0, 1)
    )
    return f"clocks, {clock.words}: {sides}"


def clock_warnings(
    clock: ClockView, names: tuple[str, str], now: float, said: set[tuple[int, float]]
) -> list[str]:
    """The running side's warnings crossed by `now` and not in `said` (which they join):
    "● ann: 30 seconds left"."""
    side = clock.running
    if side is None:
        return []
    left = clock.remaining(side, now)
    lines = []
    for limit in CLOCK_WARNINGS:
        if left <= limit and (side, limit) not in said and clock.left[side] > limit:
            said.add((side, limit))
            lines.append(f"{GLYPHS[side]} {names[side]}: {limit:.0f} seconds left")
    return lines[-1:]  # crossed several at once (a late view): the nearest one
