"""A read of card-independent *aggression*: raising whatever one holds.

:func:`~.reads.wild_probability` recognises players who ignore their cards
by moves no card-reading player makes (free folds, absurd sizes), and
every ordinary move counts against it.  A player who simply raises at
every chance, at ordinary sizes, makes only ordinary moves, so it is never
read, and ``hard``'s models, anchored to a population of sound players,
take its raises for strength for the few hands such games last: ``medium``
(equity against a random hand, no reads) beat an always-min-raising bot
80.5 % to ``hard``'s 71.5 % (docs/bots.md).

The telling habit is re-raising.  Facing a bet or a raise, with chips to
raise and deep enough that a raise is a choice, a sound player raises back
with the top of their range — a tenth to a quarter of the time, a loose
one a little more — while a card-independent aggressor does it most of
the time.  Bayes over those decisions, with a raise :data:`RAISE_BACK`
times and a call or fold :data:`GO_ALONG` times as likely from such a
player, gives the probability that a seat raises regardless of its cards.
A player who re-raises a quarter of the time drifts away from the read
with every decision (expected log-odds −0.4 a decision), one who does it
two times in three towards it (+0.5).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final

from freezeout.bots.history import read_hand
from freezeout.rules.events import Event
from freezeout.rules.views import TableView

__all__ = ["AGGRESSOR_PRIOR", "AGGRESSOR_READ", "aggressor_probability", "aggressor_seats"]

#: Prior share of card-independent aggressors.
AGGRESSOR_PRIOR: Final = 0.1
#: From this probability on, a seat's raises are read as carrying no information.
AGGRESSOR_READ: Final = 0.8
#: Re-raise rates assumed of a card-independent aggressor and (at most) of a sound player.
_AGGRESSOR_RATE: Final = 0.7
_SOUND_RATE: Final = 0.2
RAISE_BACK: Final = _AGGRESSOR_RATE / _SOUND_RATE
GO_ALONG: Final = (1.0 - _AGGRESSOR_RATE) / (1.0 - _SOUND_RATE)
#: Effective depth (big blinds) from which raising back is a choice, not a shove or fold.
MIN_DEPTH_BB: Final = 20.0


@lru_cache(maxsize=4096)  # a few tournaments' hands; keys hold their events
def _hand_counts(events: tuple[Event, ...], seat: int) -> tuple[int, int]:
    """``(raised back, went along)`` for ``seat`` in one hand."""
    raised = along = 0
    for move in read_hand(events).moves:
        if move.seat != seat or move.forced or move.facing <= 0:
            continue
        if move.street == 0 and move.raises_before == 0:
            continue  # facing only the blinds: opening is not raising back
        if move.effective_bb < MIN_DEPTH_BB or move.chips <= move.to_match:
            continue  # short, or no chips to raise with
        if move.aggressive:
            raised += 1
        else:
            along += 1
    return raised, along


def aggressor_probability(view: TableView, seat: int) -> float:
    """Probability that ``seat`` raises back without regard to its cards."""
    hands: Iterable[Sequence[Event]] = (*view.past, view.history)
    log_odds = math.log(AGGRESSOR_PRIOR / (1.0 - AGGRESSOR_PRIOR))
    for events in hands:
        raised, along = _hand_counts(tuple(events), seat)
        log_odds += raised * math.log(RAISE_BACK) + along * math.log(GO_ALONG)
    return 1.0 / (1.0 + math.exp(-max(min(log_odds, 50.0), -50.0)))


def aggressor_seats(view: TableView, seats: Iterable[int]) -> frozenset[int]:
    """Those of ``seats`` read as raising regardless of their cards."""
    return frozenset(seat for seat in seats if aggressor_probability(view, seat) >= AGGRESSOR_READ)
