"""A stand-in client for the web front's tests, speaking the framing of textual's web driver.

After the `__GANGLION__` line, both ways carry packets: a type byte (D data, M meta),
a 4-byte big-endian length, the payload. It shows what it was given, echoes key
presses, answers a resize with the new size, and ends on a `quit` meta packet or `q`.
"""

import json
import os
import resource
import sys


def send(kind: bytes, payload: bytes) -> None:
    sys.stdout.buffer.write(kind + len(payload).to_bytes(4, "big") + payload)
    sys.stdout.buffer.flush()


def say(text: str) -> None:
    send(b"D", (text + "\r\n").encode())


def read_exactly(size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sys.stdin.buffer.read(size - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def main() -> int:
    sys.stdout.buffer.write(b"__GANGLION__\n")
    say(f"size {os.environ.get('COLUMNS')}x{os.environ.get('ROWS')}")
    for name in ("C4TUI_ROOMS_TOKEN", "HOME", "SECRET_OF_HOST", "TEXTUAL_DRIVER"):
        say(f"{name}={os.environ.get(name, '-')}")
    # What Textual read from the environment as it was imported, when it was (the fork
    # server's children have it imported already, and read again: forks.SERVED_REREAD).
    constants = sys.modules.get("textual.constants")
    say(f"textual-driver={'-' if constants is None else constants.DRIVER}")
    say(f"memory-limit={resource.getrlimit(resource.RLIMIT_AS)[0]}")
    say(f"pid={os.getpid()} sid={os.getsid(0)}")
    say("ready")
    try:
        while True:
            kind = read_exactly(1)
            payload = read_exactly(int.from_bytes(read_exactly(4), "big"))
            if kind == b"D":
                say(f"key {payload!r}")
                if payload == b"q":
                    send(b"M", json.dumps({"type": "exit"}).encode())
                    return 0
            elif kind == b"M":
                meta = json.loads(payload)
                if meta["type"] == "resize":
                    say(f"size {meta['width']}x{meta['height']}")
                elif meta["type"] == "quit":
                    return 0
    except EOFError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
