"""Who may sit, stay and be dealt at a cash table where bots sit: the one place that decides it
(docs/ledger.md "Bots at cash tables"; issue #31 item 1).

Pure functions of the cash game (:class:`~.cash.CashGame`, which knows its bots' seats:
``bot_seats``, kept by the fold from the seats' slots):

* :func:`bots_welcome` — ``play``, ``wait`` or ``leave``: whether bots may sit down and play,
  must wait (humans are seated, none plays: sitting out still counts as seated, C3), or go;
* :func:`can_deal` — the table's deal: never a hand of bots alone;
* :func:`add_bot_refusal` — why "Add bot" cannot seat a bot now (the view says it before the
  player asks, the room refuses with the same words);
* :func:`run_twice_refusal` — why running it twice is not offered to a seat (C7).

:mod:`.bots` (when bots sit, top up and leave, and what they play) reads these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from freezeout.rules.cash import Status
from freezeout.rules.cashoffers import run_twice_open
from freezeout.server.gamespec import CashOptions

if TYPE_CHECKING:
    from freezeout.server.table.cash import CashGame
    from freezeout.server.table.game import TableGame

__all__ = ["add_bot_refusal", "bots_welcome", "can_deal", "fill_target", "run_twice_refusal"]


def fill_target(seats: int) -> int:
    """How many players bots fill a cash table of ``seats`` to: one seat stays free for the next
    human (so at most ``seats - 1`` bots), but a heads-up table gets its one bot."""
    return max(2, seats - 1)


def _cash(game: TableGame | None) -> CashGame | None:
    from freezeout.server.table.cash import CashGame

    return game if isinstance(game, CashGame) else None


def bots_welcome(game: TableGame | None) -> str:
    """``play`` while a human plays (seated with chips, or in the hand; not sitting out, not
    leaving; waiting for the big blind counts): bots may sit down, and hands are dealt, the
    bots' included; ``wait`` while humans are seated but none plays (sitting out, C3, or out of
    chips): the bots stay seated, nobody new sits, no hand is dealt among bots alone;
    ``leave`` when no human is seated (or every one leaves): the bots go.  A freezeout's bots
    always ``play``."""
    cash = _cash(game)
    if cash is None:
        return "play"
    table = cash.table
    dealt = set(table.hand_seats) if table.in_hand else set()
    seated = False
    for index, held in enumerate(table.seats):
        if held is None or index in cash.bot_seats or cash.is_leaving(index):
            continue
        if held.status in (Status.PLAYING, Status.WAITING) and (held.stack > 0 or index in dealt):
            return "play"
        seated = True
    return "wait" if seated else "leave"


def can_deal(game: TableGame) -> bool:
    """Whether a table's next hand can be committed and dealt: the rules' answer (a cash table:
    two players with chips who are not sitting out) and, where bots sit, a human who plays
    (:func:`bots_welcome`): never a hand of bots alone."""
    cash = _cash(game)
    if cash is None:
        return True
    return cash.can_deal and (not cash.bot_seats or bots_welcome(cash) == "play")


def add_bot_refusal(game: CashGame, levels: tuple[str, ...]) -> tuple[str, str] | None:
    """Why a bot cannot be added to this cash table now, as ``(reason, message)``; None when one
    can (a bot of ``levels``, those that play the game).  Reasons: ``no_bots`` (no bot plays the
    table's game), ``no_player`` (no human plays here yet), ``no_seat`` (the table has its bots:
    one seat stays free for a player, or it is full)."""
    size = len(game.table.seats)
    if not levels:
        return "no_bots", "no bot plays this table's game"
    if bots_welcome(game) != "play":
        return "no_player", "bots sit with a human who plays: buy in (and sit in) first"
    taken = sum(1 for held in game.table.seats if held is not None)
    if taken >= fill_target(size) or len(game.bot_seats) >= size - 1:
        return "no_seat", (f"no seat for a bot: the table has its players, and one seat of {size} stays free "
                           "for a player" if taken < size else f"no seat for a bot: all {size} seats are taken")
    return None


def run_twice_refusal(game: CashGame, viewer: int | None) -> str | None:
    """Why ``viewer`` is not offered to run it twice now (C7), a reason code; None when it is:
    ``table`` (this table does not run it twice), ``game`` (a game without a board is dealt
    once), ``no_hand`` (no hand is in progress), ``not_in_pot`` (the viewer is not in this
    hand's pot), ``bots`` (a bot is in the pot: bots never agree, so the board is run once),
    ``closed`` (too late: the cards are out)."""
    table = game.table
    if not (game.spec.cash or CashOptions()).run_twice:
        return "table"
    if not game.variant.board_size:
        return "game"
    hand = table.hand
    if not table.in_hand or hand is None:
        return "no_hand"
    if viewer is None or viewer not in table.hand_seats or hand.folded[table.hand_seats.index(viewer)]:
        return "not_in_pot"
    if any(seat in game.bot_seats and not hand.folded[i] for i, seat in enumerate(table.hand_seats)):
        return "bots"
    if not run_twice_open(table, viewer):
        return "closed"
    return None
