"""KeyBar: Textual's footer of keys, changed in place when the keys on show change.

Textual's `Footer` builds all its keys anew whenever the screen's keys change. A room's
keys change with every move (⏎ Drop comes and goes with the turn), and building a key
(mounting it, styling it twice, laying the bar out) made the footer the dearest part of
a served client's redraw: a third of its CPU per move. KeyBar shows what `Footer` would
show, in the same order with the same looks, but keeps its keys: one no longer wanted is
hidden, one wanted again is shown, one whose words changed is told so; only a key never
shown before is mounted. When the keys are grouped (a binding group, which this app's
screens do not use) it builds them anew, as `Footer` does.
"""

from __future__ import annotations

import asyncio

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from c4tui.app.textual_internals import footer_key_face, set_footer_key_face


class KeyBar(Footer):
    """The screen's keys, kept between changes (module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        # One change at a time: two at once would both mount a key new to the bar.
        self._changing = asyncio.Lock()
        self._shown: tuple[object, ...] | None = None  # the screen's keys last shown

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self.show_keys)

    async def show_keys(self) -> None:
        """Make the bar show the keys `Footer.compose` would build now."""
        async with self._changing:
            if self.is_attached and not self._pruning:
                await self._show_keys()

    async def _show_keys(self) -> None:
        # The screen says its keys changed far more often than they do (a focus, a
        # redraw): compare first, as composing the keys costs a layout pass.
        shown = (self.show_command_palette, *self.screen.active_bindings.values())
        if shown == self._shown:
            return
        self._shown = shown
        wanted = self._wanted()
        kept = [key for key in self.children if type(key) is FooterKey]
        if wanted is None or len(kept) < len(self.children):
            await self.recompose()
            return
        by_identity = {identity(key): key for key in kept}
        if len(by_identity) < len(kept) or len({identity(key) for key in wanted}) < len(wanted):
            await self.recompose()  # two keys alike: nothing tells which is which
            return
        keys = [by_identity.get(identity(key), key) for key in wanted]
        reused = [key for key in keys if key in kept]
        if reused != [key for key in kept if key in reused]:
            await self.recompose()  # the order changed: built anew, as Footer does
            return
        with self.app.batch_update():
            for fresh, key in zip(wanted, keys, strict=True):
                if key is not fresh:
                    face = footer_key_face(key)
                    if face != footer_key_face(fresh):
                        set_footer_key_face(key, fresh)
                        # New words take another width; a key dimmed or lit only repaints.
                        key.refresh(layout=face[:4] != footer_key_face(fresh)[:4])
                    key.display = True
            for old in kept:
                if old not in reused and old.display:
                    old.display = False
            for place, key in enumerate(keys):
                if key not in kept:  # before the next key kept, so hidden ones stay apart
                    if not self.is_attached:
                        return  # the app quit (or the screen went) while a key mounted
                    following = [later for later in keys[place + 1 :] if later in kept]
                    await self.mount(key, before=following[0] if following else None)

    def _wanted(self) -> list[FooterKey] | None:
        """The keys `Footer.compose` would build now (each action's first binding shown,
        then the command palette's), or None where keys are grouped. Not by calling it:
        it also sets a style of the bar, which lays out and repaints every key."""
        active = self.screen.active_bindings
        firsts: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in active.values():
            if binding.show:
                if binding.group is not None:
                    return None
                firsts.setdefault(binding.action, (binding, enabled, tooltip))
        display = self.app.get_key_display
        keys = [
            FooterKey(
                b.key, display(b), b.description, b.action, disabled=not on, tooltip=tip
            ).data_bind(compact=Footer.compact)
            for b, on, tip in firsts.values()
        ]
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        if palette is not None and self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            _node, b, on, _tip = palette
            tip = b.tooltip or b.description
            keys.append(
                FooterKey(
                    b.key,
                    display(b),
                    b.description,
                    b.action,
                    classes="-command-palette",
                    disabled=not on,
                    tooltip=tip,
                )
            )
        return keys


def identity(key: FooterKey) -> tuple[object, ...]:
    """What makes a key the same key: its action, its keys and its kind (the command
    palette's key is docked apart); its words and whether it is disabled may change."""
    return key.action, key.key, key.has_class("-command-palette")
