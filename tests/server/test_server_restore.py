"""A server restart costs players nothing (issue #10, finding 11; R15, R26, R27):
after a restore every running turn starts again in full, and nobody is
forfeited for being offline before the reconnection grace has passed.  The
crash itself (kill -9 at random moments) is drilled by bench/crash_drill.py;
here the restore's clock rules, with the fake clock."""

from __future__ import annotations

from typing import Any

from freezeout.server.clock import FakeClock

from serverkit import fast_settings, heads_up_table, serve


async def start_heads_up(h: Any) -> tuple[str, int, tuple[str | None, str | None]]:
    """ana and bo at a ranked heads-up table in hand 1; returns the table, the seat to act
    and both session cookies."""
    table, ana, bo = await heads_up_table(h)
    state = h.table(table).state
    assert state.tournament.in_hand
    return table, state.tournament.to_act, (ana.http.cookies.get("fz_session"), bo.http.cookies.get("fz_session"))


def moves(state: Any) -> list[tuple[int, str]]:
    return [(e.seat, str(e.kind)) for e in state.tournament.hand_log if type(e).__name__ == "ActionTaken"]


async def test_a_restart_gives_the_running_turn_again_in_full(tmp_path):
    settings = fast_settings(tmp_path)
    clock = FakeClock()
    async with serve(settings, clock) as h:
        table, late, cookies = await start_heads_up(h)
        before = h.table(table).state
    clock.advance(settings.turn_seconds + 5)  # an outage longer than the turn's time left
    async with serve(settings, clock) as h:
        restarted = clock.now()
        actor = h.table(table)
        await h.settle()
        state = actor.state
        assert state.version == before.version + 1  # the resume entry, and nothing else
        assert state.tournament.forfeits == (0, 0) and moves(state) == moves(before)
        assert state.turn_started == restarted and state.grace_until == restarted + settings.restore_grace_seconds
        players = [await h.player() for _ in cookies]
        for p, cookie in zip(players, cookies, strict=True):
            p.http.cookies.set("fz_session", cookie)
            await p.join(table)
        mover = next(p for p in players if p.view["viewer"] == late)
        clock_json = mover.latest["clock"]
        assert clock_json["turn_deadline"] == restarted + settings.turn_seconds  # a full turn (R15)
        assert clock_json["grace_until"] == restarted + settings.restore_grace_seconds
        await h.advance(settings.turn_seconds - 1)
        await mover.send({"type": "act", "version": actor.state.version, "move": "call"})
        await h.settle()
        assert moves(actor.state)[-1] == (late, "call") and actor.state.tournament.forfeits == (0, 0)


async def test_an_absent_player_is_forfeited_only_after_the_grace(tmp_path):
    settings = fast_settings(tmp_path)
    clock = FakeClock()
    async with serve(settings, clock) as h:
        table, late, _ = await start_heads_up(h)
    clock.advance(8)  # "restart 8 s later"
    async with serve(settings, clock) as h:
        actor = h.table(table)
        grace = settings.restore_grace_seconds
        await h.advance(settings.turn_seconds + 1)  # the turn's time has run out, but within the grace
        assert actor.state.tournament.forfeits == (0, 0)
        other = await h.player()
        await other.register("cy")
        await other.join(table)
        await h.advance(grace - settings.turn_seconds - 2)
        assert actor.state.tournament.forfeits == (0, 0)
        await h.advance(2)  # the grace is over and the player is still away: R26 applies again
        forfeits = actor.state.tournament.forfeits
        assert forfeits[late] == 1 and sum(forfeits) == 1


async def test_a_bot_does_not_press_dont_wait_on_a_player_reconnecting(tmp_path):
    settings = fast_settings(tmp_path, dont_wait_bot_seconds=1.0)
    clock = FakeClock()
    async with serve(settings, clock) as h:
        ana = await h.player()
        await ana.register("ana")
        table = await ana.create([None, "station"])
        await h.settle()
        seat = h.table(table).state.seat_of_user(ana.user["id"])
        while h.table(table).state.tournament.to_act != seat:
            await h.advance(settings.pause_seconds)
    clock.advance(3)
    async with serve(settings, clock) as h:
        actor = h.table(table)
        await h.advance(settings.turn_seconds + settings.dont_wait_bot_seconds + 1)
        assert actor.state.tournament.forfeits[seat] == 0
        await h.advance(settings.restore_grace_seconds)
        assert actor.state.tournament.forfeits[seat] == 1
