"""Every game at the table (issue #22): a table names its game, plays it as a freezeout
(V18) over the WebSocket against bots, deals it fairly, records it, and never shows a
seat another seat's down cards before a showdown (R16, R17, V7, V11)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from freezeout.formats.record import parse_record, replay_record
from freezeout.rules import games
from freezeout.rules.variant import VARIANTS
from freezeout.server.clock import FakeClock
from freezeout.server.fairness import verify_record
from freezeout.server.gamespec import GameSpec, action_data, action_from_data
from freezeout.server.storage.store import LogEntry
from freezeout.server.table.actor import TableActor
from freezeout.server.table.exportnames import record_with_names
from freezeout.server.table.records import player_record
from freezeout.server.table.state import initial_state

from serverkit import fast_settings

# One game per family: hold'em (limit), Omaha Hi/Lo, stud (up-cards), razz, draws
# (five-card draw, 2-7 triple draw, badugi), short-deck (36 cards).
FAMILIES = ["FT", "FO/8", "F7S", "FR", "F5CD", "F2L3D", "FB", "NS"]


def any_game_policy(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal move of any game: bets and raises, a bring-in or completion, a draw."""
    legal = view["legal"]
    moves = legal["moves"]
    if "discard" in moves:
        mine = view["seats"][view["viewer"]]["cards"]
        held = [mine[i : i + 2] for i in range(0, len(mine), 2)]
        thrown = [card for card in held if rng.random() < 0.4][: legal["draw"]]
        return {"type": "draw", "cards": "".join(thrown)}
    weights = {"fold": 0.1, "check": 0.5, "call": 0.5, "bet": 0.25, "raise": 0.15, "allin": 0.02,
               "bringin": 0.7, "complete": 0.3}
    move = rng.choices(moves, [weights[m] for m in moves])[0]
    if move in ("bet", "raise"):
        return {"type": "act", "move": move, "amount": legal["min_to"]}
    return {"type": "act", "move": move}


def down_cards_hidden(view: dict[str, Any]) -> None:
    """No seat but the viewer's shows a face-down card before the showdown."""
    if view["showdown"]:
        return
    for seat in view["seats"]:
        if seat["seat"] == view["viewer"] or not seat["cards"]:
            continue
        up = seat.get("up") or []
        text = seat["cards"]
        for index in range(0, len(text), 2):
            face_up = index // 2 < len(up) and up[index // 2]
            assert face_up or text[index : index + 2] == "??", (view["game"], seat)


def opened_nothing_private(message: dict[str, Any], state: Any) -> None:
    """The fair-dealing reveal a seat gets opens no card another seat kept to itself
    (down cards of a hand won without a showdown, cards thrown away in a draw)."""
    revealed = message["fairness"]["revealed"]
    game = state.table_game
    if not revealed or game is None or game.in_hand or state.revealed is None:
        return
    deck = revealed[0]["deck"]
    opened = {deck[i : i + 2] for i in range(0, len(deck), 2)} - {"??"}
    cards = game.hand_cards()
    viewer = message["view"]["viewer"]
    public = {str(card) for card in cards.public}
    for seat, received in cards.received.items():
        if seat != viewer:
            private = {str(card) for card in received} - public
            assert not opened & private, (game.variant.code, seat, opened & private)


async def against_station(harness: Any, code: str) -> tuple[Any, str, Any]:
    """A guest at a new heads-up table of ``code`` against the station bot, following it:
    (the guest, the table's id, its actor)."""
    (human,) = await harness.guests(1)
    response = await human.post("/api/tables", {"slots": [None, "station"], "game": code})
    table_id = str(response.json()["table"]["id"])
    await human.join(table_id)
    return human, table_id, harness.table(table_id)


async def play_game(harness: Any, code: str, bot: str, seed: int, seen: list[dict[str, Any]] | None = None) -> tuple[str, Any]:
    """A guest plays a heads-up freezeout of ``code`` against ``bot`` over the WebSocket
    (every view it got is appended to ``seen``)."""
    seen = [] if seen is None else seen
    (human,) = await harness.guests(1)
    response = await human.post("/api/tables", {"slots": [None, bot], "game": code})
    assert response.status_code == 200, response.text
    table = response.json()["table"]
    assert table["table_game"]["code"] == code and table["table_game"]["name"] == games.parse_game(code).name
    table_id = str(table["id"])
    await human.join(table_id)
    actor = harness.table(table_id)
    rng = random.Random(seed)
    for _ in range(5000):
        await harness.settle()
        state = actor.state
        await human.until_version(state.version)
        view = human.view
        if view is not None:
            seen.append(view)
            down_cards_hidden(view)
            opened_nothing_private(human.latest, state)
        game = state.table_game
        if game is not None and game.finished and state.ended:
            return table_id, human
        if game is None or not game.in_hand:
            await harness.advance(harness.settings.pause_seconds)
            continue
        assert view is not None and view["viewer"] == game.to_act, "only the human's turns wait"
        await human.send({"version": state.version, **any_game_policy(view, rng)})
    raise AssertionError(f"the {code} game did not end")


@pytest.mark.parametrize("code", FAMILIES)
async def test_a_freezeout_of_every_family_plays_to_the_end_over_the_websocket(harness, code):
    table_id, human = await play_game(harness, code, "station", seed=FAMILIES.index(code))
    state = harness.table(table_id).state
    assert sorted(p for p in state.table_game.places if p is not None) == [1, 2]
    assert not human.errors, human.errors
    view = human.view
    assert view["game"] == code and view["game_name"] == VARIANTS[code].name
    assert view["schedule"]["hands_per_level"] == 6 and view["schedule"]["levels"]
    # The record: one writer (formats/record.py), replayable and fair for every game.
    games_list = await harness.ctx.store.games.of_table(table_id)
    record = games_list[0]["record"]
    assert record["format"] == "freezeout.record/2" and record["game"]["variant"] == code
    result = replay_record(parse_record(record))
    assert result.finished and len(result.hands) == state.table_game.hand_number
    assert verify_record(record)["ok"], verify_record(record)
    mine = player_record(record, human.user["name"])
    assert verify_record(mine)["ok"], verify_record(mine)
    # The downloads as the human saw them: the record and the replayer's events.
    game_id = games_list[0]["id"]
    download = (await human.http.get(f"/api/games/{game_id}/record")).json()
    assert download["hands"] == record_with_names(mine)["hands"]  # bots by the names the table showed (#31 item 9)
    events = (await human.http.get(f"/api/games/{game_id}/events")).json()
    assert len(events["hands"]) == len(result.hands) and all(h["revealed"]["where"] for h in events["hands"])


async def test_the_views_carry_card_slots_and_the_level_schedule(harness):
    (human,) = await harness.guests(1)
    response = await human.post("/api/tables", {"slots": [None, "station"], "game": "F7S"})
    table_id = response.json()["table"]["id"]
    await human.join(table_id)
    await harness.advance(harness.settings.pause_seconds)
    actor = harness.table(table_id)
    while not actor.state.table_game.in_hand:
        await harness.advance(harness.settings.pause_seconds)
    await human.until_version(actor.state.version)
    view = human.view
    me, other = view["seats"][view["viewer"]], view["seats"][1 - view["viewer"]]
    assert me["slots"] == ["down", "down", "up"]
    assert other["slots"] == ["unknown", "unknown", "up"]
    assert other["cards"][:4] == "????" and other["cards"][4:] != "??"
    assert view["schedule"]["levels"][0] == {"ante": 2, "bring_in": 5, "small_bet": 20, "big_bet": 40}


async def test_the_house_game_keeps_its_wire_shape(harness):
    (human,) = await harness.guests(1)
    response = await human.post("/api/tables", {"slots": [None, "station"]})
    table = response.json()["table"]
    assert table["table_game"]["code"] == "NT"
    await human.join(table["id"])
    await harness.advance(harness.settings.pause_seconds)
    await human.until_version(harness.table(table["id"]).state.version)
    view = human.view
    # The house game's fields are all there as before (R1-R30); what the page now draws from
    # the view instead of knowing hold'em (issue #22 step 4) is added beside them.
    assert {"seats", "board", "pots", "button", "to_act", "legal", "hand_number", "blinds"} <= set(view), sorted(view)
    assert [len(seat["slots"]) for seat in view["seats"]] == [2, 2] and view["board_size"] == 5
    assert view["dealer_button"] == view["button"]


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"slots": [None, "station"], "game": "XYZ"}, 400, "unknown game 'XYZ'"),
    ({"slots": [None, "station"], "game": "FS"}, 400, "Short-Deck Hold'em has no fixed-limit"),
    ({"slots": [None, "station"], "game": "N7S"}, 400, "Seven-Card Stud has no no-limit"),
    ({"slots": [None, *["station"] * 6], "game": "F2L3D"}, 409, "at most 6 players"),
    ({"slots": [None, *["station"] * 4]}, 409, "the house game's freezeout seats at most 4"),
    ({"slots": [None, "easy"], "game": "F7S"}, 409, "the easy bot does not play Fixed-Limit Seven-Card Stud"),
    ({"slots": [None, None, None], "game": "PO", "ranked": True}, 409, "ranked games are heads-up"),
])
async def test_invalid_choices_get_a_clear_error_naming_the_problem(harness, body, status, words):
    user = await harness.player()
    await user.register("ana")
    response = await user.post("/api/tables", body)
    assert response.status_code == status, response.text
    assert words in response.json()["error"]["message"], response.json()
    assert not harness.ctx.room.tables


async def test_a_horse_freezeout_changes_game_with_the_level_and_plays_to_the_end(harness):
    """V19: a HORSE table deals limit hold'em, then Omaha Hi/Lo, razz, stud and stud hi/lo,
    a new game every 6 hands; every view names the current and the next game."""
    views: list[dict[str, Any]] = []
    table_id, human = await play_game(harness, "HORSE", "station", seed=7, seen=views)
    assert not human.errors, human.errors
    dealt = [view["game"] for view in views if view.get("game")]
    assert dealt[0] == "FT" and "FO/8" in dealt  # the second level's game came
    assert all(view["mix"]["code"] == "HORSE" for view in views if view.get("game"))
    order = ["FT", "FO/8", "FR", "F7S", "F7S/8"]
    changes = [game for index, game in enumerate(dealt) if index == 0 or game != dealt[index - 1]]
    assert changes == [order[i % 5] for i in range(len(changes))]
    record = (await harness.ctx.store.games.of_table(table_id))[0]["record"]
    assert record["game"] == {"mix": "HORSE"}
    assert replay_record(parse_record(record)).finished


async def test_quick_play_offers_the_game_with_a_bot_that_plays_it(harness):
    player = await harness.player()
    response = await player.post("/api/quickplay", {"game": "FO/8"})
    assert response.status_code == 200, response.text
    table = response.json()["table"]
    assert table["table_game"]["code"] == "FO/8"
    assert [s["bot"] for s in table["slots"]] == [None, "medium"]
    listed = (await player.http.get("/api/tables")).json()["tables"]
    assert [t["table_game"]["code"] for t in listed] == ["FO/8"]
    one = (await player.http.get(f"/api/tables/{table['id']}")).json()["table"]
    assert one["table_game"]["name"] == "Pot-Limit Omaha Hi/Lo" or one["table_game"]["code"] == "FO/8"


async def test_the_bots_offered_are_those_that_play_the_game(harness):
    player = await harness.player()
    assert (await player.http.get("/api/bots?game=F2L3D")).json()["levels"] == ["random", "station", "medium", "hard"]
    assert (await player.http.get("/api/bots?game=NT")).json()["levels"] == ["random", "station", "easy", "medium", "hard"]
    assert (await player.http.get("/api/bots?game=ZZ")).status_code == 400


async def test_bad_draws_are_refused_and_change_nothing(harness):
    human, _table, actor = await against_station(harness, "F5CD")
    rng = random.Random(5)
    refused: set[str] = set()
    for _ in range(2000):
        turn = await _settled_hand(harness, human, actor)
        if turn is None:
            continue
        version, view = turn
        legal = view["legal"]
        if "discard" in legal["moves"] and "not held" not in refused:
            mine = view["seats"][view["viewer"]]["cards"]
            stranger = next(c for c in ("2c", "3d", "4h", "5s", "Ac", "Kd") if c not in mine)
            await human.send({"type": "draw", "version": version, "cards": stranger})
            error = await human.error()
            assert error["code"] == "illegal" and "does not hold it" in error["message"]
            await human.send({"type": "draw", "version": version, "cards": "zz"})
            assert (await human.error())["code"] == "bad_message"
            assert actor.state.version == version
            refused.add("not held")
        if "discard" not in legal["moves"] and "out of turn" not in refused:
            await human.send({"type": "draw", "version": version, "cards": ""})
            assert (await human.error())["code"] == "illegal"
            assert actor.state.version == version
            refused.add("out of turn")
        if len(refused) == 2:
            return
        await human.send({"version": version, **any_game_policy(view, rng)})
    raise AssertionError(f"refused only {refused}")


async def test_a_bring_in_by_the_wrong_seat_is_refused(harness):
    ana, bo = await harness.guests(2)
    response = await ana.post("/api/tables", {"slots": [None, None], "game": "F7S"})
    table_id = response.json()["table"]["id"]
    await bo.post(f"/api/tables/{table_id}/sit")
    for p in (ana, bo):
        await p.join(table_id)
    actor = harness.table(table_id)
    while not (actor.state.table_game and actor.state.table_game.in_hand):
        await harness.advance(harness.settings.pause_seconds)
    state = actor.state
    for p in (ana, bo):
        await p.until_version(state.version)
    waiting = ana if ana.view["viewer"] != state.table_game.to_act else bo
    await waiting.send({"type": "act", "version": state.version, "move": "bringin"})
    assert (await waiting.error())["code"] == "not_your_turn"
    assert actor.state.version == state.version


async def test_a_table_of_any_game_restores_from_its_log_and_old_logs_are_the_house_game(harness):
    human, table_id, actor = await against_station(harness, "FB")
    rng = random.Random(2)
    while actor.state.table_game is None or actor.state.table_game.hand_number < 3:
        await harness.settle()
        state = actor.state
        await human.until_version(state.version)
        if state.table_game is None or not state.table_game.in_hand:
            await harness.advance(harness.settings.pause_seconds)
            continue
        await human.send({"version": state.version, **any_game_policy(human.view, rng)})
    await harness.settle()
    entries = (await harness.ctx.store.log.open_table_logs())[table_id]
    assert entries[0].data["game"] == {"code": "FB", "format": "freezeout"}
    again = TableActor.restore(entries, store=harness.ctx.store.log, clock=harness.clock, settings=harness.settings)
    assert again.state.table_game == actor.state.table_game and again.state.spec == GameSpec("FB")
    assert again.recorder.to_json() == actor.recorder.to_json()
    # A log written before tables named their game opens a table of the house game.
    old = LogEntry("t-old", 1, 1.0, "create", {"slots": [None, None], "ranked": False, "created_by": 1})
    assert initial_state(old).spec == GameSpec() and GameSpec().is_house


def test_a_draw_is_one_log_entry_and_back():
    from freezeout.cards import parse_cards
    from freezeout.rules.actions import Action, ActionKind

    action = Action(2, ActionKind.DISCARD, cards=parse_cards("7d2c"))
    assert action_data(action) == {"seat": 2, "move": "discard", "cards": "7d2c"}
    assert action_from_data(action_data(action)) == action
    assert action_from_data({"seat": 0, "move": "raise", "amount": 40}) == Action(0, ActionKind.RAISE, 40)


async def _settled_hand(harness: Any, human: Any, actor: Any) -> tuple[int, dict[str, Any]] | None:
    """Settle the table and let the human catch up: (version, human's view) while a
    hand is in progress; between hands, the pause passes and None."""
    await harness.settle()
    state = actor.state
    await human.until_version(state.version)
    game = state.table_game
    if game is None or not game.in_hand:
        await harness.advance(harness.settings.pause_seconds)
        return None
    return state.version, human.view


async def _until_my_turn(harness: Any, human: Any, actor: Any, wanted: str, rng: random.Random) -> dict[str, Any]:
    """Play on until the human's legal moves include ``wanted``; returns that view."""
    for _ in range(3000):
        turn = await _settled_hand(harness, human, actor)
        if turn is None:
            continue
        version, view = turn
        if wanted in view["legal"]["moves"]:
            return dict(view)
        await human.send({"version": version, **any_game_policy(view, rng)})
    raise AssertionError(f"never offered {wanted}")


@pytest.mark.parametrize(("code", "wanted", "forced"), [("F5CD", "discard", ("discard", "standpat")),
                                                         ("F7S", "bringin", ("bringin",))])
async def test_a_timeout_in_a_draw_follows_v12_and_at_a_bring_in_posts_it(harness, code, wanted, forced):
    human, _table, actor = await against_station(harness, code)
    view = await _until_my_turn(harness, human, actor, wanted, random.Random(1))
    seat = view["viewer"]
    before = actor.state.version
    # R26: the bot at the table presses Don't wait once the turn's time has run out.
    await harness.advance(harness.settings.turn_seconds + harness.settings.dont_wait_bot_seconds)
    await human.until_version(before + 1)
    events = [e for m in human.messages if m["type"] == "update" and m["version"] > before for e in m["events"]]
    taken = [e for e in events if e["type"] == "action_taken" and e["seat"] == seat]
    assert taken and taken[0]["forced"] and taken[0]["kind"] in forced, events
    assert any(e["type"] == "forfeited" and e["seat"] == seat for e in events)
    if code == "F5CD":  # V12: what was kept follows the hand; everyone learns only how many changed
        assert any(e["type"] == "drew" and e["seat"] == seat for e in events)


def test_an_old_log_without_a_game_still_replays_as_the_house_game(tmp_path):
    """Entries exactly as servers wrote them before tables named their game (and a deck
    committed as a whole, before per-position commitments): folded, they play the house game."""
    from freezeout.formats.record import FORMAT
    from freezeout.server.fairness import new_deal
    from freezeout.server.table.state import reduce

    deal = new_deal(1, random.Random(7)).to_json()
    legacy = {"hand": 2, "deck": new_deal(2, random.Random(8)).to_json()["deck"], "salt": "ab" * 16}
    entries = [
        LogEntry("t-old", 1, 10.0, "create", {"slots": [None, None], "ranked": False, "created_by": 1}),
        LogEntry("t-old", 2, 11.0, "sit", {"slot": 0, "user_id": 1, "name": "ana", "kind": "user"}),
        LogEntry("t-old", 3, 12.0, "sit", {"slot": 1, "user_id": 2, "name": "bo", "kind": "user"}),
        LogEntry("t-old", 4, 13.0, "start", {"game": 1, "game_id": "t-old-1", "players": ["bo", "ana"],
                                             "seat_slots": [1, 0], "button": 0, "deal": deal}),
        LogEntry("t-old", 5, 14.0, "deal", {}),
    ]
    state = initial_state(entries[0])
    for entry in entries[1:]:
        state = reduce(state, entry)[0]
    entries.append(LogEntry("t-old", 6, 15.0, "act", {"seat": state.table_game.to_act, "move": "fold"}))
    entries.append(LogEntry("t-old", 7, 16.0, "commit", {"deal": legacy}))
    entries.append(LogEntry("t-old", 8, 21.0, "deal", {}))
    for entry in entries[5:]:
        state = reduce(state, entry)[0]
    entries.append(LogEntry("t-old", 9, 22.0, "act", {"seat": state.table_game.to_act, "move": "call"}))
    actor = TableActor.restore(entries, store=None, clock=FakeClock(), settings=fast_settings(tmp_path))
    assert actor.state.spec == GameSpec() and actor.summary()["table_game"]["code"] == "NT"
    assert actor.state.table_game.hand_number == 2 and actor.state.table_game.in_hand
    record = actor.recorder.to_json()
    assert record["format"] == FORMAT and record["starting_stack"] == 1000
    assert len(replay_record(parse_record({**record, "hands": record["hands"][:1]})).hands) == 1
    assert [len(h["actions"]) for h in record["hands"]] == [1, 1]
