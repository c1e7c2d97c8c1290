"""An opponent's hand in a lowball or badugi draw, dealt as their draws say (V11, V14, V15).

Dealing an opponent a fresh random hand after they stood pat twice reads
them as holding anything: a ten-low rates 0.95 against a made hand.  Here
every simulated deal gives the opponent a hand their whole draw history
could have come from, the textbook way a player draws:

* **stood pat** at their latest draw(s): a made hand from the first of
  those pats on — five (four) cards of distinct ranks (badugi: and suits),
  none above the card the policy stands pat with at that point (deuce-to-
  seven: an eight with three draws left, a nine with two, a ten on the last;
  badugi: a ten, a jack, anything);
* **drew ``c`` cards** at their latest draw: they kept ``size - c`` such
  cards (deuce-to-seven up to an eight, a seven on the last draw; badugi a
  nine or lower) and got ``c`` cards from the deck, any cards.

Earlier draws before a pat streak only say the hand was not made then,
which the later pat supersedes.  The deal takes the qualifying cards in
deck order from the shuffled unseen cards (so card removal holds) and
falls back to any cards when too few qualify.  The bets of the hand still
weight each deal (:mod:`.game_equity`).  Five-card draw keeps the weights
of :func:`.game_bot.draw_history_power`: its kept cards are pairs and
draws, not a ladder of low cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from freezeout.bots.game_draws import is_made_27

__all__ = ["DRAW_CHOICE_HISTORY", "HISTORY_RANKINGS", "deal_history", "history_hand"]

HISTORY_RANKINGS = ("low-27",)  # the pot share of every decision
# the exact last draw only: badugi's pot share dealt by the history made `hard` war
# less against `medium` and win fewer freezeouts (56.7 % against 75.0 %, n = 60, seed 35)
DRAW_CHOICE_HISTORY = ("low-27", "badugi")

_ACE = 12


def _value(ranking: str, card: int) -> int:
    """The card's height for the ranking: deuce 0 … ace 12 in deuce-to-seven,
    ace 0, deuce 1 … king 12 in badugi."""
    rank = card >> 2
    if ranking == "badugi":
        return 0 if rank == _ACE else rank + 1
    return rank


def _pat_top(ranking: str, draws_left_at_first_pat: int) -> int:
    if ranking == "badugi":
        return {3: 9, 2: 10}.get(draws_left_at_first_pat, 12)  # a ten, a jack, anything
    return {3: 6, 2: 7}.get(draws_left_at_first_pat, 8)  # an eight, a nine, a ten


def _keep_top(ranking: str, draws_left_then: int) -> int:
    if ranking == "badugi":
        return 8  # a nine
    return 6 if draws_left_then >= 2 else 5  # an eight, a seven on the last draw


def history_hand(ranking: str, deck: Sequence[int], size: int, drew: Sequence[int], total_draws: int) -> list[int]:
    """The opponent's hand after the draws ``drew`` (cards per draw, in
    order), dealt from ``deck`` (module docstring)."""
    if not drew:
        return list(deck[:size])
    pats = 0
    for count in reversed(drew):
        if count:
            break
        pats += 1
    if pats:
        first_pat = len(drew) - pats  # the index of the first draw of the streak
        need, top = size, _pat_top(ranking, total_draws - first_pat)
    else:
        need, top = size - drew[-1], _keep_top(ranking, total_draws - len(drew) + 1)
    kept: list[int] = []
    others: list[int] = []
    ranks = suits = 0
    for card in deck:
        rank_bit, suit_bit = 1 << (card >> 2), 1 << (card & 3)
        if (
            len(kept) < need
            and _value(ranking, card) <= top
            and not ranks & rank_bit
            and not (ranking == "badugi" and suits & suit_bit)
        ):
            kept.append(card)
            ranks |= rank_bit
            suits |= suit_bit
            if pats and len(kept) == size and ranking == "low-27" and not is_made_27(kept):
                dropped = kept.pop()  # a straight or a flush is no made low: look further
                ranks &= ~(1 << (dropped >> 2))
                suits = 0
                others.append(dropped)
        else:
            others.append(card)
            if len(kept) == need and len(others) >= size - need:
                break
    if len(kept) < need:  # too few qualify: any cards
        return list(deck[:size])
    return kept + others[: size - need]


def deal_history(deck: list[int], at: int, hand: Sequence[int]) -> None:
    """Put ``hand`` at ``deck[at:at+len(hand)]``, the other cards after it in order."""
    chosen = set(hand)
    deck[at:] = [*hand, *(c for c in deck[at:] if c not in chosen)]
