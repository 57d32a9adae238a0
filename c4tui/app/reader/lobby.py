"""LobbyReader: a server's lobby in the screen-reader mode, lines and a command line.

The lobby screen composes it beside its panels; the mode shows one or the other. It
says the lobby as it changes (a room opened or closed, a player online or gone, a seek
begun or ended, a challenge come or gone) and answers typed commands with the lobby's
own actions: play the AI at a level, make a room, join one by its code, watch one, find
a rated game, challenge a player, list the rooms, who is online, the leaderboard.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Checkbox, Input, Select

from c4tui.app.reader.log import Spoken
from c4tui.app.reader.mode import reading
from c4tui.app.reader.pane import ReaderPane
from c4tui.app.reader.switch import set_reading
from c4tui.app.screens.matchmaking import CONTROLS, control_words
from c4tui.engine.players.levels import LEVELS, RATINGS, level_name
from c4tui.match.room_view import LobbyView, RoomSummary
from c4tui.match.sides import GLYPHS, engine_title
from c4tui.server.wire.matchmaking_messages import ChallengeListed, Challenges, Seeking

LOBBY_HELP = (
    "type a command and press Enter; Escape: the lobby's keys, colon: typing again",
    "play, or play N: a game against the AI at level N (1 to 8), default level 3; "
    "play mcts, play negamax, play alphazero: an engine whose thinking you follow",
    "room: a room for two, its code to pass on; public room: one anyone may join",
    "join CODE: a room or seat by its code; watch N: watch room N",
    "rooms: every room; online: who is online; games: your finished games",
    f"find, or find CONTROL ({', '.join(CONTROLS)}): a rated game against whoever seeks "
    "the same; find again stops",
    "challenge NAME: challenge a player; accept, decline: the first challenge to you; "
    "cancel: take back yours",
    "leaderboard, tournaments, players: their lists",
    "second: play ○, moving second (again: play ●); reader off: the normal screen",
    "quit: leave the server",
)
# The lobby's own keys by their typed names: each runs as its key does.
LOBBY_ACTIONS = {
    "accept": "answer_challenge(True)",
    "decline": "answer_challenge(False)",
    "cancel": "cancel_challenge",
    "leaderboard": "leaderboard",
    "tournaments": "tournaments",
    "players": "players",
    "bell": "bell",
}


def seek_line(old: Seeking, new: Seeking) -> str | None:
    """What changed in this player's seek: begun, ended, or others waiting with it. Its
    widening range is not said: it changes with time, not with anyone's doing."""
    if new.control is None:
        return None if old.control is None else "no longer finding a game"
    game = f"a {control_words(new.control)} game"
    if new.control != old.control:
        return f"finding {game}: ratings {new.range}; find again stops"
    if new.waiting != old.waiting:
        return f"{new.waiting or 'nobody'} more waiting for {game}"
    return None


def challenge_lines(old: Challenges, new: Challenges) -> list[str]:
    """The challenges that came and went since `old`."""
    lines = []
    before = {c.id for c in (*old.to_me, *old.mine)}
    now = {c.id for c in (*new.to_me, *new.mine)}
    for challenge in new.to_me:
        if challenge.id not in before:
            terms = challenge_terms(challenge)
            lines.append(f"{challenge.name} challenges you: {terms}; accept or decline")
    for challenge in new.mine:
        if challenge.id not in before:
            lines.append(f"you challenged {challenge.name}: {challenge_terms(challenge)}")
    for challenge in old.to_me:
        if challenge.id not in now:
            lines.append(f"the challenge of {challenge.name} is gone")
    for challenge in old.mine:
        if challenge.id not in now:
            lines.append(f"your challenge to {challenge.name} is gone")
    return lines


def challenge_terms(challenge: ChallengeListed) -> str:
    """ "3+2 blitz, rated": a challenge's clock and whether it counts."""
    return f"{control_words(challenge.control)}, {'rated' if challenge.rated else 'casual'}"


def room_line(room: RoomSummary) -> str:
    """ "room 3: ● Ann against ○ Level 3, being played; 2 watching"."""
    seats = " against ".join(
        f"{GLYPHS[p]} " + ("open" if who is None else engine_title(who[1]) if who[1] else who[0])
        for p, who in enumerate(room.players)
    )
    state = "over" if room.over else "waiting" if room.open else "being played"
    code = f", code {room.code}" if room.code else ""
    watching = f"; {room.watchers} watching" if room.watchers else ""
    return f"room {room.number}: {seats}, {state}{code}{watching}"


class LobbyReader(ReaderPane):
    """The lobby's lines and command line (module docstring)."""

    KEYS_SAID = "keys: a play the AI, r new room, j join, w watch, s screen reader; colon to type"

    def __init__(self, match: Any, spoken: Spoken, **options: Any) -> None:
        super().__init__(spoken, **options)
        self.match = match  # the served app's RemoteMatch
        self.lobby: LobbyView | None = None

    def show_lobby(self, lobby: LobbyView) -> None:
        """Say what changed since the lobby was last shown."""
        if self.lobby is None and not lobby.rooms and not lobby.online:
            return  # not heard from the server yet
        old, self.lobby = self.lobby, lobby
        if old is None:
            online = ", ".join(lobby.online) or "nobody"
            self.spoken.say(
                f"lobby: you are {self.match.name}; {len(lobby.rooms)} rooms; online: {online}"
            )
            return
        before = {r.number: r for r in old.rooms}
        now = {r.number: r for r in lobby.rooms}
        for number in sorted(now.keys() - before.keys()):
            self.spoken.say(f"new {room_line(now[number])}")
        for number in sorted(before.keys() - now.keys()):
            self.spoken.say(f"room {number} closed")
        for name in sorted(set(lobby.online) - set(old.online)):
            self.spoken.say(f"{name} is online")
        for name in sorted(set(old.online) - set(lobby.online)):
            self.spoken.say(f"{name} left")

    def seeking_changed(self, old: Seeking, new: Seeking) -> None:
        line = seek_line(old, new)
        if line is not None and reading(self.app):
            self.spoken.say(line)

    def challenges_changed(self, old: Challenges, new: Challenges) -> None:
        if reading(self.app):
            for line in challenge_lines(old, new):
                self.spoken.say(line)

    def play_engine(self, name: str) -> None:
        """`play mcts` and the like: an opponent the lobby's list offers by its value."""
        screen: Any = self.screen
        offered = dict((value, label) for label, value in screen.opponents())
        if name not in offered:
            engines = ", ".join(v for v in offered if not v.startswith(("level", "bot:")))
            self.spoken.say(f"no AI {name}: play N for a level (1 to 8), or play {engines}")
            return
        screen.query_one("#level", Select).value = name
        self.spoken.say(f"playing {offered[name]}")
        screen.action_play_ai()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = self.typed(event)
        word, _, rest = text.lower().partition(" ")
        screen: Any = self.screen
        if word == "play" and rest and not rest.isdigit():
            self.play_engine(rest)
        elif word == "play":
            level = int(rest) if rest.isdigit() else 3
            if level not in LEVELS:
                self.spoken.say(f"no level {rest}: levels are 1 to {max(LEVELS)}")
                return
            screen.query_one("#level", Select).value = level_name(level)
            self.spoken.say(f"playing level {level}, Elo {RATINGS.get(level, '?')}")
            screen.action_play_ai()
        elif text.lower() in ("room", "public room"):
            screen.query_one("#public", Checkbox).value = word == "public"
            screen.action_new_room()
        elif word == "join" and rest:
            self.match.join(text.partition(" ")[2])
        elif word == "watch" and rest.isdigit():
            self.match.watch(int(rest))
        elif word == "rooms":
            rooms = self.lobby.rooms if self.lobby is not None else ()
            for room in rooms:
                self.spoken.say(room_line(room))
            if not rooms:
                self.spoken.say("no rooms yet")
        elif word == "online":
            online = self.lobby.online if self.lobby is not None else ()
            self.spoken.say(f"online ({len(online)}): {', '.join(online) or 'nobody'}")
        elif word == "games":
            screen.action_games()
        elif word == "find":
            self._find(rest)
        elif word == "challenge":
            self._challenge(text.partition(" ")[2])
        elif text.lower() in LOBBY_ACTIONS:
            self.app.call_later(self.app.run_action, LOBBY_ACTIONS[text.lower()], screen)
        elif word == "second":
            box = screen.query_one("#second", Checkbox)
            box.value = not box.value
            self.spoken.say(f"you play {GLYPHS[1] if box.value else GLYPHS[0]} in new games")
        elif text.lower() == "reader off":
            set_reading(self.app, False)
        elif word == "quit":
            self.app.exit()
        elif text in ("?", "help", "commands"):
            for line in LOBBY_HELP:
                self.spoken.say(line)
        else:
            self.spoken.say(f"not a command: {text}; ? lists them")

    def _find(self, control: str) -> None:
        """`find`: the time control's list (or a seek stopped); `find 5+3`: that seek."""
        screen: Any = self.screen
        if not control or screen.seeking.control is not None:
            screen.action_find()
        elif control in CONTROLS:
            self.match.seek(control)
        else:
            self.spoken.say(f"no time control {control}: {', '.join(CONTROLS)}")

    def _challenge(self, name: str) -> None:
        """`challenge bob`: the challenge's form for bob; `challenge`: for the first online."""
        screen: Any = self.screen
        if name:
            online = self.lobby.online if self.lobby is not None else ()
            named = next((n for n in online if n.lower() == name.lower()), None)
            if named is None:
                self.spoken.say(f"{name} is not online (online: {', '.join(online) or 'nobody'})")
                return
            screen.action_challenge(named)
        else:
            screen.action_challenge()
