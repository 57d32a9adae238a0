"""The UI-free Connect Four engine: positions, games, and every opponent."""
