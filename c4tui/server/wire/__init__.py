"""The wire between a served client and the server: one declaration of every message.

protocol.py     the versioned line-delimited JSON: every message's schema
codec.py        shapes declared once as dataclasses, and the one codec that checks them
identity.py     Identity and RoomLimits, what the fronts hand the service
room_client.py  RoomClient: a client process's end of the socket (the served app's)
"""
