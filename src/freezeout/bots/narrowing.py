"""An opponent's range from what they did this hand, read through their model.

The same move means different things from different players: a raise from
someone who raises half their hands is a wide range, from someone who
raises one in twenty it is the top; a bet from a player whose shown bets
were often air is a call, from one who never bluffed a fold.  So each
move keeps the part of the range that *this* player makes it with:

* before the flop, a raise keeps the top ``pfr`` of the hands, a limp the
  top ``vpip`` with most of the raising hands taken out, a call of a raise
  what does not fold to raises, an all-in the top share this player shoves
  (or calls shoves) with — the stored equilibrium's share until the table
  has shown otherwise;
* after the flop, each combo has a strength on that street's board
  (:mod:`.strength`: the share of all hands it beats by the river) and a
  player is taken to act on thresholds of it, as players do ("I call with
  a pair or a draw"): a bet keeps a flat share of every hand (the bluffs,
  measured against how often a random hand would be weak, so a player who
  bets anything keeps every hand) plus the top of the range, sized so that
  the player bets as often, and bluffs as often, as their model says
  (:func:`bet_probability`); a call drops the hands below
  the share the player folds; a check takes out most of what they would
  have bet.  Thresholds are on absolute strength, not on a place in the
  range, because a range already narrowed to strong hands does not fold
  half of itself to the next bet just because its owner folds half the
  time overall.

A player read as card-independent (:func:`~.reads.wild_probability`) keeps
every hand.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from freezeout.bots.classes import CLASS_COUNT
from freezeout.bots.equity_table import load_equity
from freezeout.bots.hard_preflop import DEEP_SHOVE_BB, DEEP_SHOVE_SHARE, shove_share
from freezeout.bots.history import HandRecord, Move, read_hand
from freezeout.bots.montecarlo import live_combos
from freezeout.bots.pushfold import load_pushfold
from freezeout.bots.ranges import class_to_combos, top_range
from freezeout.bots.reads import BLUFF_STRENGTH, PRIOR, WILD_READ, OpponentModel, Rate, shift_prior
from freezeout.bots.strength import combo_strength
from freezeout.bots.thresholds import SIZE_EFFECT, raise_kind
from freezeout.rules.views import TableView

__all__ = [
    "FLOOR",
    "bet_probability",
    "call_share",
    "class_range",
    "fold_share",
    "narrow_postflop",
    "postflop_range",
    "raising_range",
    "step",
]

#: No hand is ever ruled out completely: players make mistakes, models are wrong.
FLOOR: Final = 0.02
#: Width of the soft edge between kept and dropped parts of a range.
EDGE: Final = 0.08

Weights = npt.NDArray[np.float64]


def step(strength: Weights, threshold: float) -> Weights:
    """1 above ``threshold``, 0 below, linear across :data:`EDGE`."""
    result: Weights = np.clip((strength - threshold) / EDGE + 0.5, 0.0, 1.0)
    return result


def bet_probability(strength: Weights, often: float, bluff: float) -> Weights:
    """Probability that a hand of each ``strength`` bets (or raises), for a
    player who does so ``often`` and whose bets shown down were weak hands —
    made hands below :data:`~.reads.BLUFF_STRENGTH` — a share ``bluff`` of the time.

    Weak hands bet at one flat rate that accounts for those bluffs; the rest
    of the bets come from the top of the range.  The rate is measured against
    the weak hands' own share of all hands, so a player whose bets are weak as
    often as a random hand is (a maniac betting anything) gets one flat rate
    for every hand: its bets say nothing about its cards, and reading them as
    strength would fold the best hand to every bluff.  A player who never
    bluffs bets only the top ``often`` of hands."""
    if often <= 0:
        return np.zeros_like(strength)
    flat = min(often, often * bluff / BLUFF_STRENGTH)
    if flat >= often:
        return np.full_like(strength, min(often, 1.0))
    top = min(1.0, (often - flat) / (1.0 - flat))
    result: Weights = flat + (1.0 - flat) * step(strength, 1.0 - top)
    return result


def raising_range(often: float, bluff: float) -> Weights:
    """Class weights a preflop raise keeps for a player who raises ``often``
    and whose bets shown down were weak a share ``bluff`` of the time: a
    flat share of every hand and the rest from the top.  The flat share is
    what the player bluffs beyond the population (:data:`~.reads.PRIOR`),
    whose preflop raises come from the top: a player who bluffs no more than
    that raises the top ``often``, one whose bets are weak as often as random
    cards raises anything, and their raise says nothing about their hand."""
    often = min(1.0, often)
    usual = PRIOR["bluff"][0]
    flat = min(often, often * max(0.0, bluff - usual) / (BLUFF_STRENGTH - usual))
    if flat >= often:
        return np.ones(CLASS_COUNT)
    result: Weights = flat + (1.0 - flat) * top_range((often - flat) / (1.0 - flat))
    return result


def call_share(model: OpponentModel, stack_bb: float) -> float:
    """Share of hands ``model`` calls an all-in with.

    An all-in is the biggest raise there is, so until the player's own calls
    and folds of all-ins say otherwise it is answered like their big raises:
    the hands they keep against one, moved part of the way
    (:data:`~.thresholds.SIZE_EFFECT`) towards the equilibrium's calling share
    at this depth (heads-up).  An equity caller who calls half its hands
    against any raise then calls a shove with them too, a nit folds both,
    and a player nobody has seen raised keeps near the equilibrium."""
    pf = load_pushfold()
    k = pf.index(min(stack_bb, float(pf.grid[-1])))
    weights = load_equity().pairs.sum(axis=1)
    nash = float(pf.call[k] @ weights / weights.sum())
    keeps = 1.0 - model.fold_to_big_raise_at
    rate = model.call_allin
    prior = SIZE_EFFECT * nash + (1.0 - SIZE_EFFECT) * keeps
    return Rate(rate.hits, rate.chances, prior, rate.weight).value


def shove_range_share(model: OpponentModel, stack_bb: float, players: int) -> float:
    """Share of hands ``model`` moves all-in with first in at this depth."""
    prior = DEEP_SHOVE_SHARE if stack_bb > DEEP_SHOVE_BB else shove_share(stack_bb, players)
    rate = model.shove
    return max(0.03, Rate(rate.hits, rate.chances, shift_prior(prior, model.aggression), rate.weight).value)


def fold_share(model: OpponentModel, facing: int, middle: int) -> float:
    """Share of all hands ``model`` folds to a preflop raise leaving ``facing``
    to call into ``middle``: its threshold for raises of that size."""
    if raise_kind(facing, middle) == "fold_to_big_raise":
        return model.fold_to_big_raise_at
    return model.fold_to_raise_at


def class_range(view: TableView, seat: int, model: OpponentModel) -> Weights:
    """Class weights (0..1) for what ``seat`` holds, from its preflop moves this hand."""
    weights = np.ones(CLASS_COUNT)
    if model.wild >= WILD_READ:
        return weights
    record = read_hand(tuple(view.history))
    players = len(record.seats) or 2
    for move in record.moves:
        if move.seat != seat or move.street != 0 or move.forced:
            continue
        weights = np.minimum(weights, _preflop_move_range(move, model, players))
    return weights


def _preflop_move_range(move: Move, model: OpponentModel, players: int) -> Weights:
    """The class weights one preflop move of this player keeps."""
    pfr = model.pfr.value
    vpip = max(model.vpip.value, pfr)
    committing = move.all_in or move.added >= 0.3 * move.chips
    depth = move.chips / move.big_blind
    if move.kind in ("raise", "bet") or (move.all_in and move.aggressive):
        if committing and move.raises_before == 0:
            return top_range(shove_range_share(model, depth, players))
        if committing:
            return top_range(max(0.04, 0.6 * call_share(model, depth)))
        if move.raises_before == 0:
            return raising_range(max(0.04, 1.1 * pfr), model.bluff.value)
        return raising_range(max(0.03, model.three_bet.value), model.bluff.value)
    if move.kind == "call":
        if move.raises_before == 0:  # a limp: capped, most raising hands would have raised
            return np.maximum(top_range(vpip) - 0.7 * top_range(pfr), FLOOR)
        if committing or move.facing >= 0.3 * move.chips:
            return top_range(max(0.04, call_share(model, depth)))
        continuing = 1.0 - fold_share(model, move.facing, move.middle)
        return np.maximum(top_range(continuing) - 0.6 * top_range(model.three_bet.value), FLOOR)
    if move.kind == "check":  # the big blind's option: a raise would have come from the top
        return np.maximum(1.0 - 0.7 * top_range(min(1.0, 1.1 * pfr)), FLOOR)
    return np.ones(CLASS_COUNT)


def narrow_postflop(
    weights: Weights, record: HandRecord, seat: int, model: OpponentModel, *, until_street: int
) -> Weights:
    """``weights`` narrowed by ``seat``'s moves after the flop up to ``until_street``."""
    if model.wild >= WILD_READ:
        return weights
    for move in record.moves:
        if move.seat != seat or move.street == 0 or move.street > until_street or move.forced:
            continue
        if weights.sum() <= 0:
            break
        strength = combo_strength(record.board_at(move.street))
        weights = weights * (FLOOR + (1.0 - FLOOR) * _keeps(move, strength, model))
    return weights


def _keeps(move: Move, strength: Weights, model: OpponentModel) -> Weights:
    """Probability of each combo (by its strength on the board) making ``move``."""
    bluff = model.bluff.value
    if move.aggressive:
        often = model.bet_checked_to.value if move.facing == 0 else model.raise_bet.value
        if move.all_in and move.pot_fraction > 1.5:
            often = min(1.0, often * 1.5)  # huge shoves come from wider ranges than small bets
        return bet_probability(strength, often, bluff)
    if move.kind == "call":
        faced = move.facing / max(move.middle - move.facing, move.big_blind)
        folds = model.fold_to_bet(faced)
        raises = bet_probability(strength, model.raise_bet.value, bluff)
        return step(strength, folds) * (1.0 - 0.7 * raises)
    if move.kind == "check":
        return 1.0 - 0.7 * bet_probability(strength, model.bet_checked_to.value, bluff)
    return np.ones_like(strength)


def postflop_range(view: TableView, seat: int, model: OpponentModel, dead: tuple[int, ...]) -> Weights:
    """Combo weights for ``seat`` now: preflop range, then every later move."""
    weights = class_to_combos(class_range(view, seat, model)) * live_combos(dead)
    record = read_hand(tuple(view.history))
    street = max(0, len(record.board) - 2)
    return narrow_postflop(weights, record, seat, model, until_street=street)
