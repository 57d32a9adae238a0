"""Everything that runs in the `c4tui serve` process, in layers (each imports only the
ones below it; pyproject.toml's contracts check it):

serving.py  `c4tui serve` as one object: the service and the fronts, started and
            stopped together
fronts/     ssh (asyncssh, a PTY and a confined client process per session), web
            (textual-serve) and the bot API; the fronts' limits; the fork server
service/    the Unix socket the clients speak to, and their requests, each checked
            against its room and done or refused; other servers' clients (stand-ins)
desks/      matchmaking, challenges, tournaments, bots, people: the desks that put
            players into rooms and keep the community's results
rooms/      rooms and who is in them: the host, one room's game and seats, keeping,
            watching, the AI seats' pool, relays to rooms other servers hold
cluster/    several servers on one PostgreSQL: the bus, heartbeats, presence, leases
store/      one store interface over SQLite and PostgreSQL, migrations, one module per
            table group
wire/       the client protocol's schema and codec, the identities the fronts hand in,
            and the client's end of the socket (the served app imports only this)

The pure rules the client shares (ratings, clocks, automatch, names) are c4tui.community.
"""
