"""Hardening (issue #10): case- and Unicode-insensitive unique names, API tokens
that expire and can be listed and revoked, and what the Elo rules need to know
about a ranked game (the pair of accounts, and why it was not rated).

Revision ID: 0002
Revises: 0001
"""

import time
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TOKEN_DAYS = 90  # tokens made before this migration expire this long after it


def _key(name: str) -> str:
    """As ``freezeout.server.accounts.name_key`` (kept here: a migration never changes)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def upgrade() -> None:
    op.add_column("users", sa.Column("name_key", sa.String(80), nullable=True))
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("name_key", sa.String))
    conn = op.get_bind()
    taken: set[str] = set()
    # The oldest account keeps a name; a later one that differs only by case (both could
    # register before) keeps its exact spelling for log-in but not the shared key.
    for row in conn.execute(sa.select(users.c.id, users.c.name).order_by(users.c.id)).all():
        key = _key(row.name)
        if key in taken:
            key = f"{key}#{row.id}"
        taken.add(key)
        conn.execute(users.update().where(users.c.id == row.id).values(name_key=key))
    # Left nullable in the schema (SQLite cannot tighten a column of a referenced table in
    # place); every account gets its key from Store.create_user.
    op.create_index("ix_users_name_key", "users", ["name_key"], unique=True)

    op.add_column("api_tokens", sa.Column("label", sa.String(64), nullable=False, server_default=""))
    op.add_column("api_tokens", sa.Column("expires_at", sa.Float, nullable=True))
    op.add_column("api_tokens", sa.Column("last_used_at", sa.Float, nullable=True))
    tokens = sa.table("api_tokens", sa.column("expires_at", sa.Float))
    conn.execute(tokens.update().values(expires_at=time.time() + TOKEN_DAYS * 86400))
    op.create_index("ix_api_tokens_user_id", "api_tokens", ["user_id"])
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])

    op.add_column("games", sa.Column("pair", sa.String(32), nullable=True))  # ranked: "low id:high id"
    op.add_column("games", sa.Column("unrated", sa.String(16), nullable=True))  # ranked but not rated: why
    op.create_index("ix_games_pair", "games", ["pair", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_games_pair", "games")
    op.drop_column("games", "unrated")
    op.drop_column("games", "pair")
    op.drop_index("ix_sessions_user_id", "sessions")
    op.drop_index("ix_api_tokens_user_id", "api_tokens")
    for column in ("last_used_at", "expires_at", "label"):
        op.drop_column("api_tokens", column)
    op.drop_index("ix_users_name_key", "users")
    op.drop_column("users", "name_key")
