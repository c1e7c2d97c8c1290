"""Rebuild a tournament from its event log alone (design principle 2).

The log is the game: persistence, hand histories and the UI all read it.
This module proves it by turning events back into the inputs that caused
them — deals and moves — and replaying those through the rules, so a stored
log always yields the exact same state.
"""

from __future__ import annotations

from collections.abc import Iterable

from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import InvalidInput
from freezeout.rules.events import ActionTaken, CardsDealt, Event, Forfeited, Resigned
from freezeout.rules.tournament import Tournament, TournamentConfig

__all__ = ["inputs_from_events", "rebuild"]

_MOVES = {"fold": ActionKind.FOLD, "check": ActionKind.CHECK, "call": ActionKind.CALL}


def inputs_from_events(events: Iterable[Event]) -> list[CardsDealt | Action]:
    """The deals and moves behind ``events``, in order.

    A forfeit (``Forfeited``) becomes a ``timeout`` and a resignation a
    ``resign``; the forced fold or check they cause is their consequence, not
    an input.  An all-in is written as the bet, raise or call it counted as —
    the same move, since a bet of the whole stack is an all-in (D5).
    """
    inputs: list[CardsDealt | Action] = []
    skip_forced = False
    for event in events:
        if isinstance(event, CardsDealt):
            inputs.append(event)
        elif isinstance(event, Forfeited):
            inputs.append(Action(event.seat, ActionKind.TIMEOUT))
            skip_forced = True
        elif isinstance(event, Resigned):
            if not skip_forced:
                inputs.append(Action(event.seat, ActionKind.RESIGN))
            skip_forced = True
        elif isinstance(event, ActionTaken):
            if event.forced and skip_forced:
                skip_forced = False
                continue
            if event.kind in ("bet", "raise"):
                inputs.append(Action(event.seat, ActionKind(event.kind), event.total))
            else:
                inputs.append(Action(event.seat, _MOVES[event.kind]))
            skip_forced = False
    return inputs


def rebuild(config: TournamentConfig, events: Iterable[Event]) -> Tournament:
    """Replay the inputs behind ``events`` from the start of the tournament."""
    tournament = Tournament.start(config)
    for item in inputs_from_events(events):
        if isinstance(item, CardsDealt):
            tournament, _ = tournament.deal(dict(item.hole), item.board)
        else:
            tournament, _ = tournament.act(item)
    if tournament.config != config:
        raise InvalidInput("the events belong to another tournament")
    return tournament
