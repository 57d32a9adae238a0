"""The optional C kernels: the exact solver's search and MCTS's random game and tree, in C.

Compiled when c4tui is installed, by the build backend, into the extension module
`c4tui.engine.kernels._kernels` (setup.py); the pure-Python code stays the readable
reference the C is tested against, and the fallback where no compiler worked.

- `library.py` finds the compiled file, checks it against the record the build
  wrote, and loads its functions with ctypes (or says why it could not);
- `calls.py` wraps the solver's C state for the Python solver (tables, books, stops);
- the C sources, one idea each: solver.h (the state and the rules all parts share),
  book.c, table.h and table.c, stops.c, search.c with search_body.h, columns.c,
  solver.c (making a solver), playout.c (MCTS's random game), mcts_tree.c (MCTS's
  tree walk, the twin of players/mcts_tree.py), module.c (the module); non_losing.h,
  Pons's non-losing moves, which the solver's search and the MCTS tree both use.
"""
