"""The learned engine's parts, UI-free; the engine itself is `players/alphazero.py`.

- `network.py`: the policy/value network in NumPy: its input planes, its file format,
  one evaluation; the networks shipped with c4tui live in `nets/`.
- `puct.py`: PUCT tree search over the network, with the solver's proven results.
- `labels.py`: positions labelled by the exact solver, made in worker processes.
- `targets.py`: what the network learns from the solver's scores, and its mistakes.
- `training.py`: training with JAX and optax (the optional `train` extra).
"""

# The kinds of games `labels.py` labels positions from (here, so that the command line
# names them without loading NumPy).
KINDS = ("random", "guided", "late", "levels", "hard")
