"""Look-alike folds again (issue #32-5): ``accounts.confusable_key`` now also folds the
digits and signs written for letters (3 e, 4 a, 7 t, 8 b, @ a, $ s) and Unicode
confusables by their UTS #39 skeleton, so ``8ob`` meets ``Bob``.  Every name an
account goes or went by gets its fold anew, so that a new name is checked against
the old ones under the new fold.  (Data only; the function is today's: a later change
of the fold refolds again in a migration of its own.)

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

from freezeout.server.accounts import confusable_key

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_NAMES = sa.table("user_names", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("fold", sa.String))


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.select(_NAMES.c.id, _NAMES.c.name, _NAMES.c.fold)).all()
    changed = [{"row": r.id, "new": confusable_key(r.name)} for r in rows if confusable_key(r.name) != r.fold]
    if changed:
        conn.execute(_NAMES.update().where(_NAMES.c.id == sa.bindparam("row")).values(fold=sa.bindparam("new")), changed)


def downgrade() -> None:
    """The new folds stay: the old ones compared fewer look-alikes, not other names."""
