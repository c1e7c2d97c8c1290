"""``GET /api/me/luck`` (docs/protocol.md "Luck", issue #36): your result, all-in EV and luck per
recent cash session and freezeout — your own only (there is no form of the route that names
anyone else), refused to nobody signed in (a guest gets their own); a session's all-in is counted at its
equity (the odds calculator's exact preflop share) times the pot."""

from __future__ import annotations

from typing import Any

from test_server_cash_play import EventLog

from freezeout.server.oddsdesk import compute

BOARD = "9cKd4hJsQc"


async def _all_in_session(h: Any) -> tuple[Any, Any]:
    """Ana (4,000) all in before the flop with 2c7d against Bo's aces (8,000), then leaves."""
    from freezeout.rules.actions import Action, ActionKind
    from freezeout.server.entries import (
        ActEntry,
        CommitEntry,
        DealEntry,
        LogEntry,
        SitEntry,
        Slot,
        StandEntry,
    )
    from freezeout.server.table.chips import cash_transfers
    from freezeout.server.table.state import reduce

    ana = await (await h.player()).register("ana")
    bo = await (await h.player()).register("bo")
    log = EventLog({"big_blind": 200})
    await h.ctx.store.log.create_table("t1", log.entries[0])

    async def write(body: Any) -> None:
        entry = LogEntry.of("t1", log.state.version + 1, h.clock.now(), body)
        new, _, _ = reduce(log.state, entry)
        await h.ctx.store.log.append([entry], cash_transfers(log.state, new, entry, None))
        log.state = new

    await write(SitEntry(0, Slot(ana.user["id"], "ana", "user"), chips=4000))
    await write(SitEntry(1, Slot(bo.user["id"], "bo", "user"), chips=8000))
    rigged = EventLog({"big_blind": 200})
    rigged.state = log.state
    rigged.deal_rigged(["2c7d", "AsAh"], BOARD)
    for body in (CommitEntry(rigged.state.current_deal), DealEntry()):
        await write(body)
    while log.game.in_hand:
        legal = log.game.legal_actions()
        assert legal is not None
        kind = ActionKind.ALLIN if legal.seat == 0 else ActionKind.CALL if legal.call_amount else ActionKind.CHECK
        await write(ActEntry(Action(legal.seat, kind)))
    await write(StandEntry(0, chips=0))
    return ana, bo


async def test_your_luck_is_your_sessions_result_less_its_all_in_ev_and_only_yours(harness) -> None:
    ana, bo = await _all_in_session(harness)
    equity = compute("NT", ("2c7d", "AsAh"), "", "")["hands"][0]["equity"]
    got = (await ana.http.get("/api/me/luck")).json()
    (session,) = got["sessions"]["sessions"]
    assert (session["table"], session["hands"], session["all_ins"], session["open"]) == ("t1", 1, 1, False)
    assert session["result"] == session["net"] == -4000
    assert abs(session["all_in_ev"] - (equity * 8000 - 4000)) < 0.01
    assert abs(session["luck"] - (-4000 - session["all_in_ev"])) < 0.01 and session["luck"] < 0
    assert got["sessions"]["total"]["luck"] == session["luck"] and got["freezeouts"]["games"] == []
    # Bo's answer is Bo's own session: his luck, the mirror of Ana's; nothing of Ana's
    mine = (await bo.http.get("/api/me/luck")).json()["sessions"]["sessions"]
    assert len(mine) == 1 and abs(mine[0]["luck"] + session["luck"]) < 0.02 and mine[0]["open"] is True
    assert "ana" not in str(mine)


async def test_luck_is_refused_to_nobody_signed_in_and_a_guest_gets_their_own(harness) -> None:
    (guest,) = await harness.guests(1)  # a guest's own games (none yet): their own, as anyone's
    assert (await guest.http.get("/api/me/luck")).json()["freezeouts"] == {"games": [], "total": {
        "count": 0, "result": 0, "all_in_ev": 0.0, "luck": 0.0, "all_ins": 0}}
    nobody = await harness.player()
    response = await nobody.http.get("/api/me/luck")
    assert response.status_code == 401, response.text
    ana = await (await harness.player()).register("ana")
    assert (await ana.http.get("/api/me/luck?limit=0")).status_code == 400
    assert (await ana.http.get("/api/me/luck")).json()["sessions"]["sessions"] == []


async def test_a_freezeouts_line_is_its_reviews_totals_for_you(harness) -> None:
    from test_server_games import play_game

    table_id, human = await play_game(harness, "NT", "station", seed=3)
    (game,) = await harness.ctx.store.games.of_table(table_id)
    review = (await human.http.get(f"/api/games/{game['id']}/review")).json()
    me = review["players"][review["viewer"]]
    got = (await human.http.get("/api/me/luck")).json()["freezeouts"]
    (line,) = got["games"]
    assert line["game"] == game["id"]
    assert (line["result"], line["all_in_ev"], line["luck"], line["all_ins"]) == (
        me["result"], me["all_in_ev"], me["luck"], me["all_ins"])
    assert line["hands"] == len(review["hands"])
    assert got["total"]["luck"] == me["luck"] and got["total"]["count"] == 1
