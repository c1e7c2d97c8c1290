"""Every clock rule with the injected fake clock (R15, R26–R30, D9)."""

from __future__ import annotations

from typing import Any

import pytest

from serverkit import Harness, Player


async def heads_up(h: Harness, second: str | None = None) -> tuple[str, Player, Player | None]:
    """ana and bo (or ana and a bot) at a started heads-up table, connected."""
    ana = await h.player()
    await ana.register("ana")
    if second is not None:
        table = await ana.create([None, second])
        await ana.join(table)
        await h.settle()
        return table, ana, None
    bo = await h.player()
    await bo.register("bo")
    table = await ana.create([None, None])
    await bo.post(f"/api/tables/{table}/sit")
    await ana.join(table)
    await bo.join(table)
    await h.settle()
    return table, ana, bo


async def synced(h: Harness, table: str, *players: Player | None) -> Any:
    await h.settle()
    state = h.table(table).state
    for p in players:
        if p is not None and p.ws is not None:
            await p.until_version(state.version)
    return state


def seat_of(p: Player) -> int:
    assert p.view is not None
    return int(p.view["viewer"])


def events_since(p: Player, version: int) -> list[dict[str, Any]]:
    return [e for m in p.messages if m["type"] == "update" and m["version"] > version for e in m["events"]]


async def test_dont_wait_only_after_the_turn_limit(harness):
    """R15, R26: after 30 s any other player may end the late player's turn."""
    table, ana, bo = await heads_up(harness)
    state = await synced(harness, table, ana, bo)
    late, other = (ana, bo) if seat_of(ana) == state.tournament.to_act else (bo, ana)
    await other.send({"type": "dont_wait", "version": state.version})
    assert (await other.error())["code"] == "too_early"
    await harness.advance(29.9)
    await other.send({"type": "dont_wait", "version": state.version})
    assert (await other.error())["code"] == "too_early"
    await harness.advance(0.1)
    assert other.latest["clock"]["turn_deadline"] == pytest.approx(harness.clock.now())
    await late.send({"type": "dont_wait", "version": state.version})  # not for oneself
    assert (await late.error())["code"] == "illegal"
    await other.send({"type": "dont_wait", "version": state.version})
    after = await synced(harness, table, ana, bo)
    events = events_since(other, state.version)
    assert events[0] == {"type": "dont_wait", "by": seat_of(other), "seat": seat_of(late)}
    assert {"type": "forfeited", "seat": seat_of(late), "in_a_row": 1} in events
    taken = next(e for e in events if e["type"] == "action_taken")
    assert taken["forced"] and taken["kind"] == "fold"  # preflop small blind: a fold (R26)
    assert after.tournament.forfeits[seat_of(late)] == 1


async def test_a_bot_presses_dont_wait_itself(harness):
    table, ana, _ = await heads_up(harness, "station")
    state = await synced(harness, table, ana)
    if state.tournament.to_act != seat_of(ana):  # the bot moved at once; now it is ana's turn
        state = await synced(harness, table, ana)
    assert state.tournament.to_act == seat_of(ana)
    version = state.version
    await harness.advance(30)
    assert harness.table(table).state.version == version  # ana is online: the turn just runs late
    await harness.advance(harness.settings.dont_wait_bot_seconds - 0.1)
    assert harness.table(table).state.version == version
    await harness.advance(0.1)
    await synced(harness, table, ana)
    events = events_since(ana, version)
    assert events[0] == {"type": "dont_wait", "by": 1 - seat_of(ana), "seat": seat_of(ana)}


async def test_an_offline_late_player_forfeits_the_moment_time_runs_out(harness):
    table, ana, bo = await heads_up(harness)
    state = await synced(harness, table, ana, bo)
    late, other = (ana, bo) if seat_of(ana) == state.tournament.to_act else (bo, ana)
    late_seat = seat_of(late)
    await late.ws.close()
    late.ws = None
    await harness.settle()
    await harness.advance(29.9)
    assert harness.table(table).state.version == state.version
    await harness.advance(0.1)
    await synced(harness, table, other)
    events = events_since(other, state.version)
    assert {"type": "forfeited", "seat": late_seat, "in_a_row": 1} in events
    assert not any(e["type"] == "dont_wait" for e in events)


async def test_going_offline_after_the_deadline_forfeits_at_once(harness):
    table, ana, bo = await heads_up(harness)
    state = await synced(harness, table, ana, bo)
    late, other = (ana, bo) if seat_of(ana) == state.tournament.to_act else (bo, ana)
    await harness.advance(45)
    assert harness.table(table).state.version == state.version
    await late.ws.close()
    late.ws = None
    await synced(harness, table, other)
    assert harness.table(table).state.tournament.forfeits[seat_of(other) ^ 1] == 1


async def play_turns_until(h: Harness, table: str, active: Player, *, late_seat: int, forfeits: int) -> None:
    """``active`` checks or calls; the offline ``late_seat`` forfeits each turn when time runs out."""
    for _ in range(200):
        state = await synced(h, table, active)
        t = state.tournament
        if state.ended or t.forfeits[late_seat] >= forfeits or not t.alive[late_seat]:
            return
        if not t.in_hand:
            await h.advance(h.settings.pause_seconds)
        elif t.to_act == late_seat:
            await h.advance(h.settings.turn_seconds)
        else:
            moves = active.view["legal"]["moves"]
            await active.send({"type": "act", "version": state.version, "move": "check" if "check" in moves else "call"})
    raise AssertionError("did not get there")


async def test_two_forfeits_in_a_row_eliminate(harness):
    """R27: the second forfeit in a row eliminates at once; heads-up the other player wins."""
    table, ana, bo = await heads_up(harness)
    late_seat = seat_of(bo)
    await bo.ws.close()
    bo.ws = None
    await play_turns_until(harness, table, ana, late_seat=late_seat, forfeits=2)
    state = await synced(harness, table, ana)
    assert not state.tournament.alive[late_seat]
    assert state.tournament.places[late_seat] == 2 and state.ended
    assert state.tournament.winner == seat_of(ana)


async def test_only_the_players_own_move_resets_the_count(harness):
    """D9: forfeit, own move, forfeit: one in a row, still in."""
    table, ana, bo = await heads_up(harness)
    late_seat = seat_of(bo)
    await bo.ws.close()
    bo.ws = None
    await play_turns_until(harness, table, ana, late_seat=late_seat, forfeits=1)
    await bo.join(table)  # back online: bo plays his next turn himself
    for _ in range(50):
        state = await synced(harness, table, ana, bo)
        t = state.tournament
        if t.in_hand and t.to_act == late_seat:
            break
        if not t.in_hand:
            await harness.advance(harness.settings.pause_seconds)
        else:
            moves = ana.view["legal"]["moves"]
            await ana.send({"type": "act", "version": state.version, "move": "check" if "check" in moves else "call"})
    moves = bo.view["legal"]["moves"]
    await bo.send({"type": "act", "version": state.version, "move": "check" if "check" in moves else "call"})
    state = await synced(harness, table, ana, bo)
    assert state.tournament.forfeits[late_seat] == 0
    await bo.ws.close()
    bo.ws = None
    await play_turns_until(harness, table, ana, late_seat=late_seat, forfeits=1)
    state = await synced(harness, table, ana)
    assert state.tournament.alive[late_seat] and state.tournament.forfeits[late_seat] == 1


async def test_ten_hours_without_a_move_forfeit_the_turn(harness):
    """R29: both online, nobody presses Don't wait: after 10 h the turn is forfeited."""
    table, ana, bo = await heads_up(harness)
    state = await synced(harness, table, ana, bo)
    late = ana if seat_of(ana) == state.tournament.to_act else bo
    await harness.advance(10 * 3600 - 1)
    assert harness.table(table).state.version == state.version
    await harness.advance(1)
    await synced(harness, table, ana, bo)
    events = events_since(late, state.version)
    assert events[0] == {"type": "inactivity", "seat": seat_of(late)}
    assert {"type": "forfeited", "seat": seat_of(late), "in_a_row": 1} in events
    assert not harness.table(table).state.ended  # the game does not end by itself


async def test_four_second_pause_between_hands_shows_the_result(harness):
    """R30: the result stays on the table for 4 s, then the next hand is dealt."""
    table, ana, bo = await heads_up(harness)
    state = await synced(harness, table, ana, bo)
    mover = ana if seat_of(ana) == state.tournament.to_act else bo
    await mover.send({"type": "act", "version": state.version, "move": "fold"})
    state = await synced(harness, table, ana, bo)
    assert state.tournament.hand_number == 1 and not state.tournament.in_hand
    view = ana.view
    assert view["hand_over"] and view["hand_number"] == 1
    assert ana.latest["clock"]["next_hand_at"] == pytest.approx(harness.clock.now() + 4)
    assert ana.latest["fairness"]["revealed"][0]["hand"] == 1
    assert ana.latest["fairness"]["next"]["hand"] == 2
    await harness.advance(3.9)
    assert harness.table(table).state.tournament.hand_number == 1
    await harness.advance(0.1)
    await synced(harness, table, ana, bo)
    assert harness.table(table).state.tournament.hand_number == 2
    assert ana.view["hand_number"] == 2 and not ana.view["hand_over"]


async def test_resign_at_any_moment_even_out_of_turn(harness):
    """R28: a resignation out of turn eliminates at once; heads-up the other wins."""
    table, ana, bo = await heads_up(harness)
    state = await synced(harness, table, ana, bo)
    waiting = ana if seat_of(ana) != state.tournament.to_act else bo
    await waiting.send({"type": "resign"})
    state = await synced(harness, table, ana, bo)
    assert state.ended and state.tournament.places[seat_of(waiting)] == 2


async def test_idle_finished_tables_are_retired_but_their_games_stay(harness):
    table, ana, bo = await heads_up(harness)
    await ana.send({"type": "resign"})
    state = await synced(harness, table, ana, bo)
    assert state.ended
    room = harness.ctx.room
    harness.clock.advance(harness.settings.idle_close_seconds)
    assert await room.sweep() == []  # players still follow the table
    await ana.ws.close()
    await bo.ws.close()
    ana.ws = bo.ws = None
    await harness.settle()
    assert await room.sweep() == [table]
    assert table not in room.tables
    assert table not in await harness.ctx.store.log.open_table_logs()
    assert (await ana.http.get(f"/api/games/{state.game_id}/record")).status_code == 200
