"""V18 in the server's freezeout view: ``schedule`` says the current level's length (one
orbit at a table that dealt more than 6 players at its start) and its index by the
tournament's clock, not by 6 hands a level."""

from __future__ import annotations

from freezeout.cards import full_deck
from freezeout.rules import Action, ActionKind
from freezeout.server.gamespec import GameSpec
from freezeout.server.table.freezeout import FreezeoutGame


def fold_round(game: FreezeoutGame) -> FreezeoutGame:
    t, _ = game.tournament.deal_deck(list(full_deck()))
    while t.in_hand:
        legal = t.legal_actions()
        assert legal is not None
        t, _ = t.act(Action(legal.seat, ActionKind.CHECK if legal.call_amount == 0 else ActionKind.FOLD))
    return FreezeoutGame(game.spec, t)


def test_v18_an_eight_handed_freezeouts_schedule_follows_the_orbit() -> None:
    game = FreezeoutGame.start(GameSpec.parse("FT"), tuple(f"p{i}" for i in range(8)), 0)
    schedule = game.view_dicts([None])[None]["schedule"]
    assert schedule["hands_per_level"] == 8 and schedule["level"] == 0
    for _ in range(7):
        game = fold_round(game)
    schedule = game.view_dicts([None])[None]["schedule"]
    assert game.tournament.hand_number == 7 and schedule["level"] == 0 and schedule["hands_per_level"] == 8
    game = fold_round(fold_round(game))
    schedule = game.view_dicts([None])[None]["schedule"]
    assert game.tournament.hand_number == 9 and schedule["level"] == 1
