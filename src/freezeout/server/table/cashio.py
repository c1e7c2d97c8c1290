"""A cash table's two reads of storage (the actor's steps, table/actor.py): the account's
balance for the table's own auto top-up (C2), and the broken table's log for a move (C14).

The game decides (table/cash.py); these only read what it needs, then write its entry.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from freezeout.rules.errors import RulesError
from freezeout.server.entries import CashSeatEntry, StandEntry, TopUpEntry, UnknownEntry
from freezeout.server.storage.ledger import balance_row
from freezeout.server.table.cash import game_of
from freezeout.server.table.commands import Refused

if TYPE_CHECKING:
    from freezeout.server.table.state import TableState

__all__ = ["auto_top_up", "auto_top_up_entry", "moved_chips"]


# -- the table's own auto top-up (C2): the one step that reads the balance -----------------
async def auto_top_up_entry(state: TableState, seat: int, balance: Callable[[int], Awaitable[int]]) -> Any:
    """The entry the table writes for the auto top-up due for ``seat``: a ``top_up`` of what the
    account's balance (``balance(account)``, read now) pays, up to the seat's amount — its
    ledger row rides with it as any top-up's — or, when the balance pays nothing (or not a
    rebuy's minimum), an ``auto_top_up_skipped`` the players are told of."""

    game = game_of(state)
    account = state.slots[seat].user_id
    chips = game.auto_top_up_chips(seat, await balance(account)) if account is not None else 0
    if chips <= 0:
        return CashSeatEntry("auto_top_up_skipped", seat)
    return TopUpEntry(seat, chips, auto=True)


async def auto_top_up(state: TableState, seat: int, store: Any, write: Callable[[Any], Awaitable[None]]) -> None:
    """The actor's ``top_up`` step (timers.Due): read the account's balance in ``store``'s
    database (a TableLog's engine), write the entry :func:`auto_top_up_entry` decides; if the
    balance fell meanwhile (another table's buy-in won the race: ``insufficient``), the
    top-up is skipped and said, never retried into a loop."""
    async def balance(account: int) -> int:
        async with store.engine.connect() as conn:
            row = await conn.run_sync(lambda sync: balance_row(sync, account))
        return 0 if row is None else int(row[0])

    try:
        await write(await auto_top_up_entry(state, seat, balance))
    except Refused as refusal:
        if refusal.code != "insufficient":
            raise
        await write(CashSeatEntry("auto_top_up_skipped", seat))


# -- C14: a move's one read of the broken table's log ---------------------------------------
async def moved_chips(state: TableState, account: int, source: str, seq: int, store: Any) -> tuple[int, int] | None:
    """What a ``move_in`` to this table brings (its seq and chips): entry ``seq`` of the broken
    table ``source``'s log (``store``: a TableLog, shared by every process of a cluster), when
    it is that table's ``stand`` moving ``account`` here with its chips; None otherwise.  The
    chips' ledger rows name the move (``move:<source>.<seq>``), so it is taken once."""
    try:
        entries = await store.table_entries(source, after=seq - 1, limit=1)
    except Exception as error:
        raise Refused("storage", "the broken table's log could not be read; try again") from error
    if not entries or entries[0].seq != seq:
        return None
    try:
        body = entries[0].body
    except (UnknownEntry, RulesError):
        return None
    if not isinstance(body, StandEntry) or body.moved_to != state.id or body.user != account or not body.chips:
        return None
    return seq, body.chips
