"""Hands that are run out (R18), played by the pure rules and recorded: for the replayer's
steps on the server (tests/server/test_replaysteps.py) and in the page (tests/web)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from freezeout.formats.record import RecordWriter
from freezeout.rules import games
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import HandEnded, StreetDealt
from freezeout.rules.games import Mix
from freezeout.rules.tournament import Tournament


def run_out_record(code: str, stack: int, names: Sequence[str], seed: int = 5) -> dict[str, Any]:
    """A game of ``code`` whose players raise as much as they may and call anything, until a
    hand is run out (R18): its full record, that hand the last."""
    rng = random.Random(seed)
    names = tuple(names)
    game = games.parse_game(code)
    t = Tournament.start(games.tournament_config(game, names, button=0, starting_stack=stack))
    writer = RecordWriter(names, names[0], variant=t.variant, levels=t.config.levels, starting_stack=stack,
                          mix=game if isinstance(game, Mix) else None)
    while not t.finished:
        variant = t.variant_for_hand(t.hand_number + 1)
        deck, again = list(variant.deck), list(variant.deck)
        rng.shuffle(deck)
        rng.shuffle(again)
        t, events = t.deal_deck(deck, again)
        writer.observe(events)
        while t.in_hand:
            legal = t.legal_actions()
            assert legal is not None
            raise_to = next((m for m in ("raise", "bet", "complete") if m in legal.moves), None)
            if raise_to is not None:
                action = Action(legal.seat, ActionKind(raise_to), legal.sizes[-1] if legal.sizes else legal.max_to)
            else:
                action = Action(legal.seat, ActionKind("call" if "call" in legal.moves else legal.moves[0]))
            t, events = t.act(action)
            writer.act(names[action.seat], action)
            writer.observe(events)
            if any(isinstance(e, HandEnded) for e in events) and sum(isinstance(e, StreetDealt) for e in events) >= 2:
                return writer.to_json()
    raise AssertionError(f"no {code} hand was run out")
