"""V20: once an all-in ends the betting with cards still to come, every hand
still in is turned face up before they are dealt — in every game family
(stud's down cards too; a draw game after its last draw) — and is public
from then on."""

from __future__ import annotations

import random

import pytest

from freezeout.rules import Action, ActionKind
from freezeout.rules.events import CardsShown, Drew, Event, HandTurnedUp, HoleDealt, StreetDealt, public_event
from freezeout.rules.faceup import betting_over, turned_up
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.variant import VARIANTS
from freezeout.rules.views import seat_view

from varianthelpers import NAMES, act_events, cards, play_events, start


def shove(t: Tournament, seed: int = 0) -> tuple[Tournament, list[Event]]:
    """Everyone puts in as much as the game lets them, stands pat in the draws."""
    deck = list(t.next_variant.deck)
    random.Random(seed).shuffle(deck)
    t, seen = t.deal_deck(deck, reshuffle=tuple(reversed(deck)))
    while t.in_hand:
        legal = t.legal_actions()
        assert legal is not None
        if legal.draw:
            action = Action(legal.seat, ActionKind.STANDPAT)
        elif legal.bring_in:
            action = Action(legal.seat, ActionKind.COMPLETE)
        elif legal.can_raise:
            action = Action(legal.seat, ActionKind.RAISE if not legal.opening else ActionKind.BET, legal.max_to)
        else:
            action = Action(legal.seat, ActionKind.CALL if legal.call_amount else ActionKind.CHECK)
        t, events = t.act(action)
        seen.extend(events)
    return t, seen


FLOP_AND_STUD = ["NT", "PT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR"]
DRAW = ["N5CD", "F2L3D", "F2L1D", "FB"]


@pytest.mark.parametrize("code", FLOP_AND_STUD)
def test_v20_all_in_hands_are_turned_up_before_the_rest_is_dealt(code: str) -> None:
    t = Tournament.start(TournamentConfig(players=NAMES[:3], variant=VARIANTS[code], starting_stack=60))
    t, events = shove(t)
    turned = [i for i, e in enumerate(events) if isinstance(e, HandTurnedUp)]
    assert turned, code
    live = {e.seat for e in events if isinstance(e, CardsShown)}
    assert {events[i].seat for i in turned} == live  # every hand still in, once
    dealt_after = [e for e in events[turned[-1]:] if isinstance(e, (StreetDealt, HoleDealt)) and (e.cards if isinstance(e, StreetDealt) else True)]
    assert dealt_after, "cards remained to be dealt"
    assert all(i < events.index(next(e for e in events if isinstance(e, CardsShown))) for i in turned)
    for i in turned:
        event = events[i]
        assert isinstance(event, HandTurnedUp)
        assert public_event(event) == event  # public: down cards included
        assert None not in event.cards
    # stud: every card dealt after the turn-up comes face up, the seventh street's too
    for e in events[turned[-1]:]:
        if isinstance(e, HoleDealt):
            assert all(e.up) and public_event(e) == e
    view = seat_view(t, None)  # a spectator sees every turned-up hand whole
    for seat in live:
        assert view.seats[seat].cards is not None and None not in view.seats[seat].cards


@pytest.mark.parametrize("code", DRAW)
def test_v20_a_draw_games_all_in_hands_go_up_after_the_last_draw(code: str) -> None:
    t = Tournament.start(TournamentConfig(players=NAMES[:3], variant=VARIANTS[code], starting_stack=60))
    t, events = shove(t)
    turned = [i for i, e in enumerate(events) if isinstance(e, HandTurnedUp)]
    draws = [i for i, e in enumerate(events) if isinstance(e, Drew)]
    shown = [i for i, e in enumerate(events) if isinstance(e, CardsShown)]
    assert turned and draws and shown
    assert min(turned) > max(draws) and max(turned) < min(shown)
    for i in turned:
        event = events[i]
        assert isinstance(event, HandTurnedUp) and len(event.cards) == VARIANTS[code].hole_card_range[0]


def test_v20_stud_turns_up_the_down_cards_on_third_street() -> None:
    # ana (3 chips after the ante) is all-in with the bring-in; bo and cy call it: no more betting possible
    # once bo is left alone with chips.  Each hand's three cards go up before fourth street.
    level = {"ante": 1, "bring_in": 5, "small_bet": 10, "big_bet": 20}
    hole = ["AsAh2c" "Kd" "Qd" "Jd" "Td", "9s9h8c" "7d" "6d" "5d" "4d", "3s3h4c" "2d" "Ac" "Kc" "Qc"]
    state = start("F7S", (6, 100), hole=hole[:2], **level)
    state, events = play_events(state, ("ana", "bringin"), ("bo", "call"))
    up = [e for e in events if isinstance(e, HandTurnedUp)]
    assert up == [HandTurnedUp(1, cards("9s9h8c")), HandTurnedUp(0, cards("AsAh2c"))]  # from the left of the button
    first_street = next(i for i, e in enumerate(events) if isinstance(e, StreetDealt) and e.street == "fourth street")
    assert all(events.index(e) < first_street for e in up)
    seventh = [e for e in events if isinstance(e, HoleDealt) and len(e.cards) == 1 and e.cards[0] in cards("TdQc4d")]
    assert seventh and all(e.up == (True,) for e in seventh)  # the seventh street's down card comes face up


def test_v20_all_in_on_the_river_goes_straight_to_the_showdown() -> None:
    state = start("NT", (100, 100), blinds=(1, 2), big_blind=2, hole=["AsAh", "KsKh"], board="2c7d9hJsQc")
    state, _ = play_events(state, ("ana", "call"), ("bo", "check"))
    for _ in range(2):  # flop and turn
        state, _ = play_events(state, ("bo", "check"), ("ana", "check"))
    state, events = act_events(state, "bo", "allin")
    state, events = act_events(state, "ana", "call")
    assert state.finished and not any(isinstance(e, HandTurnedUp) for e in events)


def test_v20_no_turn_up_while_two_players_can_still_bet() -> None:
    # cy is all-in preflop, ana and bo still have chips: they bet on, nobody's hand goes up
    state = start("NT", (200, 200, 10), button=2, blinds=(1, 2, 0), big_blind=2, hole=["AsAh", "KsKh", "QsQh"], board="2c7d9hJs3c")
    state, events = play_events(state, ("cy", "allin"), ("ana", "call"), ("bo", "call"))
    assert not state.finished and not any(isinstance(e, HandTurnedUp) for e in events)
    state, events = play_events(state, ("ana", "allin"), ("bo", "call"))
    assert [e.seat for e in events if isinstance(e, HandTurnedUp)] == [0, 1, 2]  # from the left of the button
    turn = next(i for i, e in enumerate(events) if isinstance(e, StreetDealt) and e.street == "turn")
    assert all(i < turn for i, e in enumerate(events) if isinstance(e, HandTurnedUp))


def test_v20_helpers() -> None:
    assert betting_over((False, False, True), (0, 50, 10))
    assert not betting_over((False, False, False), (0, 50, 10))
    assert not betting_over((False, True), (0, 0))  # one player left: no showdown to run out
    assert turned_up((False, True), ((True, True), (False, False)))
    assert not turned_up((False, False), ((True, True), (False, True)))
