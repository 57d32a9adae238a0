"""Several servers on one PostgreSQL database.

bus.py, bus_postgres.py  the bus (LISTEN/NOTIFY), and LocalBus for a server alone
opening.py               a server's bus, opened
bus_rooms.py             the rooms other live servers hold
bus_servers.py           which servers are alive, by their heartbeats
presence.py              who is online on which server
room_leases.py           each room is played by one server at a time
tournament_runners.py    each tournament is run by one server at a time
"""
