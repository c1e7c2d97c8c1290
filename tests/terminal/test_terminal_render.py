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


# -- every game (issue #22) ---------------------------------------------------

from freezeout.rules.events import Drew  # noqa: E402
from freezeout.rules.games import tournament_config  # noqa: E402
from freezeout.rules.tournament import Level  # noqa: E402
from freezeout.rules.variant import VARIANTS, BettingStructure  # noqa: E402
from freezeout.rules.views import PotView, TableView, WinnerView  # noqa: E402


def _game(code: str, players: int = 3) -> Tournament:
    """A hand of ``code`` dealt from an unshuffled deck, then played a few
    calls in (stud's fourth street, a draw's first draw)."""
    t = Tournament.start(tournament_config(code, NAMES[:players], button=0))
    deck = VARIANTS[code].deck if code in VARIANTS else VARIANTS["FT"].deck
    t, _ = t.deal_deck(tuple(reversed(deck)), tuple(deck))
    for _ in range(players):
        legal = t.legal_actions()
        if legal is None or legal.draw:
            break
        kind = ActionKind.BRINGIN if legal.bring_in else ActionKind.CHECK if legal.can_check else ActionKind.CALL
        t, _ = t.act(Action(legal.seat, kind))
    return t


def _hidden_labels(t: Tournament, viewer: int) -> set[str]:
    """Every card another seat holds that its view to ``viewer`` hides."""
    assert t.hand is not None
    view = seat_view(t, viewer)
    hidden = set()
    for hand_seat, seat in enumerate(t.seats):
        if seat != viewer:
            shown = view.seats[seat].cards or ()
            hidden |= {render.card_label(c) for c in t.hand.cards[hand_seat] if c is not None and c not in shown}
    return hidden


def test_no_hidden_card_is_ever_drawn_in_any_game() -> None:
    for code in [*VARIANTS, "HORSE"]:
        t = _game(code)
        for viewer in range(3):
            view = seat_view(t, viewer)
            drawn = " ".join(render.seat_cards(view, seat).plain for seat in view.seats)
            drawn += " ".join(render.hand_lines(view.history, NAMES))
            assert t.hand is not None
            mine = {render.card_label(c) for c in t.hand.cards[t.seats.index(viewer)] if c is not None}
            assert _hidden_labels(t, viewer) - mine, code  # there are cards to hide
            for label in _hidden_labels(t, viewer) - mine:
                assert label not in drawn, (code, viewer, label, drawn)


def test_each_game_draws_its_own_number_of_cards() -> None:
    for code, own, others in (("FO/8", 4, 4), ("F5CD", 5, 5), ("FB", 4, 4), ("NT", 2, 2)):
        view = seat_view(_game(code), 0)
        me, other = view.seats[0], view.seats[1]
        assert len(render.seat_cards(view, me).plain.split()) == own, code
        assert render.seat_cards(view, other).plain.split() == ["▒▒"] * others, code
    view = seat_view(_game("F7S"), 0)  # stud: two down, one up on third street, then one more up
    other = view.seats[1]
    assert other.cards is not None and [c is None for c in other.cards] == [True, True, False, False]
    tiles = render.seat_cards(view, other).plain.split()
    assert tiles[:2] == ["▒▒", "▒▒"] and all(t != "▒▒" for t in tiles[2:])
    mine = render.seat_cards(view, view.seats[0]).plain.split()
    assert mine[0].startswith("[") and mine[1].startswith("[") and not mine[2].startswith("[")  # my down cards
    assert render.board_slots(view) == 0 and render.board_slots(seat_view(_game("FO/8"), 0)) == 5


def test_split_pot_results_read_high_then_low() -> None:
    won = WinnerView(0, 120, ())
    result = (
        PotView(0, "high", 120, "Flush, ace high", (won,)),
        PotView(0, "low", 120, "8-6-4-2-A", (WinnerView(1, 120, ()),)),
    )
    assert render.split_result_lines(result, ("Alice", "Bob")) == [
        "Pot 240: High: Flush, ace high — Alice; Low: 8-6-4-2-A — Bob"
    ]
    no_low = (PotView(0, "high", 200, "Two pair", (won,)),)
    assert render.split_result_lines(no_low, ("Alice", "Bob")) == ["Pot 200: High: Two pair — Alice; no low"]
    shared = (
        PotView(0, "high", 100, "Straight", (WinnerView(0, 50, ()), WinnerView(1, 50, ()))),
        PotView(0, "low", 100, "7-5-4-3-2", (WinnerView(1, 100, ()),)),
        PotView(1, "high", 40, "Straight", (WinnerView(0, 40, ()),)),
    )
    assert render.split_result_lines(shared, ("Alice", "Bob")) == [
        "Main pot 200: High: Straight — Alice and Bob (50, 50); Low: 7-5-4-3-2 — Bob",
        "Side pot 1 40: High: Straight — Alice; no low",
    ]
    shown = CardsShown(0, parse_cards("AsKs"), FULL_HOUSE)
    lines = render.result_lines([shown, PotAwarded(0, 240, (0, 1), ((0, 120),), FULL_HOUSE, "high")], NAMES, result)
    assert lines[0].startswith("you show") and lines[1].startswith("Pot 240: High:")


def test_draws_bring_ins_and_completes_are_told_without_the_cards() -> None:
    d = render.describe_event
    assert d(Drew(1, (None, None), (None, None)), NAMES) == "bot1 draws 2 cards"
    assert d(Drew(0, (None,), (None,)), NAMES) == "you draw 1 card"
    assert d(Drew(2, (), ()), NAMES) == "bot2 stands pat"
    assert d(ActionTaken(0, "discard", 0, 0, False), NAMES) is None  # the Drew says it
    assert d(ActionTaken(1, "bringin", 5, 5, False), NAMES) == "bot1 brings in 5"
    assert d(ActionTaken(0, "bringin", 5, 5, False, True), NAMES) == "you bring in 5 (time out)"
    assert d(ActionTaken(2, "complete", 20, 15, False), NAMES) == "bot2 completes to 20"
    assert d(StreetDealt("first draw", ()), NAMES) == "First draw"


def test_the_keys_follow_the_game() -> None:
    draw = LegalActions(0, 0, 0, 0, 500, False, False, 500, 500, "this is the draw", "", (), 0, 5)
    assert render.legal_summary(draw) == [("1-5", "select cards"), ("d", "stand pat (select cards to draw)"),
                                          ("s", "stand pat")]
    assert render.legal_summary(draw, selected=2)[1] == ("d", "draw 2")
    bring = LegalActions(1, 0, 0, 0, 995, False, True, 20, 20, "", "complete", (20,), 5, 0)
    assert render.legal_summary(bring) == [("b", "bring in 5"), ("r", "complete to 20")]
    fixed = LegalActions(0, 20, 40, 20, 1000, False, True, 80, 80, "", "", (80,), 0, 0)
    assert render.legal_summary(fixed) == [("f", "fold"), ("c", "call 20"), ("r", "raise to 80")]
    open_pair = LegalActions(0, 0, 0, 0, 1000, True, True, 20, 40, "", "", (20, 40), 0, 0)
    assert render.legal_summary(open_pair)[2:] == [("r", "bet 20"), ("R", "bet 40")]
    pot = LegalActions(0, 20, 20, 0, 1000, False, True, 40, 60, "", "", (), 0, 0)
    assert render.legal_summary(pot, structure=BettingStructure.POT_LIMIT)[2] == ("r", "raise to 40–60 (p: pot)")


def test_levels_and_the_mix_are_named_for_the_game() -> None:
    assert render.level_words(Level(ante=2, bring_in=5, small_bet=20, big_bet=40)) == "ante 2, bring-in 5, limit 20/40"
    assert render.level_words(Level(10, 20, small_bet=20, big_bet=40)) == "blinds 10/20, limit 20/40"
    assert render.level_words(Level(10, 20)) == "blinds 10/20"
    view: TableView = seat_view(_game("HORSE", 2), 0)
    assert render.game_line(view) == (
        "HORSE · now Fixed-Limit Texas Hold'em · next Fixed-Limit Omaha Hi/Lo in 5 hands · cap: a bet and 3 raises"
    )
    stud = seat_view(_game("F7S"), 0)
    assert render.level_line(stud, tournament_config("F7S", NAMES, button=0).levels).startswith(
        "ante 2, bring-in 5, limit 20/40 (level 1) · 40/80 in 5 hands"
    )


def test_stud_marks_no_button_and_no_antes_and_names_the_bring_in() -> None:
    t = Tournament.start(tournament_config("F7S", NAMES, button=0))
    t, _ = t.deal_deck(tuple(reversed(VARIANTS["F7S"].deck)))
    legal = t.legal_actions()
    assert legal is not None and legal.bring_in
    t, _ = t.act(Action(legal.seat, ActionKind.BRINGIN))
    view = seat_view(t, 0)
    assert render.blind_markers(view.history) == {}  # antes are everyone's
    moves = render.last_moves(view.history)
    assert "bring-in 5" in moves.values()
    history = [Drew(1, (None, None), (None, None)), Drew(2, (), ())]
    assert render.last_moves(history) == {1: "drew 2", 2: "stood pat"}
