"""Rating families (issue #22): ranked heads-up games in every game, each counted in its
game's family (elo.family).  Every existing rating, history row and game is the house
game's, where it stays: ``users.rating`` remains the house rating, the new
``family`` columns default to ``house``, and the other families' ratings get a
table of their own.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("game", sa.String(16), nullable=True))
    op.add_column("games", sa.Column("family", sa.String(16), nullable=False, server_default="house"))
    op.add_column("rating_history", sa.Column("family", sa.String(16), nullable=False, server_default="house"))
    op.create_index("ix_rating_history_user_family", "rating_history", ["user_id", "family"])
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("ranked_games", sa.Integer, nullable=False),
    )
    op.create_index("ix_ratings_family_rating", "ratings", ["family", "rating"])


def downgrade() -> None:
    op.drop_index("ix_ratings_family_rating", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_rating_history_user_family", "rating_history")
    with op.batch_alter_table("rating_history") as batch:
        batch.drop_column("family")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("family")
        batch.drop_column("game")
