"""The play-chip ledger (C9, issue #25 step 1).

``balances`` holds one row per account that has play chips (account 0 is the
house, which receives rake); its ``CHECK (balance >= 0)`` is the database's own
refusal of a negative balance, whatever the code above it does.  ``ledger`` is
append-only (triggers refuse UPDATE and DELETE): one row per movement of chips
between a balance and a table, each with a unique ``transfer_id`` so that a
retried request cannot move chips twice.  A row that names a table carries the
table's fencing epoch, and the same trigger logic as ``table_log``'s (0003)
refuses it unless the epoch is the table owner's: a stale owner can move no
chips either.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

STALE = "stale table owner"  # the words of 0003's refusals (fencing.STALE_OWNER)
SQLSTATE = "FZ001"
APPEND_ONLY = "the ledger is append-only"

_POSTGRES = [
    f"""
    CREATE FUNCTION ledger_fence() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        owner_epoch bigint;
    BEGIN
        IF NEW.table_id IS NULL THEN
            RETURN NEW;
        END IF;
        SELECT epoch INTO owner_epoch FROM table_owner WHERE table_id = NEW.table_id FOR SHARE;
        IF NEW.table_epoch IS DISTINCT FROM owner_epoch THEN
            RAISE EXCEPTION '{STALE}: table % is owned at epoch %, the transfer carries epoch %',
                NEW.table_id, coalesce(owner_epoch::text, 'none'), coalesce(NEW.table_epoch::text, 'none')
                USING ERRCODE = '{SQLSTATE}';
        END IF;
        RETURN NEW;
    END $$
    """,
    "CREATE TRIGGER ledger_fence BEFORE INSERT ON ledger FOR EACH ROW EXECUTE FUNCTION ledger_fence()",
    f"""
    CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{APPEND_ONLY}: rows are never changed or deleted (transfer %)', OLD.transfer_id;
    END $$
    """,
    "CREATE TRIGGER ledger_append_only BEFORE UPDATE OR DELETE ON ledger FOR EACH ROW EXECUTE FUNCTION ledger_append_only()",
]

_SQLITE = [
    f"""
    CREATE TRIGGER ledger_fence BEFORE INSERT ON ledger
    WHEN NEW.table_id IS NOT NULL
        AND NEW.table_epoch IS NOT (SELECT epoch FROM table_owner WHERE table_id = NEW.table_id)
    BEGIN SELECT RAISE(ABORT, '{STALE}: the transfer''s epoch is not the table owner''s'); END
    """,
    f"""
    CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
    BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}: rows are never changed'); END
    """,
    f"""
    CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
    BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}: rows are never deleted'); END
    """,
]


def upgrade() -> None:
    op.create_table(
        "balances",
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.Column("reload_day", sa.Integer, nullable=True),
        sa.CheckConstraint("balance >= 0", name="ck_balances_not_negative"),
    )
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("transfer_id", sa.String(128), nullable=False, unique=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("balances.account_id"), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("balance_after", sa.BigInteger, nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=True),
        sa.Column("table_epoch", sa.BigInteger, nullable=True),
        sa.Column("table_seq", sa.Integer, nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.CheckConstraint("amount > 0", name="ck_ledger_amount_positive"),
        sa.CheckConstraint("balance_after >= 0", name="ck_ledger_balance_after_not_negative"),
        sa.CheckConstraint("kind IN ('grant', 'reload', 'buy_in', 'top_up', 'cash_out', 'rake')", name="ck_ledger_kind"),
        sa.CheckConstraint("(table_id IS NULL) = (kind IN ('grant', 'reload'))", name="ck_ledger_table"),
    )
    op.create_index("ix_ledger_account_id", "ledger", ["account_id", "id"])
    op.create_index("ix_ledger_table_id", "ledger", ["table_id"])
    op.execute("INSERT INTO balances (account_id, balance) VALUES (0, 0)")  # the house
    for statement in _POSTGRES if op.get_bind().dialect.name == "postgresql" else _SQLITE:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER ledger_append_only ON ledger")
        op.execute("DROP TRIGGER ledger_fence ON ledger")
        op.execute("DROP FUNCTION ledger_append_only()")
        op.execute("DROP FUNCTION ledger_fence()")
    else:
        for trigger in ("ledger_no_delete", "ledger_no_update", "ledger_fence"):
            op.execute(f"DROP TRIGGER {trigger}")
    op.drop_index("ix_ledger_table_id", "ledger")
    op.drop_index("ix_ledger_account_id", "ledger")
    op.drop_table("ledger")
    op.drop_table("balances")
