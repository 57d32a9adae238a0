"""The profile of a player on a server: ratings by class, results, games now; blocking.

`p` in the lobby opens PlayersScreen: the players online (Enter opens one's profile)
and a box to type any name. ProfileScreen shows what the service sent (`Profile`,
server/wire/people_messages.py): each class's rating with a "?" while provisional, wins,
draws and losses, the games the player is in now, and their last finished games, a line
each (Enter reviews one; c, l and d take it home, as in "My games": my_games.py); `b`
blocks or unblocks them (no challenges,
automatch pairs or chat from them). On your own profile as a keyless ssh name, `s` sets
a password (PasswordScreen) that every keyless login under the name must give after; in
a browser, a field chooses your name (`n` goes to it), with why not under it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, OptionList, Static

from c4tui.app.reader.games import played_sentence, when_words
from c4tui.app.screens.my_games import export_game, review_game
from c4tui.community.chosen_names import name_refusal
from c4tui.community.passwords import password_refusal
from c4tui.engine.board.gamefile import GameFileError, GameRecord
from c4tui.engine.board.notation import move_name
from c4tui.server.wire.people_messages import PlayedShown, Profile


def rating_words(profile: Profile) -> str:
    """ "blitz 1623 (±85, 12 games) · bullet 1500? (±290, 1 game)", or that there is none."""
    if not profile.ratings:
        return "No rated games yet."
    return " · ".join(
        f"{r.rating_class} {r.rating:.0f}{'?' if r.provisional else ''}"
        f" (±{r.deviation:.0f}, {r.games} game{'s' if r.games != 1 else ''})"
        for r in profile.ratings
    )


def results_words(profile: Profile) -> str:
    games = profile.wins + profile.draws + profile.losses
    if not games:
        return "No finished games yet."
    return f"{games} finished: {profile.wins} won, {profile.draws} drawn, {profile.losses} lost"


def playing_words(profile: Profile) -> str:
    if not profile.playing:
        return "Not playing now."
    return "\n".join(
        f"room {g.room} against {g.opponent}, at {move_name(g.moves)}" for g in profile.playing
    )


class ProfileScreen(ModalScreen[None]):
    """One player's profile (see the module docstring)."""

    CSS_PATH = "profile.tcss"
    AUTO_FOCUS = ""  # the name field waits for `n`: q and p still close the profile
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,p", "app.pop_screen", "Close"),
        Binding("b", "block", "Block"),
        Binding("s", "password", "Set password"),
        Binding("n", "name", "Choose a name"),
        Binding("c", "export('file')", "Copy file"),
        Binding("l", "export('link')", "Copy link"),
        Binding("d", "export('download')", "Download"),
    ]

    def __init__(
        self,
        profile: Profile,
        *,
        block: Callable[[str, bool], None],
        set_password: Callable[[str], None],
        choose_name: Callable[[str], None] = lambda name: None,
    ) -> None:
        super().__init__()
        self.profile = profile
        self.games: list[tuple[PlayedShown, GameRecord]] = []
        self._block = block
        self._set_password = set_password
        self._choose_name = choose_name

    def compose(self) -> ComposeResult:
        with Vertical(id="profile-body"):
            yield Static(id="profile-state")
            yield Static("Ratings", classes="profile-heading")
            yield Static(id="profile-ratings")
            yield Static("Results", classes="profile-heading")
            yield Static(id="profile-results")
            yield Static("Playing", classes="profile-heading")
            yield Static(id="profile-playing")
            yield Static("Last games", classes="profile-heading")
            yield Static(id="profile-no-games")
            yield OptionList(id="profile-games")
            # A browser's own name (Profile.choose): shown only on one's own profile there.
            yield Input(placeholder="a name of your own, Enter chooses it", id="profile-name")
            yield Static("", id="profile-name-problem")
        yield Footer()

    def on_mount(self) -> None:
        self.show(self.profile)

    def show(self, profile: Profile) -> None:
        """Draw `profile` (the first, or the same player's again after a block)."""
        self.profile = profile
        self.query_one("#profile-body").border_title = (
            f"BOT {profile.name}" if profile.bot else profile.name
        )
        state = ["you" if profile.you else "online" if profile.online else "not online"]
        if profile.blocked:
            state.append("blocked by you: no challenges, pairings or chat from them")
        if profile.password is not None:
            state.append(
                "a password guards your name" if profile.password else "no password: s sets one"
            )
        if profile.choose:
            state.append("n chooses a name of your own, which this browser keeps")
        self.query_one("#profile-state", Static).update(Text(" · ".join(state)))
        self.query_one("#profile-ratings", Static).update(Text(rating_words(profile)))
        self.query_one("#profile-results", Static).update(Text(results_words(profile)))
        self.query_one("#profile-playing", Static).update(Text(playing_words(profile)))
        self._show_games(profile)
        self.query_one("#profile-name", Input).display = profile.choose
        self.query_one("#profile-name-problem", Static).update("")
        self.refresh_bindings()

    def _show_games(self, profile: Profile) -> None:
        """The last finished games, a line each; the list has the focus when there are
        any (Enter opens the one under the cursor)."""
        self.games = []
        for played in profile.games:
            try:
                self.games.append((played, GameRecord.from_text(played.text)))
            except GameFileError:  # not one this c4tui reads: left out of the list
                continue
        listed = self.query_one("#profile-games", OptionList)
        listed.clear_options()
        listed.add_options(
            [Text(played_sentence(r, p.side, when_words(r.date))) for p, r in self.games]
        )
        listed.display = bool(self.games)
        none = self.query_one("#profile-no-games", Static)
        none.update("No finished games yet." if not self.games else "")
        none.display = not self.games
        if self.games and not profile.choose:
            listed.highlighted = 0
            listed.focus()

    def _chosen(self) -> tuple[PlayedShown, GameRecord] | None:
        index = self.query_one("#profile-games", OptionList).highlighted
        return None if index is None or index >= len(self.games) else self.games[index]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.id == "profile-games" and event.option_index < len(self.games):
            review_game(self, self.games[event.option_index][1])

    def action_export(self, how: str) -> None:
        chosen = self._chosen()
        if chosen is not None:
            export_game(self.app, how, chosen[0].name, chosen[1])

    def name_refused(self, reason: str) -> None:
        """Why the name typed is not this player's, under the field."""
        self.query_one("#profile-name-problem", Static).update(Text(reason))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "block":
            return not self.profile.you
        if action == "password":
            return self.profile.password is not None
        if action == "name":
            return self.profile.choose
        if action == "export":
            if parameters == ("download",) and not self.app.is_web:
                return False
            return bool(self.profile.games)
        return True

    def action_name(self) -> None:
        self.query_one("#profile-name", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "profile-name":
            return
        name = event.value.strip()
        problem = name_refusal(name)  # a first look; the server's is the word
        if problem is not None:
            self.name_refused(problem)
            return
        self.query_one("#profile-name-problem", Static).update(Text(f"Asking for {name}..."))
        self._choose_name(name)

    def action_block(self) -> None:
        self._block(self.profile.name, not self.profile.blocked)

    def action_password(self) -> None:
        def chosen(password: str | None) -> None:
            if password is not None:
                self._set_password(password)

        self.app.push_screen(PasswordScreen(self.profile.name), chosen)


class PasswordScreen(ModalScreen[str | None]):
    """A new password for a keyless name, typed twice; returns it, or None."""

    CSS_PATH = "profile.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss_none", "Cancel")]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        with Vertical(id="password-body"):
            yield Static(
                f"A password for {self.player}: from now on a login as {self.player}"
                " without an ssh key must give it.",
                markup=False,
            )
            yield Input(placeholder="password", password=True, id="password-first")
            yield Input(placeholder="the same again", password=True, id="password-again")
            yield Static("", id="password-problem")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        first = self.query_one("#password-first", Input).value
        if event.input.id == "password-first":
            self.query_one("#password-again", Input).focus()
            return
        problem = password_refusal(first)
        if problem is None and event.value != first:
            problem = "the two are not the same"
        if problem is not None:
            self.query_one("#password-problem", Static).update(
                Text(problem[0].upper() + problem[1:] + ".")
            )
            return
        self.dismiss(first)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


class PlayersScreen(ModalScreen[str | None]):
    """The players online, and any name typed; returns the name whose profile to show."""

    CSS_PATH = "profile.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_none", "Close"),
    ]

    def __init__(self, online: tuple[str, ...], you: str) -> None:
        super().__init__()
        self.online = online
        self.you = you

    def compose(self) -> ComposeResult:
        with Vertical(id="players-body"):
            yield Static(
                "Enter opens a player's profile; or type any name below.",
                id="players-summary",
            )
            names = sorted(self.online, key=lambda n: (n != self.you, n.casefold()))
            yield OptionList(
                *[Text(f"{n} (you)" if n == self.you else n) for n in names], id="players-list"
            )
            yield Input(placeholder="a player's name", id="players-name")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#players-body").border_title = "Players"
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        names = sorted(self.online, key=lambda n: (n != self.you, n.casefold()))
        self.dismiss(names[event.option_index])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.dismiss(event.value.strip())

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
