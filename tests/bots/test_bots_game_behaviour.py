"""``hard`` at the table, seen from the moves it makes (V3, V7, V11, V14, V15):
how many cards it draws and when it stands pat or snows, when it
check-raises, how it reads stud's live and dead up cards.  Every scene is
a stacked deck played through the rules with scripted opponents
(tests/bots/scenes.py)."""

from __future__ import annotations

import random

from scenes import Script, aggressor, discarded, folder, history, play, stacked, station, table

from freezeout.bots import get_bot
from freezeout.bots.base import legal_action
from freezeout.bots.game_bot import GameBot, Level
from freezeout.bots.game_spot import read_spot
from freezeout.bots.reads import wild_seats
from freezeout.cards import parse_cards
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import Drew
from freezeout.rules.tournament import Tournament
from freezeout.rules.views import TableView, seat_view

HARD = get_bot("hard")


def hard(seed: int = 1):  # type: ignore[no-untyped-def]
    return lambda view: HARD.act(view, random.Random(seed))


def at_draw(seat: int, number: int):  # type: ignore[no-untyped-def]
    """Until ``seat``'s ``number``-th draw (1-based) of the hand."""

    def reached(view: TableView) -> bool:
        return view.viewer == seat and bool(view.legal and view.legal.draw) and _draws_done(view) == number - 1

    return reached


def _draws_done(view: TableView) -> int:
    return sum(1 for e in view.history if isinstance(e, Drew) and e.seat == view.viewer)


def first_draw(game: str, mine: str, theirs: str) -> str:
    """What ``hard`` (seat 0) throws at the first draw of a heads-up hand of ``game``."""
    tournament, _ = table(game).deal_deck(stacked(game, mine, theirs))
    tournament = play(tournament, {0: hard(), 1: station}, until=at_draw(0, 1))
    return discarded(HARD.act(seat_view(tournament, 0), random.Random(1)))


# -- deuce-to-seven triple draw (V14) -----------------------------------------
def test_deuce_to_seven_hard_stands_pat_on_a_seven_and_draws_by_how_far_it_is_from_one() -> None:
    assert first_draw("F2L3D", "7s5h4d3c2h", "KsQdJh9c8c") == ""  # the nuts: stand pat
    assert first_draw("F2L3D", "Ks7h4d3c2h", "KdQdJh9c8c") == "Ks"  # one off a seven: draw one
    assert first_draw("F2L3D", "KsQh9d3c2h", "KdQdJh9c8c") == "KsQh9d"  # two low cards: draw three


def test_deuce_to_seven_hard_breaks_a_ten_with_two_draws_left_and_on_the_last_against_a_pat_hand() -> None:
    # draws one (Ks) and gets the Td; breaks the ten and gets the Tc; the opponent
    # stood pat twice, and a made ten loses to every pat nine: it draws again (issue #35)
    deck = stacked("F2L3D", "Ks7h4d3c2h", "KdQdJh9c8c", "Td", "Tc")
    tournament, _ = table("F2L3D").deal_deck(deck)
    tournament = play(tournament, {0: hard(), 1: station}, until=at_draw(0, 2))
    assert discarded(HARD.act(seat_view(tournament, 0), random.Random(1))) == "Td"
    tournament = play(tournament, {0: hard(), 1: station}, until=at_draw(0, 3))
    assert sorted(str(c) for c in seat_view(tournament, 0).seats[0].cards or ()) == ["2h", "3c", "4d", "7h", "Tc"]
    assert discarded(HARD.act(seat_view(tournament, 0), random.Random(1))) == "Tc"


def snow_scene(opponent_history: str) -> Tournament:
    """Heads-up deuce-to-seven at the last draw: ``hard`` (seat 0) holds two low
    blockers (7s 2d) and three high cards after two draws of three that missed;
    before this hand the opponent folded to every bet (``folder``) or never
    folded (``station``)."""
    scripts = {0: aggressor, 1: folder if opponent_history == "folder" else station}
    tournament = history(table("F2L3D"), "F2L3D", scripts, 12, stack=1000)
    deck = stacked("F2L3D", "7s2dKhKcQs", "9h8h6c5c4s", "KdQhJs", "QdJcJd")
    tournament, _ = tournament.deal_deck(deck)  # seat 0 is dealt first whoever has the button
    return play(tournament, {0: hard(), 1: station}, until=at_draw(0, 3))


def test_hard_snows_at_deuce_to_seven_half_the_time_against_a_player_who_folds() -> None:
    tournament = snow_scene("folder")
    view = seat_view(tournament, 0)
    assert sorted(str(c) for c in view.seats[0].cards or ()) == sorted(["7s", "2d", "Qd", "Jc", "Jd"])
    moves = [discarded(HARD.act(view, random.Random(seed))) for seed in range(40)]
    snows = moves.count("")
    assert 8 <= snows <= 32  # stands pat on nothing about half the time
    assert all(move in ("", "QdJcJd") for move in moves)  # otherwise keeps the blockers, draws three


def test_hard_never_snows_into_a_player_who_never_folds() -> None:
    view = seat_view(snow_scene("station"), 0)
    assert {discarded(HARD.act(view, random.Random(seed))) for seed in range(40)} == {"QdJcJd"}


def test_after_a_snow_hard_bets_the_last_round() -> None:
    tournament = snow_scene("folder")
    seed = next(s for s in range(40) if discarded(HARD.act(seat_view(tournament, 0), random.Random(s))) == "")
    tournament, _ = tournament.act(HARD.act(seat_view(tournament, 0), random.Random(seed)))
    tournament = play(tournament, {0: hard(seed), 1: station}, until=lambda view: view.viewer == 0)
    move = HARD.act(seat_view(tournament, 0), random.Random(seed))
    assert move.kind in (ActionKind.BET, ActionKind.RAISE)


# -- badugi (V15) ---------------------------------------------------------------
def test_badugi_hard_stands_pat_on_a_badugi_and_draws_to_its_best_three_or_two() -> None:
    assert first_draw("FB", "As2d3h4c", "KsQdJh9c") == ""  # a four-card badugi: stand pat
    assert first_draw("FB", "As2s3h4c", "KdQdJh9c") == "2s"  # a three-card badugi: draw one
    assert first_draw("FB", "Ks2d3h3c", "KdQdJh9c") in ("Ks3h", "Ks3c")  # K-3-2 early: break to two


# -- check-raise (V3) -----------------------------------------------------------
def check_raise_scene(opponent: str) -> Tournament:
    """Fixed-limit hold'em, heads-up: ``hard`` (seat 0) out of position on a
    flop that gives it a set, against a player who has bet at every chance
    (``aggressor``) or never (``station``) before this hand."""
    scripts = {0: station, 1: aggressor if opponent == "aggressor" else station}
    tournament = history(table("FT"), "FT", scripts, 10, stack=1000)
    if tournament.button == 1:  # the button moves to seat 1: hard is the big blind, first to act after the flop
        tournament = history(tournament, "FT", scripts, 1, stack=1000)
    tournament, _ = tournament.deal_deck(stacked("FT", "7s7d", "KsQd", "7c2h9d", "Kd", "3s"))
    first = scripts[1] if opponent == "aggressor" else station
    return play(tournament, {0: station, 1: first}, until=lambda view: view.viewer == 0 and bool(view.board))


def test_hard_check_raises_a_set_against_a_player_who_bets_when_checked_to() -> None:
    tournament = check_raise_scene("aggressor")
    assert [str(c) for c in seat_view(tournament, 0).board if c] == ["7c", "2h", "9d"]
    moves = {seed: HARD.act(seat_view(tournament, 0), random.Random(seed)) for seed in range(20)}
    checks = [seed for seed, move in moves.items() if move.kind is ActionKind.CHECK]
    assert checks and len(checks) < 20  # sometimes checks to raise, sometimes bets
    for seed in checks:
        after, _ = tournament.act(moves[seed])
        after, _ = after.act(aggressor(seat_view(after, 1)))  # they bet
        assert HARD.act(seat_view(after, 0), random.Random(seed)).kind is ActionKind.RAISE


def test_hard_bets_its_set_into_a_player_who_never_bets() -> None:
    tournament = check_raise_scene("station")
    kinds = {HARD.act(seat_view(tournament, 0), random.Random(seed)).kind for seed in range(20)}
    assert kinds == {ActionKind.BET}


# -- stud up cards (V7) ---------------------------------------------------------
def stud_scene(folded_up: str) -> TableView:
    """Seven-card stud, four players: ``hard`` (seat 3) holds Ah 9h / 5h;
    seats 1 and 2 fold to the bring-in showing ``folded_up`` door cards."""
    first, second = folded_up.split()
    deck = stacked("F7S", "Jd6d2c", f"Kc8c{first}", f"Jc7c{second}", "Ah9h5h")
    tournament, _ = table("F7S", 4).deal_deck(deck)
    tournament = play(tournament, {0: station, 1: folder, 2: folder}, until=lambda view: view.viewer == 3)
    return seat_view(tournament, 3)


def test_stud_hard_reads_folded_up_cards_as_dead_and_live_ones_as_the_opponents() -> None:
    view = stud_scene("3h 4h")
    spot = read_spot(view)
    assert sorted(spot.dead) == sorted(int(c) for c in parse_cards("3h4h"))
    assert [o.shown for o in spot.opponents] == [(int(parse_cards("2c")[0]),)]


def test_stud_hard_values_a_three_flush_less_when_its_suit_lies_dead() -> None:
    bot = GameBot("hard", Level(samples=4000, reads=True))
    shares = {}
    for up in ("3h 4h", "3c 4c"):
        view = stud_scene(up)
        shares[up] = bot._share(read_spot(view), {}, random.Random(1))
    assert shares["3h 4h"] < shares["3c 4c"] - 0.02


# -- a card-independent opponent in no-limit Omaha -------------------------------
def free_folder(view: TableView) -> Action:
    """Folds whenever it could check (what only a player who ignores its cards does), else calls."""
    assert view.viewer is not None and view.legal is not None
    return Action(view.viewer, ActionKind.FOLD) if view.legal.call_amount == 0 else station(view)


def omaha_preflop(opponent_history: Script, mine: str) -> TableView:
    """Heads-up no-limit Omaha, ``hard`` (seat 1, the big blind) facing a pot
    raise after a few hands of ``opponent_history`` (seat 0)."""
    tournament = history(table("NO"), "NO", {0: opponent_history, 1: station}, 6, stack=1000)
    if tournament.button == 0:  # the button moves to seat 0: hard is the big blind
        tournament = history(tournament, "NO", {0: opponent_history, 1: station}, 1, stack=1000)
    tournament, _ = tournament.deal_deck(stacked("NO", "7c6d3h2s", mine))
    tournament = play(tournament, {0: lambda v: legal_action(v, "raise", 60)}, until=lambda view: view.viewer == 1)
    return seat_view(tournament, 1)


def test_omaha_hard_moves_all_in_with_a_premium_hand_against_a_card_independent_player() -> None:
    view = omaha_preflop(free_folder, "AsAhKsKh")
    assert wild_seats(view, [0])
    assert HARD.act(view, random.Random(1)).kind is ActionKind.ALLIN


def test_omaha_hard_does_not_put_its_stack_in_before_the_flop_against_a_sound_player() -> None:
    view = omaha_preflop(station, "AsAhKsKh")
    assert not wild_seats(view, [0])
    assert HARD.act(view, random.Random(1)).kind in (ActionKind.CALL, ActionKind.RAISE)  # a sized raise or a call
