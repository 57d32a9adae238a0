"""Runs a Kaggle ConnectX agent file for c4tui, in a process of its own.

Started as a script (`python connectx_runner.py FILE.py`), it imports nothing of c4tui:
it loads the file as Kaggle does (its `agent`, or else the last callable it defines),
says `ready`, then for each JSON line {"observation": ..., "configuration": ...} calls
the agent and writes {"action": ...}. The agent's own prints go to stderr, so only
these lines are on stdout; an agent that raises ends the process with its traceback.
"""

import json
import os
import sys
from collections.abc import Callable
from typing import Any


class Struct(dict[str, Any]):
    """A dict whose keys are attributes too, as in Kaggle's runner (obs.board, obs["board"])."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def load_agent(path: str) -> Callable[..., Any]:
    with open(path, encoding="utf-8") as file:
        code = compile(file.read(), path, "exec")
    namespace: dict[str, Any] = {"__name__": "__main__", "__file__": path}
    exec(code, namespace)
    agent = namespace.get("agent")
    if callable(agent):
        return agent  # type: ignore[no-any-return]  # whatever the agent file defines
    callables = [value for value in namespace.values() if callable(value)]
    if not callables:
        raise SystemExit(f"{path} defines no agent function")
    last: Callable[..., Any] = callables[-1]
    return last


def answer(action: object) -> int | str:
    """The agent's answer as JSON: a whole number as such, anything else as its repr."""
    try:
        # Any object an agent returns: int() itself refuses the ones it cannot take.
        whole: int = int(action)  # type: ignore[call-overload]  # the refusal is caught below
        if whole == action and not isinstance(action, bool):
            return whole
    except (TypeError, ValueError, OverflowError):
        pass
    return repr(action)[:80]


def main() -> None:
    path = os.path.abspath(sys.argv[1])
    sys.path[0] = os.path.dirname(path)  # the agent's neighbours, not ours
    protocol = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # prints of the agent, even from C, go to stderr
    sys.stdout = sys.stderr
    agent = load_agent(path)
    protocol.write("ready\n")
    for line in sys.stdin:
        asked = json.loads(line)
        action = agent(Struct(asked["observation"]), Struct(asked["configuration"]))
        protocol.write(json.dumps({"action": answer(action)}) + "\n")


if __name__ == "__main__":
    main()
