"""The keys as words say them: the match names intents, the app's bindings name keys."""

from __future__ import annotations

from c4tui.app.keys import KEYS, spoken_key
from c4tui.app.status_words import worded


def test_each_intent_is_said_with_its_bindings_key():
    assert spoken_key(KEYS, "new_game") == "n"
    assert spoken_key(KEYS, "move_now") == "m"
    assert spoken_key(KEYS, "pause") == "Space"
    assert spoken_key(KEYS, "step") == "."
    assert spoken_key(KEYS, "review_game") == "v"
    assert spoken_key(KEYS, "rematch") == "n"
    assert spoken_key(KEYS, "no_such_action") is None


def test_a_notice_gets_the_keys_of_the_intents_it_names_and_keeps_other_braces():
    text = "Failed: KeyError {'x'} {nothing}: press {move_now} to retry, {new_game} to start."
    assert worded(text) == ("Failed: KeyError {'x'} {nothing}: press m to retry, n to start.")


def test_the_board_cursor_moves_along_and_stays_on_the_board():
    from c4tui.app.keys import cursor_moved, cursor_start

    assert cursor_moved(3, 1, 7) == 4 and cursor_moved(3, -1, 7) == 2
    assert cursor_moved(6, 1, 7) == 6 and cursor_moved(0, -1, 7) == 0
    assert cursor_moved(9, 0, 7) == 6  # a narrower board after a new game
    assert [cursor_start(width) for width in (7, 6, 4, 10)] == [3, 3, 2, 5]


def test_a_palette_command_says_the_key_its_binding_has():
    from c4tui.app.keys import keyed

    assert keyed("Start a new game", "new_game") == "Start a new game (n)"
    assert keyed("Copy", "part('study', 'copy_link')") == "Copy (C)"
    assert keyed("Pause", "part('ai', 'pause')") == "Pause (Space)"
    assert keyed("Slower", "part('ai', 'speed', 1)") == "Slower (-)"
    assert keyed("Faster", "part('ai', 'speed', -1)") == "Faster (+)"
    assert keyed("Help", "help") == "Help (?)"
    assert spoken_key(KEYS, "move_now") == "m" and spoken_key(KEYS, "step") == "."
