"""Alembic environment: runs on the connection the server hands over."""

from __future__ import annotations

from alembic import context

from freezeout.server.storage.db import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations through freezeout.server.storage.db.run_migrations")
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
