/* The C kernels' module: the exact solver (solver.h lists its files), playout.c
 * (MCTS's random game) and mcts_tree.c (MCTS's tree walk), built by the build backend
 * when c4tui is installed (setup.py).
 *
 * The module defines no Python functions: kernels/library.py finds this file through
 * the import system and loads its C functions with ctypes, the interface the C files
 * were written and tested against. It is a real extension module so that the build
 * backend builds, names, tags and installs it like any other (platform wheels, editable
 * installs, no compiler at run time), and so that importing it is also possible.
 */
#include <Python.h>

static struct PyModuleDef kernels_module = {
    PyModuleDef_HEAD_INIT,
    "_kernels",
    "c4tui's C kernels (the solver's search, MCTS's random game and tree walk), used "
    "through ctypes by c4tui.engine.kernels.",
    0,
    NULL,
};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&kernels_module); }
