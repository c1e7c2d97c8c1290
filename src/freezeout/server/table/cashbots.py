"""Who may sit, stay and be dealt at a cash table where bots sit: the one place that decides it
(docs/ledger.md "Bots at cash tables"; issue #31 item 1).

Pure functions of the cash game (:class:`~.cash.CashGame`, which knows its bots' seats:
``bot_seats``, kept by the fold from the seats' slots):

* :func:`bots_welcome` — ``play``, ``wait`` or ``leave``: whether bots may sit down and play,
  must wait (humans are seated, none plays: sitting out still counts as seated, C3), or go;
* :func:`can_deal` — the table's deal: never a hand of bots alone;
* :func:`add_bot_refusal` — why "Add bot" cannot seat a bot now (the view says it before the
  player asks, the room refuses with the same words);
* :func:`run_twice_refusal` — why running it twice is not offered to a seat (C7);
* :func:`cash_bot_due` — the bots' next seat change (sit, top up, sit in, leave), and
  :func:`cash_bot_deadline` when a lone human's wait for bots runs out;
* :func:`check_add_bot` — whether a player may ask for a bot now.

The cash game answers the table's bot hooks with these (``TableGame.may_deal``,
``bot_seat_change``, ``bots_wake_at``, ``check_add_bot``); :mod:`.bots` (when bots move,
what they play, and the entries and stakes of their seat changes) asks the game, never
which format it holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from freezeout.rules.cash import Status
from freezeout.rules.cashoffers import run_twice_open
from freezeout.server.entries import CashSeatEntry, SitEntry, Slot, StandEntry, TopUpEntry
from freezeout.server.gamespec import CashOptions
from freezeout.server.table.commands import Refused

if TYPE_CHECKING:
    from freezeout.server.storage.users import UserRow
    from freezeout.server.table.cash import CashGame
    from freezeout.server.table.state import TableState

__all__ = [
    "BotEntry",
    "CashBotMove",
    "add_bot_refusal",
    "bot_entry",
    "bots_welcome",
    "can_deal",
    "cash_bot_deadline",
    "cash_bot_due",
    "check_add_bot",
    "fill_target",
    "run_twice_refusal",
]


def fill_target(seats: int) -> int:
    """How many players bots fill a cash table of ``seats`` to: one seat stays free for the next
    human (so at most ``seats - 1`` bots), but a heads-up table gets its one bot."""
    return max(2, seats - 1)


def bots_welcome(game: CashGame) -> str:
    """``play`` while a human plays (seated with chips, or in the hand; not sitting out, not
    leaving; waiting for the big blind counts): bots may sit down, and hands are dealt, the
    bots' included; ``wait`` while humans are seated but none plays (sitting out, C3, or out of
    chips): the bots stay seated, nobody new sits, no hand is dealt among bots alone;
    ``leave`` when no human is seated (or every one leaves): the bots go.  (A freezeout's bots
    always play: it has no such hook.)"""
    cash = game
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


def can_deal(game: CashGame) -> bool:
    """Whether a cash table's next hand can be committed and dealt (``TableGame.may_deal``): the
    rules' answer (two players with chips who are not sitting out) and, where bots sit, a human
    who plays (:func:`bots_welcome`): never a hand of bots alone."""
    return game.can_deal and (not game.bot_seats or bots_welcome(game) == "play")


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


# -- when bots sit down, top up and leave (the table's bots.py writes the entries) ----------
@dataclass(frozen=True, slots=True)
class CashBotMove:
    """A bot's seat change at a cash table: ``sit`` (a new bot of ``level`` at ``seat``),
    ``top_up`` (``chips`` more), ``sit_out``, ``sit_in`` or ``leave`` (cash out; at the end
    of the hand when the bot is dealt in)."""

    kind: str
    seat: int
    chips: int = 0
    level: str | None = None


def _bots(state: TableState) -> list[int]:
    return [index for index, slot in enumerate(state.slots) if slot.taken and slot.kind == "bot"]


def cash_bot_due(game: CashGame, state: TableState, now: float, *, asked: str | None = None,
                 fill_after: float | None = None, level: str | None = None) -> CashBotMove | None:
    """The bots' next seat change at a cash table, in this order (who may stay and play:
    :func:`bots_welcome`, the one place that decides it):

    1. no human is seated (or every one leaves): every bot leaves — bots never play each
       other for ever;
    2. humans are seated but none plays (sitting out, C3, or out of chips): the bots stay
       seated and wait — no hand is dealt among bots alone (:func:`can_deal`) — and play
       again as soon as a human does; a bot sitting out (an older table's) sits in then;
    3. the table is full and has more players than :func:`fill_target`: a bot not in the hand
       leaves to make room for the human who may come;
    4. a bot below half the maximum buy-in and not in the hand tops up to the maximum (C2: a
       rebuy when it lost everything);
    5. a human plays, a seat is free, the table has fewer than :func:`fill_target` players and
       either bots sit here already, a bot was ``asked`` for, or the human has been alone for
       ``fill_after`` seconds since the table last changed (None: never by itself): a bot of
       ``asked`` (else the level of the bots here, else ``level``) buys in for the maximum
       (C3: at least what it left with).

    None when nothing is due."""
    table = game.table
    bots = [seat for seat in _bots(state) if not game.is_leaving(seat)]
    dealt = set(table.hand_seats) if game.in_hand else set()
    welcome = bots_welcome(game)
    if welcome == "leave":
        return CashBotMove("leave", bots[0]) if bots else None
    if welcome == "wait":
        return None
    for seat in bots:
        held = table.seats[seat]
        if held is not None and held.status in (Status.SITTING_OUT, Status.AWAY):
            return CashBotMove("sit_in", seat)
    taken = sum(1 for slot in state.slots if slot.taken)
    if taken == state.size and taken > fill_target(state.size):
        for seat in bots:
            if seat not in dealt:
                return CashBotMove("leave", seat)
    high = table.config.max_buy_in
    for seat in bots:
        held = table.seats[seat]
        if held is None or seat in dealt:
            continue
        if held.stack * 2 < high:
            return CashBotMove("top_up", seat, high - held.stack)
    offered = set(game.waitlist.line.offered_seats)  # C13: a seat offered from the waiting list is its player's
    if game.waitlist.line.queue and not offered:
        return None  # C13: players wait for this table's seats: a bot takes none
    free = _bot_places(state, game, now)
    if not free or taken >= fill_target(state.size) or len(_bots(state)) >= state.size - 1:
        return None
    alone = fill_after is not None and taken == 1 and now >= state.last_at + fill_after
    if not (bots or asked or alone):
        return None
    chosen = asked or next((state.slots[seat].bot for seat in bots if state.slots[seat].bot), None) or level
    if chosen is None:
        return None
    return CashBotMove("sit", free[0], 0, chosen)


def cash_bot_deadline(game: CashGame, state: TableState, fill_after: float | None = None) -> float | None:
    """When a wait runs out by itself: a lone human's for bots (``fill_after``); the actor
    sleeps until then.  (Bots wait for a human who sits out for as long as they are seated.)"""
    if fill_after is None or _bots(state):
        return None
    taken = sum(1 for slot in state.slots if slot.taken)
    if taken == 1 and bots_welcome(game) == "play":
        return state.last_at + fill_after
    return None


def _bot_places(state: TableState, game: CashGame, now: float) -> list[int]:
    """The free places a bot may take at a cash table: not one offered from the waiting list
    (C13), nor one a private table's creator holds for a named account (issue #37, server/guestbook.py)."""
    kept = set(game.waitlist.line.offered_seats)
    if state.private:
        kept |= state.guests.held_slots(now)
    return [index for index, slot in enumerate(state.slots) if not slot.taken and index not in kept]


def check_add_bot(game: CashGame, state: TableState, user: UserRow, level: str, offered: tuple[str, ...],
                  now: float = 0.0) -> None:
    """Whether ``user`` may ask for a bot of ``level`` at this cash table now (:class:`Refused`
    says why not): a bot that plays the table's game, for a human seated here (or the table's
    creator while a human plays), with a free seat and the table below
    :func:`fill_target` (:func:`add_bot_refusal`, as the view says it)."""
    if level not in offered:
        raise Refused("illegal", f"the {level} bot does not play this table's game; choose from {', '.join(offered)}")
    refusal = add_bot_refusal(game, offered)  # what the view's ``add_bot`` says (below)
    if refusal is not None and refusal[0] != "no_seat":
        raise Refused("illegal", refusal[1])
    if state.slot_of_user(user.id) is None and state.created_by != user.id:
        raise Refused("forbidden", "only a player at this table or its creator adds bots")
    if refusal is not None:
        raise Refused("illegal", refusal[1])
    if not _bot_places(state, game, now):
        raise Refused("illegal", "no seat for a bot: every free seat is held for a player")


#: The entry of a bot's seat change: a buy-in, a top-up, a leave or a sit-out/in.
BotEntry = SitEntry | TopUpEntry | StandEntry | CashSeatEntry


def bot_entry(game: CashGame, move: CashBotMove, now: float, bot: Slot | None) -> BotEntry:
    """The entry that makes ``move`` (``TableGame.bot_entry``): a bot leaving in a hand it is
    dealt in cashes out at the hand's end; a new bot (``bot``: its account and name, found by
    the table's bots.py) buys in for the maximum (C3: at least what it left with; a bot by name)."""
    if move.kind == "leave":
        dealt = game.in_hand and move.seat in game.table.hand_seats
        return StandEntry(move.seat, chips=None if dealt else game.table.current_stacks()[move.seat])
    if move.kind in ("sit_out", "sit_in"):
        return CashSeatEntry(move.kind, move.seat)
    if move.kind == "top_up":
        return TopUpEntry(move.seat, move.chips)
    if bot is None or bot.name is None:
        raise Refused("illegal", "a bot sits down with an account and a name")
    return SitEntry(move.seat, bot, chips=game.table.buy_in_range(bot.name, now)[1], post=True)
