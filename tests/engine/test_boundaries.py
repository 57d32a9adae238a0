"""The engine package stays UI-free: nothing in c4tui.engine may import textual or rich."""

import ast
from pathlib import Path

import c4tui.engine

ENGINE_DIR = Path(c4tui.engine.__file__).parent
FORBIDDEN = {"textual", "rich"}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_engine_imports_no_ui_library():
    offenders = {
        str(path.relative_to(ENGINE_DIR)): sorted(imported_roots(path) & FORBIDDEN)
        for path in ENGINE_DIR.rglob("*.py")
        if imported_roots(path) & FORBIDDEN
    }
    assert offenders == {}


def test_the_check_sees_engine_modules():
    # Guard against the scan silently finding nothing (a moved package, a bad glob).
    assert (ENGINE_DIR / "board" / "position.py").exists()
    assert "c4tui" in imported_roots(ENGINE_DIR / "board" / "position.py")
