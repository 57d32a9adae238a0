"""KeyBar: Textual's footer of keys, changed in place when the keys on show change.

Textual's `Footer` builds all its keys anew whenever the screen's keys change. A room's
keys change with every move (⏎ Drop dims and lights with the turn), and building a key
(mounting it, styling it twice, laying the bar out) made the footer the dearest part of
a served client's redraw: a third of its CPU per move. KeyBar shows what `Footer` would
show, in the same order with the same looks, but keeps its keys: one no longer wanted is
hidden, one wanted again is shown, one whose words changed is told so; only a key never
shown before is built and mounted. What the bar should show is worked out as plain
values (`Face`), not as keys built to be compared and thrown away. When the keys are
grouped (a binding group, which this app's screens do not use) it builds them anew, as
`Footer` does.
"""

from __future__ import annotations

import asyncio

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import ActiveBinding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from c4tui.app.textual_internals import footer_key_face, set_footer_key_face

# What a key shows and does (footer_key_face): its key, how the key is shown, its words,
# its action, whether it is dimmed, its tooltip (or None); and whether it is the command
# palette's key (docked apart).
Face = tuple[str, str, str, str, bool, "str | None", bool]
DIMMED = Style(dim=True)
BindingsMap = dict[str, ActiveBinding]  # a screen's active bindings


class BarKey(FooterKey):
    """A footer key dimmed by its drawing, not by Footer's `-disabled` class: a class
    toggled restyles the key (the stylesheet applied to it again), and ⏎ Drop dims and
    lights at every move of a room."""

    def __init__(self, face: Face) -> None:
        key, shown, words, action, dimmed, tooltip, palette = face
        classes = "-command-palette" if palette else ""
        super().__init__(key, shown, words, action, tooltip=tooltip or "", classes=classes)
        self._disabled = dimmed  # after FooterKey's own, which would add the class
        if not palette:  # as Footer binds its keys (the palette's key stays roomy)
            self.data_bind(compact=Footer.compact)

    def render(self) -> Text:
        text = super().render()
        if self._disabled:
            text.stylize_before(DIMMED)  # what `-disabled`'s text-style: dim draws
        return text


class KeyBar(Footer):
    """The screen's keys, kept between changes (module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        # One change at a time: two at once would both mount a key new to the bar.
        self._changing = asyncio.Lock()
        self._shown: tuple[object, ...] | None = None  # the screen's keys last shown

    def compose(self) -> ComposeResult:
        faces = self._faces(self.screen.active_bindings) if self._bindings_ready else []
        if faces is None:
            yield from super().compose()
            return
        for face in faces:
            yield BarKey(face)

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if not self.is_attached or screen is not self.screen:
            return
        if not self.change_in_place():
            self.call_after_refresh(self.show_keys)

    async def show_keys(self) -> None:
        """Make the bar show the keys `Footer.compose` would build now."""
        async with self._changing:
            if self.is_attached and not self._pruning:
                await self._show_keys()

    async def _show_keys(self) -> None:
        # The screen says its keys changed far more often than they do (a focus, a
        # redraw): compare first, as composing the keys costs a layout pass.
        active = self.screen.active_bindings
        shown = (self.show_command_palette, *active.values())
        if shown == self._shown:
            return
        self._shown = shown
        faces = self._faces(active)
        kept = [key for key in self.children if isinstance(key, BarKey)]
        if faces is None or len(kept) < len(self.children):
            await self.recompose()
            return
        by_identity = {identity(footer_key_face(key)): key for key in kept}
        if len(by_identity) < len(kept) or len({identity(f) for f in faces}) < len(faces):
            await self.recompose()  # two keys alike: nothing tells which is which
            return
        keys: list[FooterKey] = [by_identity.get(identity(f)) or BarKey(f) for f in faces]
        reused = [key for key in keys if key in kept]
        if reused != [key for key in kept if key in reused]:
            await self.recompose()  # the order changed: built anew, as Footer does
            return
        with self.app.batch_update():
            for face, key in zip(faces, keys, strict=True):
                if key in kept:
                    show_face(key, face)
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

    def change_in_place(self) -> bool:
        """Show the screen's keys now if the keys on show stay the same keys, in the same
        order (dimmed, lit or reworded); False where keys come or go (`bindings_changed`
        shows those after the screen's next paint, as Footer does). A screen that calls
        this as it draws a change has ⏎ Drop dimmed in the same paint: after it, the
        dimming was a paint of its own, from the board's top to the bar, at every move."""
        if self._changing.locked() or not self.is_attached:
            return False
        active = self.screen.active_bindings
        shown = (self.show_command_palette, *active.values())
        if shown == self._shown:
            return True
        faces = self._faces(active)
        if faces is None:
            return False
        showing = [key for key in self.children if isinstance(key, BarKey) and key.display]
        if [identity(footer_key_face(key)) for key in showing] != [identity(f) for f in faces]:
            return False
        self._shown = shown
        for face, key in zip(faces, showing, strict=True):
            show_face(key, face)
        return True

    def _faces(self, active: BindingsMap) -> list[Face] | None:
        """The keys `Footer.compose` would build now (each action's first binding shown,
        then the command palette's), or None where keys are grouped."""
        firsts: dict[str, Face] = {}
        display = self.app.get_key_display
        for _node, b, enabled, tooltip in active.values():
            if b.show:
                if b.group is not None:
                    return None
                face = (b.key, display(b), b.description, b.action, not enabled, tooltip or None)
                firsts.setdefault(b.action, (*face, False))
        faces = list(firsts.values())
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        if palette is not None and self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            _node, b, enabled, _tip = palette
            tip = b.tooltip or b.description or None
            faces.append((b.key, display(b), b.description, b.action, not enabled, tip, True))
        return faces


def show_face(key: FooterKey, face: Face) -> None:
    """Make a key on the bar show `face`: repainted when dimmed or lit, laid out again
    when its words change (they take another width)."""
    was = footer_key_face(key)
    if was != face[:6]:
        set_footer_key_face(key, face[:6])
        key.refresh(layout=was[:4] != face[:4])


def identity(face: tuple[object, ...]) -> tuple[object, ...]:
    """What makes a key the same key: its action and its keys (the command palette's
    key is docked apart, and has its own); its words and its dimming may change."""
    return face[3], face[0]
