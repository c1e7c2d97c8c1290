"""Names (issues #21-8, #23-7): a display name a player chooses, and every name an
account has gone by with its look-alike fold, so that a new name is checked against
all of them (``AIice`` beside ``Alice``) and a profile finds games played under an
earlier name.

Revision ID: 0004
Revises: 0003
"""

import re
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_ALIKE = str.maketrans({"1": "l", "i": "l", "|": "l", "!": "l", "0": "o", "5": "s"})
_SEPARATORS = re.compile(r"[\s_\-.'’·]+")


def _fold(name: str) -> str:
    """As ``freezeout.server.accounts.confusable_key`` on the day of this migration."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = _SEPARATORS.sub("", text).translate(_ALIKE)
    for pair, one in (("rn", "m"), ("vv", "w"), ("cl", "d")):
        while pair in text:
            text = text.replace(pair, one)
    return text


def upgrade() -> None:
    op.add_column("users", sa.Column("display", sa.String(64), nullable=True))
    op.create_table(
        "user_names",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("name", sa.String(64), nullable=False, unique=True),  # one account's, for good
        sa.Column("fold", sa.String(80), nullable=False, index=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("kind", sa.String),
                     sa.column("created_at", sa.Float))
    names = sa.table("user_names", sa.column("user_id", sa.Integer), sa.column("name", sa.String),
                     sa.column("fold", sa.String), sa.column("at", sa.Float))
    conn = op.get_bind()
    # Registered accounts' names (guests' and bots' are reserved words: nobody else can take them).
    rows = conn.execute(sa.select(users.c.id, users.c.name, users.c.created_at).where(users.c.kind == "user")).all()
    if rows:
        conn.execute(names.insert(), [{"user_id": r.id, "name": r.name, "fold": _fold(r.name), "at": r.created_at}
                                      for r in rows])


def downgrade() -> None:
    op.drop_table("user_names")
    op.drop_column("users", "display")
