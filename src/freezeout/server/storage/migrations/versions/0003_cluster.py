"""Cluster foundation (issue #13): table ownership with fencing.

``table_owner`` holds one lease per table: the worker that owns it, until
when, and a fencing ``epoch`` that grows by one at every change of owner.
Every ``table_log`` entry carries its writer's epoch, and a trigger refuses
an entry whose epoch is not the owner's: the refusal is the database's, in
the inserting statement itself, so no check in Python can race a takeover.
On PostgreSQL the trigger reads the owner row ``FOR SHARE``: a takeover's
``UPDATE`` waits for every append in flight to commit, and an append after a
committed takeover sees the new epoch.  SQLite has one writer at a time, so
the same trigger without a lock gives the same guarantee.

A table that has never had an owner takes entries with a NULL epoch (one
process, no leases: ``make run``).  Owner rows are never deleted and their
epoch never decreases (also triggers), so an old epoch can never become
current again.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# The words every refusal starts with (fencing.StaleOwner recognises them), and
# PostgreSQL's SQLSTATE for them (an unassigned class, so no built-in error shares it).
STALE = "stale table owner"
SQLSTATE = "FZ001"

_POSTGRES = [
    f"""
    CREATE FUNCTION table_log_fence() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        owner_epoch bigint;
    BEGIN
        SELECT epoch INTO owner_epoch FROM table_owner WHERE table_id = NEW.table_id FOR SHARE;
        IF NEW.epoch IS DISTINCT FROM owner_epoch THEN
            RAISE EXCEPTION '{STALE}: table % is owned at epoch %, the entry carries epoch %',
                NEW.table_id, coalesce(owner_epoch::text, 'none'), coalesce(NEW.epoch::text, 'none')
                USING ERRCODE = '{SQLSTATE}';
        END IF;
        RETURN NEW;
    END $$
    """,
    "CREATE TRIGGER table_log_fence BEFORE INSERT ON table_log FOR EACH ROW EXECUTE FUNCTION table_log_fence()",
    f"""
    CREATE FUNCTION table_owner_monotonic() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            RAISE EXCEPTION '{STALE}: owner rows are never deleted (table %)', OLD.table_id USING ERRCODE = '{SQLSTATE}';
        END IF;
        IF NEW.table_id <> OLD.table_id OR NEW.epoch < OLD.epoch
                OR (NEW.worker <> OLD.worker AND NEW.epoch = OLD.epoch) THEN
            RAISE EXCEPTION '{STALE}: table % epoch % -> % (worker % -> %): an epoch only grows, a new owner gets a new one',
                OLD.table_id, OLD.epoch, NEW.epoch, OLD.worker, NEW.worker USING ERRCODE = '{SQLSTATE}';
        END IF;
        RETURN NEW;
    END $$
    """,
    "CREATE TRIGGER table_owner_monotonic BEFORE UPDATE OR DELETE ON table_owner "
    "FOR EACH ROW EXECUTE FUNCTION table_owner_monotonic()",
]

_SQLITE = [
    f"""
    CREATE TRIGGER table_log_fence BEFORE INSERT ON table_log
    WHEN NEW.epoch IS NOT (SELECT epoch FROM table_owner WHERE table_id = NEW.table_id)
    BEGIN SELECT RAISE(ABORT, '{STALE}: the entry''s epoch is not the table owner''s'); END
    """,
    f"""
    CREATE TRIGGER table_owner_no_delete BEFORE DELETE ON table_owner
    BEGIN SELECT RAISE(ABORT, '{STALE}: owner rows are never deleted'); END
    """,
    f"""
    CREATE TRIGGER table_owner_monotonic BEFORE UPDATE ON table_owner
    WHEN NEW.table_id IS NOT OLD.table_id OR NEW.epoch < OLD.epoch
        OR (NEW.worker IS NOT OLD.worker AND NEW.epoch = OLD.epoch)
    BEGIN SELECT RAISE(ABORT, '{STALE}: an epoch only grows, a new owner gets a new one'); END
    """,
]


def upgrade() -> None:
    op.add_column("table_log", sa.Column("epoch", sa.BigInteger, nullable=True))
    op.create_table(
        "table_owner",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("worker", sa.String(128), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_table_owner_expires_at", "table_owner", ["expires_at"])
    for statement in _POSTGRES if op.get_bind().dialect.name == "postgresql" else _SQLITE:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER table_owner_monotonic ON table_owner")
        op.execute("DROP TRIGGER table_log_fence ON table_log")
        op.execute("DROP FUNCTION table_owner_monotonic()")
        op.execute("DROP FUNCTION table_log_fence()")
    else:
        for trigger in ("table_owner_monotonic", "table_owner_no_delete", "table_log_fence"):
            op.execute(f"DROP TRIGGER {trigger}")
    op.drop_index("ix_table_owner_expires_at", "table_owner")
    op.drop_table("table_owner")
    op.drop_column("table_log", "epoch")
