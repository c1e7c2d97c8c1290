"""Unit tests of PHH parsing and replay (formats.md §2) on small made-up hands."""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal

import pytest

from freezeout.cards import parse_cards
from freezeout.formats.phh import PhhActionKind, PhhError, parse_phh, parse_phh_action
from freezeout.formats.phh_replay import (
    PhhReplay,
    build_setup,
    chip_scale,
    from_units,
    json_amount,
    replay_phh_text,
    to_units,
)
from freezeout.rules import start_hand
from freezeout.rules.variant import Ruleset


def _toml_value(value: object) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return str(value)


def phh(
    actions: Sequence[str],
    *,
    stacks: Sequence[object] = (1000, 1000, 1000),
    blinds: Sequence[object] | None = None,
    antes: Sequence[object] | None = None,
    min_bet: object = 20,
    finishing: Sequence[object] | None = None,
    variant: str = "NT",
) -> str:
    """A PHH text; blinds default to 10/20 in the first two positions."""
    n = len(stacks)
    if blinds is None:
        blinds = [10, 20] + [0] * (n - 2)
    lines = [
        f"variant = {variant!r}",
        f"antes = {_toml_value(list(antes) if antes is not None else [0] * n)}",
        f"blinds_or_straddles = {_toml_value(list(blinds))}",
        f"min_bet = {min_bet}",
        f"starting_stacks = {_toml_value(list(stacks))}",
        f"actions = {_toml_value(list(actions))}",
    ]
    if finishing is not None:
        lines.append(f"finishing_stacks = {_toml_value(list(finishing))}")
    return "\n".join(lines) + "\n"


def replay(text: str, ruleset: Ruleset = Ruleset.STANDARD) -> PhhReplay:
    return replay_phh_text(text, ruleset)


def ints(values: Sequence[Decimal]) -> list[int]:
    assert all(value == int(value) for value in values)
    return [int(value) for value in values]


DEAL3 = ["d dh p1 AsAh", "d dh p2 KsKh", "d dh p3 2c7d"]


# ---------------------------------------------------------------- parsing


def test_amounts_are_exact_decimals_never_floats() -> None:
    hand = parse_phh(phh([], stacks=[25.72, 5.42], blinds=[0.10, 0.25], min_bet=0.25))
    assert hand.blinds_or_straddles == (Decimal("0.10"), Decimal("0.25"))
    assert hand.starting_stacks == (Decimal("25.72"), Decimal("5.42"))
    assert all(type(value) is Decimal for value in (*hand.starting_stacks, hand.min_bet))


def test_action_notation() -> None:
    action = parse_phh_action("  p2   cbr 0.75   # a raise", 9, 3)
    assert (action.kind, action.player, action.amount, action.commentary) == (
        PhhActionKind.BET_RAISE,
        1,
        Decimal("0.75"),
        "a raise",
    )
    deal = parse_phh_action("d dh p1 ??Ad", 1, 2)
    assert deal.cards == (None, parse_cards("Ad")[0])
    assert parse_phh_action("p1 sm", 5, 2).cards is None  # muck
    assert parse_phh_action("p1 sm -", 5, 2).shows_dealt
    assert parse_phh_action("# burn card exposed", 3, 2).kind is PhhActionKind.NO_OP
    assert parse_phh_action("", 3, 2).kind is PhhActionKind.NO_OP


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("p4 f", "there is no player p4 in a 3-player hand"),
        ("x1 f", "'x1' is not a player (expected p1..p3)"),
        ("p1 raise 40", "unknown player action (expected f, cc, cbr, sm, sd or pb)"),
        ("p1 cbr", "cbr needs exactly one amount"),
        ("p1 cbr -5", "the amount must be a positive number, got '-5'"),
        ("p1 cbr lots", "invalid amount 'lots'"),
        ("p1 f now", "f takes no argument"),
        ("d db AhKh??", "board cards must be known"),
        ("d dh p1 AsK", "invalid cards 'AsK': every card is two characters"),
        ("d burn", "unknown dealer action (expected 'd dh pN cards' or 'd db cards')"),
    ],
)
def test_bad_action_notation(text: str, reason: str) -> None:
    with pytest.raises(PhhError) as caught:
        parse_phh_action(text, 7, 3)
    assert str(caught.value) == f"action 7 {text!r}: {reason}"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("variant = 'NT'\nactions = [", "malformed TOML"),
        ("actions = []\nstarting_stacks = [1, 2]", "missing or invalid 'variant'"),
        ("variant = 'NT'\nactions = []", "missing 'starting_stacks'"),
        (
            "variant = 'NT'\nstarting_stacks = [100, 0]\nactions = []",
            "'starting_stacks' entry 2 must be positive",
        ),
        ("variant = 'NT'\nstarting_stacks = [100, inf]\nactions = []", "unknown (infinite) amounts"),
        (
            "variant = 'NT'\nstarting_stacks = [100, 100]\nantes = [0]\nactions = []",
            "'antes' has 1 entries for 2",
        ),
        ("variant = 'NT'\nstarting_stacks = [100, 100]\nactions = 'p1 f'", "missing or invalid 'actions'"),
        ("variant = 'NT'\nstarting_stacks = [100, 100]\nantes = [true, 0]\nactions = []", "must be a number"),
    ],
)
def test_malformed_files(text: str, reason: str) -> None:
    with pytest.raises(PhhError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        parse_phh(text)


# ---------------------------------------------------------------- exact amounts


def test_chip_scale_is_the_smallest_power_of_ten() -> None:
    assert chip_scale([Decimal("10112.5"), Decimal("9775.0"), Decimal(100)]) == 10
    assert chip_scale([Decimal("0.10"), Decimal("0.25"), Decimal("25.72")]) == 100
    assert chip_scale([Decimal("0.50"), Decimal("1")]) == 10  # trailing zeros do not count
    assert chip_scale([Decimal("1E+3"), Decimal(7)]) == 1
    assert chip_scale([]) == 1


def test_units_round_trip_exactly_even_beyond_decimal_precision() -> None:
    long = Decimal("123456789012345678901234567890.125")  # 33 digits: more than Decimal's 28
    scale = chip_scale([long])
    assert scale == 1000
    units = to_units(long, scale)
    assert units == 123456789012345678901234567890125
    assert from_units(units, scale) == long
    assert from_units(-5, 100) == Decimal("-0.05")
    with pytest.raises(ValueError):
        to_units(Decimal("0.001"), 100)


def test_json_amounts_have_no_float_noise() -> None:
    assert json_amount(Decimal("9775.0")) == 9775 and type(json_amount(Decimal("9775.0"))) is int
    values = [json_amount(Decimal(text)) for text in ("10112.5", "0.35", "25.72", "0.1")]
    assert json.dumps(values) == "[10112.5, 0.35, 25.72, 0.1]"


def test_decimal_stakes_replay_exactly() -> None:
    # 0.10/0.25 blinds; p3 raises to 0.75, p1 calls, p2 folds; p1 checks, p3 bets 1.10, p1 folds.
    text = phh(
        [*DEAL3, "p3 cbr 0.75", "p1 cc", "p2 f", "d db 2s3s4d", "p1 cc", "p3 cbr 1.10", "p1 f"],
        stacks=[10, 10, 10.05],
        blinds=[0.10, 0.25, 0],
        min_bet=0.25,
        finishing=[9.25, 9.75, 11.05],
    )
    result = replay(text)
    assert result.scale == 100
    assert result.finishing_stacks == (Decimal("9.25"), Decimal("9.75"), Decimal("11.05"))
    assert result.matches is True
    assert result.to_json("x.phh")["finishing_stacks"] == [9.25, 9.75, 11.05]


def test_scaled_amount_errors_quote_the_files_units() -> None:
    text = phh([*DEAL3, "p3 cbr 0.30"], stacks=[10, 10, 10], blinds=[0.10, 0.25, 0], min_bet=0.25)
    with pytest.raises(PhhError) as caught:
        replay(text)
    assert str(caught.value) == "action 4 'p3 cbr 0.30': raise to 0.3 is below the minimum raise to 0.5"


def test_finishing_stacks_decide_the_granularity() -> None:
    # R22: 3 players split a pot of 60 three ways is whole; two ways of 45 needs halves.
    # p1 and p2 hold the same straight and split; p3 folded after calling 20.
    actions = [
        "d dh p1 9s8d",
        "d dh p2 9h8c",
        "d dh p3 2c2d",
        "p3 cc",
        "p1 cc",
        "p2 cc",
        "d db TdJhQc",
        "p1 cbr 25",
        "p2 cc",
        "p3 f",
        "d db 3s",
        "p1 cc",
        "p2 cc",
        "d db 4h",
        "p1 cc",
        "p2 cc",
    ]
    whole = replay(phh(actions))  # pot 110: 55 each, no scaling needed
    assert whole.scale == 1
    assert ints(whole.finishing_stacks) == [1010, 1010, 980]
    # The same hand with 1 more chip in the pot (an ante of 1 from p3) is odd:
    odd = replay(phh(actions, antes=[0, 0, 1], finishing=[1010.5, 1010.5, 979]))
    assert odd.scale == 10
    assert odd.finishing_stacks == (Decimal("1010.5"), Decimal("1010.5"), Decimal("979"))
    assert odd.matches is True
    # Without the finishing_stacks hint the engine counts whole chips and
    # deals the odd chip one at a time from the left of the button (R22, D7): p1.
    assert ints(replay(phh(actions, antes=[0, 0, 1])).finishing_stacks) == [1011, 1010, 979]


# ---------------------------------------------------------------- seats, blinds, antes


def test_players_start_left_of_the_button() -> None:
    setup, scale = build_setup(parse_phh(phh(DEAL3)))
    assert (setup.button, setup.blinds, setup.big_blind, scale) == (2, (10, 20, 0), 20, 1)
    assert setup.names == ("p1", "p2", "p3")
    # R9: preflop the player after the big blind (p3, the button) acts first.
    with pytest.raises(PhhError, match="it is p3's turn, not p1's"):
        replay(phh([*DEAL3, "p1 cc"]))


def test_heads_up_forced_bets_are_reversed() -> None:
    # PHH: heads-up the arrays apply reversed; p2 is the button and posts the small blind (R5).
    deal = ["d dh p1 AsAh", "d dh p2 KsKh"]
    setup, _ = build_setup(parse_phh(phh(deal, stacks=[1000, 1000], blinds=[10, 20], antes=[0, 3])))
    assert (setup.button, setup.blinds, setup.antes) == (1, (20, 10), (3, 0))
    # R9: the button acts first preflop, the big blind first after the flop.
    hand = phh(
        [*deal, "p2 cc", "p1 cc", "d db 2c3c4d", "p1 cbr 20", "p2 f"], stacks=[1000, 1000], blinds=[10, 20]
    )
    assert ints(replay(hand).finishing_stacks) == [1020, 980]
    with pytest.raises(PhhError, match="it is p2's turn, not p1's"):
        replay(phh([*deal, "p1 cc"], stacks=[1000, 1000], blinds=[10, 20]))


def test_straddle_acts_last_and_sets_the_minimum_raise() -> None:
    # UTG straddle of 40: p4 acts first; the raise must be at least 40 more (D2).
    deal = [*DEAL3, "d dh p4 QsQh"]
    hand = phh([*deal, "p4 cbr 70"], stacks=[1000] * 4, blinds=[10, 20, 40, 0])
    with pytest.raises(PhhError, match="raise to 70 is below the minimum raise to 80"):
        replay(hand)
    walk = phh([*deal, "p4 f", "p1 f", "p2 f"], stacks=[1000] * 4, blinds=[10, 20, 40, 0])
    assert ints(replay(walk).finishing_stacks) == [990, 980, 1030, 1000]


def test_button_straddle() -> None:
    # PHH example "button straddle": the small blind acts first (R9, left of the straddle).
    deal = [f"d dh p{i + 1} {cards}" for i, cards in enumerate(["AsAh", "KsKh", "QsQh", "JsJh"])]
    hand = phh([*deal, "p1 f", "p2 f", "p3 f"], stacks=[1000] * 4, blinds=[10, 20, 0, 40])
    assert ints(replay(hand).finishing_stacks) == [990, 980, 1000, 1030]


def test_uniform_antes() -> None:
    # Antes are dead money posted before the blinds; everyone folds to the big blind.
    hand = phh([*DEAL3, "p3 f", "p1 f"], antes=[5, 5, 5], finishing=[985, 1020, 995])
    assert replay(hand).matches is True


def test_negative_blind_is_a_live_blind_posted_out_of_turn() -> None:
    # PokerKit's extension (HandHQ): p3 posts 20 live out of turn; he still
    # acts first, right after the big blind, and may check his posted 20.
    deal = [*DEAL3, "d dh p4 QsQh"]
    setup, _ = build_setup(parse_phh(phh(deal, stacks=[1000] * 4, blinds=[10, 20, -20, 0])))
    assert setup.blinds == (10, 20, 20, 0) and setup.out_of_turn == (False, False, True, False)
    state, _ = start_hand(setup)
    assert state.actor == 2 and state.legal_actions().can_check


def test_short_big_blind_does_not_lower_the_call() -> None:
    # D1: p2 posts 5 of the 20 big blind; p3 and p1 still call the full 20.
    # p2's 5 from each makes the main pot (15), the rest a side pot (30) that
    # p1 wins.  PokerKit would let them call 5 (see test_phh_pokerkit_diff.py).
    checks = ["p1 cc", "p3 cc"]
    actions = ["d dh p1 KsKh", "d dh p2 AsAh", "d dh p3 2c7d", "p3 cc", "p1 cc", "d db 2s3s8d", *checks]
    actions += ["d db 9h", *checks, "d db Tc", *checks]
    result = replay(phh(actions, stacks=[1000, 5, 1000], finishing=[1010, 15, 980]))
    assert result.matches is True, result.finishing_stacks


def test_all_in_below_the_minimum_is_allowed() -> None:
    # D5: a cbr of the whole stack is an all-in even below the minimum raise.
    hand = phh([*DEAL3, "p3 cbr 30", "p1 f", "p2 f"], stacks=[1000, 1000, 30])
    assert ints(replay(hand).finishing_stacks) == [990, 980, 60]


@pytest.mark.parametrize(("ruleset", "legal"), [(Ruleset.STANDARD, False), (Ruleset.HOUSE, True)])
def test_short_all_in_reopens_only_under_the_house_ruleset(ruleset: Ruleset, legal: bool) -> None:
    # R12/D3: flop bet 100, short all-in to 150, the bettor may re-raise only under house rules.
    actions = [
        *DEAL3,
        "p3 cc",
        "p1 cc",
        "p2 cc",
        "d db 2s3s4d",
        "p1 cbr 100",
        "p2 cbr 150",
        "p3 cc",
        "p1 cbr 400",
    ]
    text = phh(actions, stacks=[1000, 170, 1000])
    if legal:
        assert replay(text, ruleset).state.bets[0] == 400
    else:
        with pytest.raises(PhhError, match="the betting was not reopened"):
            replay(text, ruleset)


# ---------------------------------------------------------------- cards, showdown, muck


SHOWDOWN = [
    *DEAL3,
    "p3 f",
    "p1 cc",
    "p2 cc",
    "d db 2s3s8d",
    "p1 cc",
    "p2 cc",
    "d db 9h",
    "p1 cc",
    "p2 cc",
    "d db Tc",
    "p1 cc",
    "p2 cc",
]


def test_showdown_best_hand_wins() -> None:
    assert ints(replay(phh([*SHOWDOWN, "p1 sm AsAh", "p2 sm KsKh"])).finishing_stacks) == [1020, 980, 1000]


@pytest.mark.parametrize("ruleset", [Ruleset.STANDARD, Ruleset.HOUSE])
def test_a_muck_forfeits_the_hand(ruleset: Ruleset) -> None:
    # R17: p1's aces would win, but a muck gives up the pot.  The standard
    # ruleset lets losing hands be mucked; under house rules nobody mucks, so a
    # muck in a history is a resignation's forfeit (R28) — it counts in both.
    result = replay(phh([*SHOWDOWN, "p2 sm KsKh", "p1 sm"]), ruleset)
    assert ints(result.finishing_stacks) == [980, 1020, 1000]


def test_a_pot_only_a_mucked_hand_can_win() -> None:
    # p3 is all-in preflop for 100.  p1 and p2 build a side pot on the flop,
    # p2 folds to p1's turn bet; at showdown p1 mucks against p3's main pot.
    # The side pot (p1's and p2's flop bets) is p1's alone: he needs no hand.
    actions = [*DEAL3, "p3 cbr 100", "p1 cc", "p2 cc", "d db 2s3s8d", "p1 cbr 200", "p2 cc", "d db 9h"]
    actions += ["p1 cbr 300", "p2 f", "d db Tc", "p1 sm", "p3 sm 2c7d"]
    result = replay(phh(actions, stacks=[1000, 1000, 100]))
    # p3 wins the main pot of 300; p1 keeps the 400 side pot; p2 lost 300.
    assert ints(result.finishing_stacks) == [1000 - 300 + 400, 700, 300]


def test_cards_unknown_at_the_deal_are_used_when_shown() -> None:
    deal = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????"]
    result = replay(phh([*deal, *SHOWDOWN[3:], "p2 sm KsKh", "p1 sm AsAh"]))
    assert ints(result.finishing_stacks) == [1020, 980, 1000]
    assert result.setup.hole[2] is None


def test_an_unknown_hand_at_showdown_cannot_win() -> None:
    deal = ["d dh p1 ????", "d dh p2 KsKh", "d dh p3 ????"]
    # p1 shows unknown cards (a cash-game "sm ????"): p2 wins.
    assert ints(replay(phh([*deal, *SHOWDOWN[3:], "p1 sm ????"])).finishing_stacks) == [980, 1020, 1000]
    # Nobody shows a known hand: nobody can win the pot.
    with pytest.raises(PhhError, match="no shown hand can win pot 1"):
        replay(phh([*["d dh p1 ????", "d dh p2 ????", "d dh p3 ????"], *SHOWDOWN[3:]]))


def test_shown_cards_must_be_the_dealt_ones() -> None:
    with pytest.raises(PhhError, match=r"action 16 'p1 sm AsAd': p1 shows AsAd but was dealt AsAh"):
        replay(phh([*SHOWDOWN, "p1 sm AsAd"]))


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ([*DEAL3, "d dh p1 QsQh"], "action 4 'd dh p1 QsQh': p1 is dealt hole cards twice"),
        (["d dh p1 AsAh", "d dh p2 AsKh", "d dh p3 2c7d"], "card As is dealt twice (p1 and p2)"),
        (
            [*DEAL3, "p3 f", "p1 cc", "d db 2s3s8d"],
            "action 6 'd db 2s3s8d': the board is dealt before the preflop",
        ),
        (
            [*DEAL3, "p3 f", "p1 cc", "p2 cc", "p1 cc"],
            "action 7 'p1 cc': the flop must be dealt ('d db') before p1 acts",
        ),
        ([*DEAL3, "p3 f", "p1 f", "d db 2s3s8d"], "the hand is already over: no more cards are dealt"),
        ([*DEAL3, "p3 f", "p1 f", "p2 f"], "action 6 'p2 f': the hand is over"),
        ([*DEAL3, "p3 f", "p1 cc", "p2 cc", "d db 2s3s8d9d"], "the flop is 3 card(s), not 4"),
        ([*DEAL3, "p3 sd"], "action 4 'p3 sd': 'sd' is not an action of NT"),
        ([*DEAL3, "p3 sm"], "cards are shown or mucked before the betting is over"),
        ([*DEAL3, "p3 f", "p3 sm"], "p3 has folded and is not in the showdown"),
        (["d dh p1 AsAhKd", "d dh p2 ????", "d dh p3 ????"], "p1 is dealt 3 cards; NT deals 2"),
        (
            ["d dh p1 AsAh", "d dh p2 KsKh", "p3 cc", "d dh p3 2c7d"],
            "hole cards are dealt after the betting has started",
        ),
    ],
)
def test_replay_errors(actions: list[str], message: str) -> None:
    with pytest.raises(PhhError, match=message.replace("(", r"\(").replace(")", r"\)")):
        replay(phh(actions))


def test_unsupported_variant() -> None:
    with pytest.raises(PhhError) as caught:
        replay(phh([], variant="XT"))
    assert str(caught.value) == "variant 'XT' is not supported"


def test_a_partial_history_reports_the_stacks_behind() -> None:
    # PHH allows a history that stops before the end; finishing_stacks are then
    # the stacks after the last action (chips in front of players excluded).
    result = replay(phh([*DEAL3, "p3 cbr 60"], finishing=[990, 980, 940]))
    assert not result.state.finished
    assert result.matches is True


def test_check_or_call_is_resolved_by_the_situation() -> None:
    # "cc" is a call with something to call and a check otherwise (the big
    # blind's option).  The history stops when preflop ends: a partial hand.
    result = replay(phh([*DEAL3, "p3 cc", "p1 cc", "p2 cc"]))
    assert not result.state.finished and result.state.street == 1
    assert ints(result.finishing_stacks) == [980, 980, 980]
    assert result.matches is None


def test_a_run_out_needs_the_files_board() -> None:
    # All-in preflop: the hand cannot be decided without the five board cards.
    actions = [*DEAL3, "p3 f", "p1 cbr 1000", "p2 cc", "p1 sm AsAh", "p2 sm KsKh", "d db 2s3s8d"]
    with pytest.raises(PhhError, match="reaches the showdown with 5 board cards, but the file deals 3"):
        replay(phh(actions))
    done = replay(phh([*actions, "d db 9h", "d db Tc"]))
    assert ints(done.finishing_stacks) == [2000, 0, 1000]
