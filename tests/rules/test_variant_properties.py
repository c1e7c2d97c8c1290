"""The house game's invariants, over every variant of the registry (V1–V18).

Random legal play (``variantplay``) of single hands and of whole freezeouts
(V18: the game's default levels, dealt with ``deal_deck``), checked against
what the rules promise in every game:

* chips are conserved — they are in stacks, bets or pots, or left the game
  with a resigner (R28) — and no stack or bet is ever negative;
* a hand in progress has exactly one player to act, or, in a draw, exactly
  one player to draw (V11);
* every move ``legal_actions`` offers applies, and every other move — a
  word it does not offer, an amount off the limits (V2, V3), a discard of a
  card not held, a move by the wrong seat — is refused with
  ``IllegalAction``/``InvalidInput`` and leaves the state as it was
  (design principle 3);
* no view shows a seat or a spectator another seat's hidden cards — down
  cards, the cards of a draw — until a showdown reveals them (R8, R17, V7,
  V11); stud up-cards are public;
* the event log alone rebuilds the tournament (design principle 2);
* a freezeout can be played to its end in every game (V18).

Hypothesis runs a modest number of derandomized examples per variant (the
default ``make test``), a hundred with ``FREEZEOUT_SLOW=1``.
"""

from __future__ import annotations

import copy
import os
import random

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from freezeout.cards import Card
from freezeout.rules import (
    Action,
    ActionKind,
    HandState,
    IllegalAction,
    InvalidInput,
    Ruleset,
    apply,
    seat_view,
    start_hand,
)
from freezeout.rules.events import CardsDealt, Drew, HandStarted, HoleDealt
from freezeout.rules.legal import LegalActions
from freezeout.rules.rebuild import rebuild
from freezeout.rules.variant import VARIANTS, BettingStructure, Forced
from freezeout.rules.views import view_dicts

from variantplay import CODES, choose, play_variant_tournament, random_setup

SLOW = os.environ.get("FREEZEOUT_SLOW") == "1"
EXAMPLES = 100 if SLOW else 6
# No shrinking: the examples are seeds, which shrink to nothing more readable,
# and a failure's message already names the game, the seat and the cards.
RUNS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                phases=(Phase.explicit, Phase.generate))
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def players_for(code: str) -> st.SearchStrategy[int]:
    return st.integers(min_value=2, max_value=min(VARIANTS[code].max_players, 6))


# -- chips and turns ---------------------------------------------------------


@pytest.mark.parametrize("code", CODES)
@RUNS
@given(data=st.data(), seed=SEEDS)
def test_chips_are_conserved_and_never_negative(code: str, data: st.DataObject, seed: int) -> None:
    players = data.draw(players_for(code))
    game = play_variant_tournament(VARIANTS[code], seed, players, keep_snapshots=True)
    total = 1000 * players
    for t in game.snapshots:
        stacks = t.current_stacks()
        assert all(chips >= 0 for chips in stacks)
        on_table = sum(stacks)
        if t.in_hand:
            assert t.hand is not None
            assert all(bet >= 0 for bet in t.hand.bets) and all(c >= 0 for c in t.hand.committed)
            on_table += t.hand.pot_total
        assert total - game.vanished <= on_table <= total
    t = game.tournament
    assert sum(t.current_stacks()) + game.vanished == total
    if t.finished:
        assert t.current_stacks()[t.winner] == total - game.vanished


@pytest.mark.parametrize("code", CODES)
@RUNS
@given(data=st.data(), seed=SEEDS)
def test_a_hand_in_progress_has_exactly_one_player_to_act_or_to_draw(code: str, data: st.DataObject, seed: int) -> None:
    players = data.draw(players_for(code))
    game = play_variant_tournament(VARIANTS[code], seed, players, keep_snapshots=True)
    for t in game.snapshots:
        legal = t.legal_actions()
        if not t.in_hand:
            assert t.to_act == -1 and legal is None
            continue
        assert t.hand is not None and legal is not None
        assert t.to_act == legal.seat and t.alive[t.to_act]
        hand_seat = t.seats.index(t.to_act)
        assert not t.hand.folded[hand_seat]
        if t.hand.drawing:  # V11: one player draws at a time, and only draws
            assert legal.draw == len(t.hand.cards[hand_seat]) and legal.moves == ("standpat", "discard")
        else:
            assert not legal.draw and t.hand.stacks[hand_seat] > 0


# -- ask before you act ---------------------------------------------------


def _offered(legal: LegalActions, action: Action, held: tuple[Card | None, ...]) -> bool:
    """Whether ``action`` is one of the moves ``legal`` offers, read from the
    offer alone: its words, its limits (V2, V3: ``min_to``..``max_to`` or a
    fixed-limit size; an all-in below the minimum, R11), the cards held."""
    if action.seat != legal.seat:
        return False
    kind, amount = action.kind, action.amount
    if kind in (ActionKind.STANDPAT, ActionKind.DISCARD):
        if "standpat" not in legal.moves:
            return False
        return kind is ActionKind.STANDPAT or all(card in held for card in action.cards or ())
    if kind.value not in legal.moves:
        return False
    if kind not in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE):
        return True
    if amount is None:
        return kind is ActionKind.COMPLETE
    if legal.sizes:
        return amount in legal.sizes
    return (legal.min_to <= amount or amount == legal.all_in_to) and amount <= legal.max_to


def _candidates(state: HandState, legal: LegalActions, rng: random.Random) -> list[Action]:
    """Moves to try: every word, amounts at and around the limits, discards
    of held and unheld cards, and a move by the wrong seat."""
    seat = legal.seat
    held = state.cards[seat]
    other = (seat + 1) % state.seat_count
    actions = [Action(seat, kind) for kind in (
        ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.ALLIN, ActionKind.BRINGIN, ActionKind.STANDPAT,
    )]
    actions += [Action(other, ActionKind.FOLD), Action(other, ActionKind.CHECK), Action(seat, ActionKind.COMPLETE)]
    amounts = {0, 1, legal.to_match, legal.min_to - 1, legal.min_to, legal.max_to, legal.max_to + 1,
               legal.all_in_to, legal.all_in_to + 1, rng.randint(1, legal.all_in_to + 1), *legal.sizes}
    for amount in sorted(a for a in amounts if a >= 0):
        actions += [Action(seat, kind, amount) for kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)]
    known = [card for card in held if card is not None]
    if known:
        actions.append(Action(seat, ActionKind.DISCARD, cards=tuple(rng.sample(known, rng.randint(1, len(known))))))
    stranger = next(card for card in state.setup.variant.deck if card not in held)
    actions.append(Action(seat, ActionKind.DISCARD, cards=(stranger,)))
    return actions


@pytest.mark.parametrize("code", CODES)
@RUNS
@given(seed=SEEDS)
def test_every_legal_move_applies_and_nothing_else_does(code: str, seed: int) -> None:
    variant = VARIANTS[code]
    rng = random.Random(seed)
    ruleset = rng.choice([Ruleset.HOUSE, Ruleset.STANDARD])
    for _ in range(3):
        state, _events = start_hand(random_setup(variant, rng, ruleset=ruleset))
        while not state.finished:
            legal = state.legal_actions()
            assert legal is not None
            before = copy.deepcopy(state)
            for action in _candidates(state, legal, rng):
                offered = _offered(legal, action, state.cards[legal.seat])
                try:
                    apply(state, action)
                except (IllegalAction, InvalidInput) as refusal:
                    assert not offered, f"{code}: {action} is offered by {legal} but refused: {refusal}"
                else:
                    assert offered, f"{code}: {action} is not offered by {legal} but applies"
                assert state == before
            state, _ = apply(state, choose(legal, state.cards[legal.seat], rng))


# -- hidden information ---------------------------------------------------


@pytest.mark.parametrize("code", CODES)
@RUNS
@given(data=st.data(), seed=SEEDS)
def test_views_never_show_another_seats_hidden_cards(code: str, data: st.DataObject, seed: int) -> None:
    players = data.draw(players_for(code))
    game = play_variant_tournament(VARIANTS[code], seed, players, keep_snapshots=True)
    viewers = [None, *range(players)]
    last = len(game.snapshots) - 1
    past_seen = dict.fromkeys(viewers, 0)  # how many past hands of each viewer's view are checked
    for number, t in enumerate(game.snapshots):
        hand = t.hand
        views = {viewer: seat_view(t, viewer) for viewer in viewers}
        for viewer, view in views.items():
            for seat in view.seats:
                if seat.cards is None or seat.seat == viewer:
                    continue
                assert hand is not None
                hand_seat = t.seats.index(seat.seat)
                revealed = hand.finished and hand.showdown and hand.shown[hand_seat]
                for card, up in zip(seat.cards, hand.up[hand_seat], strict=True):
                    assert card is None or up or revealed, f"{code}: seat {viewer} sees {seat.seat}'s {card}"
            # The hand in play at every snapshot; a past hand when it first shows among the past
            # ones, and every past hand again at the end (its log is final once the hand is over:
            # looking at it again at every later snapshot re-reads the same events).
            past = view.past if number == last else view.past[past_seen[viewer]:]
            past_seen[viewer] = len(view.past)
            for event in (*view.history, *(e for hand_log in past for e in hand_log)):
                assert not isinstance(event, CardsDealt)
                if isinstance(event, HoleDealt) and event.seat != viewer:
                    hidden = [c for c, up in zip(event.cards, event.up, strict=True) if not up and c is not None]
                    assert not hidden, f"{code}: seat {viewer}'s log shows {event.seat}'s down cards {hidden}"
                if isinstance(event, Drew) and event.seat != viewer:
                    shown = [c for c in (*event.discarded, *event.drawn) if c is not None]
                    assert not shown, f"{code}: seat {viewer}'s log shows {event.seat}'s draw {shown}"
            if view.legal is not None:
                assert view.to_act == viewer
        # the views shared out to many viewers at once are each seat's own view
        shared = view_dicts(t, viewers)
        assert all(shared[viewer] == view.to_dict() for viewer, view in views.items())


# -- the log is the game --------------------------------------------------

@pytest.mark.parametrize("code", CODES)
@RUNS
@given(data=st.data(), seed=SEEDS)
def test_the_event_log_alone_rebuilds_the_tournament(code: str, data: st.DataObject, seed: int) -> None:
    players = data.draw(players_for(code))
    game = play_variant_tournament(VARIANTS[code], seed, players)
    t = game.tournament
    rebuilt = rebuild(t.config, game.events)
    assert rebuilt.current_stacks() == t.current_stacks()
    assert rebuilt.places == t.places and rebuilt.forfeits == t.forfeits
    assert rebuilt.hand_number == t.hand_number and rebuilt.winner == t.winner
    assert rebuilt.hand == t.hand


# -- V18 ----------------------------------------------------------------------


@pytest.mark.parametrize("code", CODES)
@RUNS
@given(data=st.data(), seed=SEEDS)
def test_a_freezeout_runs_to_its_end_in_every_game(code: str, data: st.DataObject, seed: int) -> None:
    """V18: levels name the game's forced bets and rise every 6 hands, so
    the blinds (or antes and bring-in) soon force the issue and one player
    ends with every chip still in play (R1, R24)."""
    players = data.draw(players_for(code))
    variant = VARIANTS[code]
    game = play_variant_tournament(variant, seed, players, max_hands=400, timeout_rate=0.0)
    t = game.tournament
    assert t.finished, f"{code}: not over after {t.hand_number} hands"
    assert t.current_stacks()[t.winner] == 1000 * players - game.vanished
    assert sorted(place for place in t.places if place is not None)[0] == 1
    levels = {(e.small_blind, e.big_blind, e.ante, e.bring_in, e.small_bet, e.big_bet)
              for e in game.events if isinstance(e, HandStarted)}
    if variant.forced is Forced.BRING_IN:
        assert all(ante and bring_in and small_bet for _, _, ante, bring_in, small_bet, _ in levels)
    else:
        assert all(small and big for small, big, *_ in levels)
        if variant.betting is BettingStructure.FIXED_LIMIT:
            assert all(small_bet and big_bet == 2 * small_bet for *_, small_bet, big_bet in levels)
