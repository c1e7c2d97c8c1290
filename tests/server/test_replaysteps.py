"""The replayer's steps come from the server (issue #22 "the page holds no poker").

``server/table/replaysteps.py`` replays a finished hand of any game through the rules
and gives each step as one viewer's view then.  These tests play freezeouts of
every family (and both mixes, V19) with random legal moves, write their records
with the one record writer, and check that:

* every hand of every game replays into steps, the last one the finished hand
  with the server's result (each pot and half, V6), the stacks the rules end on;
* no step shows a card the viewer did not see: another player's down cards
  appear only once shown down (R16, R17), up-cards are for everyone (V7), a draw
  never says which cards were thrown or drawn (V11) — for a player and a
  spectator alike (the endpoint's guarantee, "no hidden card reaches anyone").
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from freezeout.formats.record import RecordError, RecordWriter, parse_record, replay_record
from freezeout.rules import games
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import CardsShown, HoleDealt
from freezeout.rules.games import Mix
from freezeout.rules.tournament import Tournament
from freezeout.server.table.replaysteps import hand_steps
from runouts import run_out_record

# One game per family, and both mixes (V19).
GAMES = ["FT", "FO/8", "F7S", "FR", "F7S/8", "F5CD", "F2L3D", "FB", "NS", "HORSE", "8GAME"]


def _move(t: Tournament, rng: random.Random) -> Action:
    legal = t.legal_actions()
    assert legal is not None and t.hand is not None
    word = rng.choice([m for m in legal.moves if m != "fold"] or legal.moves)
    if word in ("bet", "raise", "complete"):
        amount = rng.choice(legal.sizes) if legal.sizes else rng.randint(legal.min_to, legal.max_to)
        return Action(legal.seat, ActionKind(word), amount)
    if word == "discard":
        held = t.hand.cards[t.seats.index(legal.seat)]
        return Action(legal.seat, ActionKind.DISCARD, cards=tuple(rng.sample(held, rng.randint(1, min(len(held), legal.draw)))))
    return Action(legal.seat, ActionKind(word))


def play(code: str, seed: int, players: int = 3, hands: int = 14) -> tuple[dict[str, Any], list[list[Any]]]:
    """A freezeout of ``code`` played at random: its full record, and each hand's full events."""
    rng = random.Random(seed)
    names = tuple(f"p{i}" for i in range(players))
    game = games.parse_game(code)
    t = Tournament.start(games.tournament_config(game, names, button=0, starting_stack=400))
    mix = game if isinstance(game, Mix) else None
    writer = RecordWriter(names, names[0], variant=t.variant, levels=t.config.levels, starting_stack=400, mix=mix)
    all_events: list[list[Any]] = []
    for _ in range(hands):
        if t.finished:
            break
        variant = t.variant_for_hand(t.hand_number + 1)
        deck, again = list(variant.deck), list(variant.deck)
        rng.shuffle(deck)
        rng.shuffle(again)
        t, events = t.deal_deck(deck, again)
        writer.observe(events)
        hand_events = list(events)
        while t.in_hand:
            action = _move(t, rng)
            t, events = t.act(action)
            writer.act(names[action.seat], action)
            writer.observe(events)
            hand_events += events
        all_events.append(hand_events)
    return writer.to_json(), all_events


def _secret(events: list[Any], viewer: int | None) -> set[str]:
    """Cards of this hand ``viewer`` never saw: other players' down cards not shown down,
    and every card a draw threw away or brought (V11) but the viewer's own."""
    seen: set[str] = set()
    dealt: dict[int, set[str]] = {}
    for event in events:
        if isinstance(event, HoleDealt):
            for card, up in zip(event.cards, event.up, strict=True):
                if card is None:
                    continue
                (seen if up else dealt.setdefault(event.seat, set())).add(str(card))
        elif isinstance(event, CardsShown):
            seen.update(str(card) for card in event.cards)
        elif type(event).__name__ == "CardsDealt":
            for seat, cards in event.hole:
                dealt.setdefault(seat, set()).update(str(c) for c in cards if c is not None)
            seen.update(str(c) for c in event.board if c is not None)
        elif type(event).__name__ == "Drew":
            dealt.setdefault(event.seat, set()).update(str(c) for c in (*event.discarded, *event.drawn) if c is not None)
        elif type(event).__name__ == "StreetDealt":
            seen.update(str(c) for c in event.cards)
    secret: set[str] = set()
    for seat, cards in dealt.items():
        if seat != viewer:
            secret |= cards
    return secret - seen


def _cards_in(step: dict[str, Any]) -> set[str]:
    """Every card a step names anywhere (views and events), read as two-letter texts."""
    text = json.dumps(step)
    found: set[str] = set()
    for value in _strings(step):
        if len(value) % 2 == 0 and all(value[i] in "23456789TJQKA?" and value[i + 1] in "shdc?" for i in range(0, len(value), 2)):
            found.update(value[i : i + 2] for i in range(0, len(value), 2))
    assert text  # the step is JSON (what the endpoint sends)
    return found - {"??"}


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.mark.parametrize("code", GAMES)
def test_every_hand_of_every_game_replays_into_the_viewers_steps(code: str) -> None:
    record, events = play(code, seed=GAMES.index(code))
    replayed = replay_record(parse_record(record))
    for number, (played, hand_events) in enumerate(zip(replayed.hands, events, strict=True), start=1):
        for viewer, name in ((0, "p0"), (None, None)):
            out = hand_steps(record, number, name)
            steps = out["steps"]
            assert out["viewer"] == viewer and out["players"] == ["p0", "p1", "p2"]
            assert steps and all("legal" not in step["view"] for step in steps)
            assert steps[0]["events"][0]["type"] == "hand_started"
            last = steps[-1]["view"]
            assert last["hand_over"] and last["result"], "the last step is the finished hand with its result"
            assert any(e["type"] == "hand_ended" for e in steps[-1]["events"] + steps[-2]["events"] if steps[-2:])
            for seat, player in enumerate(record["players"]):
                if player in played.stacks:
                    assert last["seats"][seat]["stack"] == played.stacks[player]
            # what the game is drawn with: its board's size, the button only where it has one (V7)
            assert all(step["view"]["board_size"] == played.setup.variant.board_size for step in steps)
            if not played.setup.variant.uses_button:
                assert all(step["view"]["dealer_button"] is None for step in steps)
            secret = _secret(hand_events, viewer)
            for step in steps:
                leaked = _cards_in(step) & secret
                assert not leaked, (code, number, viewer, leaked)


def test_a_split_pot_gives_each_half_its_hand_in_both_languages() -> None:
    """V6 through the replayer: each half of a split pot names its hand in EN and CS."""
    for seed in range(40):
        record, _ = play("FO/8", seed=seed, players=2, hands=10)
        for number in range(1, len(record["hands"]) + 1):
            last = hand_steps(record, number, "p0")["steps"][-1]["view"]
            halves = {pot["half"]: pot for pot in last.get("result", []) if pot["half"] and pot["hand"]}
            if {"high", "low"} <= set(halves):
                low = halves["low"]
                assert set(low["names"]) == {"en", "cs"} and low["names"]["en"] == low["hand"]
                assert any(seat.get("shown", {}).get("low_names") for seat in last["seats"])
                return
    pytest.fail("no Omaha Hi/Lo hand split its pot in 40 games")


def test_a_hand_the_record_lacks_is_a_clear_error() -> None:
    record, _ = play("FT", seed=1, players=2, hands=2)
    with pytest.raises(RecordError, match="no hand 9: the game has 2 hands"):
        hand_steps(record, 9, "p0")


# -- over HTTP: the endpoint the page's replayer asks ------------------------------
async def test_the_table_steps_show_the_asker_their_own_cards_and_nobody_elses(harness: Any) -> None:
    """A guest plays stud against a bot for two hands; the table's steps give the guest
    their own down cards, another guest none, and nobody the bot's unshown down cards
    (R16, R17, V7); a hand still being played is not replayed."""
    from test_server_games import any_game_policy

    (human, other) = await harness.guests(2)
    response = await human.post("/api/tables", {"slots": [None, "station"], "game": "F7S"})
    table_id = str(response.json()["table"]["id"])
    await human.join(table_id)
    actor = harness.table(table_id)
    rng = random.Random(7)
    while actor.state.table_game is None or actor.state.table_game.hand_number < 3:
        await harness.settle()
        state = actor.state
        await human.until_version(state.version)
        game = state.table_game
        if game is None or not game.in_hand:
            await harness.advance(harness.settings.pause_seconds)
            continue
        view = human.view
        assert view is not None and view["viewer"] == game.to_act
        await human.send({"version": state.version, **any_game_policy(view, rng)})
    record = actor.recorder.to_json()
    me = record["players"].index(human.user["name"])
    for number in (1, 2):
        mine = (await human.http.get(f"/api/tables/{table_id}/hands/{number}/steps")).json()
        theirs = (await other.http.get(f"/api/tables/{table_id}/hands/{number}/steps")).json()
        assert mine["viewer"] == me and theirs["viewer"] is None and mine["game"] == "F7S"
        full = play_record_hand(record, number)
        for step in mine["steps"]:
            assert not _cards_in(step) & _secret(full, me)
        for step in theirs["steps"]:
            assert not _cards_in(step) & _secret(full, None)
        first = mine["steps"][0]["view"]["seats"][me]
        assert first["slots"] == ["down", "down", "up"] and "?" not in first["cards"]
        assert theirs["steps"][0]["view"]["seats"][me]["cards"].startswith("????")
    if actor.state.table_game.in_hand:
        busy = await human.http.get(f"/api/tables/{table_id}/hands/3/steps")
        assert busy.status_code == 404 and "not finished" in busy.json()["error"]["message"]


def play_record_hand(record: dict[str, Any], number: int) -> list[Any]:
    """The full events of hand ``number`` of a record (the rules' replay), finished hands only."""
    done = {**record, "hands": record["hands"][:number]}
    return list(replay_record(parse_record(done)).hands[number - 1].events)


# -- an all-in run-out, street by street (R18) ---------------------------------------


@pytest.mark.parametrize(("code", "stack"), [("NT", 400), ("PO", 400), ("NS", 400), ("F7S", 60), ("FR", 60), ("HORSE", 60)])
def test_an_all_in_run_out_is_dealt_street_by_street_then_the_result(code: str, stack: int) -> None:
    """R18: once nobody can bet, each street of the run-out is its own step (a board card,
    or stud's next cards for each player still in, V7), the result a step after it."""
    record = run_out_record(code, stack, ("p0", "p1", "p2"))
    number = len(record["hands"])
    for name in ("p0", None):
        steps = hand_steps(record, number, name)["steps"]
        dealing = [i for i, step in enumerate(steps) for e in step["events"] if e["type"] == "street_dealt"]
        assert len(dealing) == len(set(dealing)), "one street per step"
        ended = next(i for i, step in enumerate(steps) if any(e["type"] == "hand_ended" for e in step["events"]))
        assert ended == len(steps) - 1 and not any(e["type"] == "street_dealt" for e in steps[ended]["events"])
        run_out = [i for i in dealing if i > max((j for j, s in enumerate(steps) if any(e["type"] == "action_taken" for e in s["events"])), default=0)]
        assert len(run_out) >= 2, [[e["type"] for e in s["events"]] for s in steps]
        assert run_out == list(range(run_out[0], ended)), "the run-out's streets follow one another, the result last"
        assert not steps[run_out[0] - 1]["view"]["hand_over"], "the move that went all in is a step before the cards"
        total = 3 * stack
        for before, i in itertools.pairwise([run_out[0] - 1, *run_out]):
            view, prior = steps[i]["view"], steps[before]["view"]
            assert not view["hand_over"] and "result" not in view and not view["finished"]
            assert all("shown" not in seat for seat in view["seats"]), "no hand named before the result"
            chips = sum(seat["stack"] + seat["bet"] for seat in view["seats"]) + sum(p["amount"] for p in view["pots"])
            assert chips == total, "nothing won yet: the chips are in the stacks and the pots"
            new_board = len(view["board"]) - len(prior["board"])
            new_hole = sum(len(s["cards"] or "") - len(p["cards"] or "") for s, p in zip(view["seats"], prior["seats"], strict=True))
            assert new_board > 0 or new_hole > 0, "each step deals the street it names"
        last = steps[-1]["view"]
        assert last["hand_over"] and last["result"] and any(e["type"] == "cards_shown" for e in steps[-1]["events"])
        assert steps[run_out[-1]]["view"]["board"] == last["board"]
