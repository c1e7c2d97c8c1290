"""C11 on the server: a cash table's time bank runs when the 30-second clock has run out,
and only when it is empty does R26 act (C8: two forfeits in a row sit the player out).
Every time comes from the injected fake clock; the bank a move used is in its log entry."""

from __future__ import annotations

import pytest
from test_server_cash import cash_heads_up, play_hands

from freezeout.rules.cash import Status
from freezeout.server.entries import ActEntry
from freezeout.server.table.actor import TableActor
from freezeout.server.table.cash import CashGame

from serverkit import Harness, Player


def game_of(h: Harness, table: str) -> CashGame:
    game = h.table(table).state.table_game
    assert isinstance(game, CashGame)
    return game


async def synced(h: Harness, table: str, *players: Player) -> int:
    await h.settle()
    version = h.table(table).state.version
    for p in players:
        if p.ws is not None:
            await p.until_version(version)
    return version


def late_and_other(h: Harness, table: str, ana: Player, bo: Player) -> tuple[Player, Player]:
    return (ana, bo) if game_of(h, table).to_act == 0 else (bo, ana)


async def test_the_bank_starts_when_the_clock_runs_out_and_dont_wait_waits_for_it(harness):  # C11, R26, C8
    h = harness
    table, ana, bo = await cash_heads_up(h)
    version = await synced(h, table, ana, bo)
    late, other = late_and_other(h, table, ana, bo)
    seat = late.view["you"]
    start = h.clock.now()
    clock = other.latest["clock"]
    assert clock["turn_deadline"] == pytest.approx(start + 30) and clock["bank_deadline"] == pytest.approx(start + 60)
    assert [s["time_bank"] for s in other.view["seats"][:2]] == [30.0, 30.0]
    await h.advance(30)
    await other.send({"type": "dont_wait", "version": version})
    refused = await other.error()
    assert refused["code"] == "too_early" and "time bank" in refused["message"]
    await h.advance(29.9)
    assert h.table(table).state.version == version  # online and in the bank: nobody acts for them
    await h.advance(0.1)
    await other.send({"type": "dont_wait", "version": version})
    await synced(h, table, ana, bo)
    held = game_of(h, table).table.seats[seat]
    assert held is not None and held.time_bank == 0.0 and held.forfeits == 1  # R26: the bank is spent


async def test_a_move_in_the_bank_spends_what_it_took_and_the_log_keeps_it(harness):  # C11
    h = harness
    table, ana, bo = await cash_heads_up(h)
    version = await synced(h, table, ana, bo)
    late, _ = late_and_other(h, table, ana, bo)
    seat = late.view["you"]
    await h.advance(42.5)
    await late.send({"type": "act", "version": version, "move": "call" if "call" in late.view["legal"]["moves"] else "check"})
    await synced(h, table, ana, bo)
    held = game_of(h, table).table.seats[seat]
    assert held is not None and held.time_bank == pytest.approx(17.5)
    entries = await h.ctx.store.log.table_entries(table)
    moved = entries[-1]
    assert moved.kind == "act" and moved.data["bank"] == pytest.approx(12.5)
    assert isinstance(moved.body, ActEntry) and moved.body.bank == pytest.approx(12.5)
    assert late.view["seats"][seat]["time_bank"] == pytest.approx(17.5)
    rebuilt = TableActor.restore(entries, store=h.ctx.store.log, clock=h.clock, settings=h.settings)
    again = rebuilt.state.table_game
    assert isinstance(again, CashGame) and again.table == game_of(h, table).table  # a replay spends the same bank


async def test_an_offline_player_forfeits_when_the_bank_is_empty_not_when_the_clock_is(harness):  # C11, R26
    h = harness
    table, ana, bo = await cash_heads_up(h)
    version = await synced(h, table, ana, bo)
    late, other = late_and_other(h, table, ana, bo)
    seat = late.view["you"]
    assert late.ws is not None
    await late.ws.close()
    late.ws = None
    await h.settle()
    await h.advance(59.9)
    assert h.table(table).state.version == version
    await h.advance(0.1)
    await synced(h, table, other)
    held = game_of(h, table).table.seats[seat]
    assert held is not None and held.forfeits == 1 and held.time_bank == 0.0


async def test_two_forfeits_in_a_row_sit_the_player_out_and_the_table_plays_on(harness):  # C8
    h = harness
    table, ana, bo = await cash_heads_up(h)
    await synced(h, table, ana, bo)
    late, other = late_and_other(h, table, ana, bo)
    seat = late.view["you"]
    assert late.ws is not None
    await late.ws.close()
    late.ws = None
    for _ in range(50):
        await synced(h, table, other)
        game = game_of(h, table)
        held = game.table.seats[seat]
        assert held is not None
        if held.status is Status.AWAY:
            break
        if not game.in_hand:
            await h.advance(h.settings.pause_seconds)
        elif game.to_act == seat:
            await h.advance(h.settings.turn_seconds + held.time_bank)
        else:
            moves = other.view["legal"]["moves"]
            await other.send({"type": "act", "version": h.table(table).state.version,
                              "move": "check" if "check" in moves else "call"})
    held = game_of(h, table).table.seats[seat]
    assert held is not None and held.status is Status.AWAY and held.forfeits == 2
    assert h.table(table).state.slots[seat].taken  # sat out (C8), not eliminated: the chips stay theirs


async def test_the_bank_grows_by_5_seconds_every_20_hands(harness):  # C11
    h = harness
    table, ana, bo = await cash_heads_up(h)
    await synced(h, table, ana, bo)
    await play_hands(h, table, [ana, bo], 20)
    seats = game_of(h, table).table.seats
    assert [s.time_bank for s in seats[:2] if s is not None] == [35.0, 35.0]
    assert ana.view["seats"][0]["time_bank"] == 35.0
