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
from freezeout.rules.events import ActionTaken, CardsDealt, Drew, Event, Forfeited, Resigned
from freezeout.rules.tournament import Tournament, TournamentConfig

__all__ = ["inputs_from_events", "rebuild"]

_MOVES = {
    "fold": ActionKind.FOLD,
    "check": ActionKind.CHECK,
    "call": ActionKind.CALL,
    "bringin": ActionKind.BRINGIN,
    "standpat": ActionKind.STANDPAT,
}
_SIZED = {"bet": ActionKind.BET, "raise": ActionKind.RAISE, "complete": ActionKind.COMPLETE}


def inputs_from_events(events: Iterable[Event]) -> list[CardsDealt | Action]:
    """The deals and moves behind ``events``, in order.

    A forfeit (``Forfeited``) becomes a ``timeout`` and a resignation a
    ``resign``; the forced fold, check, bring-in or draw they cause is their
    consequence, not an input.  An all-in is written as the bet, raise,
    completion or call it counted as — the same move, since a bet of the
    whole stack is an all-in (D5).  A discard takes its cards from the
    (private) ``Drew`` event that follows it.
    """
    inputs: list[CardsDealt | Action] = []
    skip_forced = False
    forfeited = -1  # the seat whose forfeit the previous event was (R27: a second one resigns it at once)
    discarding = -1
    for event in events:
        just_forfeited, forfeited = forfeited, -1
        if isinstance(event, CardsDealt):
            inputs.append(event)
        elif isinstance(event, Forfeited):
            inputs.append(Action(event.seat, ActionKind.TIMEOUT))
            skip_forced = True
            forfeited = event.seat
        elif isinstance(event, Resigned):
            # A resignation is an input unless a forfeit caused it; two
            # players may resign one after the other between hands.
            if event.seat != just_forfeited:
                inputs.append(Action(event.seat, ActionKind.RESIGN))
            skip_forced = True
        elif isinstance(event, Drew):
            if discarding == event.seat:
                inputs.append(Action(event.seat, ActionKind.DISCARD, cards=event.discarded))
            discarding = -1
        elif isinstance(event, ActionTaken):
            if event.forced and skip_forced:
                skip_forced = False
                continue
            skip_forced = False
            if event.kind == "discard":
                discarding = event.seat  # its cards come with the Drew event next
            elif event.kind in _SIZED:
                inputs.append(Action(event.seat, _SIZED[event.kind], event.total))
            else:
                inputs.append(Action(event.seat, _MOVES[event.kind]))
    return inputs


def rebuild(config: TournamentConfig, events: Iterable[Event]) -> Tournament:
    """Replay the inputs behind ``events`` from the start of the tournament."""
    tournament = Tournament.start(config)
    for item in inputs_from_events(events):
        if isinstance(item, CardsDealt):
            if item.deck:
                tournament, _ = tournament.deal_deck(item.deck, item.reshuffle)
            else:
                tournament, _ = tournament.deal(dict(item.hole), item.board)
        else:
            tournament, _ = tournament.act(item)
    if tournament.config != config:
        raise InvalidInput("the events belong to another tournament")
    return tournament
