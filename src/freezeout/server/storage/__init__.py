"""Storage: one database (SQLite or PostgreSQL, ``db`` with Alembic ``migrations``).

``store.Store`` opens one small class per job: ``tablelog`` (each table's
append-only log, the record of truth), ``users``, ``credentials``,
``sightings``, ``gamerecords`` and ``ratings``.
"""
