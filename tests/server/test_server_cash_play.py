"""A cash table's house rules on the server (issue #25): the button straddle (C6), rake caps
by the players dealt in (C10), mucking or showing called hands (V17, R17).

Each folds a cash table's log written by hand (test_server_cash.Log), as a table and a
table rebuilt from its log do."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from test_server_cash import Log

from freezeout.cards import parse_cards
from freezeout.rules.events import CardsShown, Event, PotAwarded, RakeTaken
from freezeout.rules.variant import NLHE
from freezeout.server.entries import ActEntry, CashSeatEntry, CommitEntry, DealEntry, LogEntry
from freezeout.server.fairness import Deal, deal_positions
from freezeout.server.gamespec import CashOptions, GameRefused, GameSpec
from freezeout.server.table.state import Refused, reduce
from freezeout.server.table.tableevents import told_json
from freezeout.server.transport.protocol import events_json


class EventLog(Log):
    """A :class:`Log` that keeps the rules' events of every entry too."""

    def __init__(self, options: dict[str, Any], seats: int = 4) -> None:
        super().__init__(options, seats)
        self.events: list[Event] = []
        self.told: list[dict[str, Any]] = []

    def write(self, body: Any, at: float = 0.0) -> list[dict[str, Any]]:
        entry = LogEntry.of("t1", self.state.version + 1, at, body)
        _, told, events = reduce(self.state, entry)
        self.events += events
        self.told += told_json(told)
        return super().write(body, at)

    def deal_rigged(self, hole: list[str], board: str) -> None:
        """Deal the next hand from a deck that gives hand seat i ``hole[i]`` and the board."""
        cards = {i: parse_cards(text) for i, text in enumerate(hole)}
        positions, board_at = deal_positions(range(len(hole)), NLHE)
        deck: list[Any] = [None] * 52
        for seat, where in positions.items():
            for p, card in zip(where, cards[seat], strict=True):
                deck[p] = card
        for p, card in zip(board_at, parse_cards(board), strict=True):
            deck[p] = card
        rest = iter(card for card in NLHE.deck if card not in deck)
        deck = [card if card is not None else next(rest) for card in deck]
        self.write(CommitEntry(Deal(self.game.hand_number + 1, tuple(deck), secrets.token_hex(32))))
        self.write(DealEntry())


# -- C6: the button straddle -------------------------------------------------------------
def test_the_button_straddle_is_a_table_option_off_by_default():
    assert CashOptions.from_json({}).button_straddle is False
    spec = GameSpec.parse_cash("NT", {"big_blind": 200, "button_straddle": True})
    assert spec.cash is not None and spec.cash.button_straddle
    assert GameSpec.from_json(spec.to_json()) == spec
    assert "button_straddle" not in GameSpec.parse_cash("NT", {}).to_json()["cash"]  # an old table's entry reads the same
    with pytest.raises(GameRefused, match="needs 'straddle' allowed"):
        GameSpec.parse_cash("NT", {"button_straddle": True, "straddle": False})
    with pytest.raises(GameRefused, match="true or false"):
        GameSpec.parse_cash("NT", {"button_straddle": 1})


def seated(options: dict[str, Any], players: int = 4) -> EventLog:
    log = EventLog(options)
    for seat in range(players):
        log.sit(seat, 11 + seat, 8000)
    return log


@pytest.mark.parametrize("allowed", [True, False])
def test_c6_the_buttons_seat_straddles_where_the_table_allows_it(allowed):
    log = seated({"big_blind": 200, "button_straddle": allowed})
    button = log.game.table.plan().button
    if not allowed:
        with pytest.raises(Refused, match="only the player under the gun may"):
            log.write(CashSeatEntry("straddle", button))
        return
    log.write(CashSeatEntry("straddle", button))
    log.deal()
    t = log.game.table
    assert t.hand is not None and t.hand.bets[t.hand_seats.index(button)] == 400  # 2 big blinds (C6)
    assert log.game.view(None)["button_straddle"] is True


def test_c6_a_seat_neither_under_the_gun_nor_on_the_button_says_who_may():
    log = seated({"big_blind": 200, "button_straddle": True})
    plan = log.game.table.plan()
    with pytest.raises(Refused, match="under the gun or on the button"):
        log.write(CashSeatEntry("straddle", plan.small_blind))


# -- C5, C10: rake caps by the players dealt in ----------------------------------------------
def test_rake_caps_are_one_number_or_three_rising():
    assert CashOptions.from_json({"rake_bp": 500, "rake_cap": 30}).rake_caps == (30, 30, 30)
    options = CashOptions.from_json({"rake_bp": 500, "rake_cap": [10, 20, 30]})
    assert options.rake_caps == (10, 20, 30) and options.to_json()["rake_cap"] == [10, 20, 30]
    assert CashOptions.from_json(options.to_json()) == options
    for bad, why in (([10, 20], "one cap or three"), ([30, 20, 10], "rise with the players"),
                     ([10, 2.5, 30], "whole number"), ([10, -1, 30], "at least 0"), ("10", "whole number")):
        with pytest.raises(GameRefused, match=why):
            CashOptions.from_json({"rake_bp": 500, "rake_cap": bad})
    with pytest.raises(GameRefused, match="needs its cap"):
        CashOptions.from_json({"rake_bp": 500, "rake_cap": [0, 20, 30]})


@pytest.mark.parametrize(("players", "cap"), [(2, 10), (3, 20), (4, 20)])
def test_c10_the_hands_cap_is_the_one_for_the_players_dealt_in(players, cap):
    log = seated({"big_blind": 200, "rake_bp": 1000, "rake_cap": [10, 20, 30]}, players)
    log.deal()
    log.call_down()  # every pot is 200 * players: 10 % is more than any cap
    raked = [e.amount for e in log.events if isinstance(e, RakeTaken)]
    assert sum(raked) == cap and log.game.table.rake_total == cap
    assert log.ledger_says() == log.game.held()
    assert log.game.view(None)["rake"]["caps"] == [10, 20, 30]


# -- V17, R17: muck or show all called hands ------------------------------------------------
HOLE = ["2c7d", "AsAh", "3d8h"]  # seat 1's aces win; the others lose
BOARD = "9cKd4hJsQc"


def showdown(show_called: bool | None) -> EventLog:
    options: dict[str, Any] = {"big_blind": 200}
    if show_called is not None:
        options["show_called"] = show_called
    log = seated(options, 3)
    log.deal_rigged(HOLE, BOARD)
    log.call_down()
    return log


def test_called_hands_are_shown_only_where_the_table_says_so():
    assert CashOptions.from_json({}).show_called is False  # V17: at cash tables a losing hand may be mucked
    assert GameSpec.parse_cash("NT", {"show_called": True}).to_json()["cash"]["show_called"] is True
    log = showdown(True)
    assert sorted(e.seat for e in log.events if isinstance(e, CardsShown)) == [0, 1, 2]
    view = log.game.view(None)
    assert [seat["cards"] for seat in view["seats"][:3]] == HOLE and view["show_called"] is True
    assert log.game.table.mucked == ()


def test_a_losing_hand_is_mucked_unseen_unless_it_was_the_called_hand():
    log = showdown(None)
    shown = [e.seat for e in log.events if isinstance(e, CardsShown)]
    winners = {s for e in log.events if isinstance(e, PotAwarded) for s, _ in e.shares}
    assert winners == {1}
    first = shown[0]  # the first to show (the called hand) shows even when it loses
    assert set(shown) == {first, 1}
    mucked = {0, 2} - {first}
    assert set(log.game.table.mucked) == mucked
    assert [e for e in log.told if e["type"] == "mucked"] == [{"type": "mucked", "seat": s} for s in sorted(mucked)]
    game = log.game
    for seat in mucked:
        hidden = set(parse_cards(HOLE[seat]))
        for viewer in (None, *({0, 1, 2} - {seat})):
            assert game.view(viewer)["seats"][seat]["cards"] == "????"
        assert game.view(seat)["seats"][seat]["cards"] == HOLE[seat]  # one's own cards, always
        public = str(events_json(log.events)) + str(events_json(game.seat_view(None).history))
        assert all(str(card) not in public for card in hidden)
        cards = game.hand_cards()
        assert cards is not None and not hidden & set(cards.public)  # the fairness reveal opens them to nobody
        assert log.state.revealed is not None
    assert game.view(None)["seats"][1]["cards"] == HOLE[1]


# -- stud at small stakes (V18) ---------------------------------------------------------------
@pytest.mark.parametrize("game", ["F7S", "FR", "HORSE", "8GAME"])
def test_stud_is_refused_at_stakes_whose_ante_would_be_no_chip(game):
    from freezeout.server.table.formats import check_game

    seats = 4
    with pytest.raises(GameRefused, match=r"a big blind of at least 10 chips .* not 8: below that the ante"):
        check_game(GameSpec.parse_cash(game, {"big_blind": 8}), seats)
    check_game(GameSpec.parse_cash(game, {"big_blind": 10}), seats)  # an ante of 1, a bring-in of 5
    check_game(GameSpec.parse_cash("NT", {"big_blind": 2}), seats)  # blind games deal at any stakes


# -- a 0-chip leave closes the session (C9, docs/ledger.md) ------------------------------------
async def test_a_player_who_leaves_with_no_chips_has_a_closed_session(harness):
    from freezeout.rules.actions import Action, ActionKind
    from freezeout.server.entries import SitEntry, Slot, StandEntry
    from freezeout.server.table.chips import cash_transfers

    h = harness
    ana = await (await h.player()).register("ana")
    bo = await (await h.player()).register("bo")
    a, b = ana.user["id"], bo.user["id"]
    log = EventLog({"big_blind": 200})
    await h.ctx.store.log.create_table("t1", log.entries[0])

    async def write(body: Any) -> None:
        entry = LogEntry.of("t1", log.state.version + 1, h.clock.now(), body)
        new, _, _ = reduce(log.state, entry)
        await h.ctx.store.log.append([entry], cash_transfers(log.state, new, entry, None))
        log.state = new

    await write(SitEntry(0, Slot(a, "ana", "user"), chips=4000))
    await write(SitEntry(1, Slot(b, "bo", "user"), chips=8000))
    rigged = EventLog({"big_blind": 200})
    rigged.state = log.state
    rigged.deal_rigged(["2c7d", "AsAh"], BOARD)  # ana's seven-high loses to bo's aces
    for body in (CommitEntry(rigged.state.current_deal), DealEntry()):  # the same deck, into the store
        await write(body)
    while log.game.in_hand:
        legal = log.game.legal_actions()
        assert legal is not None
        kind = ActionKind.ALLIN if legal.seat == 0 else ActionKind.CALL if legal.call_amount else ActionKind.CHECK
        await write(ActEntry(Action(legal.seat, kind)))
    assert log.game.table.seats[0].stack == 0
    await write(StandEntry(0, chips=0))  # no cash-out row: amounts are positive
    sessions = (await ana.http.get("/api/me/sessions")).json()["sessions"]
    assert [(s["bought_in"], s["cashed_out"], s["net"], s["open"]) for s in sessions] == [(4000, 0, -4000, False)]
    assert sessions[0]["ended_at"] is not None
    bo_sessions = (await bo.http.get("/api/me/sessions")).json()["sessions"]
    assert [s["open"] for s in bo_sessions] == [True]  # still seated
    assert await h.ctx.store.ledger.check() == []
