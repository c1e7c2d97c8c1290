"""Issue #32 item 7 through the public API: a HORSE freezeout's downloads — the record,
PHH, PokerStars text and the replayer's events — answer for an anonymous visitor and for
a player who busted first, and what they download replays (stud's up-cards are public, V7,
in a mix's stud levels too, V19)."""

from __future__ import annotations

import random
from typing import Any

from test_server_games import any_game_policy

from freezeout.formats.record import parse_record, replay_record
from freezeout.formats.stars import record_json_to_stars


async def _horse_three_handed(harness: Any) -> tuple[dict[str, Any], Any]:
    """A guest and two station bots play HORSE to the end; the guest pushes often, so busts first."""
    (human,) = await harness.guests(1)
    response = await human.post("/api/tables", {"slots": [None, "station", "station"], "game": "HORSE"})
    assert response.status_code == 200, response.text
    table_id = str(response.json()["table"]["id"])
    await human.join(table_id)
    actor = harness.table(table_id)
    rng = random.Random(5)
    for _ in range(20000):
        await harness.settle()
        state = actor.state
        await human.until_version(state.version)
        game = state.table_game
        if game is not None and game.finished and state.ended:
            (record,) = await harness.ctx.store.games.of_table(table_id)
            return record, human
        view = human.view
        if game is None or not game.in_hand or view is None or view["viewer"] != game.to_act:
            await harness.advance(harness.settings.pause_seconds)
            continue
        move = any_game_policy(view, rng)
        if move.get("move") == "fold" or (move["type"] == "act" and rng.random() < 0.5 and "allin" in view["legal"]["moves"]):
            move = {"type": "act", "move": "allin"} if "allin" in view["legal"]["moves"] else move
        await human.send({"version": state.version, **move})
    raise AssertionError("the HORSE game did not end")


async def test_a_horse_game_s_downloads_replay_for_a_visitor_and_a_busted_player(harness) -> None:
    full_game, human = await _horse_three_handed(harness)
    game_id, full = full_game["id"], full_game["record"]
    result = replay_record(parse_record(full))
    places = dict(result.standings)
    assert places[human.user["name"]] == 3, "the guest busted first"
    assert any(played.setup.variant.deals_later_hole_cards for played in result.hands), "stud was dealt"
    assert all("started_at" in hand for hand in full["hands"])
    visitor = await harness.player()  # no account, no guest session
    for who, name in ((visitor, None), (human, human.user["name"])):
        record = (await who.http.get(f"/api/games/{game_id}/record"))
        assert record.status_code == 200, record.text
        mine = record.json()
        assert not any(player.startswith("bot-") for player in mine["players"]), mine["players"]  # #31 item 9
        assert {"Eli", "Flo"} <= set(mine["players"])  # the station bots' personas, as the table showed them
        again = replay_record(parse_record(mine))
        persona = {"bot-station": "Eli", "bot-station-2": "Flo"}
        assert again.finished and again.standings == tuple((persona.get(p, p), place) for p, place in result.standings)
        phh = await who.http.get(f"/api/games/{game_id}/phh")
        assert phh.status_code == 200, phh.text
        assert phh.text.count("\n[") + phh.text.startswith("[") == len(result.hands)
        assert "bot-" not in phh.text
        stars = await who.http.get(f"/api/games/{game_id}/stars")
        assert stars.status_code == 200, stars.text
        dealt = [hand for hand in result.hands if name is None or name in hand.stacks]  # a human keeps their name
        assert stars.text.count("PokerStars Hand #") == len(dealt) < len(result.hands) + (name is None)
        assert stars.text == record_json_to_stars(mine, hero=name)  # each hand its own time: none needed
        assert name is None or f"Dealt to {name} [" in stars.text  # the player's own cards
        assert "bot-" not in stars.text and "Eli" in stars.text
        summary = await who.http.get(f"/api/games/{game_id}/stars/summary")
        assert summary.status_code == 200, summary.text
        assert summary.text.startswith("PokerStars Tournament #") and "  3: " in summary.text
        assert name is None or "You finished in 3rd place." in summary.text
        events = await who.http.get(f"/api/games/{game_id}/events")
        assert events.status_code == 200, events.text
        assert len(events.json()["hands"]) == len(result.hands)
