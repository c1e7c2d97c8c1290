"""Small helpers so that the V-rule tests read like the rulebook.

A hand is started from a variant code and hand-built cards: ``hole`` lists,
per seat, every card that player is dealt in dealing order (stud's seven, a
draw game's hand and then its draws), or ``deck`` gives the cards in the
order the engine takes them.  Players are named ``ana``, ``bo``, ``cy`` …
in seat order, so that moves read ``act(s, "bo", "raise", 7)``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from freezeout.cards import Card, parse_cards
from freezeout.rules import (
    Action,
    ActionKind,
    HandSetup,
    HandState,
    IllegalAction,
    RulesError,
    Ruleset,
    start_hand,
)
from freezeout.rules import apply as apply_action
from freezeout.rules.events import ActionTaken, CardsShown, Drew, Event, PotAwarded
from freezeout.rules.variant import variant

NAMES = ("ana", "bo", "cy", "di", "ed", "flo", "gus", "hal", "ivy", "jo")

Cards = str | Sequence[str]


def cards(text: Cards) -> tuple[Card, ...]:
    """``"AsKd"`` or ``["AsKd2c", "Qh"]`` (one string per dealing)."""
    return parse_cards(text if isinstance(text, str) else "".join(text), distinct=False)


def start(code: str, stacks: Sequence[int], **options: Any) -> HandState:
    """Start a hand of ``code`` (options as :func:`start_events`)."""
    return start_events(code, stacks, **options)[0]


def start_events(
    code: str,
    stacks: Sequence[int],
    *,
    button: int = 0,
    blinds: Sequence[int] = (),
    big_blind: int = 0,
    ante: int = 0,
    bring_in: int = 0,
    small_bet: int = 0,
    big_bet: int = 0,
    hole: Sequence[Cards] = (),
    board: str = "",
    deck: str = "",
    reshuffle: str = "",
    ruleset: str = "house",
) -> tuple[HandState, list[Event]]:
    """Start a hand of ``code``; ``big_blind`` defaults to the largest blind,
    ``ante`` is every player's."""
    n = len(stacks)
    setup = HandSetup(
        stacks=tuple(stacks),
        button=button,
        blinds=tuple(blinds),
        big_blind=big_blind or max(blinds, default=0),
        antes=(ante,) * n if ante else (),
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
        hole=tuple(cards(h) for h in hole),
        board=cards(board),
        deck=cards(deck),
        reshuffle=cards(reshuffle),
        ruleset=Ruleset(ruleset),
        variant=variant(code),
        names=NAMES[:n],
    )
    return start_hand(setup)


def seat(who: str | int) -> int:
    return NAMES.index(who) if isinstance(who, str) else who


def action(who: str | int, word: str, amount: int | None = None, discard: str = "") -> Action:
    return Action(seat(who), ActionKind(word), amount, cards(discard) if discard else None)


def act(state: HandState, who: str | int, word: str, amount: int | None = None, discard: str = "") -> HandState:
    """One move; ``discard`` names the cards thrown away in a draw."""
    return apply_action(state, action(who, word, amount, discard))[0]


def act_events(state: HandState, who: str | int, word: str, amount: int | None = None, discard: str = "") -> tuple[HandState, list[Event]]:
    return apply_action(state, action(who, word, amount, discard))


def play(state: HandState, *moves: tuple[object, ...]) -> HandState:
    """Several moves: ``("ana", "call"), ("bo", "raise", 40), ("cy", "discard", None, "7d2c")``."""
    for move in moves:
        state = act(state, *move)  # type: ignore[arg-type]
    return state


def play_events(state: HandState, *moves: tuple[object, ...]) -> tuple[HandState, list[Event]]:
    events: list[Event] = []
    for move in moves:
        state, more = act_events(state, *move)  # type: ignore[arg-type]
        events.extend(more)
    return state, events


def refused(state: HandState, who: str | int, word: str, amount: int | None = None, discard: str = "") -> str:
    """The one-line reason a move is refused; the state is checked unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(RulesError) as error:
        apply_action(state, action(who, word, amount, discard))
    assert state == before
    assert state.legal_actions() == before.legal_actions()
    message = str(error.value)
    assert message and "\n" not in message
    return message


def illegal(state: HandState, who: str | int, word: str, amount: int | None = None, discard: str = "") -> str:
    """As :func:`refused`, for a well-formed move the rules forbid now."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as error:
        apply_action(state, action(who, word, amount, discard))
    assert state == before
    return str(error.value)


def to_act(state: HandState) -> str | None:
    return NAMES[state.actor] if state.actor >= 0 else None


def check_around(state: HandState) -> HandState:
    """Everyone checks until the round (or the hand) ends."""
    street = state.street
    while not state.finished and state.street == street and not state.drawing:
        state = act(state, state.actor, "check")
    return state


def check_down(state: HandState) -> HandState:
    """Everyone checks (and stands pat) to the end of the hand."""
    while not state.finished:
        state = act(state, state.actor, "standpat" if state.drawing else "check")
    return state


def final(state: HandState) -> dict[str, int]:
    """Each player's chips at the end of the hand."""
    return dict(zip(NAMES, state.final_stacks(), strict=False))


def behind(state: HandState) -> dict[str, int]:
    """Each player's chips behind right now."""
    return dict(zip(NAMES, state.stacks, strict=False))


def held(state: HandState, who: str | int) -> str:
    return "".join(str(card) for card in state.cards[seat(who)] if card is not None)


def moves_of(events: Sequence[Event]) -> list[tuple[str, str, int]]:
    """Each move as (player, what it counted as, total for the round)."""
    return [(NAMES[e.seat], e.kind, e.total) for e in events if isinstance(e, ActionTaken)]


def awards(events: Sequence[Event]) -> list[tuple[int, str, int, dict[str, int]]]:
    """Each pot (or half) as (pot, half, amount, {winner: chips})."""
    return [
        (e.pot, e.half, e.amount, {NAMES[s]: chips for s, chips in e.shares})
        for e in events
        if isinstance(e, PotAwarded)
    ]


def shown_order(events: Sequence[Event]) -> list[str]:
    return [NAMES[e.seat] for e in events if isinstance(e, CardsShown)]


def draws(events: Sequence[Event]) -> list[tuple[str, str, str]]:
    """Each draw as (player, discarded, drawn)."""
    def text(cs: tuple[Card | None, ...]) -> str:
        return "".join("??" if c is None else str(c) for c in cs)

    return [(NAMES[e.seat], text(e.discarded), text(e.drawn)) for e in events if isinstance(e, Drew)]
