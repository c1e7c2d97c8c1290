"""Pots against several card-independent players (no-limit flop games).

Heads-up, :mod:`.game_wild` plays the knowing player's strategy against a
player read as card-independent.  Four-handed against three such players
the every-game bot called wild shoves on pot odds in chips — near coin
flips for the whole stack — and never valued an all-in by how many may
still call it; it reached heads-up often but short, and won under 40 %.
When every opponent left in the hand reads as wild (``wild_probability``
of :data:`.game_wild.MULTIWAY_READ` or more), every one of them holds any
hand, so a decision is only which confrontation to accept, valued in
skill-adjusted chips (:func:`.versus_wild.skill_utility`, a share of every
chip at the table) like the heads-up rule:

* **Callers are a coin each.**  ``random`` meets an all-in by folding or
  calling with even odds, whatever it holds.  Moving all-in is valued over
  every subset of the players still to answer it (each in with chance
  :data:`CALL_CHANCE`), with our share against as many random hands as
  are in (:func:`.game_equity.shares_by_callers`: one deal serves every
  count), side pots capped at what we cover.
* **All-in when it is worth most.**  Moving all-in is taken when its
  value beats both calling (or checking, valued as a showdown of the pot
  as it stands) and folding by :data:`SHOVE_MARGIN`; otherwise checks are
  free and a bet is called when calling, valued as a showdown against
  those in and those who may still come in behind, beats folding.  The
  heads-up rule's fixed ``premium`` share against those who call did no
  better four-handed than the every-game bot (docs/bots.md): what an
  all-in is worth depends on how many may call it, and the value says so.

With one opponent left in the hand at a bigger table this is the same
valuation heads-up, so ``hard`` uses it from the moment a multiway
table's pot is down to wild players, whether one or three; a heads-up
tournament keeps :mod:`.game_wild`'s tuned rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from freezeout.bots.base import chips_in_play, legal_action
from freezeout.bots.game_spot import Spot
from freezeout.bots.versus_wild import skill_utility
from freezeout.rules.actions import Action
from freezeout.rules.views import TableView

__all__ = ["CALL_CHANCE", "SHOVE_MARGIN", "Answer", "answers", "multiway_action", "put_in_value"]

#: How often a card-independent player meets a bet it faces (``random``: fold or call).
CALL_CHANCE: Final = 0.5
#: How much more the all-in must be worth than calling, checking or folding
#: (skill-adjusted value, a share of the chance to win): the best of 0, 0.01,
#: 0.03, 0.05 and 0.08 for the knowing player four-handed (bench/ceiling_games.py --players 4).
SHOVE_MARGIN: Final = 0.02


@dataclass(frozen=True, slots=True)
class Answer:
    """One way the opponents may answer our chips: its chance, how many
    random hands we then face at a showdown (0: everyone folded), and what
    we hold after winning or losing it."""

    chance: float
    players: int
    win: int
    lose: int


def answers(view: TableView, spot: Spot, target: int, call_chance: float = CALL_CHANCE) -> list[Answer]:
    """Every answer to our putting in chips up to ``target`` this round (the
    all-in: our bet plus our stack).  Opponents already all-in or with at
    least ``target`` in are in; the others still to answer come in with
    ``call_chance`` each and, when they do, with up to everything they hold.
    What an opponent has over our total comes back to them (R21)."""
    target = min(target, spot.my_bet + spot.stack)
    in_hand = {o.seat for o in spot.opponents}
    bets = sum(seat.bet for seat in view.seats)
    base = spot.pot - bets  # earlier rounds' pots
    dead = sum(seat.bet for seat in view.seats if seat.seat != spot.seat and seat.seat not in in_hand)
    certain: list[int] = []  # what each opponent who is in for sure can match
    open_: list[tuple[int, int]] = []  # (bet now, everything they can put in) of those still to answer
    for o in spot.opponents:
        bet = view.seats[o.seat].bet
        if o.all_in or bet >= target:
            certain.append(bet)
        else:
            open_.append((bet, bet + o.stack))
    result = []
    for mask in range(1 << len(open_)):
        chance = 1.0
        finals = list(certain)
        folded = 0
        for i, (bet, most) in enumerate(open_):
            if mask >> i & 1:
                chance *= call_chance
                finals.append(most)
            else:
                chance *= 1.0 - call_chance
                folded += bet
        if not finals:  # everyone folds: the pot is ours, our bet comes back
            result.append(Answer(chance, 0, spot.stack + spot.pot, spot.stack + spot.pot))
            continue
        ours = max(spot.my_bet, min(target, max(finals)))
        contested = base + dead + folded + ours + sum(min(final, ours) for final in finals)
        left = spot.stack - (ours - spot.my_bet)
        result.append(Answer(chance, len(finals), left + contested, left))
    return result


def put_in_value(
    view: TableView, spot: Spot, shares: Sequence[float], target: int, k: float, call_chance: float = CALL_CHANCE
) -> tuple[float, float]:
    """Expected skill-adjusted value of putting chips in up to ``target``, and
    our share against those who call (weighted by how likely each count
    is; 1 when nobody can call)."""
    total = chips_in_play(view)
    value = weight = share_sum = 0.0
    for answer in answers(view, spot, target, call_chance):
        if answer.players == 0:
            value += answer.chance * skill_utility(answer.win / total, k)
            continue
        share = shares[answer.players - 1]
        value += answer.chance * (
            share * skill_utility(answer.win / total, k) + (1.0 - share) * skill_utility(answer.lose / total, k)
        )
        weight += answer.chance
        share_sum += answer.chance * share
    return value, share_sum / weight if weight > 0 else 1.0


def multiway_action(
    view: TableView, spot: Spot, shares: Sequence[float], *, k: float, call_chance: float = CALL_CHANCE
) -> Action:
    """The decision when every opponent in the hand is card-independent
    (module docstring); ``shares[j - 1]`` is our share against ``j`` random
    hands, ``k`` the edge of the skill-adjusted value."""
    total = chips_in_play(view)
    if total <= 0:
        return legal_action(view, "passive")
    folded = skill_utility(spot.stack / total, k)
    called, _ = put_in_value(view, spot, shares, spot.to_match, k, call_chance)
    if (spot.legal.can_raise and spot.active > 0) or spot.to_call > 0:
        shoved, _ = put_in_value(view, spot, shares, spot.my_bet + spot.stack, k, call_chance)
        if shoved > max(called, folded) + SHOVE_MARGIN:
            return legal_action(view, "allin")
    if spot.to_call == 0 or called > folded:
        return legal_action(view, "passive")
    return legal_action(view, "fold")
