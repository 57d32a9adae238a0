"""The README and docs/: every relative link and image resolves, and the README stays short."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# Markdown links and images, and the HTML <img src> the README's tables use.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
# Text inside code fences and spans is not a link, however it looks.
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)


def relative_links(document: Path) -> list[str]:
    text = CODE.sub("", document.read_text(encoding="utf-8"))
    targets = [a or b for a, b in LINK.findall(text)]
    return [t for t in targets if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


def anchors(document: Path) -> set[str]:
    """GitHub's anchors: headings lower-cased, punctuation dropped, spaces to hyphens."""
    text = CODE.sub("", document.read_text(encoding="utf-8"))
    headings = re.findall(r"^#+ (.+)$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: d.name)
def test_every_relative_link_resolves(document: Path) -> None:
    broken = []
    for target in relative_links(document):
        path, _, anchor = target.partition("#")
        resolved = (document.parent / path).resolve()
        missing_anchor = anchor and resolved.suffix == ".md" and anchor not in anchors(resolved)
        if not resolved.exists() or missing_anchor:
            broken.append(target)
    assert broken == [], f"{document.name}: links that lead nowhere: {broken}"


def test_the_readme_reads_in_five_minutes() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines < 250, f"README.md has {lines} lines: move detail into docs/"


def test_every_document_in_docs_is_linked_from_the_readme() -> None:
    linked = {Path(t).name for t in relative_links(ROOT / "README.md")}
    unlinked = [d.name for d in DOCUMENTS[1:] if d.name not in linked]
    assert unlinked == [], f"docs not reachable from the README: {unlinked}"
