"""Snapshot tests: each showcase state must look exactly like its accepted SVG.

The states (tests/app/showcase.py) use a fixed seed, iteration or depth budgets, a
pinned theme and the app's steady mode, so they render the same on every run. After a
deliberate change of looks: `uv run pytest tests/app/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import random

from tests.app.room_showcase import ROOM_STATES
from tests.app.showcase import SEED, STATES


def compare(snap_compare, tmp_path, name: str) -> bool:
    state = STATES[name]
    return snap_compare(
        state.app(tmp_path), terminal_size=state.size, run_before=state.run_before()
    )


def test_start(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "start")


def test_mcts_thinking_panel(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "mcts")


def test_negamax_thinking_panel(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "negamax")


def test_flat_monte_carlo_thinking_panel(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "flat")


def test_alphazero_thinking_panel(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "alphazero")


def test_perfect_thinking_panel(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "perfect")


def test_settings_screen(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "settings")


def test_settings_screen_fits_the_smallest_terminal(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "settings-small")


def test_help_screen(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "help")


def test_won_game_highlights_the_four(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "won")


def test_drawn_game_on_a_full_board(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "draw")


def test_terminal_too_small(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "too-small")


def test_kept_games_screen(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "games")


def test_position_dialog_names_the_bad_character(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "position")


def test_review_screen(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "review")


def test_learn_from_your_mistakes(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "learn")


def test_puzzle_screen(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "puzzle")


def test_analysis_board_with_a_variation_and_threats(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "analysis")


def test_scores_overlay(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "scores")


def test_two_engines_watched_and_paused(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "paused")


def test_classic_board_style(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "classic")


def test_classic_board_style_in_the_smallest_terminal(snap_compare, tmp_path):
    assert compare(snap_compare, tmp_path, "classic-small")


def compare_room(snap_compare, tmp_path, monkeypatch, name: str) -> bool:
    """A served app's state (room_showcase.py), with the codes drawn from a seeded
    generator (they are random by design and shown in the room)."""
    monkeypatch.setattr("c4tui.server.rooms.access.secrets.choice", random.Random(SEED).choice)
    state = ROOM_STATES[name]
    return snap_compare(
        state.app(tmp_path / "state"), terminal_size=state.size, run_before=state.steps
    )


def test_the_lobby_with_a_game_under_way_and_a_room_waiting(snap_compare, tmp_path, monkeypatch):
    assert compare_room(snap_compare, tmp_path, monkeypatch, "lobby")


def test_a_room_seen_by_its_player_in_the_smallest_terminal(snap_compare, tmp_path, monkeypatch):
    assert compare_room(snap_compare, tmp_path, monkeypatch, "room")


def test_a_room_seen_by_a_spectator(snap_compare, tmp_path, monkeypatch):
    assert compare_room(snap_compare, tmp_path, monkeypatch, "spectator")
