"""`c4tui move`: the column an engine plays in a position, with its search figures."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from c4tui.argparse_internals import Subcommands
from c4tui.commands.common import (
    CommandError,
    PositionBatch,
    add_board_options,
    add_position_argument,
    board_of,
    output_console,
    plain_table,
)
from c4tui.commands.outside_log import log_outside_engines
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import describe_score
from c4tui.engine.external.outside import OutsideEngine
from c4tui.engine.players.contract import ColumnStat, Engine, Forfeit, SearchInfo, SearchResult
from c4tui.engine.players.specs import SpecError, make_engine, parse_spec
from c4tui.engine.study.figures import picks_at_random, random_pick, uct_cell, win_rate_text

# The panel's headings for the figures ColumnStat names otherwise.
HEADINGS = {"value": "win rate", "uct": "UCT"}


def register(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "move",
        help="the column an engine plays in a position",
        description="Ask an engine for its move. Columns are 1-based.",
    )
    add_position_argument(parser)
    parser.add_argument(
        "--engine", required=True, metavar="SPEC", help="e.g. mcts:time=1, negamax:depth=8, perfect"
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="random seed, for reproducible answers"
    )
    add_board_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per position")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    log_outside_engines()
    board = board_of(args)
    try:
        parse_spec(args.engine, board=board)  # an engine that cannot play here: refused now
        engine = make_engine(args.engine, seed=args.seed)
    except SpecError as error:
        raise CommandError(f"--engine: {error}") from None
    batch = PositionBatch(args.position, command="move", json_errors=args.json, board=board)
    forfeits = 0
    try:
        for text, position in batch:
            # Each position is a game of its own: the answer must not depend on the lines
            # before.
            engine.new_game()
            try:
                result = engine.search(position)
            except Forfeit as forfeit:
                # An outside engine failed: said on one line, and the batch goes on.
                forfeits += 1
                where = repr(text) if text else "the empty board"
                print(f"c4tui move: {args.engine} in {where}: {forfeit}", file=sys.stderr)
                continue
            if args.json:
                print(json.dumps(result_json(text, args.engine, result)), flush=True)
            else:
                print_table(text, position, shown_name(args.engine, engine), result)
    finally:
        engine.close()  # an outside engine's process ends with the command
    return batch.status or (1 if forfeits else 0)


def result_json(position: str, spec: str, result: SearchResult) -> dict[str, Any]:
    """The issue's JSON shape: columns 1-based, one entry per column, null when full."""
    info = result.info
    return {
        "position": position,
        "column": result.move + 1,
        "engine": spec,
        "elapsed": round(info.elapsed, 3),
        "iterations": info.iterations,
        "nodes": info.nodes,
        "depth": info.depth,
        "net_value": None if info.net_value is None else round(info.net_value, 4),
        "columns": [
            None
            if stat is None
            else {
                "visits": stat.visits,
                "value": None if stat.value is None else round(stat.value, 4),
                "uct": None if stat.uct is None else round(stat.uct, 4),
                "score": stat.score,
                "proven": stat.proven,
                "chance": None if stat.chance is None else round(stat.chance, 4),
                "prior": None if stat.prior is None else round(stat.prior, 4),
            }
            for stat in info.columns
        ],
    }


def shown_name(spec: str, engine: Engine) -> str:
    """What the table calls the engine: an outside one by its name= or the name its
    program gave (`id name`), else by its program; ours by the spec."""
    return engine.title if isinstance(engine, OutsideEngine) else spec


def print_table(text: str, position: Position, spec: str, result: SearchResult) -> None:
    info = result.info
    console = output_console()
    where = repr(text) if text else "the empty board"
    # A name an outside program gave itself is its text, not markup.
    console.print(
        f"{spec} plays column {result.move + 1} in {where}", markup=False, highlight=False
    )
    if picks_at_random(info) and not info.handicap:
        # It weighs no column against another: a table would be all blanks.
        console.print("".join(random_pick(result.move)))
        return
    table = plain_table()
    table.add_column("column", justify="right")
    shown = [
        name
        for name in ("prior", "visits", "value", "uct", "score", "proven", "chance")
        if _any_filled(info, name)
    ]
    for name in shown:
        table.add_column(HEADINGS.get(name, name), justify="right")
    if not shown:
        table.add_column("")  # still room to say which columns are full
    for col, stat in enumerate(info.columns):
        marker = " *" if col == result.move else ""
        if stat is None:
            table.add_row(f"{col + 1}{marker}", "full", *[""] * (len(shown) - 1))
            continue
        cells = [_cell(name, stat) for name in shown] or [""]
        if "proven" in shown and stat.proven is not None and stat.score is not None:
            # A proven score reads better as words: "win in 3", "loss in 8", "draw".
            cells[shown.index("proven")] = describe_score(position, stat.score)
        table.add_row(f"{col + 1}{marker}", *cells)
    console.print(table)
    console.print(summary_line(info))


def summary_line(info: SearchInfo) -> str:
    parts = [f"{info.elapsed:.3f} s"]
    if info.iterations is not None:
        parts.append(f"{info.iterations:,} iterations")
    if info.nodes is not None:
        parts.append(f"{info.nodes:,} nodes")
    if info.rate is not None:
        parts.append(f"{info.rate:,.0f}/s")
    if info.depth is not None:
        parts.append(f"depth {info.depth}")
    if info.pv:
        parts.append("pv " + " ".join(str(c + 1) for c in info.pv))
    if info.net_value is not None:
        parts.append(f"network's win rate {win_rate_text(info.net_value)}")
    if info.exact:
        parts.append("exact")
    return ", ".join(parts)


def _any_filled(info: SearchInfo, name: str) -> bool:
    return any(stat is not None and getattr(stat, name) is not None for stat in info.columns)


def _cell(name: str, stat: ColumnStat) -> str:
    """One figure as the thinking panel words it (win rate and UCT in %)."""
    if name == "value":
        return win_rate_text(stat.value)
    if name == "uct":
        return uct_cell(stat)
    if name == "chance":  # the chance a player that picks by chance gave the column
        return "" if stat.chance is None else f"{stat.chance:.0%}"
    if name == "prior":  # the network's own chance for the column
        return "" if stat.prior is None else f"{stat.prior:.1%}"
    value = getattr(stat, name)
    return "" if value is None else str(value)
