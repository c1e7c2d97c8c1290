"""The online poker room: an ASGI app composed from the pure rules core.

``app.create_app`` wires settings, storage, clock and randomness together
(design principle 8: nothing is created at import time); ``table.TableActor``
is the single owner of one table (principle 6); ``tablelog.TableLog`` (one part of ``store.Store``) writes every
accepted change before anyone is told (principle 7).
"""
