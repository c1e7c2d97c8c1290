"""Reads on opponents from what everyone at the table has seen.

A strong player does not treat every opponent alike.  Everything here is
computed from public events only — earlier hands (``view.past``) and the
current one (``view.history``) — so the same view always gives the same
read and the bots stay stateless.  Two kinds of read:

**Card-independent play** (:func:`wild_probability`).  Someone who shoves
fifty big blinds into a pot of one and a half, raises to absurd sizes, or
folds when checking is free is not choosing moves by their cards, and
their bets say nothing about their hand.  Bayes over a handful of telling
moves gives the probability that a seat plays such poker:

* a fold when a check was free (never right; timeouts are not counted);
* a deep all-in (35+ big blinds behind) with little in the pot;
* a raise to many times the bet faced, or a post-flop bet of several pots.

Every other voluntary move is weak evidence the other way, so a sound
player's rare big move is forgotten again.

**A style model** (:func:`read_opponent`).  The frequencies a strong player
tracks — how often a seat puts chips in and raises before the flop, folds
to a raise or raises again, calls an all-in, folds to small and big bets after the flop,
bets when checked to, raises a bet, and how often the bets it showed down
were weak — each as a :class:`Rate` shrunk towards a population prior
(a Beta prior worth a few observations), so three hands cannot swing a
read while thirty can.  Rates of one style (aggression, looseness) share
their evidence: the prior of each is first moved by how far the seat's
pooled rates of that style sit from the population's, itself shrunk — a
hierarchical prior, so a maniac shows as one within a few hands although
each of its rates has seen only one or two chances.  Only finished hands count, so this hand's moves
narrow ranges (:mod:`.profile_ranges`) without also moving the model.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from freezeout.bots.fold_line import FoldLine, fit_line
from freezeout.bots.history import Move, read_hand
from freezeout.bots.strength import board_strength
from freezeout.bots.thresholds import BIG_BET, KINDS, observations, raise_kind, solve_sizes
from freezeout.rules.events import Event
from freezeout.rules.views import TableView

__all__ = [
    "PRIOR",
    "STYLES",
    "WILD_PRIOR",
    "WILD_READ",
    "OpponentModel",
    "Rate",
    "Tells",
    "read_opponent",
    "shift_prior",
    "tells",
    "wild_probability",
    "wild_seats",
]

#: Prior share of card-independent players in the room.
WILD_PRIOR: Final = 0.15
#: From this probability on, a seat's moves are read as carrying no information.
WILD_READ: Final = 0.75
#: Likelihood ratios (wild : sound) of each kind of move.
_FREE_FOLD: Final = 50.0
_WILD_SIZE: Final = 20.0
_ORDINARY: Final = 0.6
#: Effective depth (big blinds) from which an all-in is a wild size.
DEEP_ALLIN_BB: Final = 35.0
#: A shown post-flop bet with a made hand below this percentile was a bluff.
BLUFF_STRENGTH: Final = 0.45


@dataclass(frozen=True, slots=True)
class Tells:
    """Counts of one seat's telling and ordinary voluntary moves."""

    free_folds: int = 0
    wild_sizes: int = 0
    ordinary: int = 0

    def probability(self) -> float:
        odds = WILD_PRIOR / (1.0 - WILD_PRIOR)
        odds *= _FREE_FOLD**self.free_folds * _WILD_SIZE**self.wild_sizes * _ORDINARY**self.ordinary
        return odds / (1.0 + odds)


def _wild_size(move: Move) -> bool:
    """A bet or raise no card-reading player makes at this depth."""
    if move.effective_bb < DEEP_ALLIN_BB and move.all_in:
        return False  # a short stack's shove is ordinary poker
    if move.street == 0:
        return move.total > max(8 * move.big_blind, 5 * move.to_match)
    return move.added > 2.5 * max(move.middle, move.big_blind)


def _hand_tells(events: Sequence[Event], seat: int) -> Tells:
    """Classify ``seat``'s voluntary moves in one hand's public events."""
    free_folds = wild_sizes = ordinary = 0
    for move in read_hand(tuple(events)).moves:
        if move.seat != seat or move.forced:
            continue
        if move.free_fold:
            free_folds += 1
        elif move.aggressive and _wild_size(move):
            wild_sizes += 1
        else:
            ordinary += 1
    return Tells(free_folds, wild_sizes, ordinary)


def tells(view: TableView, seat: int) -> Tells:
    """``seat``'s tells over the whole tournament so far."""
    total = Tells()
    hands: Iterable[Sequence[Event]] = (*view.past, view.history)
    for events in hands:
        t = _hand_tells(events, seat)
        total = Tells(
            total.free_folds + t.free_folds, total.wild_sizes + t.wild_sizes, total.ordinary + t.ordinary
        )
    return total


def wild_probability(view: TableView, seat: int) -> float:
    """Probability that ``seat`` chooses its moves without regard to its cards."""
    return tells(view, seat).probability()


def wild_seats(view: TableView, seats: Iterable[int]) -> frozenset[int]:
    """Those of ``seats`` read as card-independent players."""
    return frozenset(seat for seat in seats if wild_probability(view, seat) >= WILD_READ)


# -- the style model ----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Rate:
    """A frequency seen ``hits`` times in ``chances``, shrunk towards ``prior``
    as if ``weight`` chances had already gone the prior's way."""

    hits: float
    chances: float
    prior: float
    weight: float

    @property
    def value(self) -> float:
        return (self.hits + self.prior * self.weight) / (self.chances + self.weight)

    @property
    def confidence(self) -> float:
        """Share of the estimate that comes from observation (0 = all prior)."""
        return self.chances / (self.chances + self.weight)


#: Population priors (rate, weight in observations): a typical online
#: opponent — loose before the flop, folding a bit under half the time to bets.
PRIOR: Final[dict[str, tuple[float, float]]] = {
    "vpip": (0.5, 5.0),
    "pfr": (0.2, 5.0),
    "fold_to_raise": (0.45, 4.0),
    "fold_to_big_raise": (0.55, 4.0),
    "three_bet": (0.12, 5.0),
    "call_allin": (0.35, 4.0),
    "shove": (0.15, 6.0),
    "fold_small": (0.4, 5.0),
    "fold_big": (0.5, 5.0),
    "bet_checked_to": (0.35, 5.0),
    "raise_bet": (0.1, 6.0),
    "bluff": (0.2, 3.0),
}

_FIELDS: Final = tuple(PRIOR)
#: Frequencies that move together: +1 rises with the style, -1 falls with it.
#: One aggressive or one loose move is evidence about every rate of its group,
#: so a style shows within a few hands, long before each rate has its own data.
STYLES: Final[dict[str, dict[str, int]]] = {
    "aggression": {"pfr": 1, "three_bet": 1, "shove": 1, "bet_checked_to": 1, "raise_bet": 1, "bluff": 1},
    "looseness": {
        "vpip": 1,
        "fold_to_raise": -1,
        "fold_to_big_raise": -1,
        "call_allin": 1,
        "fold_small": -1,
        "fold_big": -1,
    },
}
#: The population's fold line slope (0: folds the same hands to any size, 1:
#: by pot odds) and how far a player may be from it (:mod:`.fold_line`).
SLOPE_PRIOR: Final = 0.25
SLOPE_SPREAD: Final = 0.5
#: Weight (decisions) of the population's level on a player's fold line: a bluff
#: risks far more than it wins, so four folds in a row must not make a player
#: who folds two times in five look like one who folds three in four.
LINE_WEIGHT: Final = 10.0
#: Weight (in observations) of the population prior on a whole style.
STYLE_WEIGHT: Final = 6.0


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1.0 - 1e-4)
    return math.log(p / (1.0 - p))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def shift_prior(prior: float, shift: float, sign: int = 1) -> float:
    """``prior`` moved by a style's log-odds ``shift`` (``sign`` -1: against it)."""
    return _sigmoid(_logit(prior) + sign * shift)


def _style_shift(counts: dict[str, tuple[float, float]], members: dict[str, int]) -> float:
    """How far (log-odds) a seat's pooled rates of one style sit from the
    population's, shrunk by :data:`STYLE_WEIGHT`; 0 with no observations."""
    hits = chances = expected = 0.0
    for name, sign in members.items():
        h, n = counts[name]
        prior = PRIOR[name][0] if sign > 0 else 1.0 - PRIOR[name][0]
        hits += h if sign > 0 else n - h
        chances += n
        expected += n * prior
    if chances <= 0:
        return 0.0
    baseline = expected / chances
    pooled = (hits + STYLE_WEIGHT * baseline) / (chances + STYLE_WEIGHT)
    return _logit(pooled) - _logit(baseline)


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """One opponent's style: every frequency shrunk towards :data:`PRIOR`
    moved by the seat's style shifts (:data:`STYLES`)."""

    hands: int
    fold_seen: float  # post-flop bets this player has been seen to fold to or call
    wild: float
    aggression: float  # log-odds shift of the aggressive rates
    looseness: float  # log-odds shift of the continuing rates
    fold_to_raise_at: float  # strength below which a preflop raise is folded (:mod:`.thresholds`)
    fold_to_big_raise_at: float  # ... a big preflop raise
    fold_line: FoldLine  # ... a post-flop bet, by its price (:mod:`.fold_line`)
    vpip: Rate
    pfr: Rate
    fold_to_raise: Rate
    fold_to_big_raise: Rate
    three_bet: Rate
    call_allin: Rate
    shove: Rate
    fold_small: Rate
    fold_big: Rate
    bet_checked_to: Rate
    raise_bet: Rate
    bluff: Rate

    def fold_to_bet(self, pot_fraction: float) -> float:
        """The strength (share of all hands beaten) below which this player
        folds to a post-flop bet of ``pot_fraction`` pots (:mod:`.fold_line`)."""
        return self.fold_line.at(pot_fraction)

    def fold_against(self, pot_fraction: float, ahead: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
        """The threshold to value a bet of ``pot_fraction`` pots with, per
        deal: the read where the bettor is behind (a bluff wins the folds the
        line gives), and where the bettor is ahead the doubtful end of the
        slope's extrapolation (:meth:`~.fold_line.FoldLine.doubt`) — more
        folds to sizes beyond those the player has been seen facing, so a
        value shove is not made on the hope that an unseen size is called as
        the line extrapolates."""
        centre = self.fold_to_bet(pot_fraction)
        valuing = centre + self.fold_line.doubt(pot_fraction)
        result: npt.NDArray[np.float64] = np.where(ahead, valuing, centre)
        return result

    def rates(self) -> dict[str, float]:
        return {name: getattr(self, name).value for name in _FIELDS}


@lru_cache(maxsize=65536)
def _hand_counts(events: tuple[Event, ...], seat: int) -> tuple[float, ...]:
    """``(hits, chances)`` per model field for ``seat`` in one finished hand."""
    record = read_hand(events)
    counts = dict.fromkeys(_FIELDS, (0.0, 0.0))

    def count(name: str, hit: bool) -> None:
        hits, chances = counts[name]
        counts[name] = (hits + hit, chances + 1.0)

    moves = [m for m in record.moves if m.seat == seat and not m.forced]
    preflop = [m for m in moves if m.street == 0]
    if preflop:
        count("vpip", any(m.added > 0 for m in preflop))
        count("pfr", any(m.aggressive for m in preflop))
    for move in preflop:
        committing = move.to_match >= 0.3 * move.chips or move.facing >= 0.3 * move.chips
        if move.raises_before == 0 and move.facing > 0:
            count("shove", move.all_in and move.aggressive)
        elif move.raises_before > 0 and committing:
            count("call_allin", move.kind != "fold")
        elif move.raises_before > 0:
            count(raise_kind(move.facing, move.middle), move.kind == "fold")
            count("three_bet", move.aggressive)
    for move in moves:
        if move.street == 0:
            continue
        if move.facing > 0:
            faced = move.facing / max(move.middle - move.facing, move.big_blind)
            count("fold_big" if faced > BIG_BET else "fold_small", move.kind == "fold")
            count("raise_bet", move.aggressive)
        else:
            count("bet_checked_to", move.aggressive)
    cards = record.cards_of(seat)
    if cards is not None:
        for move in moves:
            if move.street > 0 and move.aggressive:
                count("bluff", board_strength(record.board_at(move.street), cards) < BLUFF_STRENGTH)
    return tuple(value for name in _FIELDS for value in counts[name])


def read_opponent(view: TableView, seat: int) -> OpponentModel:
    """``seat``'s model from the finished hands of this tournament."""
    totals = np.zeros(2 * len(_FIELDS))
    hands = 0
    for events in view.past:
        totals += _hand_counts(tuple(events), seat)
        hands += read_hand(tuple(events)).seats.count(seat)
    counts = {name: (float(totals[2 * i]), float(totals[2 * i + 1])) for i, name in enumerate(_FIELDS)}
    shifts = {style: _style_shift(counts, members) for style, members in STYLES.items()}
    rates: dict[str, Rate] = {}
    for name, (hits, chances) in counts.items():
        prior, weight = PRIOR[name]
        for style, members in STYLES.items():
            if name in members:
                prior = shift_prior(prior, shifts[style], members[name])
        rates[name] = Rate(hits, chances, prior, weight)
    # Twice: the ranges the player folded from depend on the strength they
    # call with, which is what the first reading estimates.
    hands_seen = [tuple(events) for events in view.past]
    small = rates["fold_small"]
    plays, bets = rates["vpip"].value, rates["bet_checked_to"].value
    seen, postflop = observations(hands_seen, seat, plays, small.prior, bets)
    # The line's level starts at the population's, not at the style-shifted
    # fold rate: how many hands a player plays before the flop says little
    # about what they fold after it (an equity caller plays half its hands
    # and folds half its range to any bet), and its own folds are all read here.
    level0 = PRIOR["fold_small"][0]
    line = fit_line(*postflop, (level0, LINE_WEIGHT), (SLOPE_PRIOR, SLOPE_SPREAD))
    if len(postflop[0]):
        seen, postflop = observations(hands_seen, seat, plays, line.at(0.5), bets)
        line = fit_line(*postflop, (level0, LINE_WEIGHT), (SLOPE_PRIOR, SLOPE_SPREAD))
    at: dict[str, float] = {}
    solved = solve_sizes([seen[k] for k in KINDS], [rates[k].prior for k in KINDS], rates[KINDS[0]].weight)
    at.update(zip(KINDS, solved, strict=True))
    return OpponentModel(
        hands=hands,
        fold_seen=float(len(postflop[0])),
        wild=wild_probability(view, seat),
        aggression=shifts["aggression"],
        looseness=shifts["looseness"],
        fold_to_raise_at=at["fold_to_raise"],
        fold_to_big_raise_at=at["fold_to_big_raise"],
        fold_line=line,
        **rates,
    )
