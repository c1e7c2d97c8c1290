"""Load an exported PHH hand in PokerKit and say how its chips compare with ours.

Shared by the PHH export tests.  PokerKit plays the file action by action
with no "repair" (``HandHistory``'s own iteration would silently insert the
folds and checks a file lacks), must accept every action as written and must
reach the end of the hand.  Its stacks are then compared with the truth the
file carries: ``finishing_stacks`` plus the chips that resigners took out of
the game (R28), which no PHH reader can make vanish.  Where they differ, the
difference must be one that docs/formats.md §2 and
:mod:`freezeout.formats.phh_export` document, and it is named:

* ``odd chips`` — R22/D7 deal odd chips one at a time from the left of the
  button; PokerKit gives a pot's whole remainder to its first winner (only
  visible with two or more odd chips in a hand);
* ``short big blind`` — D1 keeps the full big blind as the bet to match;
  PokerKit lowers it to what a short big blind posted, so it may end with
  other stacks or refuse a raise over it (the file marks such actions);
* ``resigner's unmatched bet`` — D6/D7/D8 leave a resigner's bet that nobody
  matched in the pot below it; PokerKit gives it back to him or burns it;
* ``house R12`` — a raise the house ruleset allows after a short all-in;
  PokerKit (the standard rule) refuses that action, so the hand is not
  loaded at all.
"""

from __future__ import annotations

import tomllib
import warnings
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from test_phh_pokerkit_diff import odd_chips

from freezeout.rules.events import ActionTaken, BetReturned, BlindPosted, Event, HandEnded, Resigned

pokerkit = pytest.importorskip("pokerkit")
from pokerkit.notation import parse_action  # noqa: E402

EXACT = "exact"
ODD_CHIPS = "odd chips"
SHORT_BIG_BLIND = "short big blind"
UNMATCHED_RESIGNER_BET = "resigner's unmatched bet"
HOUSE_R12 = "house R12"


class Refused(Exception):
    """PokerKit refused an action of the file (the message names it)."""

    def __init__(self, action: str, reason: str) -> None:
        super().__init__(f"{action!r}: {reason}")
        self.action = action


def pokerkit_strict(text: str) -> Any:
    """Replay PHH text in PokerKit action by action, as written."""
    history = pokerkit.HandHistory.loads(text)
    state = history.create_state()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # folds where a check was possible, burnt chips
        for action in history.actions:
            while state.can_burn_card():
                state.burn_card("??")
            try:
                parse_action(state, action)
            except (ValueError, AssertionError) as error:
                raise Refused(action, repr(error)) from None
    return state


def in_hand(events: Sequence[Event]) -> list[Event]:
    """The events up to the end of the hand (not the resignations between hands)."""
    out: list[Event] = []
    for event in events:
        out.append(event)
        if isinstance(event, HandEnded):
            break
    return out


def vanished_chips(events: Sequence[Event]) -> Counter[int]:
    """Chips behind that resigners took out of the game during the hand (R28)."""
    return Counter({e.seat: e.vanished for e in in_hand(events) if isinstance(e, Resigned)})


def chips_a_resigner_left_unmatched(events: Sequence[Event], seats: Sequence[int]) -> int:
    """In a hand with a resignation, the chips put in above the most that any
    player still in at the end put in: the rules give them to the pot below
    (D6, D7, D8); PHH cannot, and PokerKit returns or burns them."""
    put_in: Counter[int] = Counter({seat: 0 for seat in seats})
    out = set()
    resigned = False
    for event in in_hand(events):
        if isinstance(event, BlindPosted):
            put_in[event.seat] += event.amount
        elif isinstance(event, ActionTaken):
            put_in[event.seat] += event.added
            if event.kind == "fold":
                out.add(event.seat)
        elif isinstance(event, BetReturned):
            put_in[event.seat] -= event.amount
        elif isinstance(event, Resigned):
            out.add(event.seat)
            resigned = True
    if not resigned:
        return 0
    top = max((chips for seat, chips in put_in.items() if seat not in out), default=0)
    return sum(max(0, chips - top) for chips in put_in.values())


def short_big_blind(events: Sequence[Event], big_blind: int) -> bool:
    return any(
        isinstance(e, BlindPosted) and e.kind == "big blind" and e.amount < big_blind for e in events
    )


def compare_with_pokerkit(text: str, events: Sequence[Event], phh_seats: Sequence[int], big_blind: int) -> str:
    """Load ``text`` in PokerKit, check its result against ours and return
    how it compares (one of the names above).

    ``events`` are the hand's events and ``phh_seats`` the seat (in the
    events' numbering) of each PHH player ``p1, p2, …``.
    """
    data = tomllib.loads(text)
    try:
        state = pokerkit_strict(text)
    except Refused as refused:
        if "(R12, house ruleset)" in refused.action:
            return HOUSE_R12
        # A short big blind changes PokerKit's bet to match, so its calls and raise sizes differ.
        assert short_big_blind(events, big_blind), (str(refused), text)
        return SHORT_BIG_BLIND
    assert not state.status, f"PokerKit did not reach the end of the hand:\n{text}"
    theirs = [int(chips) for chips in state.stacks]
    vanished = vanished_chips(events)
    expected = [chips + vanished[seat] for chips, seat in zip(data["finishing_stacks"], phh_seats, strict=True)]
    if theirs == expected:
        return EXACT
    where = f"PokerKit {theirs}, expected {expected}:\n{text}"
    odd = odd_chips(list(events))
    if odd >= 2:
        assert sum(theirs) == sum(expected), where
        assert all(abs(a - b) <= odd for a, b in zip(theirs, expected, strict=True)), where
        return ODD_CHIPS
    unmatched = chips_a_resigner_left_unmatched(events, phh_seats)
    if unmatched:
        assert sum(expected) - unmatched <= sum(theirs) <= sum(expected), where
        assert sum(abs(a - b) for a, b in zip(theirs, expected, strict=True)) <= 2 * unmatched, where
        return UNMATCHED_RESIGNER_BET
    assert short_big_blind(events, big_blind), where
    assert sum(theirs) == sum(expected), where
    return SHORT_BIG_BLIND
