"""Private tables (issue #37, docs/protocol.md "Private tables"): listed nowhere, reached only
by an invite link whose secret the creator alone is told and may renew; every route keyed by
the table's id answers an outsider exactly as it answers for a table that does not exist, and
guessing ends with the rate limit."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from test_server_lobby import Lobby

from freezeout.server.clock import FakeClock
from freezeout.server.table.actor import TableActor
from polling import eventually

from clusterkit import Cluster, cluster_settings, real_cluster, serve_cluster
from serverkit import Harness, Player, fast_settings, serve

CASH = {"big_blind": 200, "rake_bp": 500, "rake_cap": 300}
MISSES = 12  # the test's table_misses_per_address


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with serve(fast_settings(tmp_path, table_misses_per_address=1000), FakeClock()) as harness:
        yield harness


@pytest.fixture
async def strict(tmp_path: Path) -> AsyncIterator[Harness]:
    """A room that tells an address "no such table" ``MISSES`` times before the rate limit."""
    async with serve(fast_settings(tmp_path, table_misses_per_address=MISSES), FakeClock()) as harness:
        yield harness


async def open_private(player: Player, body: dict[str, Any] | None = None) -> tuple[str, str]:
    """A private table ``player`` opens: its id and the invite secret they are told."""
    response = await player.post("/api/tables", {**(body or {"slots": [None, None]}), "private": True})
    assert response.status_code == 200, response.text
    data = response.json()
    table, invite = data["table"]["id"], data["invite"]
    assert data["table"]["private"] is True and "invite" not in data["table"]
    assert invite["path"] == f"/#/table/{table}?invite={invite['secret']}"
    return table, invite["secret"]


async def join(player: Player, table: str, invite: str | None) -> dict[str, Any]:
    """A ``join`` with the secret (or none): the snapshot, or the error."""
    if player.ws is None:
        await player.connect()
    await player.send({"type": "join", "table": table, **({"invite": invite} if invite is not None else {})})
    return await player.until(lambda m: m["type"] in ("snapshot", "error"))


def _same(a: Any, b: Any, table: str, other: str) -> bool:
    """Two answers alike but for the table id each names."""
    return str(a).replace(table, "ID") == str(b).replace(other, "ID")


async def test_a_private_table_is_listed_nowhere_and_its_secret_is_strong(h):
    ana, eve = await (await h.player()).register("ana"), await (await h.player()).register("eve")
    lobby = await Lobby(await h.player()).watch()
    public = await ana.create([None, None])
    table, secret = await open_private(ana)
    assert len(base64.urlsafe_b64decode(secret + "=" * (-len(secret) % 4))) * 8 >= 128
    cash = await ana.post("/api/tables", {"format": "cash", "game": "NT", "cash": CASH, "private": True})
    assert cash.status_code == 200, cash.text
    cash_table = cash.json()["table"]["id"]
    await lobby.until(lambda tables: public in tables)
    await h.settle()
    assert table not in lobby.tables and cash_table not in lobby.tables
    for query in ("", "?status=waiting", "?format=cash", "?format=freezeout"):
        listed = (await eve.http.get(f"/api/tables{query}")).json()["tables"]
        assert table not in {t["id"] for t in listed} and cash_table not in {t["id"] for t in listed}
    assert {t["id"] for t in (await eve.http.get("/api/tables")).json()["tables"]} == {public}
    ready = (await eve.http.get("/readyz")).json()
    assert public in ready["tables"] and table not in ready["tables"] and cash_table not in ready["tables"]
    # a later push of the lobby (a change at the public table) still leaves them out
    bo = await (await h.player()).register("bo")
    await bo.post(f"/api/tables/{public}/sit")
    await lobby.until(lambda tables: tables.get(public, {}).get("status") == "playing")
    assert set(lobby.tables) == {public}
    # nobody else is told the secret: not the summary, not a watcher's snapshot
    assert secret not in (await ana.http.get(f"/api/tables/{table}")).text
    snapshot = await join(eve, table, secret)
    assert snapshot["type"] == "snapshot" and secret not in str(snapshot)


async def test_ranked_games_are_always_public(h):
    ana = await (await h.player()).register("ana")
    response = await ana.post("/api/tables", {"slots": [None, None], "ranked": True, "private": True})
    assert response.status_code == 400, response.text
    assert "ranked games are always public" in response.json()["error"]["message"]
    assert (await ana.http.get("/api/tables")).json()["tables"] == []
    assert h.ctx.room.tables == {}


ROUTES = ["/api/tables/{t}", "/api/tables/{t}/games", "/api/tables/{t}/hands/1/steps", "/api/tables/{t}/hands/1",
          "/api/tables/{t}/hands/1.phh", "/api/tables/{t}/hands/1.stars", "/api/tables/{t}/ledger.csv",
          "/api/tables/{t}/chat"]


async def _answers(player: Player, table: str, invite: str | None, how: str = "query") -> list[tuple[int, str]]:
    """Every GET route keyed by the table's id, and POST sit, as ``player`` is answered."""
    out = []
    for route in ROUTES:
        path = route.format(t=table)
        if invite is not None and how == "query":
            response = await player.http.get(path, params={"invite": invite})
        else:
            response = await player.http.get(path, headers={"X-Invite": invite} if invite else {})
        out.append((response.status_code, response.text))
    sit = await player.http.post(f"/api/tables/{table}/sit" + (f"?invite={invite}" if invite else ""),
                                 headers={"X-CSRF-Token": player.csrf})
    out.append((sit.status_code, sit.text))
    return out


@pytest.mark.parametrize("kind", ["freezeout", "cash"])
async def test_every_route_keyed_by_the_id_answers_an_outsider_as_no_table(h, kind):
    ana, eve = await (await h.player()).register("ana"), await (await h.player()).register("eve")
    body = {"format": "cash", "game": "NT", "cash": CASH} if kind == "cash" else {"slots": [None, None]}
    table, secret = await open_private(ana, body)
    missing = "t0123456789ab"
    nothing = await _answers(eve, missing, None)
    assert all(status == 404 and '"not_found"' in text for status, text in nothing)
    assert _same(await _answers(eve, table, None), nothing, table, missing)
    assert _same(await _answers(eve, table, "x" * len(secret)), nothing, table, missing)
    assert _same(await _answers(eve, table, secret[:-1] + ("A" if secret[-1] != "A" else "B"), "header"), nothing,
                 table, missing)
    # the WebSocket's join: the same error as an unknown table's
    unknown = await join(eve, missing, None)
    for shown in (None, "wrong", secret.upper() if secret.upper() != secret else secret + "x"):
        refused = await join(eve, table, shown)
        assert refused["type"] == "error" and _same(refused, unknown, table, missing)
    # the secret opens every one of them (a route may still say the hand is not there)
    with_link = await _answers(eve, table, secret)
    assert with_link[0][0] == 200 and with_link[1][0] == 200
    assert all(text != nothing_text.replace(missing, table) for (_, text), (_, nothing_text) in zip(with_link, nothing,
                                                                                                     strict=True))
    assert (await join(eve, table, secret))["type"] == "snapshot"


async def test_guessing_gets_only_no_such_table_then_the_rate_limit(strict):
    h = strict
    ana, eve = await (await h.player()).register("ana"), await (await h.player()).register("eve")
    table, secret = await open_private(ana)
    public = await ana.create([None, None])
    seen = []
    for n in range(MISSES):
        response = await eve.http.get(f"/api/tables/{table}", params={"invite": f"guess{n:04d}{'A' * 28}"})
        seen.append((response.status_code, response.json()["error"]["code"]))
    assert seen == [(404, "not_found")] * MISSES
    # now every guess, the right secret and an unknown table alike are refused, the same way
    for shown in ("another-guess", secret):
        response = await eve.http.get(f"/api/tables/{table}", params={"invite": shown})
        assert response.status_code == 429 and response.json()["error"]["code"] == "rate_limited", response.text
        assert "Retry-After" in response.headers
    assert (await eve.http.get("/api/tables/t0123456789ab")).status_code == 429
    assert (await join(eve, table, secret))["code"] == "rate_limited"
    # a public table, and the creator's own, are not held up
    assert (await eve.http.get(f"/api/tables/{public}")).status_code == 200
    assert (await ana.http.get(f"/api/tables/{table}")).status_code == 200
    # the window passes: the link works again
    await h.advance(h.settings.table_miss_window_seconds)
    assert (await eve.http.get(f"/api/tables/{table}", params={"invite": secret})).status_code == 200


async def test_the_creator_renews_the_link_and_the_old_one_stops_at_once(h):
    ana, bo, eve = [await (await h.player()).register(name) for name in ("ana", "bo", "eve")]
    table, old = await open_private(ana)
    assert (await join(eve, table, old))["type"] == "snapshot"  # eve watches by the link
    assert (await join(bo, table, old))["type"] == "snapshot"
    assert (await bo.post(f"/api/tables/{table}/sit?invite={old}")).status_code == 200  # bo sits by it
    # only the creator reads or renews the link
    assert (await bo.http.get(f"/api/tables/{table}/invite")).status_code == 403
    assert (await bo.post(f"/api/tables/{table}/invite")).status_code == 403
    assert (await ana.http.get(f"/api/tables/{table}/invite")).json()["invite"]["secret"] == old
    response = await ana.post(f"/api/tables/{table}/invite")
    assert response.status_code == 200, response.text
    new = response.json()["invite"]["secret"]
    assert new != old and (await ana.http.get(f"/api/tables/{table}/invite")).json()["invite"]["secret"] == new
    # eve, who only watched by the old link, is put out; bo keeps his seat
    evicted = await eve.until(lambda m: m["type"] == "error")
    assert evicted["code"] == "not_found"
    await eve.send({"type": "sit"})
    assert (await eve.error())["code"] == "not_joined"
    assert (await bo.http.get(f"/api/tables/{table}")).status_code == 200
    # the old link is what a table that does not exist is; the new one works
    carol = await (await h.player()).register("carol")
    assert (await carol.http.get(f"/api/tables/{table}", params={"invite": old})).status_code == 404
    assert (await join(carol, table, old))["code"] == "not_found"
    assert (await carol.http.get(f"/api/tables/{table}", params={"invite": new})).status_code == 200
    # every route keyed by the id answers the old link as it answers an unknown table
    missing = "t0123456789ab"
    assert _same(await _answers(carol, table, old), await _answers(carol, missing, None), table, missing)
    # the privacy and the current secret are in the log: a restart keeps them
    entries = await h.ctx.store.log.table_entries(table)
    rebuilt = TableActor.restore(entries, store=h.ctx.store.log, clock=h.clock, settings=h.settings)
    assert rebuilt.state.private and rebuilt.state.invite == new
    assert (await h.ctx.room.privacy_of(table)).invite == new


async def test_a_finished_private_game_shows_to_its_players_and_link_holders_only(h):
    ana, eve = await (await h.player()).register("ana"), await (await h.player()).register("eve")
    table, secret = await open_private(ana, {"slots": [None, "easy"]})
    await join(ana, table, None)
    await h.settle()
    await ana.send({"type": "resign"})
    await h.settle()
    state = h.table(table).state
    assert state.ended
    game_id = state.game_id
    for suffix in ("record", "phh", "stars", "stars/summary", "events", "hands/1/steps", "review"):
        path = f"/api/games/{game_id}/{suffix}"
        mine = await ana.http.get(path)
        assert mine.status_code == 200, (path, mine.text)
        theirs, unknown = await eve.http.get(path), await eve.http.get(f"/api/games/g0000000000/{suffix}")
        assert (theirs.status_code, theirs.json()["error"]["code"]) == (404, "not_found")
        assert theirs.status_code == unknown.status_code
        assert theirs.json()["error"]["message"] == unknown.json()["error"]["message"].replace("g0000000000", game_id)
        assert (await eve.http.get(path, params={"invite": secret})).status_code == 200
    # the profile lists the game to ana, not to eve
    assert [g["id"] for g in (await ana.http.get("/api/users/ana/games")).json()["games"]] == [game_id]
    assert (await eve.http.get("/api/users/ana/games")).json()["games"] == []
    # the rematch (R3) is the same table: still private, still listed nowhere
    first_seats = state.players
    await ana.send({"type": "rematch"})
    await h.settle()
    await h.settle()
    again = h.table(table).state
    assert again.game == 2 and again.private and again.invite == secret
    assert again.players == (first_seats[1], first_seats[0])  # the seats rotated (R3), the group kept
    assert (await eve.http.get("/api/tables")).json()["tables"] == []
    assert (await eve.http.get(f"/api/tables/{table}")).status_code == 404


async def test_the_creator_holds_a_place_for_a_named_account_for_five_minutes(h):
    ana, bo, eve = [await (await h.player()).register(name) for name in ("ana", "bo", "eve")]
    table, secret = await open_private(ana, {"slots": [None, None, None]})
    # bo has no link: he is not shown the table until a place is held for him
    assert (await bo.http.get(f"/api/tables/{table}")).status_code == 404
    assert (await eve.post(f"/api/tables/{table}/reserve", {"name": "bo"})).status_code == 404  # eve: no such table
    assert (await eve.post(f"/api/tables/{table}/reserve?invite={secret}", {"name": "bo"})).status_code == 403
    assert (await ana.post(f"/api/tables/{table}/reserve", {"name": "nobody"})).status_code == 404
    held = await ana.post(f"/api/tables/{table}/reserve", {"name": "bo", "slot": 2})
    assert held.status_code == 200, held.text
    hold = held.json()["guests"]["holds"]
    assert hold == [{"slot": 2, "name": "bo", "until": h.clock.now() + 300}]
    assert (await bo.http.get(f"/api/tables/{table}")).status_code == 200  # by his account, no link
    # eve, with the link, cannot take place 2; the free place she is given is another
    refused = await eve.post(f"/api/tables/{table}/sit?invite={secret}", {"slot": 2})
    assert refused.status_code == 409 and "held for bo" in refused.json()["error"]["message"]
    sat = await eve.post(f"/api/tables/{table}/sit?invite={secret}")
    assert sat.status_code == 200, sat.text
    assert h.table(table).state.slot_of_user(eve.user["id"]) == 1
    # bo sits where he was expected (the game starts: the table is full)
    assert (await bo.post(f"/api/tables/{table}/sit")).status_code == 200
    assert h.table(table).state.slot_of_user(bo.user["id"]) == 2


async def test_a_held_place_is_free_again_after_its_time(h):
    ana, bo, eve = [await (await h.player()).register(name) for name in ("ana", "bo", "eve")]
    table, secret = await open_private(ana, {"slots": [None, None]})
    assert (await ana.post(f"/api/tables/{table}/reserve", {"name": "bo"})).status_code == 200
    assert (await eve.post(f"/api/tables/{table}/sit?invite={secret}")).status_code == 409
    await h.advance(300)
    assert (await bo.http.get(f"/api/tables/{table}")).status_code == 404  # the hold let go: no link, no table
    assert (await eve.post(f"/api/tables/{table}/sit?invite={secret}")).status_code == 200


async def test_with_approval_on_a_seat_waits_for_the_creator(h):
    ana, bo, eve = [await (await h.player()).register(name) for name in ("ana", "bo", "eve")]
    table, secret = await open_private(ana, {"slots": [None, None, None], "approval": True})
    await join(ana, table, None)
    for p in (bo, eve):
        assert (await join(p, table, secret))["type"] == "snapshot"
        await p.send({"type": "sit"})
        assert (await p.error())["code"] == "pending"
    told = await ana.until(lambda m: m["type"] == "guests" and len(m["requests"]) == 2)
    assert told["approval"] is True and {r["name"] for r in told["requests"]} == {"bo", "eve"}
    assert all(slot.user_id is None for slot in h.table(table).state.slots[1:])
    # only the creator answers
    assert (await bo.post(f"/api/tables/{table}/requests", {"user_id": bo.user["id"], "approve": True})).status_code == 404
    assert (await bo.post(f"/api/tables/{table}/requests?invite={secret}",
                          {"user_id": bo.user["id"], "approve": True})).status_code == 403
    approved = await ana.post(f"/api/tables/{table}/requests", {"user_id": bo.user["id"], "approve": True})
    assert approved.status_code == 200, approved.text
    assert h.table(table).state.slot_of_user(bo.user["id"]) is not None
    refused = await ana.post(f"/api/tables/{table}/requests", {"user_id": eve.user["id"], "approve": False})
    assert refused.status_code == 200 and refused.json()["guests"]["requests"] == []
    assert (await eve.until(lambda m: m["type"] == "error" and m["code"] == "refused"))["code"] == "refused"
    assert h.table(table).state.slot_of_user(eve.user["id"]) is None
    # an answer given twice is refused clearly, and nothing changes
    again = await ana.post(f"/api/tables/{table}/requests", {"user_id": eve.user["id"], "approve": True})
    assert again.status_code == 409 and h.table(table).state.slot_of_user(eve.user["id"]) is None
    # approval off: the link seats at once
    assert (await ana.post(f"/api/tables/{table}/approval", {"on": False})).json()["guests"]["approval"] is False
    assert (await eve.post(f"/api/tables/{table}/sit?invite={secret}")).status_code == 200


async def test_the_creator_removes_a_player_before_the_freezeout_starts(h):
    ana, bo, eve = [await (await h.player()).register(name) for name in ("ana", "bo", "eve")]
    table, secret = await open_private(ana, {"slots": [None, None, None]})
    assert (await bo.post(f"/api/tables/{table}/sit?invite={secret}")).status_code == 200
    place = h.table(table).state.slot_of_user(bo.user["id"])
    assert (await eve.post(f"/api/tables/{table}/remove?invite={secret}", {"slot": place})).status_code == 403
    assert (await ana.post(f"/api/tables/{table}/remove", {"slot": 2 if place != 2 else 1})).status_code == 409
    removed = await ana.post(f"/api/tables/{table}/remove", {"slot": place})
    assert removed.status_code == 200, removed.text
    assert h.table(table).state.slot_of_user(bo.user["id"]) is None
    assert (await bo.http.get(f"/api/tables/{table}")).status_code == 404  # by his account no more: by the link
    # once it has started, nobody is removed
    assert (await bo.post(f"/api/tables/{table}/sit?invite={secret}")).status_code == 200
    assert (await eve.post(f"/api/tables/{table}/sit?invite={secret}")).status_code == 200
    await h.settle()
    assert h.table(table).state.table_game is not None
    late = await ana.post(f"/api/tables/{table}/remove", {"slot": place})
    assert late.status_code == 409 and "started" in late.json()["error"]["message"]


async def test_only_a_private_table_has_a_link_or_approval(h):
    ana = await (await h.player()).register("ana")
    public = await ana.create([None, None])
    assert (await ana.http.get(f"/api/tables/{public}/invite")).status_code == 409
    assert (await ana.post(f"/api/tables/{public}/invite")).status_code == 409
    response = await ana.post("/api/tables", {"slots": [None, None], "approval": True})
    assert response.status_code == 400 and "private" in response.json()["error"]["message"]


async def test_a_private_cash_tables_buy_in_waits_for_approval_and_its_players_keep_its_history(h):
    ana, bo, eve = [await (await h.player()).register(name) for name in ("ana", "bo", "eve")]
    table, secret = await open_private(ana, {"format": "cash", "game": "NT", "cash": CASH, "approval": True})
    waiting = await bo.post(f"/api/tables/{table}/buy_in?invite={secret}", {"chips": 5000})
    assert waiting.status_code == 202 and waiting.json()["pending"] is True, waiting.text
    assert (await bo.http.get("/api/me/balance")).json()["balance"] == 10000  # nothing moved yet
    approved = await ana.post(f"/api/tables/{table}/requests", {"user_id": bo.user["id"], "approve": True})
    assert approved.status_code == 200, approved.text
    assert (await bo.http.get("/api/me/balance")).json()["balance"] == 5000
    assert (await bo.http.get(f"/api/tables/{table}/ledger.csv")).status_code == 200  # by his account
    assert (await eve.http.get(f"/api/tables/{table}/ledger.csv")).status_code == 404
    theirs = await eve.http.get("/api/me/cash/hands.stars", params={"table": table})
    unknown = await eve.http.get("/api/me/cash/hands.stars", params={"table": "t0123456789ab"})
    assert theirs.status_code == unknown.status_code == 404
    assert _same(theirs.text, unknown.text, table, "t0123456789ab")
    # "Add bot" works at a private cash table as at a public one, for those who may see it
    assert (await eve.post(f"/api/tables/{table}/bots", {"level": "easy"})).status_code == 404
    added = await bo.post(f"/api/tables/{table}/bots", {"level": "easy"})
    assert added.status_code == 200, added.text
    assert "bot" in [slot.kind for slot in h.table(table).state.slots if slot.taken]
    # bo leaves: he still sees the table he played at, without the link
    assert (await bo.post(f"/api/tables/{table}/stand")).status_code == 200
    await h.settle()
    assert (await bo.http.get(f"/api/tables/{table}/ledger.csv")).status_code == 200


async def test_in_a_cluster_a_private_table_stays_private_through_a_takeover(tmp_path):
    """Through a gateway (which drives no table: it reads a private table's secret from the log)
    and after its owner crashes: hidden, reached by the link, renewed by its creator."""
    async with serve_cluster(cluster_settings(tmp_path)) as cluster:
        first = await cluster.worker("w1")
        ana, bo, eve = [await (await cluster.gateway.player()).register(name) for name in ("ana", "bo", "eve")]
        lobby = await Lobby(await cluster.gateway.player()).watch()
        table, secret = await open_private(ana, {"slots": [None, None, None]})
        public = await ana.create([None, None])
        await eventually(lambda: cluster.owner(table) is first, "the worker to own the table")
        await lobby.until(lambda tables: public in tables)
        assert table not in lobby.tables
        assert {t["id"] for t in (await eve.http.get("/api/tables")).json()["tables"]} == {public}
        assert (await join(eve, table, None))["code"] == "not_found"
        assert (await join(eve, table, secret))["type"] == "snapshot"
        cy = await (await cluster.gateway.player()).register("cy")
        assert (await ana.post(f"/api/tables/{table}/reserve", {"name": "cy", "slot": 2})).status_code == 200
        held = (await ana.http.get(f"/api/tables/{table}/invite")).json()["guests"]["holds"]
        await cluster.worker("w2")
        await cluster.crash("w1")
        second = await cluster.owned_by_another(table, first)
        assert second.tables[table].state.invite == secret
        # the hold is the table's log: the new owner has it, and the gateway reads it from there
        assert (await ana.http.get(f"/api/tables/{table}/invite")).json()["guests"]["holds"] == held
        assert (await cy.http.get(f"/api/tables/{table}")).status_code == 200  # by her hold, without the link
        # the creator renews the link through the gateway: the owner writes it
        renewed = await ana.post(f"/api/tables/{table}/invite")
        assert renewed.status_code == 200, renewed.text
        new = renewed.json()["invite"]["secret"]
        assert new != secret and second.tables[table].state.invite == new
        # the old link seats nobody now, not even on a connection it opened before
        await eve.send({"type": "sit"})
        assert (await eve.until(lambda m: m["type"] == "error"))["code"] == "not_found"
        assert second.tables[table].state.slot_of_user(eve.user["id"]) is None
        assert (await join(bo, table, secret))["code"] == "not_found"
        assert (await join(bo, table, new))["type"] == "snapshot"
        assert (await ana.post(f"/api/tables/{table}/reserve", {"name": "eve", "slot": 1})).status_code == 200


async def _log_in(h: Harness, name: str) -> Player:
    player = await h.player()
    response = player._session(await player.post("/api/login", {"name": name, "password": "correct horse"}))
    assert response.status_code == 200, response.text
    return player


async def test_held_places_approval_and_seat_requests_survive_a_restart(tmp_path):
    """They are the table's log (``guests`` entries, server/guestbook.py): a restarted server
    rebuilds them as they were, with each hold's own end."""
    settings, clock = fast_settings(tmp_path, table_misses_per_address=1000), FakeClock()
    async with serve(settings, clock) as h:
        ana, bo, eve = [await (await h.player()).register(name) for name in ("ana", "bo", "eve")]
        table, secret = await open_private(ana, {"slots": [None, None, None], "approval": True})
        held = await ana.post(f"/api/tables/{table}/reserve", {"name": "bo", "slot": 2})
        assert held.status_code == 200, held.text
        until = held.json()["guests"]["holds"][0]["until"]
        waiting = await eve.post(f"/api/tables/{table}/sit?invite={secret}")
        assert waiting.status_code == 202, waiting.text
        before = (await ana.http.get(f"/api/tables/{table}/invite")).json()["guests"]
    clock.advance(60)
    async with serve(settings, clock) as h:
        ana, bo, eve = [await _log_in(h, name) for name in ("ana", "bo", "eve")]
        guests = (await ana.http.get(f"/api/tables/{table}/invite")).json()["guests"]
        assert guests == before == {"approval": True, "holds": [{"slot": 2, "name": "bo", "until": until}],
                                    "requests": [{"user_id": eve.user["id"], "name": "eve"}]}
        assert (await bo.http.get(f"/api/tables/{table}")).status_code == 200  # by his hold, without the link
        carol = await (await h.player()).register("carol")  # approval is still on: carol waits too
        assert (await carol.post(f"/api/tables/{table}/sit?invite={secret}")).status_code == 202
        approved = await ana.post(f"/api/tables/{table}/requests", {"user_id": eve.user["id"], "approve": True})
        assert approved.status_code == 200, approved.text
        assert h.table(table).state.slot_of_user(eve.user["id"]) == 1  # ana has 0; the held place 2 is not hers
        assert [r["name"] for r in approved.json()["guests"]["requests"]] == ["carol"]
        assert (await bo.post(f"/api/tables/{table}/sit")).status_code == 200
        assert h.table(table).state.slot_of_user(bo.user["id"]) == 2
        assert (await ana.http.get(f"/api/tables/{table}/invite")).json()["guests"]["holds"] == []
    async with serve(settings, clock) as h:  # once more: what was answered stays answered, what waits waits
        ana = await _log_in(h, "ana")
        guests = (await ana.http.get(f"/api/tables/{table}/invite")).json()["guests"]
        assert guests["holds"] == [] and [r["name"] for r in guests["requests"]] == ["carol"]


async def test_bots_filling_a_private_cash_table_leave_the_held_places_free(tmp_path):
    """A cash table's bots (table/bots.py) take no place its creator holds for a friend: the
    fill takes the free place past the holds, "Add bot" says why it cannot, and the friend
    finds the place held for them."""
    settings = fast_settings(tmp_path, table_misses_per_address=1000, cash_bot_fill_seconds=20)
    async with serve(settings, FakeClock()) as h:
        ana, bo, _cy = [await (await h.player()).register(name) for name in ("ana", "bo", "cy")]
        table, _ = await open_private(ana, {"format": "cash", "game": "NT", "cash": CASH, "seats": 4})
        for name, slot in (("bo", 1), ("cy", 2)):
            assert (await ana.post(f"/api/tables/{table}/reserve", {"name": name, "slot": slot})).status_code == 200
        assert (await ana.post(f"/api/tables/{table}/buy_in", {"chips": 5000, "slot": 0})).status_code == 200
        await h.advance(20)  # ana has sat alone for the fill's wait
        slots = h.table(table).state.slots
        assert [s.kind for s in slots] == ["user", None, None, "bot"]  # the one place nobody holds
        added = await ana.post(f"/api/tables/{table}/bots", {"level": "easy"})
        assert added.status_code == 409 and "held for a player" in added.json()["error"]["message"], added.text
        assert [s.kind for s in h.table(table).state.slots] == ["user", None, None, "bot"]
        assert (await bo.post(f"/api/tables/{table}/buy_in", {"chips": 5000})).status_code == 200
        assert h.table(table).state.slot_of_user(bo.user["id"]) == 1


async def test_through_a_gateway_the_creator_reads_the_guests_and_a_renewed_link_puts_its_watchers_out(tmp_path):
    """The gateway path is the one-process path: ``GET …/invite`` tells the held places and the
    requests (the table's owner answers), and a watcher by a renewed-away link is told
    ``not_found`` and follows the table no more (the owner tells the gateway to drop it)."""
    async with serve_cluster(cluster_settings(tmp_path, table_misses_per_address=1000)) as cluster:
        worker = await cluster.worker("w1")
        ana, _bo, eve = [await (await cluster.gateway.player()).register(name) for name in ("ana", "bo", "eve")]
        table, secret = await open_private(ana, {"slots": [None, None, None], "approval": True})
        await eventually(lambda: cluster.owner(table) is worker, "the worker to own the table")
        assert (await ana.post(f"/api/tables/{table}/reserve", {"name": "bo", "slot": 2})).status_code == 200
        assert (await join(eve, table, secret))["type"] == "snapshot"
        await eve.send({"type": "sit"})
        assert (await eve.error())["code"] == "pending"
        guests = (await ana.http.get(f"/api/tables/{table}/invite")).json()["guests"]
        assert guests["approval"] is True and [h["name"] for h in guests["holds"]] == ["bo"]
        assert guests["requests"] == [{"user_id": eve.user["id"], "name": "eve"}]
        assert (await ana.post(f"/api/tables/{table}/invite")).status_code == 200
        evicted = await eve.until(lambda m: m["type"] == "error")
        assert evicted["code"] == "not_found"
        await eve.send({"type": "sit"})
        assert (await eve.error())["code"] == "not_joined"  # as in one process: it follows the table no more
        room = cluster.gateway.ctx.room
        assert all(conn.user is None or conn.user.id != eve.user["id"] for conn in room.get(table).conns)
        assert all(remote.conn.user.id != eve.user["id"] for remote in worker.tables[table].remote.values())


async def test_metrics_count_no_private_table(h):
    """``freezeout_tables`` counts the public tables: opening a private one does not move it
    (docs/scaling.md), so a scrape cannot tell that one exists."""
    ana = await (await h.player()).register("ana")
    await ana.create([None, None])
    before = (await ana.http.get("/metrics")).text
    await open_private(ana)
    await open_private(ana, {"format": "cash", "game": "NT", "cash": CASH})
    after = (await ana.http.get("/metrics")).text
    assert "freezeout_tables 1" in before and "freezeout_tables 1" in after


async def guests_through_a_takeover(cluster: Cluster) -> None:
    """The guest book is the table's log (``guests`` entries): the new owner of a crashed
    worker's table rebuilds the held place, the approval and the waiting requests.  A request
    sent while the dead worker's lease still names it may be lost with that worker (the gateway
    answers ``busy``: the player sends it again); it lands once, and the creator approves it
    through the new owner."""
    first = await cluster.worker("w1")
    ana, bo, eve, cy = [await (await cluster.gateway.player()).register(n) for n in ("ana", "bo", "eve", "cy")]
    table, secret = await open_private(ana, {"slots": [None, None, None, None], "approval": True})
    await eventually(lambda: cluster.owner(table) is first, "w1 to own the table")
    assert (await ana.post(f"/api/tables/{table}/reserve", {"name": "bo", "slot": 3})).status_code == 200
    assert (await eve.post(f"/api/tables/{table}/sit?invite={secret}")).status_code == 202
    before = (await ana.http.get(f"/api/tables/{table}/invite")).json()["guests"]
    await cluster.worker("w2")
    await cluster.crash("w1")
    sent = await cy.post(f"/api/tables/{table}/sit?invite={secret}")  # during the takeover
    for _ in range(30):  # a fail-safe only: each busy answer took the gateway's whole wait
        if sent.status_code != 503 or sent.json()["error"]["code"] != "busy":
            break
        sent = await cy.post(f"/api/tables/{table}/sit?invite={secret}")  # lost with w1: send it again
    assert sent.status_code == 202, sent.text
    second = await cluster.owned_by_another(table, first)
    guests = (await ana.http.get(f"/api/tables/{table}/invite")).json()["guests"]
    assert guests["approval"] is True and guests["holds"] == before["holds"]
    assert guests["requests"] == [*before["requests"], {"user_id": cy.user["id"], "name": "cy"}]  # once each
    for player in (eve, cy):
        approved = await ana.post(f"/api/tables/{table}/requests", {"user_id": player.user["id"], "approve": True})
        assert approved.status_code == 200, approved.text
    state = second.tables[table].state
    assert [state.slot_of_user(p.user["id"]) for p in (ana, eve, cy)] == [0, 1, 2]  # place 3 is bo's
    assert (await bo.post(f"/api/tables/{table}/sit")).status_code == 200  # by his hold, without the link
    assert second.tables[table].state.slot_of_user(bo.user["id"]) == 3


@pytest.mark.slow  # seconds of leases running out; holds through a takeover run in every make test (above)
async def test_in_a_cluster_held_places_and_seat_requests_survive_a_takeover_and_one_sent_during_it_lands_once(tmp_path):
    async with serve_cluster(cluster_settings(tmp_path, table_misses_per_address=1000, route_timeout_seconds=1.0)) as cluster:
        await guests_through_a_takeover(cluster)


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.slow  # a real redis-server and PostgreSQL cluster: seconds (rediskit.py)
async def test_held_places_and_seat_requests_through_a_takeover_on_postgresql_and_redis(tmp_path, redis_server, postgres_url):
    async with real_cluster(tmp_path, redis_server, postgres_url, table_misses_per_address=1000,
                            route_timeout_seconds=1.0) as cluster:
        await guests_through_a_takeover(cluster)
