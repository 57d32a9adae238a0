"""The room service's socket and what clients ask of it.

service.py         RoomService: the Unix socket, logins by one-time token, each connection
                   read and checked; the seam with the fronts (docs/serve-contract.md)
requests.py        what clients ask of rooms, done or refused with a reason
relay_standins.py  StandIns: clients of other servers playing or watching here
"""
