"""`c4tui connectx`'s agent file: one of our engines as a Kaggle ConnectX submission that
runs where only Python's standard library is installed, as on Kaggle.

The file carries the c4tui modules the engine needs, compressed, and imports them from
itself through a finder put first on `sys.meta_path`; the C kernels stay behind (the
engines run their pure-Python code, which gives the same moves, slower). Which modules:
those that imports reach from the ConnectX player (kaggle_agent.py) and from the
engine's own module, read from their source (every `import` of a c4tui module, wherever
it stands), plus what the engine declares in its `Bundle` (modules it loads by name, and
files such as a network, whose setting the agent points at the carried copy, written
to a temporary folder when the agent loads). An outside engine declares none: it runs
another program. The engine's entry in the registry goes along, for an engine
registered at run time. Kaggle reads the file's code and calls its last function, `agent`.
"""

from __future__ import annotations

import ast
import base64
import importlib.util
import os
import zlib
from dataclasses import dataclass

from c4tui.engine.learned.network import MAX_NETWORK_BYTES
from c4tui.engine.players.specs import EngineSpec, engine_class, parse_spec
from c4tui.engine.regular_files import UnreadableFile, open_regular

PLAYER = "c4tui.engine.external.kaggle_agent"
HANDICAP = "c4tui.engine.players.handicap"  # wraps any engine given noise=
PACKAGE = "c4tui"


@dataclass(frozen=True)
class Carried:
    """A module the file carries: its name, whether it is a package, and its source."""

    name: str
    package: bool
    source: str


def modules_reached(roots: list[str]) -> list[Carried]:
    """`roots` and the c4tui modules (and their packages) that imports reach from them,
    sorted. Other imports are the standard library's, or the engine's to declare."""
    found: dict[str, Carried] = {}
    waiting = list(roots)
    while waiting:
        name = waiting.pop()
        ours = name == PACKAGE or name.startswith(PACKAGE + ".")
        if name in found or not (ours or name in roots):
            continue
        carried = _source_of(name)
        if carried is None:
            continue  # a name imported from a module, not a module; or compiled code
        found[name] = carried
        waiting += _parents(name) + _imports(carried)
    return [found[name] for name in sorted(found)]


def _source_of(name: str) -> Carried | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, AttributeError, ValueError):
        return None
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    with open(spec.origin, encoding="utf-8") as file:
        source = file.read()
    return Carried(name, spec.submodule_search_locations is not None, source)


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts))]


def _imports(module: Carried) -> list[str]:
    """Every module name an import in `module` may load (`from A import B`: A, and A.B
    should B be a module)."""
    names = []
    package = module.name if module.package else module.name.rpartition(".")[0]
    for node in ast.walk(ast.parse(module.source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return names


def agent_file(text: str) -> str:
    """The text of an agent file that plays the spec `text` (ValueError for an engine
    that cannot stand alone)."""
    spec = parse_spec(text)
    engine = engine_class(spec.name)
    bundle = engine.bundle(spec.options)
    if bundle is None:
        raise ValueError(f"{text!r} runs another program: write an agent of a built-in engine")
    modules = modules_reached([PLAYER, HANDICAP, engine.__module__, *bundle.modules])
    files = {setting: _file_entry(str(path)) for setting, path in bundle.files}
    return _render(spec, (engine.__module__, engine.__name__), modules, files)


def _packed(data: bytes) -> str:
    return base64.b85encode(zlib.compress(data, 9)).decode("ascii")


def _file_entry(path: str) -> tuple[str, str]:
    """A file the agent carries, read as a regular file of a network's size at most."""
    try:
        handle, size = open_regular(path)
    except UnreadableFile as error:
        raise ValueError(str(error)) from None
    with handle:
        if size > MAX_NETWORK_BYTES:
            raise ValueError(f"{path}: too large to carry (over {MAX_NETWORK_BYTES:,} bytes)")
        return os.path.basename(path), _packed(handle.read())


def _render(
    spec: EngineSpec,
    engine: tuple[str, str],
    modules: list[Carried],
    files: dict[str, tuple[str, str]],
) -> str:
    module_lines = "".join(
        f"    {m.name!r}: ({m.package}, {_packed(m.source.encode('utf-8'))!r}),\n" for m in modules
    )
    file_lines = "".join(
        f"    {setting!r}: ({name!r}, {data!r}),\n" for setting, (name, data) in files.items()
    )
    return TEMPLATE.format(
        spec=str(spec),
        name=spec.name,
        engine=engine,
        count=len(modules),
        modules="{\n" + module_lines + "}",
        files="{\n" + file_lines + "}" if files else "{}",
    )


TEMPLATE = '''"""A Kaggle ConnectX agent: c4tui's engine {spec!r}, written by `c4tui connectx`.

It needs only Python's standard library: the {count} modules of c4tui it uses are inside,
compressed, and imported from here (pure Python; the C kernels stay behind), with any
file the engine needs. Kaggle calls `agent`, the file's last function.
"""

import base64 as _base64
import importlib.abc as _abc
import importlib.util as _util
import os as _os
import sys as _sys
import tempfile as _tempfile
import zlib as _zlib

SPEC = {spec!r}
# name: (a package?, its source: zlib-compressed, base85)
_MODULES = {modules}
# the spec's setting: (the file's name, its bytes: zlib-compressed, base85)
_FILES = {files}


def _unpack(text):
    return _zlib.decompress(_base64.b85decode(text))


class _Carried(_abc.MetaPathFinder, _abc.Loader):
    """Imports the modules above, ahead of any c4tui installed where the agent runs."""

    def find_spec(self, name, path=None, target=None):
        if name not in _MODULES:
            return None
        return _util.spec_from_loader(name, self, is_package=_MODULES[name][0])

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        source = _unpack(_MODULES[module.__name__][1]).decode("utf-8")
        exec(compile(source, "<agent: " + module.__name__ + ">", "exec"), module.__dict__)


_sys.meta_path.insert(0, _Carried())

from c4tui.engine.external.kaggle_agent import ConnectXPlayer as _Player  # noqa: E402
from c4tui.engine.players import specs as _specs  # noqa: E402

# The engine's entry in the registry (one registered at run time is not in its source).
_specs.ENGINES.setdefault({name!r}, {engine!r})


def _spec():
    """SPEC, its files' settings pointed at copies written where the agent runs."""
    if not _FILES:
        return SPEC
    folder = _tempfile.mkdtemp(prefix="c4tui-agent-")
    paths = {{}}
    for setting, (name, data) in _FILES.items():
        paths[setting] = _os.path.join(folder, name)
        with open(paths[setting], "wb") as file:
            file.write(_unpack(data))
    return str(_specs.parse_spec(SPEC).replace(**paths))


_player = _Player(_spec())


def agent(observation, configuration):
    return _player.move(observation, configuration)
'''
