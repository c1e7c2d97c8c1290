"""What a cash table's entries move on the ledger (docs/ledger.md "Cash tables"), apart from
:mod:`.cash` (the game and its requests) so each stays a readable size; :mod:`.cash` names
both functions as before.

:func:`cash_transfers` turns a transition into the ledger's :class:`Transfer` rows, written
in the same transaction as the log entry (table/writer.py); :func:`holdings` is what a cash
table's log says it holds (the ledger check, storage/ledgercheck.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from freezeout.rules.errors import RulesError
from freezeout.server.gamespec import GameRefused

if TYPE_CHECKING:
    from freezeout.server.entries import LogEntry
    from freezeout.server.storage.ledger import Transfer
    from freezeout.server.table.cash import CashGame
    from freezeout.server.table.state import TableState

__all__ = ["cash_transfers", "holdings", "ledger_rows"]


def cash_transfers(old: TableState, new: TableState, entry: LogEntry, epoch: int | None) -> list[Transfer]:
    """The ledger rows ``entry`` is written with, as its new game says (``TableGame.transfers``)."""
    game = new.table_game
    return game.transfers(old, new, entry, epoch) if game is not None else []


def ledger_rows(game: CashGame, old: TableState, entry: LogEntry, epoch: int | None) -> list[Transfer]:
    """The ledger rows ``entry`` (taking ``old`` to ``new``) must be written with, in its
    transaction: a buy-in (``sit``), a top-up, the cash-outs of players who left (a ``stand``
    between hands, or the entry that ended the hand they were leaving), the hand's rake to
    the house.  The entry's own transfer id when it names one, else ``<table>.<seq>.<kind>``."""
    from freezeout.server.entries import SitEntry, TopUpEntry
    from freezeout.server.storage.ledger import HOUSE, Transfer

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


def holdings(table_id: str, entries: Sequence[LogEntry]) -> int | None:
    """What a cash table's log says it holds (``ledgercheck.TableHoldings``): the fold of its
    log, every seat's chips; None when the log is not a cash table's (or cannot be folded)."""
    from freezeout.server.table.state import Refused, initial_state, reduce

    if not entries:
        return None
    try:
        state = initial_state(entries[0])
        if state.table_game is None or state.table_game.held() is None:  # a freezeout's: no chips of the ledger's
            return None
        for entry in entries[1:]:
            state = reduce(state, entry)[0]
    except (Refused, RulesError, ValueError, KeyError):
        return None
    game = state.table_game
    return game.held() if game is not None else None
