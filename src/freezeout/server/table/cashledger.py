"""What a cash table's entries move on the ledger (docs/ledger.md "Cash tables"), apart from
:mod:`.cash` (the game and its requests) so each stays a readable size.

:func:`ledger_rows` is the cash game's ``TableGame.transfers``: a transition as the ledger's
:class:`Transfer` rows, written in the same transaction as the log entry (table/writer.py).
What a table's log says it holds (the ledger check) is table/chips.py's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from freezeout.server.entries import SitEntry, TopUpEntry
from freezeout.server.gamespec import GameRefused
from freezeout.server.storage.ledger import HOUSE, Transfer

if TYPE_CHECKING:
    from freezeout.server.entries import LogEntry
    from freezeout.server.table.cash import CashGame
    from freezeout.server.table.state import TableState

__all__ = ["ledger_rows"]


def ledger_rows(game: CashGame, old: TableState, entry: LogEntry, epoch: int | None) -> list[Transfer]:
    """The ledger rows ``entry`` (taking ``old`` to ``new``) must be written with, in its
    transaction: a buy-in (``sit``), a top-up, the cash-outs of players who left (a ``stand``
    between hands, or the entry that ended the hand they were leaving), the hand's rake to
    the house.  The entry's own transfer id when it names one, else ``<table>.<seq>.<kind>``."""
    from freezeout.server.storage.ledger import Transfer

    if game is old.table_game:  # an entry that changed no chips (a commit)
        return []
    table, seq, at = entry.table_id, entry.seq, entry.at

    def transfer(kind: str, account: int | None, amount: int, named: str | None = None, suffix: str = "") -> Transfer:
        if account is None:
            raise GameRefused("chips move only for an account")
        return Transfer(named or f"{table}.{seq}.{kind}{suffix}", account, kind, amount, at, table, epoch, seq)

    body = entry.body
    out: list[Transfer] = []
    if isinstance(body, SitEntry) and body.chips is not None:
        out.append(transfer("buy_in", body.player.user_id, body.chips, body.transfer))
    elif isinstance(body, TopUpEntry):
        out.append(transfer("top_up", old.slots[body.seat].user_id, body.chips, body.transfer))
    for seat, chips in game.cash_outs:
        if chips > 0:
            out.append(transfer("cash_out", old.slots[seat].user_id, chips, suffix=f".{seat}"))
    if game.raked > 0:
        out.append(transfer("rake", HOUSE, game.raked))
    return out
