"""Build of c4tui's optional C kernels; everything else is in pyproject.toml.

The extension is optional: where no C compiler works (or the code does not compile,
as with MSVC, which has no 128-bit integers), the install still succeeds and c4tui runs
its pure-Python search, which gives the same answers more slowly. `c4tui --version`
says which one is in use.

Next to the compiled file the build writes its size and SHA-256 (`BUILD_RECORD`): a
file damaged after the build (cut short by a full disk, say) would otherwise crash
every command with SIGBUS when loaded; c4tui checks it first (kernels/library.py).
"""

import hashlib
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

KERNELS = "c4tui/engine/kernels"
BUILD_RECORD = "_kernels.build"  # kernels/library.py reads it

# MSVC takes its own flags; gcc and clang need C11 for the solver's code.
# The solver's second thread uses pthreads (-pthread).
FLAGS = [] if sys.platform == "win32" else ["-O2", "-std=gnu11", "-pthread"]
LINK = [] if sys.platform == "win32" else ["-pthread"]


class RecordedBuild(build_ext):
    """build_ext that records each built file's size and SHA-256 next to it, in the
    build directory and, for in-place (editable) builds, in the source tree."""

    def run(self) -> None:
        super().run()
        inplace = self.inplace
        try:
            for self.inplace in {0, inplace}:
                for ext in self.extensions:
                    record(Path(self.get_ext_fullpath(ext.name)))
        finally:
            self.inplace = inplace


def record(built: Path) -> None:
    if built.is_file():  # an optional extension that failed to build leaves nothing
        data = built.read_bytes()
        line = f"{built.name} {len(data)} {hashlib.sha256(data).hexdigest()}\n"
        (built.parent / BUILD_RECORD).write_text(line)


setup(
    cmdclass={"build_ext": RecordedBuild},
    ext_modules=[
        Extension(
            "c4tui.engine.kernels._kernels",
            sources=[
                f"{KERNELS}/module.c",
                f"{KERNELS}/book.c",
                f"{KERNELS}/columns.c",
                f"{KERNELS}/search.c",
                f"{KERNELS}/solver.c",
                f"{KERNELS}/stops.c",
                f"{KERNELS}/table.c",
                f"{KERNELS}/playout.c",
                f"{KERNELS}/mcts_tree.c",
            ],
            depends=[
                f"{KERNELS}/exports.h",
                f"{KERNELS}/solver.h",
                f"{KERNELS}/table.h",
                f"{KERNELS}/search_body.h",
                f"{KERNELS}/non_losing.h",
            ],
            extra_compile_args=FLAGS,
            extra_link_args=LINK,
            optional=True,
        )
    ],
)
