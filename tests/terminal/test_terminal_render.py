"""Wording and layout helpers of the terminal game (no textual needed)."""

from __future__ import annotations

from freezeout.cards import parse_cards
from freezeout.evaluate import evaluate
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import (
    ActionTaken,
    BetReturned,
    BlindPosted,
    CardsShown,
    Eliminated,
    PotAwarded,
    Resigned,
    StreetDealt,
    TournamentEnded,
)
from freezeout.rules.legal import LegalActions
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.views import seat_view
from freezeout.terminal import render

NAMES = ("you", "bot1", "bot2")


def rank_of(cards: str) -> int:
    return evaluate(cards).rank


FULL_HOUSE = rank_of("KsKhKdTcTs")  # "Full house, kings full of tens"


def test_ordinals() -> None:
    assert [render.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd",
    ]  # fmt: skip


def test_cards_use_suit_symbols_and_colours() -> None:
    cards = parse_cards("AsTh")
    assert render.cards_label(cards) == "A♠ T♥"
    text = render.cards_text(cards, slots=5)
    assert text.plain.split() == ["A♠", "T♥", "··", "··", "··"]
    styles = {str(span.style) for span in text.spans}
    assert any("red" in style for style in styles) and any("black" in style for style in styles)
    assert render.cards_text(None, hidden=2).plain.split() == ["▒▒", "▒▒"]


def test_event_lines_read_like_a_dealer() -> None:
    d = render.describe_event
    assert d(BlindPosted(1, "small blind", 10, False), NAMES) == "bot1 posts the small blind 10"
    assert d(BlindPosted(0, "big blind", 5, True), NAMES) == "you post the big blind 5 and are all-in"
    assert d(ActionTaken(0, "raise", 60, 40, False), NAMES) == "you raise to 60"
    assert d(ActionTaken(2, "call", 60, 40, True), NAMES) == "bot2 calls 40, all-in"
    assert d(ActionTaken(2, "bet", 80, 80, False), NAMES) == "bot2 bets 80"
    assert d(ActionTaken(1, "fold", 0, 0, False, True), NAMES) == "bot1 folds (forced)"
    assert d(BetReturned(1, 40), NAMES) == "40 uncalled returned to bot1"
    assert d(StreetDealt("flop", parse_cards("QsJsTs")), NAMES) == "Flop: Q♠ J♠ T♠"
    shown = CardsShown(1, parse_cards("KsKh"), FULL_HOUSE)
    assert d(shown, NAMES) == "bot1 shows K♠ K♥: Full house, kings full of tens"
    assert d(Resigned(0, 880), NAMES) == "you resign: 880 chips leave the game"
    assert d(Eliminated(2, 3), NAMES) == "bot2 is out in 3rd place"
    assert d(TournamentEnded(1, 3000), NAMES) == "bot1 wins the tournament with 3000 chips"


def test_pot_lines_name_main_side_and_split_pots() -> None:
    won = PotAwarded(0, 240, (0, 1), ((1, 240),), FULL_HOUSE)
    assert render.describe_event(won, NAMES) == "bot1 wins the pot (240) with full house, kings full of tens"
    assert render.describe_event(won, NAMES, several_pots=True).startswith("bot1 wins the main pot (240)")
    side = PotAwarded(1, 300, (0, 2), ((0, 300),), rank_of("Ah9h7h4h2h"))
    assert render.describe_event(side, NAMES) == "you win side pot 1 (300) with flush, ace, nine, seven, four, two"
    split = PotAwarded(0, 41, (0, 1), ((1, 21), (0, 20)), rank_of("Ts9h8d7c6s"))
    assert render.describe_event(split, NAMES) == (
        "bot1 and you split the pot (41: bot1 21, you 20) with straight, ten high"
    )
    folded_to = PotAwarded(0, 30, (2,), ((2, 30),))
    assert render.describe_event(folded_to, NAMES) == "bot2 wins the pot (30)"
    history = [won, side]
    assert render.result_lines(history, NAMES)[0].startswith("bot1 wins the main pot")


def _three_handed() -> Tournament:
    t = Tournament.start(TournamentConfig(players=NAMES, button=0))
    hole = {0: parse_cards("AsAh"), 1: parse_cards("KsKh"), 2: parse_cards("2c3d")}
    t, _ = t.deal(hole, parse_cards("QsJs9d4c5h"))
    return t


def test_markers_moves_level_and_pots_from_a_real_hand() -> None:
    t = _three_handed()  # button you, SB bot1, BB bot2; you act first
    t, _ = t.act(Action(0, ActionKind.RAISE, 60))
    t, _ = t.act(Action(1, ActionKind.CALL))
    view = seat_view(t, 0)
    assert render.blind_markers(view.history) == {1: "SB", 2: "BB"}
    assert render.last_moves(view.history) == {0: "raise 60", 1: "call"}
    assert render.level_line(view) == "blinds 10/20 (level 1) · 20/40 in 5 hands"
    assert render.pots_line(view, NAMES) == "Pot 140"
    keys = dict(render.legal_summary(seat_view(t, 2).legal or {}))
    assert keys == {"f": "fold", "c": "call 40", "r": "raise to 100–1000", "a": "all-in 1000"}
    t, _ = t.act(Action(2, ActionKind.FOLD))
    view = seat_view(t, 0)
    assert render.last_moves(view.history) == {2: "fold"}  # a new street clears the calls
    assert render.hand_lines(view.history, NAMES)[-1] == "Flop: Q♠ J♠ 9♦"


def test_side_pots_are_listed_with_who_can_win_them() -> None:
    t = Tournament.start(TournamentConfig(players=NAMES, button=0))
    t = type(t)(**{**{f: getattr(t, f) for f in t.__dataclass_fields__}, "stacks": (1000, 300, 1000)})
    t, _ = t.deal(
        {0: parse_cards("AsAh"), 1: parse_cards("KsKh"), 2: parse_cards("2c3d")}, parse_cards("QsJs9d4c5h")
    )
    t, _ = t.act(Action(0, ActionKind.RAISE, 500))
    t, _ = t.act(Action(1, ActionKind.ALLIN))
    t, _ = t.act(Action(2, ActionKind.CALL))
    line = render.pots_line(seat_view(t, 0), NAMES)
    assert line == "Pot 1300 · main 900 · side 1: 400 (you, bot2)"


def test_level_line_at_the_edge_and_the_last_level() -> None:
    t = Tournament.start(TournamentConfig(players=NAMES[:2], button=0))
    t = type(t)(**{**{f: getattr(t, f) for f in t.__dataclass_fields__}, "hand_number": 5})
    t, _ = t.deal({0: parse_cards("AsAh"), 1: parse_cards("KsKh")}, parse_cards("QsJs9d4c5h"))
    assert render.level_line(seat_view(t, 0)).endswith("20/40 next hand")
    t = type(t)(**{**{f: getattr(t, f) for f in t.__dataclass_fields__}, "hand_number": 40, "hand": None})
    assert render.level_line(seat_view(t, 0)).endswith("final level")


def test_short_all_in_raise_is_one_amount() -> None:
    # facing 20 with 30 in all: the only raise is the all-in
    legal = LegalActions(seat=0, current_bet=0, to_match=20, call_amount=20, all_in_to=30, opening=False,
                         can_raise=True, min_to=30, max_to=30)
    assert legal.moves == ("fold", "call", "raise", "allin")
    assert dict(render.legal_summary(legal))["r"] == "raise 30"
    legal = LegalActions(seat=0, current_bet=0, to_match=0, call_amount=0, all_in_to=500, opening=True,
                         can_raise=True, min_to=20, max_to=500)
    assert render.legal_summary(legal)[1:3] == [("c", "check"), ("r", "bet 20–500")]
