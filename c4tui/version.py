"""The version c4tui says it is: the installed package's, and the commit of a checkout."""

from __future__ import annotations

from pathlib import Path


def version() -> str:
    """The installed c4tui's version, and the commit it was built from when it runs from
    a git checkout (every build of the tree says 0.1.0: the commit tells them apart)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        number = installed("c4tui")
    except PackageNotFoundError:  # run from a source tree that was never installed
        number = "unknown (not installed)"
    commit = checkout_commit(Path(__file__).resolve().parent.parent)
    return number if commit is None else f"{number} (commit {commit[:12]})"


def checkout_commit(root: Path) -> str | None:
    """The commit checked out in `root`, read from its .git (no git program needed);
    None when `root` is not a checkout (an installed wheel) or it cannot be read."""
    git = root / ".git"
    try:
        if git.is_file():  # a worktree or submodule: "gitdir: PATH"
            git = (root / git.read_text().partition("gitdir:")[2].strip()).resolve()
        head = (git / "HEAD").read_text().strip()
        if not head.startswith("ref: "):
            return head or None  # a detached HEAD: the commit itself
        ref = head.removeprefix("ref: ")
        common = git / "commondir"
        if common.is_file():
            git = (git / common.read_text().strip()).resolve()
        if (git / ref).is_file():
            return (git / ref).read_text().strip() or None
        for line in (git / "packed-refs").read_text().splitlines():
            commit, _, name = line.partition(" ")
            if name == ref:
                return commit
    except OSError:
        return None
    return None
