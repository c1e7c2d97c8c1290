"""Standing earned outside the ring (issue #32 item 6): each counted game's history row
names the other player (``opponent``) and whether that player vouched for the rating
(``vouched``, elo.vouches): a rating is established with eight distinct ones.  Rows of
before this migration get their opponent from the game's pair, and count as vouched when
the opponent is a registered account: ratings established under the rules of their day
stay established.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rating_history") as batch:
        batch.add_column(sa.Column("opponent", sa.Integer, nullable=True))
        batch.add_column(sa.Column("vouched", sa.Boolean, nullable=False, server_default=sa.false()))
    history = sa.table("rating_history", sa.column("id", sa.Integer), sa.column("user_id", sa.Integer),
                       sa.column("game_id", sa.String), sa.column("opponent", sa.Integer),
                       sa.column("vouched", sa.Boolean))
    games = sa.table("games", sa.column("id", sa.String), sa.column("pair", sa.String))
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("kind", sa.String))
    conn = op.get_bind()
    kinds = {r.id: r.kind for r in conn.execute(sa.select(users.c.id, users.c.kind)).all()}
    rows = conn.execute(sa.select(history.c.id, history.c.user_id, games.c.pair)
                        .select_from(history.join(games, games.c.id == history.c.game_id))
                        .where(games.c.pair.is_not(None))).all()
    updates = []
    for row in rows:
        ids = [int(part) for part in str(row.pair).split(":")]
        other = next((i for i in ids if i != row.user_id), None)
        if other is not None:
            updates.append({"row": row.id, "other": other, "vouch": kinds.get(other) == "user"})
    if updates:
        conn.execute(history.update().where(history.c.id == sa.bindparam("row"))
                     .values(opponent=sa.bindparam("other"), vouched=sa.bindparam("vouch")), updates)


def downgrade() -> None:
    with op.batch_alter_table("rating_history") as batch:
        batch.drop_column("vouched")
        batch.drop_column("opponent")
