"""Transport: HTTP (``api``, ``apihistory``, ``apiratings`` behind ``httpguard``) and the
WebSocket (``ws`` and its ``ws*`` jobs), with the wire formats (``protocol``, ``wire``).

Nothing here holds game state: a request or a message becomes a typed intent
for a table (``freezeout.server.table``) or a read of storage.
"""
