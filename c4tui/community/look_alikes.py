"""Look-alike names: the skeleton two names share when a reader could take one for the other.

A name with a Cyrillic "а" reads as the same name in Latin letters, and once was taken
beside it. So a name is held by its skeleton too (player_records.py): case and width
folded (NFKC of the casefolded name), then each character that Unicode lists as
confusable with others (its confusables.txt, as the `confusable-homoglyphs` package
ships it, MIT) replaced by one member of its group, the same for the whole group: the
lowest code point, so "а" (U+0430), "ɑ" and "α" are all "a", and "1" is "l".

Close to Unicode's skeleton (UTS #39), within what the package gives: single characters
only ("rn" is not taken for "m"), and groups joined wherever two of their characters are
listed as alike.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib.resources import files


@cache
def _groups() -> dict[str, str]:
    """Each confusable character's group's member: the lowest code point among them."""
    listed: dict[str, list[dict[str, str]]] = json.loads(
        files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8")
    )
    lowest: dict[str, str] = {}

    def member(char: str) -> str:
        while lowest.setdefault(char, char) != char:
            char = lowest[char]
        return char

    for char, alikes in listed.items():
        for alike in alikes:
            if len(char) == 1 and len(alike["c"]) == 1:
                one, other = member(char), member(alike["c"])
                if one != other:
                    low, high = sorted((one, other))
                    lowest[high] = low
    return {char: member(char) for char in lowest}


def skeleton(name: str) -> str:
    """What `name` looks like, for comparing with other names: two names a reader could
    take for one another have the same skeleton."""
    groups = _groups()
    return "".join(
        groups.get(char, char) for char in unicodedata.normalize("NFKC", name.casefold())
    )
