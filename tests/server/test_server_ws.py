"""Complete games over real WebSocket connections (in-process server, fake clock)."""

from __future__ import annotations

from typing import Any

from freezeout.formats.record import parse_record, replay_record
from freezeout.server import elo
from freezeout.server.fairness import verify_record
from freezeout.server.table.records import player_record
from freezeout.server.transport.protocol import SERVER_MESSAGE


async def full_record(harness, table: str) -> dict[str, Any]:
    """The server's full (audit) record of the table's current game: every card."""
    game = await harness.ctx.store.games.get(harness.table(table).state.game_id)
    return game["record"]


def check_messages(messages: list[dict[str, Any]], record: dict[str, Any] | None = None, *, me: str | None = None) -> int:
    """Every message parses as a protocol message and shows no hidden card.

    Returns the number of distinct hands seen.  With ``record`` (the full
    record): the client's own cards and every shown hand are the ones really
    dealt, and every hand's reveal opens exactly what ``me`` (a player's name;
    None: a spectator) saw: the public cards and ``me``'s own."""
    hands: set[int] = set()
    seen = player_record(record, me) if record is not None else None
    for msg in messages:
        SERVER_MESSAGE.validate_python(msg)
        if msg["type"] not in ("snapshot", "update") or msg["view"] is None:
            continue
        view = msg["view"]
        number = view["hand_number"]
        hands.add(number)
        assert "deck" not in (msg["fairness"]["next"] or {})
        for revealed in msg["fairness"]["revealed"]:  # a deck is revealed only after its hand
            assert revealed["hand"] < number or (revealed["hand"] == number and view["hand_over"])
            if seen is not None and msg["table"]["game_id"] == record["game_id"]:
                expected = seen["hands"][revealed["hand"] - 1]
                assert (revealed["deck"], revealed["salts"]) == (expected["deck"], expected["salts"]), (me, revealed)
        for seat in view["seats"]:
            if seat["cards"] is None:
                continue
            if seat["seat"] != view["viewer"]:
                assert view["showdown"] and view["hand_over"], f"hidden cards of seat {seat['seat']} leaked: {msg}"
            if record is not None and number >= 1 and msg["table"]["game_id"] == record["game_id"]:
                hole = record["hands"][number - 1]["hole"]
                assert hole.get(seat["player"]) == seat["cards"], (number, hole, view, msg["events"], msg["version"])
        if msg["type"] == "update":
            for event in msg["events"]:
                if event["type"] == "cards_shown":
                    assert view["showdown"]
    return len(hands)


async def test_heads_up_between_two_humans_with_a_spectator(harness, policies):
    ana, bo, eve = await harness.player(), await harness.player(), await harness.player()
    await ana.register("ana")
    await bo.register("bo")
    await eve.guest()
    table = await ana.create([None, None])
    assert (await bo.post(f"/api/tables/{table}/sit")).status_code == 200
    for p in (ana, bo, eve):
        await p.join(table)
    await harness.play_out(table, [ana, bo], policies["random"], watchers=(eve,), seed=1)
    game_id = harness.table(table).state.game_id
    record = await full_record(harness, table)
    result = replay_record(parse_record(record))
    assert result.finished
    assert verify_record(record)["ok"]
    downloaded = (await eve.http.get(f"/api/games/{game_id}/record")).json()
    assert verify_record(downloaded)["ok"] and replay_record(parse_record(downloaded)).to_json() == result.to_json()
    assert check_messages(ana.messages, record, me="ana") > 1
    check_messages(bo.messages, record, me="bo")
    check_messages(eve.messages, record)
    assert all(seat["cards"] is None or eve.view["showdown"] for seat in eve.view["seats"])
    final = ana.view
    assert final is not None and final["finished"]
    places = {s["player"]: s["place"] for s in final["seats"]}
    assert sorted(places.values()) == [1, 2]
    assert dict(result.standings) == places
    games = (await ana.http.get(f"/api/tables/{table}/games")).json()["games"]
    assert games[0]["finished"] and games[0]["places"] == places


async def test_four_seats_two_humans_two_bots(harness, policies):
    ana, bo = await harness.player(), await harness.player()
    await ana.register("ana")
    await bo.guest()
    table = await ana.create([None, "random", None, "station"])
    assert (await bo.post(f"/api/tables/{table}/sit")).status_code == 200
    await ana.join(table)
    await bo.join(table)
    await harness.play_out(table, [ana, bo], policies["calling"], seed=2)
    record = await full_record(harness, table)
    assert replay_record(parse_record(record)).finished
    assert sorted(p for p in record["players"]) == sorted(["ana", bo.user["name"], "bot-random", "bot-station"])
    check_messages(ana.messages, record, me="ana")
    check_messages(bo.messages, record, me=bo.user["name"])


async def test_hidden_cards_never_reach_opponents_or_spectators(harness, policies):
    """Three humans and two spectators over several games: nobody ever receives
    a card they may not see (checked against what was really dealt)."""
    players = [await harness.player() for _ in range(3)]
    for i, p in enumerate(players):
        await p.register(f"player{i}")
    spectators = [await harness.player(), await harness.player()]
    await spectators[0].guest()
    table = await players[0].create([None, None, None])
    for p in players[1:]:
        assert (await p.post(f"/api/tables/{table}/sit")).status_code == 200
    for p in [*players, *spectators]:
        await p.join(table)
    hands = 0
    for game in range(3):
        await harness.play_out(table, players, policies["random"], watchers=tuple(spectators), seed=10 + game)
        record = await full_record(harness, table)
        for i, p in enumerate([*players, *spectators]):
            hands_seen = check_messages(p.messages, record, me=f"player{i}" if i < len(players) else None)
            p.messages.clear()
        hands += hands_seen
        for p in players:
            await p.send({"type": "rematch"})
        await harness.settle()
    assert hands >= 30


async def test_nobody_can_act_for_another_seat(harness):
    table, ana, bo, eve = await harness.heads_up_with_a_spectator()
    state = harness.table(table).state
    for p in (ana, bo, eve):
        await p.until_version(state.version)
    actor_seat = state.tournament.to_act
    mover, waiter = (ana, bo) if ana.view["viewer"] == actor_seat else (bo, ana)
    version = state.version
    await waiter.send({"type": "act", "version": version, "move": "fold"})
    assert (await waiter.error())["code"] == "not_your_turn"
    await waiter.send({"type": "act", "version": version, "move": "fold", "seat": actor_seat})  # forged seat
    assert (await waiter.error())["code"] == "bad_message"
    await eve.send({"type": "act", "version": version, "move": "fold", "id": 7})
    error = await eve.error()
    assert error["code"] == "not_seated" and error["ref"] == 7
    await mover.send({"type": "act", "version": version - 1, "move": "call"})
    assert (await mover.error())["code"] == "stale"
    await mover.send({"type": "act", "version": version, "move": "raise", "amount": 21})
    error = await mover.error()
    assert error["code"] == "illegal" and "minimum raise" in error["message"]
    await harness.settle()
    assert harness.table(table).state.version == version  # nothing changed
    await mover.send({"type": "act", "version": version, "move": "call"})
    await harness.settle()
    assert harness.table(table).state.version == version + 1


async def test_guests_cannot_join_ranked_tables(harness):
    ana, guest = await harness.player(), await harness.player()
    await ana.register("ana")
    await guest.guest()
    table = await ana.create([None, None], ranked=True)
    response = await guest.post(f"/api/tables/{table}/sit")
    assert response.status_code == 403 and response.json()["error"]["code"] == "forbidden"
    response = await guest.post("/api/tables", {"slots": [None, "easy"], "ranked": True})
    assert response.status_code == 403
    response = await ana.post("/api/tables", {"slots": [None, "easy", "easy"], "ranked": True})
    assert response.status_code == 409
    await guest.join(table)
    await guest.send({"type": "sit"})
    assert (await guest.error())["code"] == "forbidden"


async def test_reconnect_receives_what_it_missed_or_a_snapshot(harness, policies):
    ana, bo = await harness.player(), await harness.player()
    await ana.register("ana")
    await bo.register("bo")
    table = await ana.create([None, None])
    await bo.post(f"/api/tables/{table}/sit")
    await ana.join(table)
    await bo.join(table)
    await harness.settle()
    actor = harness.table(table)
    await ana.until_version(actor.state.version)
    seen = ana.version
    await ana.ws.close()
    ana.ws = None
    await harness.settle()
    assert harness.table(table).presence()[ana.view["viewer"]] is False
    for _ in range(3):  # the other player's turns forfeit while ana is away? no: bo moves, ana is offline
        t = actor.state.tournament
        if t.to_act == bo.view["viewer"]:
            await bo.until_version(actor.state.version)
            await bo.send({"type": "act", "version": actor.state.version, "move": "fold"})
            await harness.settle()
        else:
            break
    missed = actor.state.version - seen
    msg = await ana.join(table, since=seen)
    assert msg["type"] == "update" and msg["version"] == actor.state.version
    if missed:
        assert msg["events"]
    await ana.ws.close()
    ana.ws = None
    msg = await ana.join(table, since=actor.state.version + 50)
    assert msg["type"] == "snapshot" and msg["you"]["seat"] == ana.latest["view"]["viewer"]


async def test_quickplay_is_one_click_for_a_guest(harness, policies):
    newcomer = await harness.player()
    response = await newcomer.post("/api/quickplay", {"bot": "station"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["user"]["kind"] == "guest"
    newcomer.csrf = body["csrf"]
    table = body["table"]["id"]
    await newcomer.join(table)
    await harness.play_out(table, [newcomer], policies["calling"], seed=3)
    assert harness.table(table).state.ended


async def finish_hands(harness, table: str, player, hands: int) -> None:
    """``player`` folds whenever it is their turn until ``hands`` hands are over."""
    actor = harness.table(table)
    await harness.settle()
    while (t := actor.state.tournament).hand_number < hands or t.in_hand:
        if not t.in_hand and t.hand_number > 0:  # the pause between hands (R30)
            await harness.advance(harness.settings.pause_seconds)
            continue
        await player.until_version(actor.state.version)
        if t.in_hand and t.to_act == player.view["viewer"]:
            await player.send({"type": "act", "version": actor.state.version, "move": "fold"})
        await harness.settle()


async def test_ranked_game_against_a_bot_updates_elo_and_rematch_stays_ranked(harness, policies):
    ana = await harness.player()
    await ana.register("ana")
    table = await ana.create([None, "random"], ranked=True)
    await ana.join(table)
    await finish_hands(harness, table, ana, elo.SHORT_GAME_HANDS)
    await ana.send({"type": "resign"})  # past the first hands: the game counts for both (elo.py)
    await harness.settle()
    actor = harness.table(table)
    assert actor.state.ended
    over = [e for m in ana.messages if m["type"] == "update" for e in m["events"] if e["type"] == "game_over"]
    await ana.until_version(actor.state.version)
    over = [e for m in ana.messages if m["type"] == "update" for e in m["events"] if e["type"] == "game_over"]
    assert over and over[0]["ratings"]["ana"] == [1500.0, 1480.0]
    assert over[0]["ratings"]["bot-random"] == [1500.0, 1520.0]
    board = (await ana.http.get("/api/leaderboard")).json()["players"]
    assert [(p["name"], p["rating"]) for p in board] == [("bot-random", 1520.0), ("ana", 1480.0)]
    history = (await ana.http.get("/api/users/ana/ratings")).json()
    assert history["games"] == 1 and history["history"][0]["after"] == 1480.0
    first_players = actor.state.players
    await ana.send({"type": "rematch"})
    await harness.settle()
    state = actor.state
    assert state.game == 2 and state.ranked and not state.ended
    assert state.players == (first_players[1], first_players[0])  # R3: one seat on
