"""The room service of `c4tui serve`: rooms, seats, spectators, the AI seats' searches,
the state directory, and the protocol its client processes speak (UI-free)."""
