"""Every notice of the normal mode is a line of the screen-reader mode.

The same keys are pressed in both modes, on the same game; whatever the normal mode
shows as a notice (the match's refusals, the parts' news, the game's end) must be
among the reader's lines, word for word.
"""

from __future__ import annotations

from typing import Any

from c4tui.app.app import ConnectFourApp
from tests.app.showcase import humans, settle, type_keys

# Keys that each bring a notice in a game of two people on "4453": nothing to redo, no
# more moves this way, no other line, the main line already, not deletable, threats and
# scores shown and switched, a hint, a copied position, a full column, the game over.
KEYS = (
    "r",
    "down",
    "pagedown",
    "P",
    "X",
    "z",
    "z",
    "o",
    "O",
    "O",
    "o",
    "h",
    "c",
    *"111111",
    "1",
    *"2526262",
    "3",
    "u",
)


# In the mode, z and o say the threats and the exact scores themselves (the marks and the
# scores under the board are not drawn there): the normal mode's notices of showing them
# have nothing to say (test_reader_mode.py checks what they say instead).
SAID_OTHERWISE = ("Threats marked:", "Exact scores under the board")


class Recording(ConnectFourApp):
    """The app, keeping each notice it was asked to show."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.noticed: list[str] = []

    def notify(self, message: str, **options: Any) -> None:
        self.noticed.append(message)
        super().notify(message, **options)


async def play(tmp_path, reader: bool) -> Recording:
    app = Recording(
        config_dir=tmp_path / ("reader" if reader else "normal"),
        settings=humans(),
        seed=1,
        steady=True,
        resume=False,
        save_settings=False,
        moves="4453",
        games_dir=tmp_path / "games",
        screen_reader=reader,
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        if reader:
            await type_keys(pilot, "escape")  # the keys mode: each key at once
        for key in KEYS:
            await type_keys(pilot, key)
            await settle(pilot)
    return app


async def test_every_notice_of_the_normal_mode_is_a_reader_line(tmp_path):
    normal = await play(tmp_path, reader=False)
    reader = await play(tmp_path, reader=True)
    assert len(set(normal.noticed)) >= 12  # the keys above did bring their notices
    said = reader.spoken.lines
    missing = [
        n
        for n in normal.noticed
        if not any(n in line for line in said) and not n.startswith(SAID_OTHERWISE)
    ]
    assert not missing
