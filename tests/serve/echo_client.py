"""A stand-in client for the fronts' tests: shows what it was given and echoes key presses.

It prints its terminal size (and again on every SIGWINCH), the room variables it got,
its process limits, and each key it reads; `q` ends it with status 3, `m` tries to take
2 GiB of memory (to show the cap holds), `s` starts a child that sleeps (to show the
process group ends with the session), `h` makes it hold on: ignore SIGHUP and outlive its
terminal (to show only the kernel's death signal ends it when the server dies), `w`
writes a file in its home and tries one in the state directory above it, `r` reads
the file in its home and tries the host key, /etc/shadow and the state directory.
"""

import gc
import os
import resource
import shutil
import signal
import subprocess
import sys
import termios
import tty


def say(text: str) -> None:
    os.write(1, (text + "\r\n").encode())


def show_size(*_: object) -> None:
    size = shutil.get_terminal_size()
    say(f"size {size.columns}x{size.lines}")


def main() -> int:
    interactive = os.isatty(0)
    if interactive:
        tty.setraw(0, termios.TCSANOW)
    signal.signal(signal.SIGWINCH, show_size)
    show_size()
    for name in ("C4TUI_ROOMS_SOCKET", "C4TUI_ROOMS_TOKEN", "C4TUI_ROOMS_WEB_SECRET", "TERM"):
        say(f"{name}={os.environ.get(name, '-')}")
    say(f"HOME={os.environ.get('HOME', '-')}")
    say(f"SECRET_OF_HOST={os.environ.get('SECRET_OF_HOST', '-')}")
    say(f"memory-limit={resource.getrlimit(resource.RLIMIT_AS)[0]}")
    say(f"nice={os.nice(0)}")
    say(f"pid={os.getpid()} pgid={os.getpgid(0)} sid={os.getsid(0)}")
    say(f"gc-frozen={gc.get_freeze_count()} gc-on={int(gc.isenabled())}")
    say("ready")
    holding = False
    while True:
        try:
            data = os.read(0, 1024)
        except InterruptedError:
            continue
        except OSError:  # EIO: the terminal has gone
            data = b""
        if not data:
            if holding:
                signal.pause()
            return 0
        say(f"key {data!r}")
        if b"q" in data:
            return 3
        if b"m" in data:
            try:
                block = bytearray(2 * 1024**3)
                say(f"took {len(block)}")
            except MemoryError:
                say("memory refused")
        if b"h" in data:
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            holding = True
            say("holding")
        if b"w" in data:
            home = os.environ["HOME"]
            for place in (f"{home}/mine.txt", f"{home}/../../../escaped.txt"):
                try:
                    with open(place, "w") as handle:
                        handle.write("x")
                    say(f"wrote {os.path.basename(place)}")
                except OSError as error:
                    say(f"refused {os.path.basename(place)} ({error.strerror})")
        if b"r" in data:
            home = os.environ["HOME"]
            state = f"{home}/../../.."
            for place in (f"{home}/mine.txt", f"{state}/ssh_host_ed25519_key", "/etc/shadow"):
                try:
                    with open(place) as handle:
                        handle.read()
                    say(f"read {os.path.basename(place)}")
                except OSError as error:
                    say(f"refused reading {os.path.basename(place)} ({error.strerror})")
            try:
                say(f"listed {sorted(os.listdir(state))}")
            except OSError as error:
                say(f"refused listing the state directory ({error.strerror})")
            say("read all")
        if b"s" in data:
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            say(f"child={child.pid}")


if __name__ == "__main__":
    sys.exit(main())
