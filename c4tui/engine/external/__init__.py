"""Engines from outside and our engines for outside: the engine protocol and its adapters.

- `protocol.py`: the lines of our engine protocol (docs/engine-protocol.md), both ways;
- `server.py`: a built-in engine served over that protocol (`c4tui engine SPEC`);
- `child.py`: an outside program as a child process in its own process group;
- `leftovers.py`: what such a program left running out of its group's reach, killed;
- `outside.py`: what every outside engine shares: its budget, its faults, its process;
- `protocol_engine.py`, `fourinarow.py`, `connectx.py`: the three kinds of outside
  engine (`cmd:`, `fourinarow:`, `connectx:` specs), the last with its runner script
  `connectx_runner.py`; `agent_file.py` writes our engines as a ConnectX agent.
"""
