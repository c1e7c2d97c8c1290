"""What the lobby shows of a cash table, and when an empty one closes (issue #25).

A player choosing a cash table looks at its game and stakes, the buy-ins, the
seats free, the average pot and how many hands an hour it deals (as on any
good site's cash lobby).  The last two are measured from the table's own
hands: the fold keeps a small :class:`HandStats` (the last
:data:`AVERAGE_HANDS` final pots, and the hands of the last hour of play) in
the table's state as each hand is dealt and ends, so a summary costs nothing
and a table rebuilt from its log (a restart, a new owner) shows the same
numbers: nobody rereads the log per request.

An empty cash table (nobody seated) is closed after ``cash_idle_seconds``:
the table writes a ``close`` entry itself (table/timers.py asks
the game's ``close_at``: ``CashGame.close_at``), which the fold accepts only while no seat is taken, so a
closed table holds no chip (the ledger check, C9) and its replay is exact.
Pure: no I/O, no clock; times come from the entries.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from freezeout.rules.cashconfig import CashConfig
from freezeout.rules.events import PotAwarded, RakeTaken
from freezeout.rules.variant import Variant
from freezeout.server.table.cashwait import waitlist_json

if TYPE_CHECKING:
    from freezeout.server.table.cash import CashGame
    from freezeout.server.table.state import TableState

__all__ = ["AVERAGE_HANDS", "HandStats", "cash_fields", "cash_level", "cash_stakes"]

AVERAGE_HANDS = 50  # the average pot is over this many last hands
HOUR = 3600.0
# A rate over less than this much play is measured over this much: one quick hand (a fold
# in the big blind) is not a table dealing a thousand hands an hour.
MIN_SPAN = 60.0


@dataclass(frozen=True, slots=True)
class HandStats:
    """A cash table's recent hands, as its fold saw them: ``pots`` the final pots of the last
    :data:`AVERAGE_HANDS` hands; ``hands`` the (dealt at, ended at) of the hands that ended
    within an hour of the last one; ``dealt_at`` when the hand in progress was dealt."""

    pots: tuple[int, ...] = ()
    hands: tuple[tuple[float, float], ...] = ()
    dealt_at: float | None = None
    count: int = 0  # hands ended at this table (the lobby record changes with it)

    def dealt(self, at: float) -> HandStats:
        return HandStats(self.pots, self.hands, at, self.count)

    def ended(self, at: float, pot: int) -> HandStats:
        dealt = self.dealt_at if self.dealt_at is not None else at
        hands = (*(h for h in self.hands if h[1] > at - HOUR), (dealt, at))
        return HandStats((*self.pots, pot)[-AVERAGE_HANDS:], hands, None, self.count + 1)

    @property
    def avg_pot(self) -> int:
        """The mean final pot of the last :data:`AVERAGE_HANDS` hands (0 before any), whole chips."""
        return round(sum(self.pots) / len(self.pots)) if self.pots else 0

    @property
    def hands_per_hour(self) -> int:
        """Hands an hour over the last hour of play (0 before any): the hands that ended within
        an hour of the last one, over that hour (a table that has played less than an hour:
        over the time from its first hand's deal to the last one's end, at least :data:`MIN_SPAN`)."""
        if not self.hands:
            return 0
        younger = self.count == len(self.hands)  # no hand has fallen out of the hour
        span = min(HOUR, max(MIN_SPAN, self.hands[-1][1] - self.hands[0][0])) if younger else HOUR
        return round(len(self.hands) * HOUR / span)


def after_move(stats: HandStats, was_in_hand: bool, in_hand: bool, at: float, events: Iterable[object]) -> HandStats:
    """The stats after a deal or a move at ``at`` (the fold calls this at a cash table): a hand
    dealt notes its time, a hand ended its final pot (what the pots awarded, plus the rake)."""
    if not was_in_hand and in_hand:
        return stats.dealt(at)
    if was_in_hand and not in_hand:
        pot = sum(e.amount for e in events if isinstance(e, (PotAwarded, RakeTaken)))
        return stats.ended(at, pot)
    return stats


def cash_level(config: CashConfig, variant: Variant) -> dict[str, int]:
    """The forced bets and bet sizes of ``variant``'s hands at a cash table of ``config``, as
    the deal posts them (``CashConfig.level``, V18, V19), only the non-zero ones — the same
    shape as a freezeout's ``level`` (table/gameinfo.py): ``{"small_blind": 10, "big_blind":
    20}`` in no-limit hold'em, ``{..., "small_bet": 20, "big_bet": 40}`` in limit hold'em,
    ``{"ante": 2, "bring_in": 5, "small_bet": 20, "big_bet": 40}`` in stud."""
    return {key: value for key, value in config.level(variant)._asdict().items() if value}


def cash_stakes(config: CashConfig, variant: Variant) -> dict[str, int]:
    """The one statement of a cash table's stakes (issue #31 item 7), which the lobby, the
    table's view (its header) and its hand history all carry: the table's blinds
    (``small_blind``, ``big_blind``: what the table was opened with, the stakes every game of
    a mix takes its own from), and the current game's own (:func:`cash_level`): a fixed-limit
    game's ``small_bet`` and ``big_bet``, stud's ``ante`` and ``bring_in`` with its bets.
    The page says blinds for blind games, small/big bet for limit games, and ante, bring-in
    and bets for stud, from these fields alone."""
    small, big = config.blinds
    stakes = {"small_blind": small, "big_blind": big}
    level = cash_level(config, variant)
    for key in ("ante", "bring_in", "small_bet", "big_bet"):
        if key in level:
            stakes[key] = level[key]
    return stakes


def move_options(game: Any) -> dict[str, Any]:
    """What must be the same at a table a broken table's players move to (C14, rules/breaking.py):
    the game and everything its ``create`` entry states but the seats (stakes, buy-ins, rake,
    straddles, run it twice, the muck rule), as one value the room compares."""
    return dict(game.spec.to_json())


def cash_fields(state: TableState, game: CashGame) -> dict[str, Any]:
    """A cash table's lobby fields (docs/protocol.md "Cash tables"): ``stakes`` (:func:`cash_stakes`
    of the game the table deals now, as its view says them), ``level`` (:func:`cash_level`),
    ``buy_in`` (min, max), ``seats_free``, ``avg_pot`` and ``hands_per_hour``."""
    config = game.table.config
    stats = state.hand_stats
    return {"stakes": cash_stakes(config, game.variant), "level": cash_level(config, game.variant),
            "buy_in": {"min": config.min_buy_in, "max": config.max_buy_in},
            "seats_free": sum(not slot.taken for slot in state.slots),
            "avg_pot": stats.avg_pot, "hands_per_hour": stats.hands_per_hour,
            "public": not state.private, "options": move_options(game), "waitlist": waitlist_json(game),
            "short_since": game.short_since}
