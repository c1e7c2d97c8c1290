"""The online poker room: an ASGI app composed from the pure rules core.

``app.create_app`` wires settings, storage, clock and randomness together
(design principle 8: nothing is created at import time).  Sub-packages by
job: ``table`` (one actor per table and its game, principle 6),
``transport`` (HTTP and WebSocket), ``cluster`` (gateways, workers, the
bus) and ``storage`` (the database; ``storage.tablelog`` writes every
accepted change before anyone is told, principle 7).
"""
