"""Settings: validation, JSON round trip, atomic save, corrupt files."""

from __future__ import annotations

import json

import pytest

from c4tui.app.settings import CONFIG_ENV, Settings, SettingsError, config_dir, load, save


def test_defaults_are_you_first_against_mcts_one_second():
    settings = Settings()
    assert settings.first == "you"
    assert settings.opponent == "mcts:time=1"
    assert settings.ai_spec(0) is None
    assert settings.ai_spec(1) == "mcts:time=1"


def test_ai_sides_follow_mode_and_first_player():
    assert Settings(first="ai").ai_spec(0) == "mcts:time=1"
    assert Settings(mode="humans").ai_spec(1) is None
    both = Settings(mode="ai-ai", opponent="greedy", second_opponent="random")
    assert (both.ai_spec(0), both.ai_spec(1)) == ("greedy", "random")


def test_save_and_load_round_trip(tmp_path):
    settings = Settings(opponent="random", width=8, height=7, connect=5, first="ai")
    path = save(settings, tmp_path)
    assert json.loads(path.read_text())["width"] == 8
    assert load(tmp_path) == (settings, None)
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no temp file left


def test_missing_file_gives_defaults_silently(tmp_path):
    assert load(tmp_path) == (Settings(), None)


@pytest.mark.parametrize(
    "text",
    ["{not json", "[1, 2]", '{"width": 99}', '{"opponent": "chess"}', '{"mode": "solo"}'],
)
def test_corrupt_file_gives_defaults_and_a_notice(tmp_path, text):
    (tmp_path / "settings.json").write_text(text)
    settings, notice = load(tmp_path)
    assert settings == Settings()
    assert notice is not None and "using defaults" in notice


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xfe\x00 not utf-8",  # a damaged or binary file
        b'{"opponent": 5}',  # hand-edited: JSON of the wrong type
        b'{"second_opponent": {"name": "mcts"}}',
        b'{"mode": ["ai-ai"]}',
        b'{"width": "7"}',
        b"[" * 100_000,  # nested too deep for the parser
    ],
)
def test_a_file_of_any_bytes_gives_defaults_and_a_notice_never_a_crash(tmp_path, data):
    (tmp_path / "settings.json").write_bytes(data)
    settings, notice = load(tmp_path)
    assert settings == Settings()
    assert notice is not None and "using defaults" in notice


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"width": 3}, "width"),
        ({"height": 11}, "height"),
        ({"connect": 7}, "connect"),
        ({"width": 4, "height": 4, "connect": 5}, "connect"),
        ({"opponent": "mcts:time=-1"}, "opponent"),
        ({"second_opponent": "negamax:speed=3"}, "second_opponent"),
        ({"first": "nobody"}, "first"),
        ({"width": 5, "height": 4, "opponent": "alphazero:sims=8"}, "opponent"),
    ],
)
def test_invalid_values_are_refused_with_the_field_named(changes, field):
    with pytest.raises(SettingsError, match=f"^{field}:") as caught:
        Settings(**changes).validate()
    assert caught.value.field == field


def test_a_bad_engine_spec_names_its_setting_too():
    with pytest.raises(SettingsError) as caught:
        Settings(second_opponent="mcts:time=1,c=x").validate()
    assert (caught.value.field, caught.value.key) == ("second_opponent", "c")


def test_config_dir_prefers_argument_then_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "env"))
    assert config_dir(tmp_path / "arg") == tmp_path / "arg"
    assert config_dir() == tmp_path / "env"
