"""Which exported hands PokerKit 0.7.7 must play to our stacks, and why the others need not.

Shared by the PHH export tests of every game (``test_phh_games_export.py``,
``test_record_games_terminal.py``, ``test_stars.py`` and the server's
``test_server_pokerkit.py``).  PokerKit has a PHH variant for only some of
the 25 games (docs/formats.md "Variant codes": ``yes``); for the others
:func:`pokerkit_lacks` names the reason.  Where PokerKit plays another rule
than ours (docs/rules.md "Where Freezeout differs from PokerKit"), the hand
is recognised narrowly from its own events and the rule is named — a hand is
never passed over in silence.
"""

from __future__ import annotations

import tomllib
from collections import Counter

from pokerkit_check import (
    EXACT,
    HOUSE_R12,
    ODD_CHIPS,
    SHORT_BIG_BLIND,
    Refused,
    compare_with_pokerkit,
    in_hand,
    pokerkit_strict,
)
from test_phh_export_records import phh_seats

from freezeout.formats.record import PlayedHand
from freezeout.rules.events import ActionTaken, BlindPosted, HandStarted, PotAwarded, Resigned, StreetDealt
from freezeout.rules.variant import NLHE, PHH_CODES, VARIANTS, BettingStructure

__all__ = ["EXACT", "all_in_from_the_antes", "phh_hands", "pokerkit_lacks", "pokerkit_plays_another_rule", "pokerkit_verdict",
           "resigned"]


def phh_hands(text: str) -> list[str]:
    """``freezeout record phh``'s ``[1]``, ``[2]`` … tables, each one hand's PHH text."""
    tables = tomllib.loads(text)
    return [text.split(f"[{n}]\n", 1)[1].split(f"\n[{n + 1}]\n", 1)[0] for n in range(1, len(tables) + 1)]


def pokerkit_lacks(code: str) -> str:
    """Why PokerKit cannot load ``code``'s hands at all, or "" when it has the game."""
    if code in PHH_CODES:
        return ""
    return (f"PokerKit 0.7.7 has no {VARIANTS[code].name} ({code}): the PHH specification names no such "
            f"variant, and docs/formats.md writes our own code")


def resigned(hand: PlayedHand) -> bool:
    """A resignation in the hand — not after it, between hands: PHH has no such move
    (formats.md §2 writes it as a comment)."""
    return any(isinstance(e, Resigned) for e in in_hand(hand.events))


def pokerkit_plays_another_rule(hand: PlayedHand) -> str:
    """Why PokerKit 0.7.7 may read this hand differently, or ""."""
    game = hand.setup.variant
    raises = Counter[int]()
    street = 0
    for event in hand.events:
        if isinstance(event, BlindPosted) and event.all_in and event.kind == "big blind":
            return "D1: a short big blind does not lower the bet to match"
        if isinstance(event, StreetDealt):
            street += 1
        elif isinstance(event, ActionTaken) and event.kind in ("bet", "raise", "complete"):
            raises[street] += 1
            if event.all_in and game.betting is BettingStructure.FIXED_LIMIT:
                return "V4: a fixed-limit all-in below a full bet"
        elif isinstance(event, PotAwarded) and len(event.shares) > 1 and event.amount % len(event.shares):
            return "R22, V6, V9: the odd chip"
        elif isinstance(event, PotAwarded) and event.half == "low" and len(event.eligible) > 1:
            return "V6: PokerKit splits side pots nobody has a low for"
    cap = game.raise_cap
    if cap is not None and any(count >= cap for count in raises.values()):
        return "V3: no cap heads-up; the big blind is the round's bet"
    if game.open_pair_big_bet and any(cards and len(cards) > 3 and cards[2] and cards[3] and cards[2].rank == cards[3].rank
                                      for cards in hand.setup.hole):
        return "V7: the open-pair big bet on fourth street"
    return ""


def all_in_from_the_antes(hand: PlayedHand) -> bool:
    """Stud: everyone but the bring-in player is all-in from the antes.
    PokerKit then deals the hand out with no betting at all; our engine
    still asks for the bring-in and (R13 broken, see
    ``test_r13_no_complete_when_every_other_player_is_all_in``) lets
    it complete."""
    started = next(e for e in hand.events if isinstance(e, HandStarted))
    all_in = {e.seat for e in hand.events if isinstance(e, BlindPosted) and e.kind == "ante" and e.all_in}
    first = next((e for e in hand.events if isinstance(e, ActionTaken)), None)
    return first is not None and set(started.seats) - all_in == {first.seat}


def pokerkit_verdict(hand: PlayedHand, text: str) -> str:
    """Load ``text`` (``hand`` exported to PHH) in PokerKit, play it action by action as
    written and compare its final stacks with the file's ``finishing_stacks``.

    Returns :data:`EXACT` when they agree, else the name of the documented rule PokerKit
    plays otherwise (asserting that the hand is one where that rule applies); the reason
    from :func:`pokerkit_lacks` for a game PokerKit does not have."""
    game = hand.setup.variant
    lacks = pokerkit_lacks(game.code)
    if lacks:
        return lacks
    if resigned(hand):
        return "R28: a resignation, which PHH cannot write"
    if game is NLHE:
        outcome = compare_with_pokerkit(text, hand.events, phh_seats(hand), hand.setup.big_blind)
        assert outcome in (EXACT, ODD_CHIPS, SHORT_BIG_BLIND, HOUSE_R12), (outcome, text)
        return outcome
    another = pokerkit_plays_another_rule(hand)
    if another:
        return another
    if all_in_from_the_antes(hand):
        return "R13: everyone but the bring-in all-in from the antes (PokerKit deals it out)"
    try:
        state = pokerkit_strict(text)
    except Refused as refused:
        raise AssertionError(f"PokerKit refused {refused}:\n{text}") from None
    assert not state.status, f"PokerKit did not reach the end of the hand:\n{text}"
    assert [int(chips) for chips in state.stacks] == tomllib.loads(text)["finishing_stacks"], text
    return EXACT
