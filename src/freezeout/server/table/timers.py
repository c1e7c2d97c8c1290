"""What a table must do by itself, and when (R15, R26, R27, R29, R30).

Pure functions of the table state, the presence of its players and the
time: the actor asks :func:`due` what is due now and :func:`next_deadline`
how long it may sleep.  Keeping this apart from the actor makes every clock
rule a plain function a test can read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from freezeout.server.settings import Settings
from freezeout.server.table.state import TableState

__all__ = ["BotMove", "Close", "Commit", "Deal", "Due", "End", "Forfeit", "ForfeitReason", "Lapse", "Rematch", "Start",
           "TopUp", "clock_json", "close_at", "due", "next_deadline"]


@dataclass(frozen=True, slots=True)
class Start:
    """A game starts: the table is full, or every seat accepted the rematch."""


@dataclass(frozen=True, slots=True)
class Commit:
    """The next hand's deck is committed (its digest written before the deal)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """The next hand is dealt (the pause after the last one is over, R30)."""


@dataclass(frozen=True, slots=True)
class End:
    """The game is over: its end entry (results, ratings) is written."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """The bot in ``seat`` accepts the rematch."""

    seat: int


@dataclass(frozen=True, slots=True)
class BotMove:
    """The bot in ``seat`` moves (its thinking time is over)."""

    seat: int


ForfeitReason: TypeAlias = Literal["offline", "inactivity", "dont_wait"]


@dataclass(frozen=True, slots=True)
class Forfeit:
    """``seat`` times out (R26, R29) for ``reason``; a ``dont_wait`` names the bot's seat
    that pressed Don't wait, ``by``."""

    seat: int
    reason: ForfeitReason
    by: int | None = None


@dataclass(frozen=True, slots=True)
class TopUp:
    """A cash seat's auto top-up (C2), between hands."""

    seat: int


@dataclass(frozen=True, slots=True)
class Lapse:
    """C13: a seat offered from a cash table's waiting list was not taken in time."""


@dataclass(frozen=True, slots=True)
class Close:
    """An empty cash table closes (table/cashlobby.py)."""


Due: TypeAlias = Start | Commit | Deal | End | Rematch | BotMove | Forfeit | TopUp | Lapse | Close
"""A step the table takes by itself: one frozen value per kind, each with the fields it needs."""


def _bot_seats(state: TableState) -> list[int]:
    return [seat for seat in range(len(state.players)) if state.seat_slot(seat).kind == "bot"]


def due(state: TableState, now: float, settings: Settings, *, online: Callable[[int], bool],
        bot_due: Callable[[int], float]) -> Due | None:
    """The first step due at ``now``, in the order the table must take them."""
    lapse = state.table_game.offer_lapse_at() if state.table_game is not None else None  # C13: an offer ran out
    if lapse is not None and now >= lapse:
        return Lapse()
    if (closing := close_at(state, settings)) is not None:  # an empty cash table closes (table/cashlobby.py)
        return Close() if now >= closing else None
    t = state.table_game
    if t is None:
        return Start() if state.full else None
    if state.needs_end:
        return End()
    if state.ended:
        for seat in _bot_seats(state):
            if seat not in state.rematch:
                return Rematch(seat)
        return Start() if len(state.rematch) == len(state.players) else None
    if state.needs_commit:
        return Commit()
    topped = state.table_game.top_up_due() if state.table_game is not None else None
    if topped is not None:  # C2: between hands, before the next deal
        return TopUp(topped)
    deal_at = state.deal_due(settings.pause_seconds)
    if deal_at is not None:
        return Deal() if now >= deal_at else None
    seat = t.to_act
    if seat < 0:
        return None
    if state.seat_slot(seat).kind == "bot":
        return BotMove(seat) if now >= bot_due(seat) else None
    deadline = state.act_deadline(settings.turn_seconds)  # R26 acts once the clock and the time bank (C11) ran out
    present = online(seat) or now >= state.grace_until  # offline within a restart's grace: not forfeited
    if now >= deadline and not online(seat) and present:  # R26: offline and late: forfeit at once
        return Forfeit(seat, "offline")
    if now >= state.turn_started + settings.inactivity_seconds:  # R29
        return Forfeit(seat, "inactivity")
    bots = [b for b in _bot_seats(state) if b != seat and t.alive[b]]
    if bots and present and now >= deadline + settings.dont_wait_bot_seconds:  # R26: the bot presses Don't wait
        return Forfeit(seat, "dont_wait", bots[0])
    return None


def next_deadline(state: TableState, settings: Settings, *, online: Callable[[int], bool],
                  bot_due: Callable[[int], float]) -> float | None:
    """When the table next has something to do by itself (None: only a command can wake it)."""
    lapse = state.table_game.offer_lapse_at() if state.table_game is not None else None  # C13
    rest = _next_deadline(state, settings, online=online, bot_due=bot_due)
    return rest if lapse is None else lapse if rest is None else min(lapse, rest)


def _next_deadline(state: TableState, settings: Settings, *, online: Callable[[int], bool],
                   bot_due: Callable[[int], float]) -> float | None:
    if (closing := close_at(state, settings)) is not None:  # an empty cash table closes (table/cashlobby.py)
        return closing
    t = state.table_game
    if t is None or state.ended:
        return None
    if state.table_game is not None and state.table_game.top_up_due() is not None:
        return state.last_at  # due now
    deal_at = state.deal_due(settings.pause_seconds)
    if deal_at is not None:
        return deal_at
    seat = t.to_act
    if seat < 0:
        return None
    if state.seat_slot(seat).kind == "bot":
        return bot_due(seat)
    deadline = state.act_deadline(settings.turn_seconds)
    grace = 0.0 if online(seat) else state.grace_until
    times = [state.turn_started + settings.inactivity_seconds]
    if not online(seat):
        times.append(max(deadline, grace))
    if any(b != seat and t.alive[b] for b in _bot_seats(state)):
        times.append(max(deadline + settings.dont_wait_bot_seconds, grace))
    return min(times)


def close_at(state: TableState, settings: Settings) -> float | None:
    """When the table closes itself (its game says: an empty cash table, table/cashlobby.py), or None."""
    t = state.table_game
    return t.close_at(state, settings.cash_idle_seconds) if t is not None else None


def clock_json(state: TableState, now: float, settings: Settings) -> dict[str, Any]:
    t = state.table_game
    to_act = t.to_act if t is not None else -1
    started = state.turn_started if to_act >= 0 else None
    deadline = state.turn_deadline(settings.turn_seconds) if started is not None else None
    # C11: at a cash table the time bank runs from the clock's deadline; R26 acts at its end
    out = state.act_deadline(settings.turn_seconds) if started is not None else None
    banked = t is not None and t.banks_time and out is not None
    deal_at = state.deal_due(settings.pause_seconds)
    # R30: a finished hand's result stays on the table until then (the game's last hand too)
    shown = state.hand_ended_at is not None and t is not None and not t.in_hand
    return {
        "now": now,
        "to_act": to_act,
        "turn_started": started,
        "turn_deadline": deadline,
        "bank_deadline": out if banked else None,
        "expired": out is not None and now >= out,
        "inactivity_deadline": started + settings.inactivity_seconds if started is not None else None,
        "next_hand_at": deal_at,
        "grace_until": state.grace_until if state.grace_until > now else None,
        "result_until": state.hand_ended_at + settings.pause_seconds if shown and state.hand_ended_at is not None else None,
    }
