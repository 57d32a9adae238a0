"""The fronts of `c4tui serve`: ssh and web sessions, each running its own client process.

- `ssh`: asyncssh; interactive sessions with a PTY only, everything else refused.
- `ssh_session`: one player's ssh session: its PTY and the client it runs.
- `web`: a page (`page.html`) and a websocket per browser tab, around textual-serve.
- `web_service`: a tab's client process, forked by the fork server behind textual-serve.
- `client_process`: a client's command, private directory, environment and PTY.
- `confine`: the small program that starts a client in its own session with limits.
- `session_limits`: sessions at once and per address, connection floods, timeouts.
- `idle`: ending sessions without a key press.
- `ssh_keys`: the host key and the players' keys.
- `front`: what the two fronts share: the gate where one listens, sessions started.
- `forks`, `fork_server`: the fork server that imported the client once (for
  both fronts), and its parent's side.
- `bot_api`: HTTP for programs that play with a bot token, and their event feed.
- `players`: who plays in a session; a second live session of one identity is numbered.

The seam with the room service (docs/serve-contract.md): a front establishes a `Player` (key,
name, address); the server turns it into `C4TUI_ROOMS_SOCKET` and a one-time
`C4TUI_ROOMS_TOKEN` (`RoomService.issue_token(Identity(...))`) in the client's
environment; the client, `python -m c4tui --served`, does the rest over the socket.
"""
