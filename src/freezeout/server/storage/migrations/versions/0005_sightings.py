"""Sightings (issue #23 item 6): where each account was seen — a client address or a
``fz_device`` cookie, each kept only as a sha256 digest — and when last, so that a
ranked game between two accounts seen at the same address or device lately is
not rated (elo.py "Rings").

Revision ID: 0005
Revises: 0003 (independent of 0004; when both are merged, 0005 follows 0004)
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sightings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),  # "address" | "device"
        sa.Column("digest", sa.String(64), primary_key=True),  # sha256 of kind and value
        sa.Column("last_at", sa.Float, nullable=False),
    )
    op.create_index("ix_sightings_digest", "sightings", ["digest", "last_at"])


def downgrade() -> None:
    op.drop_index("ix_sightings_digest", "sightings")
    op.drop_table("sightings")
