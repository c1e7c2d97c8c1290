"""Exporting engine hands as PHH (formats.md §2): PokerKit and our own replay
must load what we write and reach the same finishing stacks."""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest
from pokerkit_check import EXACT, HOUSE_R12, compare_with_pokerkit, pokerkit_strict
from test_phh_pokerkit_diff import random_move, random_setup

from freezeout.cards import parse_cards
from freezeout.formats.phh import PhhError, parse_phh
from freezeout.formats.phh_export import played_hand_to_phh
from freezeout.formats.phh_replay import replay_phh
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import Event, Resigned
from freezeout.rules.hand import HandSetup, HandState, apply, resign, start_hand
from freezeout.rules.legal import legal_actions
from freezeout.rules.variant import Ruleset

pokerkit = pytest.importorskip("pokerkit")


def play(setup: HandSetup, moves: Sequence[Action]) -> tuple[HandState, list[Event]]:
    state, events = start_hand(setup)
    for move in moves:
        if move.kind is ActionKind.RESIGN:
            if state.finished:
                continue
            state, new = resign(state, move.seat)
        else:
            state, new = apply(state, move)
        events.extend(new)
    return state, events


def in_phh_order(setup: HandSetup, values: Sequence[int]) -> list[int]:
    n = len(values)
    return [values[(setup.button + 1 + index) % n] for index in range(n)]


def export_and_load(setup: HandSetup, moves: Sequence[Action]) -> tuple[list[str], list[int], list[int]]:
    """The exported hand's actions, PokerKit's final stacks and the engine's (PHH order)."""
    text = played_hand_to_phh(setup, moves)
    state, _ = play(setup, moves)
    return tomllib.loads(text)["actions"], list(pokerkit_strict(text).stacks), in_phh_order(setup, state.final_stacks())


def setup_of(
    stacks: Sequence[int], button: int, blinds: Sequence[int], hole: Sequence[str], board: str
) -> HandSetup:
    return HandSetup(
        stacks=tuple(stacks),
        button=button,
        blinds=tuple(blinds),
        big_blind=max(blinds),
        hole=tuple(parse_cards(cards) for cards in hole),
        board=parse_cards(board),
        ruleset=Ruleset.STANDARD,
        names=tuple(f"player {seat}" for seat in range(len(stacks))),
    )


def test_heads_up_seat_order_and_text() -> None:
    # Button (small blind) is seat 0; PHH puts the big blind first: p1 = seat 1, p2 = seat 0.
    setup = setup_of([1000, 800], 0, [10, 20], ["AsAh", "KsKh"], "2c3c4d5h9s")
    moves = [
        Action(0, ActionKind.CALL),
        Action(1, ActionKind.CHECK),
        Action(1, ActionKind.BET, 40),
        Action(0, ActionKind.FOLD),
    ]
    text = played_hand_to_phh(setup, moves, hand_number=7, event='cup "A"')
    data = tomllib.loads(text)
    assert data["blinds_or_straddles"] == [10, 20]  # PHH reverses heads-up: p1 (seat 1) posts 20
    assert data["starting_stacks"] == [800, 1000]
    assert data["players"] == ["player 1", "player 0"]
    assert data["actions"] == [
        "d dh p1 KsKh",
        "d dh p2 AsAh",
        "p2 cc",
        "p1 cc",
        "d db 2c3c4d",
        "p1 cbr 40",
        "p2 f",
    ]
    assert data["finishing_stacks"] == [820, 980]
    assert (data["hand"], data["event"], data["min_bet"]) == (7, 'cup "A"', 20)
    state = pokerkit_strict(text)
    assert list(state.stacks) == [820, 980]
    assert replay_phh(parse_phh(text)).matches is True


def test_showdown_and_run_out_follow_pokerkits_order() -> None:
    # All-in on the flop: PHH shows the hands when the betting ends, then deals the turn and river.
    setup = setup_of([500, 500, 500], 2, [10, 20, 0], ["AsAh", "KsKh", "2c7d"], "2s3s8dQhJc")
    moves = [
        Action(2, ActionKind.FOLD),
        Action(0, ActionKind.CALL),
        Action(1, ActionKind.CHECK),
        Action(0, ActionKind.ALLIN),
        Action(1, ActionKind.CALL),
    ]
    actions = tomllib.loads(played_hand_to_phh(setup, moves))["actions"]
    assert actions[-6:] == ["p1 cbr 480", "p2 cc", "p1 sm AsAh", "p2 sm KsKh", "d db Qh", "d db Jc"]
    text = played_hand_to_phh(setup, moves)
    assert list(pokerkit_strict(text).stacks) == [1000, 0, 500]


def test_timeouts_are_written_with_a_commentary() -> None:
    setup = setup_of([1000, 1000, 1000], 0, [0, 10, 20], ["AsAh", "KsKh", "2c7d"], "2s3s8dQhJc")
    moves = [Action(0, ActionKind.TIMEOUT), Action(1, ActionKind.TIMEOUT), Action(2, ActionKind.TIMEOUT)]
    # R26: a timeout folds facing a bet (seats 0 and 1); the big blind wins the blinds without acting.
    data = tomllib.loads(played_hand_to_phh(setup, moves[:2]))
    assert data["actions"][3:] == ["p3 f # timeout (R26)", "p1 f # timeout (R26)"]
    assert data["finishing_stacks"] == [990, 1010, 1000]


def test_a_raise_nobody_can_call_is_written_as_a_call() -> None:
    # D4: on the flop p1 (seat 0) bets all-in and p3 (seat 2) has only 30 behind, yet
    # seat 1 may raise to 300.  PokerKit refuses such a raise; in chips and in who
    # acts next it is a call, so the export writes "cc" with a commentary.
    setup = setup_of([100, 1000, 50], 2, [10, 20, 0], ["AsAh", "KsKh", "2c7d"], "2s3s8dQhJc")
    moves = [Action(2, ActionKind.CALL), Action(0, ActionKind.CALL), Action(1, ActionKind.CHECK)]
    moves += [Action(0, ActionKind.ALLIN), Action(1, ActionKind.RAISE, 300), Action(2, ActionKind.CALL)]
    actions, theirs, ours = export_and_load(setup, moves)
    assert actions[7:10] == [
        "p1 cbr 80",
        "p2 cc # raise to 300: nobody can call more (D4), written as a call",
        "p3 cc",
    ]
    assert theirs == ours
    assert replay_phh(parse_phh(played_hand_to_phh(setup, moves))).matches is True


def test_resignation_out_of_turn_is_a_fold_at_the_next_turn() -> None:
    # R28/D8: seat 1 resigns while seat 0 is to act; PHH writes his fold when his turn comes.
    setup = setup_of([1000, 1000, 1000], 2, [10, 20, 0], ["AsAh", "KsKh", "2c7d"], "2s3s8dQhJc")
    moves = [Action(2, ActionKind.CALL), Action(1, ActionKind.RESIGN), Action(0, ActionKind.CALL)]
    moves += [Action(0, ActionKind.CHECK), Action(2, ActionKind.CHECK)]  # flop; seat 1 is gone
    moves += [
        Action(0, ActionKind.CHECK),
        Action(2, ActionKind.CHECK),
        Action(0, ActionKind.CHECK),
        Action(2, ActionKind.CHECK),
    ]
    state, events = play(setup, moves)
    text = played_hand_to_phh(setup, moves)
    data = tomllib.loads(text)
    assert data["actions"][3:7] == [
        "p3 cc",
        "# p2 resigns (R28) out of turn; his 980 chips behind leave the game; PHH can fold him only at his turn",
        "p1 cc",
        "p2 f # resigned (R28): folded at his turn",
    ]
    # finishing_stacks are the truth: the resigner's chips behind left the game (R28).
    vanished = sum(event.vanished for event in events if isinstance(event, Resigned))
    assert vanished == 980
    assert data["finishing_stacks"] == in_phh_order(setup, state.final_stacks())
    pk = list(pokerkit_strict(text).stacks)
    assert pk[1] == data["finishing_stacks"][1] + vanished  # PHH cannot make chips vanish
    assert [a for i, a in enumerate(pk) if i != 1] == [
        a for i, a in enumerate(data["finishing_stacks"]) if i != 1
    ]


def test_a_hand_a_resignation_ends_is_played_to_the_resigners_fold() -> None:
    # Heads-up, the big blind resigns while the button is to act: the button wins
    # at once (R16).  PHH can fold the big blind only at his turn, so the button
    # calls first (in chips the same: he wins back what he calls).
    setup = setup_of([1000, 1000], 0, [10, 20], ["AsAh", "KsKh"], "")
    text = played_hand_to_phh(setup, [Action(1, ActionKind.RESIGN)])
    data = tomllib.loads(text)
    assert data["actions"][2:] == [
        "# p1 resigns (R28) out of turn; his 980 chips behind leave the game; PHH can fold him only at his turn",
        "p2 cc # not played: the hand ended when p1 resigned (R28); written so that PHH can fold him",
        "p1 f # resigned (R28): folded at his turn",
    ]
    assert data["finishing_stacks"] == [0, 1020]
    state = pokerkit_strict(text)
    assert not state.status and list(state.stacks) == [980, 1020]


def test_a_resignation_that_ends_the_hand_may_need_a_street_the_record_does_not_give() -> None:
    # Heads-up, the big blind checks on the flop and resigns while the button is
    # to act.  The record gives the board only as far as the hand went (the flop).
    setup = setup_of([1000, 1000], 0, [10, 20], ["AsAh", "KsKh"], "2s3s8d")
    moves = [Action(0, ActionKind.CALL), Action(1, ActionKind.CHECK), Action(1, ActionKind.CHECK)]
    moves += [Action(1, ActionKind.RESIGN)]
    text = played_hand_to_phh(setup, moves)
    data = tomllib.loads(text)
    # The button's check closes the flop in PHH; the big blind folds on the turn, an unknown card.
    assert data["actions"][-3:] == [
        "p2 cc # not played: the hand ended when p1 resigned (R28); written so that PHH can fold him",
        "d db ??",
        "p1 f # resigned (R28): folded at his turn",
    ]
    state = pokerkit_strict(text)
    assert not state.status and list(state.stacks) == [980, 1020]


def test_a_hand_decided_by_the_blinds_alone_has_its_board_and_showdown() -> None:
    # D11: heads-up, the button's small blind of 5 is all he has, the big blind
    # covers it: nobody acts, the board is run out and the hands are shown.
    setup = setup_of([5, 1000], 0, [10, 20], ["AsAh", "KsKh"], "2s3s8dQhJc")
    data = tomllib.loads(played_hand_to_phh(setup, []))
    assert data["actions"][2:] == ["p1 sm KsKh", "p2 sm AsAh", "d db 2s3s8d", "d db Qh", "d db Jc"]
    assert list(pokerkit_strict(played_hand_to_phh(setup, [])).stacks) == data["finishing_stacks"] == [995, 10]


def test_pokerkit_still_gives_the_big_blind_a_turn_that_d1_ends() -> None:
    # D1: the small blind calls all-in below the big blind and the button has
    # folded; nobody can bet against the big blind, so his round is over.
    # PokerKit asks him anyway: the file gives it the check it waits for.
    setup = setup_of([1000, 15, 1000], 0, [0, 10, 20], ["AsAh", "KsKh", "2c7d"], "2s3s8dQhJc")
    moves = [Action(0, ActionKind.FOLD), Action(1, ActionKind.CALL)]
    actions, theirs, ours = export_and_load(setup, moves)
    assert actions[3:6] == [
        "p3 f",
        "p1 cc",
        "p2 cc # D1 ended the round (nobody left to bet against); PokerKit still gives him this turn",
    ]
    assert theirs == ours


def test_a_short_big_blind_is_marked_on_every_preflop_action() -> None:
    # D1: the bet to match stays the full big blind; PokerKit lowers it, so the
    # preflop calls and raises mean other amounts there.
    setup = setup_of([1000, 1000, 5], 0, [0, 10, 20], ["AsAh", "KsKh", "2c7d"], "2s3s8dQhJc")
    moves = [Action(0, ActionKind.CALL), Action(1, ActionKind.CALL)]
    moves += [Action(seat, ActionKind.CHECK) for _ in range(3) for seat in (1, 0)]
    actions = tomllib.loads(played_hand_to_phh(setup, moves))["actions"]
    note = "the big blind is short: the bet to match stays 20 (D1), PokerKit lowers it to 10"
    assert actions[3:5] == [f"p3 cc # {note}", f"p1 cc # {note}"]
    assert actions[6] == "p1 cc"


def test_house_raises_that_a_short_all_in_reopened_are_marked() -> None:
    # R12 (house): on the flop seat 0 bets 100, seat 1 calls, seat 2 goes all-in
    # for 150 (short of a full raise), and seat 0 may raise again; the standard
    # ruleset (D3) and PokerKit would not let him.
    setup = replace(
        setup_of([1000, 1000, 170, 1000], 3, [10, 20, 0, 0], ["AsAh", "KsKh", "2c7d", "9c9d"], "2s3s8dQhJc"),
        ruleset=Ruleset.HOUSE,
    )
    moves = [Action(seat, ActionKind.CALL) for seat in (2, 3, 0)] + [Action(1, ActionKind.CHECK)]
    moves += [Action(0, ActionKind.BET, 100), Action(1, ActionKind.CALL), Action(2, ActionKind.ALLIN)]
    moves += [Action(3, ActionKind.FOLD), Action(0, ActionKind.RAISE, 300)]
    text = played_hand_to_phh(setup, [*moves, Action(1, ActionKind.FOLD)])
    assert (
        "p1 cbr 300 # a short all-in reopened the betting (R12, house ruleset); standard readers refuse this raise"
        in tomllib.loads(text)["actions"]
    )
    assert replay_phh(parse_phh(text), Ruleset.HOUSE).matches is True


def test_dead_blinds_are_written_as_untrimmed_antes() -> None:
    # A dead blind is dead money in the main pot: PHH says that with antes and
    # ante_trimming_status = false, and PokerKit reaches the same stacks.
    setup = replace(
        setup_of([1000, 1000, 1000], 2, [10, 20, 0], ["AsAh", "KsKh", "2c7d"], "2s3s8dQhJc"), dead=(0, 0, 10)
    )
    moves = [Action(2, ActionKind.CALL), Action(0, ActionKind.CALL), Action(1, ActionKind.CHECK)]
    moves += [Action(seat, ActionKind.CHECK) for _ in range(3) for seat in (0, 1, 2)]
    text = played_hand_to_phh(setup, moves)
    data = tomllib.loads(text)
    assert (data["antes"], data["ante_trimming_status"]) == ([0, 0, 10], False)
    state, _ = play(setup, moves)
    assert data["finishing_stacks"] == in_phh_order(setup, state.final_stacks()) == [1050, 980, 970]
    assert list(pokerkit_strict(text).stacks) == data["finishing_stacks"]
    with pytest.raises(ValueError, match="dead blinds and trimmed antes"):
        played_hand_to_phh(replace(setup, antes=(5, 5, 5), ante_trimming=True), moves)


def test_records_as_phhs_tables_load_in_pokerkit() -> None:
    # freezeout record phh writes "[N]" tables, one hand each.
    setup = setup_of([1000, 1000, 1000], 2, [10, 20, 0], ["AsAh", "KsKh", "2c7d"], "2s3s8dQhJc")
    hands = [
        played_hand_to_phh(setup, [Action(2, ActionKind.FOLD), Action(0, ActionKind.FOLD)], hand_number=1),
        played_hand_to_phh(
            setup,
            [Action(2, ActionKind.FOLD), Action(0, ActionKind.CALL), Action(1, ActionKind.CHECK)]
            + [Action(seat, ActionKind.CHECK) for _ in range(3) for seat in (0, 1)],
            hand_number=2,
        ),
    ]
    text = "\n".join(f"[{number}]\n{hand}" for number, hand in enumerate(hands, start=1))
    loaded = list(pokerkit.HandHistory.loads_all(text))
    assert [history.hand for history in loaded] == [1, 2]


def random_played_hand(rng: random.Random) -> tuple[HandSetup, list[Action]]:
    """A random hand with timeouts (R26) and resignations (R28) at any time."""
    ruleset = rng.choice([Ruleset.STANDARD, Ruleset.HOUSE])
    setup = random_setup(rng, ruleset).setup
    state, _ = start_hand(setup)
    moves: list[Action] = []
    while not state.finished:
        legal = legal_actions(state)
        assert legal is not None
        roll = rng.random()
        if roll < 0.02:
            move = Action(
                rng.choice([s for s in range(state.seat_count) if not state.folded[s]]), ActionKind.RESIGN
            )
            state, _ = resign(state, move.seat)
        else:
            move = Action(legal.seat, ActionKind.TIMEOUT) if roll < 0.06 else random_move(legal, rng)
            state, _ = apply(state, move)
        moves.append(move)
    if rng.random() < 0.05:
        moves.append(Action(0, ActionKind.RESIGN))  # between hands (D8): not part of the history
    return setup, moves


@pytest.mark.parametrize("block", range(4))
def test_random_hands_round_trip(block: int) -> None:
    """Random hands → PHH → PokerKit and our replay (the hand's own ruleset).

    PokerKit must accept every action as written and reach the end of every
    hand, with our chips up to the differences ``compare_with_pokerkit``
    names (a house raise after a short all-in, R12, it refuses).  Our replay
    must reach the engine's result when nobody resigned.
    """
    rng = random.Random(77 + block)
    outcomes: Counter[str] = Counter()
    resigned_hands = 0
    for _ in range(100):
        setup, moves = random_played_hand(rng)
        state, events = play(setup, moves)
        text = played_hand_to_phh(setup, moves, hand_number=block)
        data = tomllib.loads(text)
        truth = in_phh_order(setup, state.final_stacks())
        assert data["finishing_stacks"] == truth
        n = len(setup.stacks)
        outcome = compare_with_pokerkit(text, events, [(setup.button + 1 + i) % n for i in range(n)], setup.big_blind)
        outcomes[outcome] += 1
        assert outcome != HOUSE_R12 or setup.ruleset is Ruleset.HOUSE
        resigned = any(isinstance(event, Resigned) for event in events)
        resigned_hands += resigned
        try:
            ours = replay_phh(parse_phh(text), setup.ruleset)
        except PhhError as error:
            # Our reader's known gaps: a pot only the forfeiting resigner could win
            # (test_a_pot_only_a_mucked_hand_can_win, xfail) and the turn PokerKit
            # still gives a player after D1 ended the round.
            assert "no shown hand can win" in str(error) or "PokerKit still gives" in str(error), (error, text)
            continue
        assert ours.state.finished
        if not resigned:
            assert list(ours.finishing_stacks) == truth, text
    assert outcomes[EXACT] >= 90 and resigned_hands >= 1, outcomes
