"""The rules a chosen name keeps: the names browser players choose (ChosenNames keeps them,
in c4tui/server/store/chosen_names.py).

A browser is a private cookie's identity ("web:<id>"); it starts with a name the web
front makes ("web-1a2b") and may choose one of its own. A chosen name is claimed for
the identity's player in `names`, as an ssh key's first login claims one (so no other
key, password or browser can take it) and becomes the player's shown name
(`players.name`), which the web front looks up when the browser comes back. A name
chosen before stays the player's: nobody else takes it over their old games.

`name_refusal` holds the rules a chosen name keeps, for the service and, as a first
look, the profile screen: ssh login names' characters, ssh names' length.
"""

from __future__ import annotations

WEB_NAMES = "web-"  # the start of every name the web front makes
LONGEST = 20  # as long as a name is shown (server/wire/identity.py's display_name)
MARKS = frozenset("-_.")  # besides letters and digits, as ssh login names have them


def name_refusal(name: str) -> str | None:
    """Why `name` cannot be chosen (a sentence), None when it can: 1 to 20 letters,
    digits, `-`, `_` and `.`, not starting with `web-`."""
    if not 1 <= len(name) <= LONGEST:
        return f"A name has 1 to {LONGEST} characters."
    if not all(ch.isalnum() or ch in MARKS for ch in name):
        return "A name has letters, digits, - _ and . only."
    if name.casefold().startswith(WEB_NAMES):
        return f"Names starting with {WEB_NAMES} are the ones the server makes: choose another."
    return None
