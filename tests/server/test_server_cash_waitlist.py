"""A full cash table's waiting list (C13) and a broken table's moves (C14), in the table's log.

Fold-level: each request is the entry ``table/intents.py`` writes for it, folded by the
table's own fold (``table/state.py``), as the live actor and a restart do; the ledger rows
are the writer's (``cash_transfers``).  No server runs here.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from typing import Any

import pytest

from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.breaking import BREAK_AFTER
from freezeout.rules.waitlist import OFFER_SECONDS
from freezeout.server.cluster.ownership import Leases
from freezeout.server.cluster.tending import TEND_JOB, Tending
from freezeout.server.entries import (
    ActEntry,
    CommitEntry,
    DealEntry,
    LogEntry,
    StandEntry,
    WaitlistEntry,
    decode_body,
)
from freezeout.server.fairness import new_deal
from freezeout.server.gamespec import GameSpec
from freezeout.server.settings import Settings
from freezeout.server.storage.db import create_engine
from freezeout.server.storage.store import UserRow
from freezeout.server.table import timers
from freezeout.server.table.cash import CashGame
from freezeout.server.table.chips import cash_transfers, holdings
from freezeout.server.table.commands import (
    BuyIn,
    DeclineSeat,
    MoveIn,
    MoveOut,
    SitOut,
    WaitlistJoin,
    WaitlistLeave,
)
from freezeout.server.table.intents import entry_for
from freezeout.server.table.state import Refused, TableState, initial_state, reduce
from freezeout.server.table.tableevents import told_json
from freezeout.server.wire import dumps
from polling import eventually

from clusterkit import cluster_settings, serve_cluster
from serverkit import fresh_database

OPTIONS = {"big_blind": 200}  # buy-ins 4000 to 20000
SETTINGS = Settings()


def user(uid: int) -> UserRow:
    return UserRow(uid, f"p{uid}", "user", None, 1500.0, 0)


class Table:
    """A cash table's log, written by the entries the intents ask for (as the actor writes them)."""

    def __init__(self, table_id: str = "t000000000001", seats: int = 2, options: dict[str, Any] = OPTIONS) -> None:
        spec = GameSpec.parse_cash("NT", options)
        self.id = table_id
        self.entries = [LogEntry(table_id, 1, 0.0, "create", {"slots": [None] * seats, "ranked": False,
                                                               "created_by": 1, "game": spec.to_json()})]
        self.state: TableState = initial_state(self.entries[0])
        self.transfers: list[tuple[str, int, int, str]] = []  # (kind, account, amount, transfer id)
        self.rng = random.Random(3)

    @property
    def game(self) -> CashGame:
        game = self.state.table_game
        assert isinstance(game, CashGame)
        return game

    def write(self, body: Any, at: float) -> list[dict[str, Any]]:
        entry = LogEntry.of(self.id, self.state.version + 1, at, body)
        new, told, _ = reduce(self.state, entry)
        self.transfers += [(t.kind, t.account_id, t.amount, t.transfer_id)
                           for t in cash_transfers(self.state, new, entry, None)]
        self.state = new
        self.entries.append(LogEntry(self.id, entry.seq, entry.at, entry.kind, entry.data))  # as stored
        return told_json(told)  # as a client reads them

    def ask(self, uid: int, intent: Any, at: float, moved: tuple[int, int] | None = None) -> list[dict[str, Any]]:
        body = entry_for(self.state, user(uid), intent, at, SETTINGS, lambda seat: True, moved)
        return self.write(body, at)

    def buy_in(self, uid: int, chips: int, at: float, slot: int | None = None) -> list[dict[str, Any]]:
        return self.ask(uid, BuyIn(type="buy_in", chips=chips, slot=slot), at)

    def play_hand(self, at: float) -> None:
        self.write(CommitEntry(new_deal(self.game.hand_number + 1, self.rng, self.state.spec.variant_for_hand(1))), at)
        self.write(DealEntry(), at)
        while self.game.in_hand:
            legal = self.game.legal_actions()
            assert legal is not None
            self.write(ActEntry(Action(legal.seat, ActionKind.CALL if legal.call_amount else ActionKind.CHECK)), at)

    def due(self, now: float) -> timers.Due | None:
        return timers.due(self.state, now, SETTINGS, online=lambda seat: True, bot_due=lambda seat: 0.0)

    def refused(self, uid: int, intent: Any, at: float, match: str) -> None:
        """Bad input: a clear error, and nothing changed (no entry, the same state)."""
        before, count = self.state, len(self.entries)
        with pytest.raises(Refused, match=match):
            self.ask(uid, intent, at)
        assert self.state is before and len(self.entries) == count

    def restored(self) -> TableState:
        """The table rebuilt from its stored log (a restart, a new owner in a cluster)."""
        state = initial_state(self.entries[0])
        for entry in self.entries[1:]:
            state = reduce(state, LogEntry(entry.table_id, entry.seq, entry.at, entry.kind, dict(entry.data)))[0]
        return state


JOIN, LEAVE, DECLINE = WaitlistJoin(type="waitlist_join"), WaitlistLeave(type="waitlist_leave"), DeclineSeat(type="decline_seat")


def full_table() -> Table:
    table = Table()
    table.buy_in(11, 5000, 0.0)
    table.buy_in(12, 5000, 0.0)
    return table


def waitlist(table: Table) -> dict[str, Any]:
    return table.game.view(None)["waitlist"]


# -- C13: the list ------------------------------------------------------------------------
def test_c13_a_full_tables_list_keeps_the_order_of_joining_and_each_place_is_shown():
    table = full_table()
    assert table.ask(21, JOIN, 1.0) == [{"type": "waitlist", "user": 21, "name": "p21", "event": "joined", "place": 1}]
    table.ask(22, JOIN, 2.0)
    listed = waitlist(table)
    assert listed["full"] and [(p["user"], p["place"]) for p in listed["players"]] == [(21, 1), (22, 2)]
    assert table.state.table_game is not None
    assert table.game.view(0)["waitlist"] == listed  # the same for a seat and a spectator
    from freezeout.server.table.fanout import table_summary

    assert table_summary(table.state)["waitlist"] == listed  # the lobby says it too


def test_c13_bad_requests_are_refused_with_a_clear_error_and_change_nothing():
    table = Table()
    table.buy_in(11, 5000, 0.0)
    table.refused(21, JOIN, 1.0, "free seat: sit down instead")  # not full
    table.buy_in(12, 5000, 0.0)
    table.refused(11, JOIN, 1.0, "you sit at this table already")  # seated at this table
    table.ask(21, JOIN, 1.0)
    table.refused(21, JOIN, 2.0, r"already on the waiting list \(place 1\)")  # twice
    table.refused(22, LEAVE, 2.0, "22 is not on the waiting list")  # not on it
    table.refused(21, DECLINE, 2.0, "has no seat offered")  # nothing offered
    table.refused(21, MoveIn(type="move_in", source="t000000000009", seq=3), 2.0, "no move from table")


def test_c13_a_freed_seat_is_offered_to_the_first_in_line_for_60_seconds_and_held_for_them():
    table = full_table()
    table.ask(21, JOIN, 1.0)
    table.ask(22, JOIN, 1.0)
    told = table.write(StandEntry(0, chips=5000), 10.0)  # p11 leaves between hands
    assert told[-1] == {"type": "waitlist", "user": 21, "name": "p21", "event": "offered", "seat": 0,
                        "until": 10.0 + OFFER_SECONDS}
    assert waitlist(table)["offers"] == [{"user": 21, "name": "p21", "seat": 0, "until": 70.0}]
    # the seat is p21's: nobody else sits there, by name or as the first free seat
    table.refused(31, BuyIn(type="buy_in", chips=5000, slot=0), 11.0, "seat 1 is held for a player from the waiting list")
    table.refused(31, BuyIn(type="buy_in", chips=5000), 11.0, "every free seat is held")
    table.refused(22, BuyIn(type="buy_in", chips=5000), 11.0, "every free seat is held")
    # C1 still applies to the player taking the offer
    table.refused(21, BuyIn(type="buy_in", chips=100), 11.0, "a buy-in here is 4000 to 20000")
    told = table.buy_in(21, 4000, 12.0)  # Take: a normal buy-in, at the seat offered
    assert told[0] == {"type": "waitlist", "user": 21, "name": "p21", "event": "seated", "seat": 0}
    assert table.state.slots[0].user_id == 21
    assert [p["user"] for p in waitlist(table)["players"]] == [22] and waitlist(table)["offers"] == []
    assert table.transfers[-1][:3] == ("buy_in", 21, 4000)


def test_c13_an_offer_not_taken_in_time_lapses_by_the_tables_own_step_and_goes_to_the_next():
    table = full_table()
    table.ask(21, JOIN, 1.0)
    table.ask(22, JOIN, 1.0)
    table.write(StandEntry(1, chips=5000), 100.0)
    assert table.due(159.0) is None or not isinstance(table.due(159.0), timers.Lapse)
    assert timers.next_deadline(table.state, SETTINGS, online=lambda s: True, bot_due=lambda s: 0.0) == 160.0
    assert isinstance(table.due(160.0), timers.Lapse)
    told = table.write(WaitlistEntry("lapse"), 160.0)
    assert [t["event"] for t in told] == ["lapsed", "offered"]
    assert waitlist(table)["offers"] == [{"user": 22, "name": "p22", "seat": 1, "until": 220.0}]
    assert [p["user"] for p in waitlist(table)["players"]] == [22]  # p21 lost the place
    with pytest.raises(Refused, match="no offer from the waiting list has run out"):
        table.write(WaitlistEntry("lapse"), 161.0)


def test_c13_declining_or_leaving_passes_the_seat_on_and_drops_the_place():
    table = full_table()
    for uid in (21, 22, 23):
        table.ask(uid, JOIN, 1.0)
    table.write(StandEntry(0, chips=5000), 10.0)
    told = table.ask(21, DECLINE, 11.0)
    assert [(t["event"], t["user"]) for t in told] == [("left", 21), ("offered", 22)]
    told = table.ask(22, LEAVE, 12.0)
    assert [(t["event"], t["user"]) for t in told] == [("left", 22), ("offered", 23)]
    assert waitlist(table)["offers"][0]["until"] == 12.0 + OFFER_SECONDS


def test_c13_a_seat_freed_at_a_hands_end_is_offered_by_the_entry_that_ends_it():
    table = full_table()
    table.ask(21, JOIN, 1.0)
    table.write(CommitEntry(new_deal(1, table.rng, table.state.spec.variant_for_hand(1))), 2.0)
    table.write(DealEntry(), 2.0)
    table.write(StandEntry(0), 3.0)  # dealt in: leaves at the hand's end
    assert waitlist(table)["offers"] == []
    while table.game.in_hand:
        legal = table.game.legal_actions()
        assert legal is not None
        table.write(ActEntry(Action(legal.seat, ActionKind.FOLD if legal.seat == 0 else ActionKind.CHECK)), 4.0)
    assert waitlist(table)["offers"] == [{"user": 21, "name": "p21", "seat": 0, "until": 4.0 + OFFER_SECONDS}]


def test_c13_the_list_is_in_the_log_a_restarted_table_has_the_same_list_and_offers():
    table = full_table()
    table.ask(21, WaitlistJoin(type="waitlist_join", anywhere=True), 1.0)
    table.ask(22, JOIN, 2.0)
    table.write(StandEntry(1, chips=5000), 5.0)
    restored = table.restored()
    assert isinstance(restored.table_game, CashGame)
    assert restored.table_game.waitlist == table.game.waitlist
    assert restored.table_game.view(None)["waitlist"]["players"][0]["anywhere"] is True
    stored = table.entries[3]
    assert stored.kind == "waitlist" and stored.data == {"request": "join", "user": 21, "name": "p21", "anywhere": True}
    assert dumps(decode_body("waitlist", stored.data).to_json()) == dumps(stored.data)


def test_c13_bots_take_no_seat_held_for_the_list():
    from freezeout.server.table.bots import cash_bot_due

    table = Table(seats=3)
    table.buy_in(11, 5000, 0.0)
    table.buy_in(12, 5000, 0.0)
    table.buy_in(13, 5000, 0.0)
    table.ask(21, JOIN, 1.0)
    table.write(StandEntry(2, chips=5000), 2.0)
    assert cash_bot_due(table.state, 3.0, asked="medium") is None


# -- C14: a broken table ------------------------------------------------------------------
def test_c14_the_break_clock_runs_in_the_log_from_when_fewer_than_two_can_play():
    table = full_table()
    assert table.game.short_since is None  # no hand dealt yet: not breaking, waiting for players
    table.play_hand(5.0)
    assert table.game.short_since is None
    table.ask(12, SitOut(type="sit_out"), 10.0)
    assert table.game.short_since == 10.0
    assert table.restored().table_game.short_since == 10.0  # type: ignore[union-attr]


def moved_pair() -> tuple[Table, Table]:
    """A broken table (p11 with 1000 chips and p12 sitting out) and another of its kind."""
    broken = Table("t00000000000a")
    broken.buy_in(11, 5000, 0.0)
    broken.buy_in(12, 5000, 0.0)
    broken.play_hand(1.0)
    broken.ask(12, SitOut(type="sit_out"), 2.0)
    other = Table("t00000000000b", seats=3)
    other.buy_in(31, 5000, 0.0)
    other.buy_in(32, 5000, 0.0)
    return broken, other


def test_c14_players_move_with_every_chip_even_below_the_minimum_and_no_chip_is_lost_or_made():
    broken, other = moved_pair()
    to = MoveOut(type="move_out", to=other.id)
    broken.refused(11, to, 2.0 + BREAK_AFTER - 1, "this table has not broken")
    at = 2.0 + BREAK_AFTER
    stack = broken.game.table.current_stacks()[0]
    told = broken.ask(11, to, at)
    assert told[0] == {"type": "stood", "slot": 0, "name": "p11", "chips": stack, "moved_to": other.id}
    stand = broken.entries[-1]
    assert stand.data["moved_to"] == other.id and stand.data["user"] == 11
    # the other table sits p11 with those chips (the actor read the stand: its seq and chips)
    told = other.ask(11, MoveIn(type="move_in", source=broken.id, seq=stand.seq), at, moved=(stand.seq, stack))
    assert told[-1]["moved_from"] == broken.id
    seat = other.state.slot_of_user(11)
    assert seat is not None and other.game.table.current_stacks()[seat] == stack
    out = [t for t in broken.transfers if t[0] == "cash_out"]
    into = [t for t in other.transfers if t[1] == 11]
    assert out[-1][:3] == ("cash_out", 11, stack) and into == [("buy_in", 11, stack, f"move:{broken.id}.{stand.seq}")]
    # the ledger and each table's log agree: nothing made or lost
    for table in (broken, other):
        signs = {"buy_in": 1, "top_up": 1, "cash_out": -1, "rake": -1}
        assert holdings(table.id, table.entries) == sum(signs[k] * a for k, _, a, _ in table.transfers)


def test_c14_below_the_minimum_only_when_moved_by_a_break_not_by_choice():
    broken, other = moved_pair()
    broken.ask(11, MoveOut(type="move_out", to=other.id), 2.0 + BREAK_AFTER)
    stack = broken.transfers[-1][2]
    other.refused(11, BuyIn(type="buy_in", chips=1000), 200.0, "a buy-in here is 4000 to 20000")  # by choice
    stand_seq = broken.entries[-1].seq
    other.ask(11, MoveIn(type="move_in", source=broken.id, seq=stand_seq), 200.0, moved=(stand_seq, stack))
    assert other.state.slot_of_user(11) is not None


def test_c14_a_move_is_the_players_own_and_only_from_a_broken_table():
    broken, other = moved_pair()
    entry = StandEntry(0, chips=broken.game.table.current_stacks()[0], moved_to=other.id, user=99)
    with pytest.raises(Refused, match="only from a table that broke, and only themselves"):
        broken.write(entry, 2.0 + BREAK_AFTER)


def test_c14_a_private_table_never_takes_a_moved_player():
    broken, other = moved_pair()
    broken.ask(11, MoveOut(type="move_out", to=other.id), 2.0 + BREAK_AFTER)
    other.state = dataclasses.replace(other.state, invite="a-secret-of-the-invite-link")  # private (issue #37)
    stand = broken.entries[-1]
    other.refused(11, MoveIn(type="move_in", source=broken.id, seq=stand.seq), 200.0, "no move from table")
    with pytest.raises(Refused, match="invitation only"):
        other.ask(11, MoveIn(type="move_in", source=broken.id, seq=stand.seq), 200.0, moved=(stand.seq, 10))


# -- across tables: the room's "first available" and breaks (table/cashmove.py) ---------------
class Room:
    """The room as table/cashmove.py sees it (listing, summary, each table's door), over
    :class:`Table` logs: a request is the entry its intent asks for, as the actor writes it
    (a ``move_in`` with the broken table's ``stand`` read from that table's log)."""

    def __init__(self, *tables: Table) -> None:
        self.tables = {t.id: t for t in tables}
        self.now = 0.0

    def listing(self, status: Any = None, *, limit: int, after: Any, format: str) -> tuple[list[dict[str, Any]], None]:
        from freezeout.server.table.fanout import table_summary

        return [table_summary(t.state) for t in self.tables.values()], None

    async def summary(self, table_id: str) -> dict[str, Any]:
        return self.get(table_id).summary()

    def get(self, table_id: str) -> Any:
        room, table = self, self.tables[table_id]

        class Door:
            def summary(self) -> dict[str, Any]:
                from freezeout.server.table.fanout import table_summary

                return table_summary(table.state)

            async def request(self, asker: UserRow, intent: Any) -> dict[str, Any]:
                moved = None
                if isinstance(intent, MoveIn):
                    entry = next((e for e in room.tables[intent.source].entries if e.seq == intent.seq), None)
                    body = entry.body if entry is not None else None
                    if isinstance(body, StandEntry) and body.moved_to == table.id and body.user == asker.id and body.chips:
                        moved = (intent.seq, body.chips)
                table.write(entry_for(table.state, asker, intent, room.now, SETTINGS, lambda seat: True, moved), room.now)
                return self.summary()

        return Door()


def listed(table: Table) -> list[tuple[int, bool]]:
    return [(p["user"], p["anywhere"]) for p in waitlist(table)["players"]]


async def test_c13_first_available_joins_every_full_public_table_of_the_kind_and_the_first_seat_taken_wins():
    from freezeout.server.table.cashmove import first_available, leave_first_available, tend

    a, b = Table("t00000000000a"), Table("t00000000000b")
    other = Table("t00000000000c", options={"big_blind": 100})  # other stakes: not joined
    for table, (x, y) in ((a, (11, 12)), (b, (13, 14)), (other, (15, 16))):
        table.buy_in(x, 5000 if table is not other else 2000, 0.0)
        table.buy_in(y, 5000 if table is not other else 2000, 0.0)
    room = Room(a, b, other)
    assert await first_available(room, user(21), a.id) == {"joined": [a.id, b.id], "free": []}
    assert listed(a) == listed(b) == [(21, True)] and listed(other) == []
    b.write(StandEntry(0, chips=5000), 5.0)  # a seat frees at b: offered to p21
    b.buy_in(21, 4000, 6.0)  # taken
    room.now = 7.0
    await tend(room, room.now)  # the room takes p21 off a's list
    assert listed(a) == [] and listed(b) == []
    with pytest.raises(Refused, match="not on the waiting list of any table"):
        await leave_first_available(room, user(21), a.id)


async def test_c14_a_broken_table_moves_its_player_to_a_public_table_of_the_kind_ledger_whole(monkeypatch: pytest.MonkeyPatch):
    from freezeout.server.table.cashmove import tend

    broken, like, cheaper = moved_pair()[0], Table("t00000000000b", seats=3), Table("t00000000000c", seats=3,
                                                                                     options={"big_blind": 100})
    like.buy_in(31, 5000, 0.0)
    cheaper.buy_in(41, 2000, 0.0)
    room = Room(broken, like, cheaper)
    room.now = 2.0 + BREAK_AFTER - 1
    await tend(room, room.now)
    assert broken.state.slot_of_user(11) is not None  # not broken yet
    room.now = 2.0 + BREAK_AFTER
    stacks = {broken.state.slots[i].user_id: s for i, s in enumerate(broken.game.table.current_stacks())}
    await tend(room, room.now)
    for uid in (11, 12):  # both moved (p12 sitting out too), to the table of the same stakes only
        seat = like.state.slot_of_user(uid)
        assert broken.state.slot_of_user(uid) is None and seat is not None
        assert like.game.table.current_stacks()[seat] == stacks[uid]
    assert cheaper.state.slot_of_user(11) is None
    assert holdings(broken.id, broken.entries) == 0
    moved_in = sum(a for k, u, a, _ in like.transfers if k == "buy_in" and u in (11, 12))
    moved_out = sum(a for k, u, a, _ in broken.transfers if k == "cash_out" and u in (11, 12))
    assert moved_in == moved_out == stacks[11] + stacks[12]  # no chip made or lost


async def test_c14_no_move_to_a_private_table():
    from freezeout.server.table.cashmove import tend

    broken, like = moved_pair()
    like.state = dataclasses.replace(like.state, invite="a-secret-of-the-invite-link")  # private (issue #37)
    room = Room(broken, like)
    room.now = 2.0 + BREAK_AFTER
    await tend(room, room.now)
    assert broken.state.slot_of_user(11) is not None and like.state.slot_of_user(11) is None


# -- over HTTP, one server (the same intents a gateway routes to a table's owner) ----------------
async def test_c13_over_http_join_leave_first_available_and_bad_input_said_clearly(harness):
    h = harness
    ana, bo, cy, di = [await (await h.player()).register(name) for name in ("ana", "bo", "cy", "di")]

    async def table(seats: int) -> str:
        response = await ana.post("/api/tables", {"format": "cash", "game": "NT", "seats": seats, "cash": OPTIONS})
        assert response.status_code == 200, response.text
        return str(response.json()["table"]["id"])

    full, free = await table(2), await table(3)
    for p, seat in ((ana, 0), (bo, 1)):
        assert (await p.post(f"/api/tables/{full}/buy_in", {"chips": 4000, "slot": seat})).status_code == 200

    def said(response: Any, status: int, words: str) -> None:
        assert response.status_code == status and words in response.json()["error"]["message"], response.text

    said(await cy.post(f"/api/tables/{free}/waitlist"), 409, "free seat: sit down instead")
    response = await cy.post(f"/api/tables/{full}/waitlist")
    assert response.status_code == 200, response.text
    assert response.json()["table"]["waitlist"]["players"] == [
        {"user": cy.user["id"], "name": "cy", "place": 1, "anywhere": False, "moved": False}]  # type: ignore[index]
    said(await cy.post(f"/api/tables/{full}/waitlist"), 409, "already on the waiting list (place 1)")
    said(await ana.post(f"/api/tables/{full}/waitlist"), 409, "you sit at this table already")
    said(await di.http.request("DELETE", f"/api/tables/{full}/waitlist", headers={"X-CSRF-Token": di.csrf}), 409,
         "is not on the waiting list")
    said(await cy.post(f"/api/tables/{full}/waitlist/decline"), 409, "has no seat offered")
    version = h.table(full).state.version
    response = await di.post("/api/cash/first_available", {"table": full})
    assert response.json() == {"joined": [full], "free": [free]}, response.text
    assert [p["anywhere"] for p in h.table(full).summary()["waitlist"]["players"]] == [False, True]
    assert h.table(full).state.version == version + 1  # one entry: di's join
    response = await di.http.request("DELETE", "/api/cash/first_available", json={"table": full},
                                     headers={"X-CSRF-Token": di.csrf})
    assert response.json() == {"left": [full]}, response.text


async def test_c13_first_available_is_for_a_player_without_a_seat_at_those_stakes():
    from freezeout.server.table.cashmove import first_available

    a, b = full_table(), Table("t00000000000b")
    b.buy_in(13, 5000, 0.0)
    b.buy_in(14, 5000, 0.0)
    with pytest.raises(Refused, match="you sit at table t000000000001 of this game and stakes already"):
        await first_available(Room(a, b), user(11), b.id)
    assert listed(b) == []


async def test_c14_with_no_seat_free_a_moved_player_waits_first_in_line_and_moves_when_one_frees():
    from freezeout.server.table.cashmove import tend

    broken, like = moved_pair()[0], Table("t00000000000b")
    like.buy_in(31, 5000, 0.0)
    like.buy_in(32, 5000, 0.0)
    like.ask(41, JOIN, 1.0)  # waits by choice
    room = Room(broken, like)
    room.now = 2.0 + BREAK_AFTER
    await tend(room, room.now)
    # both of the broken table's players wait ahead of p41 (C14), still seated where they are
    assert [(p["user"], p["moved"]) for p in waitlist(like)["players"]] == [(11, True), (12, True), (41, False)]
    assert broken.state.slot_of_user(11) is not None
    await tend(room, room.now + 1)  # nothing more to do: joined once
    assert len(waitlist(like)["players"]) == 3
    stack = broken.game.table.current_stacks()[broken.state.slot_of_user(11) or 0]
    like.write(StandEntry(0, chips=5000), room.now + 2)  # a seat frees: offered to p11
    room.now += 3
    await tend(room, room.now)
    seat = like.state.slot_of_user(11)
    assert seat == 0 and like.game.table.current_stacks()[0] == stack  # with every chip
    assert broken.state.slot_of_user(11) is None
    assert [p["user"] for p in waitlist(like)["players"]] == [12, 41]


def test_c14_a_client_cannot_put_itself_ahead_in_line():
    from freezeout.server.transport.wsdecode import BadFrame, decode_frame

    refused = decode_frame({"text": '{"type": "waitlist_join", "moved_from": "t00000000000a", "id": 4}'})
    assert isinstance(refused, BadFrame) and refused.ref == 4 and "moved_from" in refused.message
    assert isinstance(decode_frame({"text": '{"type": "waitlist_join"}'}), WaitlistJoin)


async def test_c13_logging_out_or_a_session_expiring_leaves_every_waiting_list(harness):
    """C13: "leaving the list or the room drops the place": a log-out leaves a table's own list,
    "first available" and a private table's list at once; an account whose last session expired
    leaves them at the sweep of expired sessions."""
    from freezeout.server.app import sweep_sessions

    h = harness
    ana, bo, cy, di, ed, fay = [await (await h.player()).register(name) for name in ("ana", "bo", "cy", "di", "ed", "fay")]

    async def full_table(players: tuple[Any, Any], **extra: Any) -> tuple[str, str | None]:
        response = await ana.post("/api/tables", {"format": "cash", "game": "NT", "seats": 2, "cash": OPTIONS, **extra})
        assert response.status_code == 200, response.text
        table, invite = str(response.json()["table"]["id"]), response.json().get("invite", {}).get("secret")
        for p, seat in zip(players, (0, 1), strict=True):
            response = await p.post(f"/api/tables/{table}/buy_in" + (f"?invite={invite}" if invite else ""),
                                    {"chips": 4000, "slot": seat})
            assert response.status_code == 200, response.text
        return table, invite

    (public, _), (other, _) = await full_table((ana, bo)), await full_table((ana, bo))
    private, invite = await full_table((ed, fay), private=True)
    assert (await cy.post(f"/api/tables/{public}/waitlist")).status_code == 200
    joined = (await cy.post("/api/cash/first_available", {"table": public})).json()
    assert sorted(joined["joined"]) == sorted([public, other]) and joined["free"] == []
    assert (await cy.post(f"/api/tables/{private}/waitlist?invite={invite}")).status_code == 200
    assert (await di.post(f"/api/tables/{public}/waitlist")).status_code == 200

    def on_lists(player: Any) -> list[str]:
        return [t for t in (public, other, private)
                if any(p["user"] == player.user["id"] for p in h.table(t).summary()["waitlist"]["players"])]

    assert on_lists(cy) == [public, other, private] and on_lists(di) == [public]
    assert (await cy.post("/api/logout")).status_code == 200
    assert on_lists(cy) == [] and on_lists(di) == [public]  # di, still in the room, keeps her place
    await sweep_sessions(h.ctx.store, h.clock.now(), h.ctx.room)
    assert on_lists(di) == [public]  # her session runs on
    h.clock.advance(h.settings.session_days * 86400 + 1)
    await sweep_sessions(h.ctx.store, h.clock.now(), h.ctx.room)
    assert on_lists(di) == []


@pytest.mark.parametrize("database", ["sqlite", pytest.param("postgres", marks=(pytest.mark.postgres, pytest.mark.slow))])
async def test_c13_in_a_cluster_one_gateway_at_a_time_tends_the_lists(tmp_path, request, database):
    """The room's care of the lists (``tend``, every 2 s) runs on one gateway of a cluster at a
    time (cluster/tending.py): a running gateway takes the job's lease, another is refused it
    while it is renewed, and takes it once it is given up.  The job is no table: no worker
    claims it or counts it in its load.  On SQLite and on the session's PostgreSQL (the job's
    row is written by each dialect's own insert)."""
    overrides = {} if database == "sqlite" else {"database_url": await fresh_database(request.getfixturevalue("postgres_url"))}
    async with serve_cluster(cluster_settings(tmp_path, **overrides)) as cluster:
        engine = create_engine(cluster.settings.resolved_database_url())
        try:
            leases = Leases(engine, worker="w1", ttl=2.0)
            first = cluster.gateway.ctx.room.name

            async def tended_by_the_running_gateway() -> bool:
                lease = await leases.owner(TEND_JOB)
                return lease is not None and lease.worker == first

            await eventually(tended_by_the_running_gateway, "the running gateway to take the job")
            other, third = Tending.of(engine, "gateway-2", 2.0), Tending.of(engine, "gateway-3", 2.0)
            assert not await other.turn()
            room = cluster.gateway.ctx.room
            loop = next(task for task in room._tasks if task.get_name() == "gateway-waitlists")
            loop.cancel()  # the first gateway stops tending and gives the job up (as when it stops)
            await asyncio.gather(loop, return_exceptions=True)
            await room.tending.release()
            assert await other.turn() and await other.turn()  # taken, then renewed at the next round
            assert not await third.turn()
            assert TEND_JOB not in await leases.claimable() and "gateway-2" not in await leases.load()
            await other.release()
        finally:
            await engine.dispose()


async def test_c13_through_a_clusters_gateway_logging_out_leaves_a_private_tables_list(tmp_path):
    """The gateway reads the lists from the lobby its owners publish (private tables too) and
    asks each table's owner to take the player off (cluster/gateway.py, table/cashmove.py)."""
    async with serve_cluster(cluster_settings(tmp_path)) as cluster:
        worker = await cluster.worker("w1")
        ana, bo, cy = [await (await cluster.gateway.player()).register(name) for name in ("ana", "bo", "cy")]
        response = await ana.post("/api/tables", {"format": "cash", "game": "NT", "seats": 2, "cash": OPTIONS,
                                                  "private": True})
        assert response.status_code == 200, response.text
        table, invite = response.json()["table"]["id"], response.json()["invite"]["secret"]
        for p, seat in ((ana, 0), (bo, 1)):
            response = await p.post(f"/api/tables/{table}/buy_in?invite={invite}", {"chips": 4000, "slot": seat})
            assert response.status_code == 200, response.text
        assert (await cy.post(f"/api/tables/{table}/waitlist?invite={invite}")).status_code == 200
        lobby = cluster.gateway.ctx.room._lobby

        def listed_at_the_gateway() -> bool:
            record = lobby.get(table)
            return record is not None and [p["user"] for p in record["summary"]["waitlist"]["players"]] == [cy.user["id"]]

        await eventually(listed_at_the_gateway, "the gateway's lobby to show cy on the list")
        assert (await cy.post("/api/logout")).status_code == 200
        assert worker.tables[table].summary()["waitlist"]["players"] == []
