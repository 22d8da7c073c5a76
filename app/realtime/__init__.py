"""The live wire: websockets, their frames and the fan-out between processes (docs/wire.md).

``protocol`` (the frames), ``connection`` (one socket), ``presence`` (who is connected, here
and in the other processes), ``hub`` (this process's sockets and what they are sent),
``socket`` (the route and the handling of each client frame), ``fanout`` (PostgreSQL
LISTEN/NOTIFY between processes). Frames only: the match rules are app.matches's.
"""
