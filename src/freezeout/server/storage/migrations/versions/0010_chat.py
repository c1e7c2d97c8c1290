"""Table chat, mutes, reports, chat bans and notes on players (issue #37): each in its own
table beside the tables' logs, never in them (a record or an export never holds a chat line).

``chat_messages`` holds a table's lines (the players' room, the spectators' room and the
table's own system lines), purged after 30 days; ``chat_reports`` keeps a copy of the line
reported, so a moderator still reads it after the purge.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("room", sa.String(12), nullable=False),
        sa.Column("author_id", sa.Integer, nullable=True),
        sa.Column("author", sa.String(64), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_messages_table", "chat_messages", ["table_id", "id"])
    op.create_index("ix_chat_messages_author_at", "chat_messages", ["author_id", "at"])
    op.create_index("ix_chat_messages_at", "chat_messages", ["at"])
    op.create_table(
        "chat_mutes",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("muted_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("message_id", sa.Integer, nullable=False),
        sa.Column("author_id", sa.Integer, nullable=True),
        sa.Column("author", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("said_at", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("reporter_id", "message_id", name="uq_chat_reports_once"),
    )
    op.create_index("ix_chat_reports_reporter_at", "chat_reports", ["reporter_id", "at"])
    op.create_table(
        "chat_bans",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "player_notes",
        sa.Column("author_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("subject_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("label", sa.String(12), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_notes")
    op.drop_table("chat_bans")
    op.drop_index("ix_chat_reports_reporter_at", "chat_reports")
    op.drop_table("chat_reports")
    op.drop_table("chat_mutes")
    for name in ("ix_chat_messages_at", "ix_chat_messages_author_at", "ix_chat_messages_table"):
        op.drop_index(name, "chat_messages")
    op.drop_table("chat_messages")
