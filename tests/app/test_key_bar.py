"""The key bar when the app quits while it changes its keys (`q` pressed at once)."""

from __future__ import annotations

from typing import Any

from textual._context import active_message_pump
from textual.app import App

from c4tui.app.widgets.key_bar import KeyBar
from tests.app.test_redraw_cost import SIZE, Keys


async def test_a_bar_whose_app_quits_between_two_new_keys_mounts_no_more():
    bar = KeyBar()
    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        screen = Keys(bar)
        await app.push_screen(screen)
        screen.turn({"say", "quit"})
        await pilot.pause()
        mount = bar.mount
        mounted = []

        async def mount_then_go(*widgets: Any, **where: Any) -> None:
            await mount(*widgets, **where)
            mounted.append(widgets)
            app.exit()  # `q`: the bar counts as detached from now on

        bar.mount = lambda *widgets, **where: mount_then_go(*widgets, **where)  # type: ignore[method-assign]
        screen.shown = {"drop", "take_back", "say", "quit"}  # two keys new to the bar
        active_message_pump.set(bar)  # as when the bar runs it: its keys bind to it
        await bar.show_keys()  # raised MountError on the second key
        assert len(mounted) == 1
