"""Specs of outside engines: what to run, then the settings, e.g. `cmd:./bot --fast,time=1`.

`cmd:COMMAND LINE` runs a program speaking our engine protocol (docs/engine-protocol.md),
`fourinarow:COMMAND LINE` a bot of the old "Four In A Row" competition protocol, and
`connectx:FILE.py` a Kaggle ConnectX agent file. A command line is split as a shell
splits it (no shell runs it), so it may hold commas and `=`: the settings are the
comma-separated `key=value` parts at its end whose key the engine takes; everything
before them is the command line (or the file). A c4e program's own settings are
`option.NAME=VALUE` parts (`cmd:./bot,option.Hash=64`): sent as `setoption` lines.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Collection

from c4tui.engine.players.options import SpecError

# The spec names of outside engines: what each one runs.
OUTSIDE_KINDS = {
    "cmd": "a command line",
    "fourinarow": "a command line",
    "connectx": "an agent file",
}
EXAMPLES = {
    "cmd": "cmd:python3 my_engine.py,time=1",
    "fourinarow": "fourinarow:python3 my_bot.py,time=0.5",
    "connectx": "connectx:submission.py,time=2",
}


def is_outside(name: str) -> bool:
    """Whether a spec's engine name runs an outside program (its lower-case name)."""
    return name in OUTSIDE_KINDS


def split_outside(name: str, rest: str, keys: Collection[str]) -> tuple[str, list[str]]:
    """(the command line or file, the `key=value` settings after it) of an outside spec
    given after its name; SpecError when nothing is given to run, or it cannot run."""
    parts = rest.split(",")
    settings: list[str] = []
    while len(parts) > 1 and (
        _is_setting(parts[-1], keys) or (name == "cmd" and is_engine_option(parts[-1]))
    ):
        settings.insert(0, parts.pop())
    target = ",".join(parts).strip()
    if not target:
        raise SpecError(f"{name}: give {OUTSIDE_KINDS[name]} to run, e.g. {EXAMPLES[name]}")
    if name == "connectx":
        check_agent_file(target)
    else:
        command_line(name, target)
    return target, settings


ENGINE_OPTION = "option."


def is_engine_option(part: str) -> bool:
    """`option.NAME=VALUE`: a setting of a c4e program's own, sent to it as `setoption`."""
    key, eq, _ = part.partition("=")
    return bool(eq) and key.strip().lower().startswith(ENGINE_OPTION)


def engine_option(name: str, item: str) -> tuple[str, str]:
    """("option.NAME", VALUE) of an `option.NAME=VALUE` setting, NAME as written;
    SpecError when NAME or VALUE is missing or NAME holds a blank."""
    key, _, value = item.partition("=")
    option_name, value = key.strip()[len(ENGINE_OPTION) :], value.strip()
    if not option_name or not value or any(char.isspace() for char in option_name):
        raise SpecError(
            f"{name}: {item.strip()!r}: an engine option is option.NAME=VALUE, NAME without blanks",
            key.strip().lower(),
        )
    return ENGINE_OPTION + option_name, value


def _is_setting(part: str, keys: Collection[str]) -> bool:
    key, eq, _ = part.partition("=")
    return bool(eq) and key.strip().lower() in keys


def command_line(name: str, target: str) -> list[str]:
    """The program and its arguments, split as a shell would; SpecError when the quotes
    do not close or the program is not there."""
    try:
        argv = shlex.split(target)
    except ValueError as error:
        raise SpecError(f"{name}: cannot split the command line {target!r}: {error}") from None
    if not argv:
        raise SpecError(f"{name}: give {OUTSIDE_KINDS[name]} to run, e.g. {EXAMPLES[name]}")
    program = argv[0]
    found = os.access(program, os.X_OK) if os.sep in program else shutil.which(program)
    if not found or os.path.isdir(program):
        raise SpecError(f"{name}: no program {program!r} to run (not found or not executable)")
    return argv


def check_agent_file(path: str) -> None:
    """SpecError unless `path` is a Python file that can be read."""
    if not path.endswith(".py"):
        raise SpecError(f"connectx: {path!r} is not a Python file (FILE.py)")
    if not os.path.isfile(path) or not os.access(path, os.R_OK):
        raise SpecError(f"connectx: no agent file {path!r} to read")


def default_title(kind: str, target: str) -> str:
    """What to call an outside engine without `name=`: its program or file, with the
    interpreter left out ("bot.py" for "python3 bot.py --fast")."""
    try:
        words = shlex.split(target)
    except ValueError:
        words = target.split()
    shown = [word for word in words if not word.startswith("-")]
    if len(shown) > 1 and os.path.basename(shown[0]).startswith(("python", "node", "java")):
        shown = shown[1:]
    return os.path.basename(shown[0]) if shown else kind
