"""Build of c4tui's optional C kernels; everything else is in pyproject.toml.

The extension is optional: where no C compiler works (or the code does not compile,
as with MSVC, which has no 128-bit integers), the install still succeeds and c4tui runs
its pure-Python search, which gives the same answers more slowly. `c4tui --version`
says which one is in use.
"""

import sys

from setuptools import Extension, setup

# MSVC takes its own flags; gcc and clang need C11 for the solver's code.
# The solver's second thread uses pthreads (-pthread).
FLAGS = [] if sys.platform == "win32" else ["-O2", "-std=gnu11", "-pthread"]
LINK = [] if sys.platform == "win32" else ["-pthread"]

setup(
    ext_modules=[
        Extension(
            "c4tui.engine._kernels",
            sources=[
                "c4tui/engine/kernels.c",
                "c4tui/engine/csolver.c",
                "c4tui/engine/csolver_columns.c",
                "c4tui/engine/playout.c",
            ],
            depends=["c4tui/engine/csolver.h"],
            extra_compile_args=FLAGS,
            extra_link_args=LINK,
            optional=True,
        )
    ]
)
