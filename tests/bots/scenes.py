"""Scenes for behaviour tests: a table of any game with stacked decks and
scripted players, played through the public rules API up to the moment a
bot must decide.

The engine takes a deck's cards in a fixed order (rules/dealing.py): each
street deals to the players still in, seat by seat from the lowest seat,
then the board; at a draw each player takes its cards the moment it
discards.  So ``stacked("7s5h4d3c2h", "KsQdJh9c8c")`` gives seat 0 the
first five and seat 1 the next five, and the rest of the deck follows in a
fixed order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from freezeout.bots.base import legal_action
from freezeout.bots.match import deck_of, tournament_config
from freezeout.cards import Card, parse_cards
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.tournament import Tournament
from freezeout.rules.views import TableView, seat_view

#: A scripted player: the view in, an action out.
Script = Callable[[TableView], Action]


def station(view: TableView) -> Action:
    """Checks, calls, stands pat."""
    return legal_action(view, "passive")


def folder(view: TableView) -> Action:
    """Folds to any bet, checks when free, stands pat."""
    assert view.legal is not None
    return legal_action(view, "fold" if view.legal.call_amount else "passive")


def aggressor(view: TableView) -> Action:
    """Bets and raises whenever it may, stands pat."""
    return legal_action(view, "raise", view.legal.max_to if view.legal else None)


def stacked(game: str, *first: str) -> tuple[Card, ...]:
    """The game's deck with ``first``'s cards on top, in order, then the rest."""
    top = [card for text in first for card in parse_cards(text)]
    rest = [card for card in deck_of(game) if card not in top]
    random.Random(7).shuffle(rest)
    return (*top, *rest)


def table(game: str, players: int = 2, *, button: int = 0, stack: int = 1000) -> Tournament:
    names = tuple(f"p{seat}" for seat in range(players))
    return Tournament.start(tournament_config(game, names, button=button, starting_stack=stack))


def play(tournament: Tournament, scripts: dict[int, Script], until: Callable[[TableView], bool] | None = None) -> Tournament:
    """Play the hand in progress with ``scripts`` until ``until`` holds for
    the seat to act (or the hand ends)."""
    while tournament.in_hand:
        view = seat_view(tournament, tournament.to_act)
        if until is not None and until(view):
            return tournament
        tournament, _ = tournament.act(scripts[tournament.to_act](view))
    return tournament


def history(tournament: Tournament, game: str, scripts: dict[int, Script], hands: int, *, stack: int) -> Tournament:
    """``hands`` hands of scripted play, stacks reset after each so nobody busts."""
    n = len(tournament.stacks)
    for number in range(hands):
        deck = list(deck_of(game))
        random.Random(number).shuffle(deck)
        tournament, _ = tournament.deal_deck(deck, deck[::-1])
        tournament = play(tournament, scripts)
        tournament = replace(tournament, stacks=(stack,) * n, alive=(True,) * n, places=(None,) * n, winner=-1)
    return tournament


def discarded(action: Action) -> str:
    """The cards of a draw action, as text ("" for standing pat)."""
    if action.kind is ActionKind.STANDPAT:
        return ""
    assert action.kind is ActionKind.DISCARD and action.cards is not None, action
    return "".join(str(card) for card in action.cards)
