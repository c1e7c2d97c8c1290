"""Random tournaments of a mix (V19) or any game, recorded through the one record writer
(formats/record.py) from the engine's full events: shared by the records tests."""

from __future__ import annotations

import random
from typing import Any

from freezeout.formats.record import RecordWriter
from freezeout.rules import Action, ActionKind
from freezeout.rules.games import MIXES, tournament_config
from freezeout.rules.tournament import Tournament


def play_recorded(code: str, players: int, seed: int, *, stack: int = 300, max_hands: int = 400,
                  fold_rate: float = 0.25, resign_after_fold: bool = False) -> dict[str, Any]:
    """A random tournament of ``code`` (a mix or a variant code) between ``players`` players,
    as its full record (``freezeout.record/2``): moves are random and legal, with folds."""
    rng = random.Random(seed)
    names = tuple(f"p{i}" for i in range(players))
    t = Tournament.start(tournament_config(code, names, button=0, starting_stack=stack))
    mix = MIXES.get(code)
    writer = RecordWriter(names, names[0], starting_stack=stack, variant=t.config.variant, mix=mix,
                          levels=None if mix is not None else t.config.levels)
    for _ in range(max_hands):
        if t.finished:
            break
        deck = list(t.next_variant.deck)
        rng.shuffle(deck)
        t, events = t.deal_deck(deck)
        writer.observe(events)
        while t.in_hand:
            legal = t.legal_actions()
            assert legal is not None
            move = _move(legal, rng, fold_rate)
            t, events = t.act(move)
            writer.act(names[move.seat], move)
            writer.observe(events)
    return writer.to_json()


def _move(legal: Any, rng: random.Random, fold_rate: float) -> Action:
    seat = legal.seat
    if legal.draw:
        return Action(seat, ActionKind.STANDPAT)
    if legal.bring_in and rng.random() < 0.6:
        return Action(seat, ActionKind.BRINGIN)
    choices = [word for word in legal.moves if word not in ("fold", "allin") or rng.random() < fold_rate * 2]
    if legal.can_raise and rng.random() < 0.4:
        choices.append(legal.raise_word)
    word = rng.choice(choices or list(legal.moves))
    if word in ("bet", "raise"):
        return Action(seat, ActionKind(word), legal.min_to)
    return Action(seat, ActionKind(word))
