"""The wire between a served client and the server: one declaration of every message.

protocol.py     the versioned line-delimited JSON: the rooms' messages, the base, encode
lobby_messages.py, tournament_messages.py, matchmaking_messages.py, people_messages.py
                the other families of messages, each with its schema
kinds.py        every kind by direction, and the lines read with them
codec.py        shapes declared once as dataclasses, and the one codec that checks them
identity.py     Identity and RoomLimits, what the fronts hand the service
room_client.py  RoomClient: a client process's end of the socket (the served app's); it
                applies the lobby's diffs, so its callers get the lobby whole
"""
