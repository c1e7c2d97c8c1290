"""``hard`` four-handed in no-limit Omaha against card-independent players
(bots/wild_multiway.py, bots/game_wild.py's ``wild_pot``): who may call a
shove, what it is worth, and which wild shoves are called.  Every scene is a
stacked deck played through the rules with scripted opponents
(tests/bots/scenes.py)."""

from __future__ import annotations

import random

import pytest
from scenes import Script, history, play, stacked, station, table

from freezeout.bots import get_bot
from freezeout.bots.base import legal_action
from freezeout.bots.game_spot import read_spot
from freezeout.bots.game_wild import MULTIWAY_READ, wild_pot
from freezeout.bots.reads import wild_probability
from freezeout.bots.wild_multiway import answers, multiway_action, put_in_value
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.views import TableView, seat_view

HARD = get_bot("hard")
JUNK = "7c6d3h2s"
ACES = "AsAhKsKh"


def free_folder(view: TableView) -> Action:
    """Folds whenever it could check (only a player who ignores its cards does), else calls."""
    assert view.viewer is not None and view.legal is not None
    return Action(view.viewer, ActionKind.FOLD) if view.legal.call_amount == 0 else station(view)


def first_shoves(view: TableView) -> Action:
    """The first opponent to act moves all-in; the others fold or call it."""
    shoved = any(seat.all_in for seat in view.seats)
    return legal_action(view, "passive" if shoved else "allin")


def facing_a_shove(mine: str, opponents: Script = free_folder) -> TableView:
    """Four-handed no-limit Omaha after a few hands of ``opponents`` (seats
    1–3), ``hard`` (seat 0, holding ``mine``) facing the first opponent's
    all-in before the flop, with whoever acts after it still to answer."""
    scripts: dict[int, Script] = {0: station, 1: opponents, 2: opponents, 3: opponents}
    tournament = history(table("NO", 4), "NO", scripts, 8, stack=1000)
    if tournament.button == 0:  # seat 0 on the button acts first before the flop: nobody has shoved yet
        tournament = history(tournament, "NO", scripts, 1, stack=1000)
    tournament, _ = tournament.deal_deck(stacked("NO", mine, "Qc9c8d4h", "Jd7s5c3c", "Td9h6s4s"))
    tournament = play(tournament, {1: first_shoves, 2: first_shoves, 3: first_shoves}, until=lambda v: v.viewer == 0)
    return seat_view(tournament, 0)


def test_every_opponent_that_gave_itself_away_makes_the_pot_a_wild_one() -> None:
    view = facing_a_shove(ACES)
    spot = read_spot(view)
    assert all(wild_probability(view, o.seat) >= MULTIWAY_READ for o in spot.opponents)
    assert wild_pot(spot, view)


def test_a_pot_with_a_sound_player_in_it_is_not_a_wild_one() -> None:
    view = facing_a_shove(ACES, opponents=station)
    assert not wild_pot(read_spot(view), view)


def test_a_shove_is_answered_by_every_subset_of_those_still_to_act() -> None:
    view = facing_a_shove(ACES)
    spot = read_spot(view)
    behind = sum(1 for o in spot.opponents if not o.all_in)
    result = answers(view, spot, spot.my_bet + spot.stack)
    assert len(result) == 2**behind
    assert sum(a.chance for a in result) == pytest.approx(1.0)
    assert all(a.players >= 1 for a in result)  # the shover is in whatever the others do
    assert all(a.lose == 0 for a in result)  # equal stacks: a lost all-in is the whole stack
    biggest = max(result, key=lambda a: a.players)
    assert biggest.players == behind + 1
    assert biggest.win > max(a.win for a in result if a.players == 1)  # more callers, a bigger pot


def test_what_an_answer_pays_never_makes_or_loses_more_chips_than_there_are() -> None:
    view = facing_a_shove(ACES)
    spot = read_spot(view)
    total = sum(seat.stack + seat.bet for seat in view.seats) + sum(amount for amount, _ in view.pots)
    for answer in answers(view, spot, spot.my_bet + spot.stack):
        assert 0 <= answer.lose <= spot.stack <= answer.win <= total


def test_a_hand_that_is_ahead_of_every_count_of_callers_is_worth_calling_a_wild_shove() -> None:
    view = facing_a_shove(ACES)
    spot = read_spot(view)
    k = 1.0
    strong = [0.7, 0.55, 0.45]  # ahead of one, two and three random hands' fair shares
    weak = [0.3, 0.18, 0.12]
    value_strong, share_strong = put_in_value(view, spot, strong, spot.my_bet + spot.stack, k)
    value_weak, share_weak = put_in_value(view, spot, weak, spot.my_bet + spot.stack, k)
    assert value_strong > value_weak and share_strong > share_weak
    assert multiway_action(view, spot, strong, k=k).kind in (ActionKind.CALL, ActionKind.ALLIN)
    assert multiway_action(view, spot, weak, k=k).kind is ActionKind.FOLD


def test_hard_calls_a_wild_shove_four_handed_with_aces_and_kings_and_folds_junk() -> None:
    strong = facing_a_shove(ACES)
    assert HARD.act(strong, random.Random(1)).kind in (ActionKind.CALL, ActionKind.ALLIN)
    junk = facing_a_shove(JUNK)
    assert HARD.act(junk, random.Random(1)).kind is ActionKind.FOLD


def checked_to(mine: str) -> TableView:
    """Four-handed no-limit Omaha after a few hands of card-independent
    opponents, everyone limping or checking to ``hard`` (seat 0, ``mine``)
    until it may check."""
    scripts: dict[int, Script] = {0: station, 1: free_folder, 2: free_folder, 3: free_folder}
    tournament = history(table("NO", 4), "NO", scripts, 8, stack=1000)
    tournament, _ = tournament.deal_deck(stacked("NO", mine, "Qc9c8d4h", "Jd7s5c3c", "Td9h6s4s"))
    free = lambda v: v.viewer == 0 and v.legal is not None and v.legal.call_amount == 0  # noqa: E731
    return seat_view(play(tournament, {s: station for s in range(4)}, until=free), 0)


def test_an_open_shove_that_everyone_folds_to_wins_the_pot() -> None:
    view = checked_to(JUNK)
    spot = read_spot(view)
    assert spot.to_call == 0 and len(spot.opponents) == 3 and wild_pot(spot, view)
    result = answers(view, spot, spot.my_bet + spot.stack)
    assert len(result) == 8
    nobody = [a for a in result if a.players == 0]
    assert len(nobody) == 1 and nobody[0].chance == pytest.approx(1 / 8)
    assert nobody[0].win == spot.stack + spot.pot


def test_with_a_free_check_a_middling_hand_checks_and_a_monster_moves_all_in() -> None:
    view = checked_to(JUNK)
    spot = read_spot(view)
    assert multiway_action(view, spot, [0.45, 0.3, 0.22], k=1.0).kind is ActionKind.CHECK
    assert multiway_action(view, spot, [0.9, 0.85, 0.8], k=1.0).kind is ActionKind.ALLIN
