"""A cash table's hand: the rake (C5, C10) and running the board twice (C7).

Hands are dealt from a deck: each seat's hole cards in seat order, then the
board; a board run twice takes its second run from the next cards.
"""

from __future__ import annotations

import pytest

from freezeout.cards import parse_cards
from freezeout.rules import Action, ActionKind, HandSetup, IllegalAction, InvalidInput, start_hand
from freezeout.rules import apply as apply_action
from freezeout.rules.events import PotAwarded, RakeTaken, RunShowdown, SecondRunDealt, StreetDealt
from freezeout.rules.hand import agree_to_run_twice
from freezeout.rules.pots import Rake, rake_cap, rake_cuts
from freezeout.rules.state import _SETUP_FIELDS
from freezeout.rules.variant import Variant, variant

ACES, KINGS = "AsAh", "KsKh"
BOARD = "2c7d9hJs3s"  # the aces win
SECOND = "Kd4c5h8sTc"  # the kings make three of a kind


def setup(stacks: tuple[int, ...], holes: tuple[str, ...], cards: str, *, blinds: tuple[int, ...] = (1, 2),
          rake: Rake | None = None, run_twice: tuple[int, ...] = (), game: Variant | None = None, **more: object) -> HandSetup:
    fields: dict[str, object] = dict(stacks=stacks, button=0, blinds=blinds, big_blind=max(blinds, default=0) or 2,
                                     deck=parse_cards("".join(holes) + cards), rake=rake, run_twice=run_twice)
    if game is not None:
        fields["variant"] = game
    fields.update(more)
    return HandSetup(**fields)  # type: ignore[arg-type]


def play(state, *moves):
    events = []
    for seat, word, *amount in moves:
        state, more = apply_action(state, Action(seat, ActionKind(word), amount[0] if amount else None))
        events.extend(more)
    return state, events


def heads_up(cards: str = BOARD, **options: object):
    return start_hand(setup((100, 100), (ACES, KINGS), cards, **options))[0]  # type: ignore[arg-type]


FIVE_PERCENT = Rake(500, (10, 10, 10))


# -- C5: rake ----------------------------------------------------------------
def test_c5_no_rake_rule_no_rake():
    state, events = play(heads_up(), (0, "allin"), (1, "call"))
    assert state.rake == 0 and not any(isinstance(e, RakeTaken) for e in events)
    assert state.final_stacks() == (200, 0)


def test_c5_rake_is_a_percentage_rounded_down_taken_when_the_pot_is_awarded():
    state, events = play(
        heads_up(rake=FIVE_PERCENT), (0, "raise", 15), (1, "call"),
        (1, "check"), (0, "check"), (1, "check"), (0, "check"), (1, "check"), (0, "check"),
    )
    # 5 % of 30 is 1.5: the house takes 1 chip, the half stays with the players.
    assert state.rake == 1
    raked = [e for e in events if isinstance(e, RakeTaken)]
    awarded = [e for e in events if isinstance(e, PotAwarded)]
    assert raked == [RakeTaken(0, 1)]
    assert events.index(raked[0]) < events.index(awarded[0])  # shown in the history before the award
    assert awarded[0].amount == 29 and awarded[0].shares == ((0, 29),)
    assert state.final_stacks() == (114, 85)
    assert sum(state.final_stacks()) + state.rake == 200  # C9: only the rake leaves the table


def test_c5_the_cap_per_hand():
    state, _ = play(heads_up(rake=Rake(500, (3, 5, 8))), (0, "allin"), (1, "call"))
    assert state.rake == 3  # 5 % of 200 is 10, capped at 3 heads-up
    assert state.final_stacks() == (197, 0)


def test_c5_no_flop_no_drop():
    state, events = play(heads_up(rake=FIVE_PERCENT), (0, "raise", 15), (1, "fold"))
    assert state.rake == 0 and not any(isinstance(e, RakeTaken) for e in events)
    assert state.final_stacks() == (102, 98)


def test_c5_a_hand_all_in_preflop_sees_the_flop_and_is_raked():
    state, _ = play(heads_up(rake=FIVE_PERCENT), (0, "allin"), (1, "call"))
    assert state.rake == 10


def test_c5_a_pot_won_without_a_showdown_after_the_flop_is_raked():
    state, events = play(heads_up(rake=FIVE_PERCENT), (0, "raise", 15), (1, "call"), (1, "bet", 10), (0, "fold"))
    assert [e for e in events if isinstance(e, RakeTaken)] == [RakeTaken(0, 1)]
    assert state.final_stacks() == (85, 114)


@pytest.mark.parametrize(("players", "cap"), [(2, 1), (3, 2), (4, 2), (5, 3), (9, 3)])
def test_c10_the_cap_rises_with_the_players_dealt_in(players, cap):
    assert rake_cap(Rake(500, (1, 2, 3)), players) == cap


def test_c5_rake_comes_from_every_pot_in_proportion_odd_chips_from_the_main_pot():
    # 7 % of 250 is 17.5 -> 17: 10.2 from the main pot of 150, 6.8 from the side pot
    # of 100, rounded down to 10 and 6; the chip left comes from the main pot.
    assert rake_cuts(Rake(700, (99, 99, 99)), [150, 100], 3) == [11, 6]
    state = start_hand(setup((50, 100, 100), ("AsAh", "KsKh", "QsQh"), BOARD, blinds=(0, 1, 2),
                             rake=Rake(700, (99, 99, 99))))[0]
    state, events = play(state, (0, "allin"), (1, "allin"), (2, "call"))
    assert [e for e in events if isinstance(e, RakeTaken)] == [RakeTaken(0, 11), RakeTaken(1, 6)]
    awarded = {(e.pot, e.amount) for e in events if isinstance(e, PotAwarded)}
    assert awarded == {(0, 139), (1, 94)}
    assert state.final_stacks() == (139, 94, 0) and state.rake == 17


def test_c5_rake_cuts_always_add_up_to_the_rake_and_never_exceed_a_pot():
    for amounts in ([1, 1, 1], [3, 997], [5], [10, 20, 30, 41]):
        for points in (1, 333, 1000, 10000):
            cuts = rake_cuts(Rake(points, (1000, 1000, 1000)), amounts, 6)
            assert sum(cuts) == min(sum(amounts) * points // 10000, 1000)
            assert all(0 <= cut <= amount for cut, amount in zip(cuts, amounts, strict=True))


def test_c5_stud_no_drop_when_the_hand_ends_on_third_street():
    stud = variant("F7S")
    deal = ("AsAhKd", "2c3c4d")  # seat 1 shows the lowest card and brings in
    state = start_hand(setup((50, 50), deal, "QsQhJc9c", blinds=(), game=stud, antes=(1, 1), bring_in=1,
                             small_bet=2, big_bet=4, rake=Rake(5000, (99, 99, 99))))[0]
    done, _ = play(state, (1, "bringin"), (0, "complete"), (1, "fold"))
    assert done.finished and done.rake == 0


def test_c5_stud_a_hand_past_third_street_is_raked():
    stud = variant("F7S")
    state = start_hand(setup((50, 50), ("AsAhKd", "2c3c4d"), "QsQhJc9c", blinds=(), game=stud, antes=(1, 1),
                             bring_in=1, small_bet=2, big_bet=4, rake=Rake(5000, (99, 99, 99))))[0]
    state, _ = play(state, (1, "bringin"), (0, "complete"), (1, "call"))
    state, _ = play(state, (state.actor, "bet", 2))
    state, _ = play(state, (state.actor, "fold"))
    assert state.finished and state.rake == 3  # half of the 6-chip pot


def test_c5_draw_no_drop_only_on_the_first_betting_round():
    draw = variant("N5CD")
    cards = ("AsAhKdQc2c", "3c4d5h8s9s")
    half = Rake(5000, (99, 99, 99))
    state = start_hand(setup((100, 100), cards, "", game=draw, rake=half))[0]
    done, _ = play(state, (0, "raise", 10), (1, "fold"))
    assert done.finished and done.rake == 0
    state = start_hand(setup((100, 100), cards, "", game=draw, rake=half))[0]
    state, _ = play(state, (0, "call"), (1, "check"))
    while state.drawing:
        state, _ = play(state, (state.actor, "standpat"))
    state, _ = play(state, (state.actor, "bet", 4))
    state, _ = play(state, (state.actor, "fold"))
    assert state.finished and state.rake == 2  # half of the 4-chip pot after the draw


def test_c5_a_bad_rake_rule_is_refused():
    with pytest.raises(InvalidInput, match="basis points"):
        start_hand(setup((100, 100), (ACES, KINGS), BOARD, rake=Rake(10001, (1, 1, 1))))
    with pytest.raises(InvalidInput, match="caps"):
        start_hand(setup((100, 100), (ACES, KINGS), BOARD, rake=Rake(500, (1, -1, 1))))


# -- C7: run it twice --------------------------------------------------------
def test_c7_all_in_preflop_the_board_is_run_twice_each_run_wins_half_odd_chip_to_the_first():
    # Seat 0's dead chip makes the pot odd: 199 chips, 100 to the first run, 99 to the second.
    state = start_hand(setup((100, 100), (ACES, KINGS), BOARD + SECOND, run_twice=(0, 1), dead=(1, 0)))[0]
    done, events = play(state, (0, "allin"), (1, "call"))
    assert done.board == parse_cards(BOARD) and done.second_board == parse_cards(SECOND)
    seconds = [e for e in events if isinstance(e, SecondRunDealt)]
    assert seconds == [SecondRunDealt("flop", parse_cards("Kd4c5h")), SecondRunDealt("turn", parse_cards("8s")),
                       SecondRunDealt("river", parse_cards("Tc"))]
    runs = [e for e in events if isinstance(e, RunShowdown)]
    assert runs == [RunShowdown(1, parse_cards(BOARD)), RunShowdown(2, parse_cards(SECOND))]
    first, second = (events[events.index(run) + 1] for run in runs)
    assert isinstance(first, PotAwarded) and first.shares == ((0, 100),)
    assert isinstance(second, PotAwarded) and second.shares == ((1, 99),)
    assert done.final_stacks() == (100, 100)


def test_c7_all_in_on_the_turn_only_the_river_is_run_twice():
    state = heads_up(BOARD + "Kd", run_twice=(0, 1))
    done, events = play(state, (0, "call"), (1, "check"), (1, "check"), (0, "check"), (1, "allin"), (0, "call"))
    assert done.second_board == parse_cards("2c7d9hJsKd")  # the first four cards, then the next card of the deck
    assert [e for e in events if isinstance(e, SecondRunDealt)] == [SecondRunDealt("river", parse_cards("Kd"))]
    assert done.final_stacks() == (100, 100)


def test_c7_one_player_not_agreeing_runs_it_once():
    done, events = play(heads_up(BOARD + SECOND, run_twice=(0,)), (0, "allin"), (1, "call"))
    assert done.second_board == () and not any(isinstance(e, (SecondRunDealt, RunShowdown)) for e in events)
    assert done.final_stacks() == (200, 0)


def test_c7_all_in_on_the_river_has_nothing_left_to_run():
    moves = [(0, "call"), (1, "check")] + [(1, "check"), (0, "check")] * 2 + [(1, "allin"), (0, "call")]
    done, _ = play(heads_up(BOARD + SECOND, run_twice=(0, 1)), *moves)
    assert done.second_board == () and done.final_stacks() == (200, 0)


def test_c7_agreement_during_the_hand_before_the_run_out():
    state = heads_up(BOARD + SECOND)
    state, _ = play(state, (0, "allin"))
    state = agree_to_run_twice(agree_to_run_twice(state, 0), 1)
    assert state.setup.run_twice == (0, 1)
    done, _ = play(state, (1, "call"))
    assert done.final_stacks() == (100, 100)


def test_c7_only_players_in_the_pot_agree():
    state = start_hand(setup((100, 100, 100), (ACES, KINGS, "QsQh"), BOARD + SECOND, blinds=(0, 1, 2)))[0]
    state, _ = play(state, (0, "fold"))
    before = state
    with pytest.raises(IllegalAction, match="not in the pot"):
        agree_to_run_twice(state, 0)
    assert state == before and state.setup.run_twice == ()
    with pytest.raises(InvalidInput):
        agree_to_run_twice(state, 7)


def test_c7_applies_to_boards_stud_has_none():
    stud = variant("F7S")
    state = start_hand(setup((50, 50), ("AsAhKd", "2c3c4d"), "QsQhJc9c", blinds=(), game=stud, antes=(1, 1),
                             bring_in=1, small_bet=2, big_bet=4))[0]
    with pytest.raises(IllegalAction, match="no board to run twice"):
        agree_to_run_twice(state, 0)
    with pytest.raises(InvalidInput, match="no board to run twice"):
        start_hand(setup((50, 50), ("AsAhKd", "2c3c4d"), "QsQhJc9c", blinds=(), game=stud, antes=(1, 1),
                         bring_in=1, small_bet=2, big_bet=4, run_twice=(0, 1)))


def test_c7_no_agreement_after_the_hand():
    done, _ = play(heads_up(), (0, "allin"), (1, "call"))
    with pytest.raises(IllegalAction, match="over"):
        agree_to_run_twice(done, 0)


def test_c7_v6_hi_lo_splits_within_each_run():
    omaha = variant("FO/8")
    holes = ("Ah2hKcKd", "QsQhJsJh")
    # Run 1: seat 1's three queens win high, seat 0's 8-4-3-2-A the low.
    # Run 2: seat 0's kings full win high, and no low qualifies: high takes the run.
    state = start_hand(setup((3, 3), holes, "3c4d8sQc9d" + "Kh7c6dTsTd", game=omaha, run_twice=(0, 1)))[0]
    done, events = play(state, (0, "allin"), (1, "call"))
    awards = [(e.half, e.shares) for e in events if isinstance(e, PotAwarded)]
    assert awards == [("high", ((1, 2),)), ("low", ((0, 1),)), ("", ((0, 3),))] or awards == [
        ("high", ((1, 2),)), ("low", ((0, 1),)), ("high", ((0, 3),))]
    assert done.final_stacks() == (4, 2)


def test_c7_c5_the_rake_comes_out_before_the_runs_share_the_pot():
    state = start_hand(setup((100, 100), (ACES, KINGS), BOARD + SECOND, run_twice=(0, 1), dead=(1, 0),
                             rake=Rake(1000, (99, 99, 99))))[0]
    done, events = play(state, (0, "allin"), (1, "call"))
    assert done.rake == 19  # 10 % of 199
    assert [e.amount for e in events if isinstance(e, PotAwarded)] == [90, 90]
    assert sum(done.final_stacks()) + done.rake == 200


def test_c7_a_recorded_board_holds_the_second_run_after_the_first():
    cards = parse_cards(BOARD + SECOND)
    state = start_hand(HandSetup(stacks=(100, 100), button=0, blinds=(1, 2), big_blind=2,
                                 hole=(parse_cards(ACES), parse_cards(KINGS)), board=cards, run_twice=(0, 1)))[0]
    done, _ = play(state, (0, "allin"), (1, "call"))
    assert done.second_board == parse_cards(SECOND) and done.final_stacks() == (100, 100)


def test_c7_first_run_is_the_ordinary_street_dealt():
    state = heads_up(BOARD + SECOND, run_twice=(0, 1))
    _, events = play(state, (0, "allin"), (1, "call"))
    streets = [e for e in events if isinstance(e, StreetDealt)]
    assert [e.street for e in streets] == ["flop", "turn", "river"]
    assert sum((e.cards for e in streets), ()) == parse_cards(BOARD)


def test_setup_fields_end_with_the_cash_additions():
    assert _SETUP_FIELDS[-3:] == ("rake", "run_twice", "blind_kinds")
