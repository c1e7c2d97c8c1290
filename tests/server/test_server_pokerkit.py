"""PokerKit loads every exported hand of each game it has, played at the server, and
replays it to the same stacks (issue #22, "The terminal and records").

For every one of the 25 games and both mixes (V19), two guests and a bot play a
three-handed freezeout (V18) over the WebSocket for a few hands and then resign
between hands (R28), which ends the game.  The finished game's record is fetched
as the first guest saw it (``GET /api/games/{id}/record``: ``??`` for cards he never
saw; never another player's discards), and ``freezeout record replay``, ``verify``
and ``phh`` run on it (the server's own PHH download must say the same).  Every
exported hand replays in our engine to the record's stacks; every hand of a game
PokerKit has is loaded in PokerKit, played action by action as written, and must end
with the same stacks — or be one of the places where PokerKit plays another rule
(docs/rules.md "Where Freezeout differs from PokerKit"), which
``pokerkit_games.pokerkit_verdict`` names.  A game PokerKit lacks is skipped with
its reason once our own checks have passed.
"""

from __future__ import annotations

import json
import random
import sys
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "formats"))  # the PokerKit verdicts
from pokerkit_games import EXACT, phh_hands, pokerkit_lacks, pokerkit_verdict
from test_server_games import any_game_policy

from freezeout.cli import main
from freezeout.formats.phh_replay import replay_phh_text
from freezeout.formats.record import parse_record, replay_record
from freezeout.rules.events import Resigned
from freezeout.rules.games import MIXES
from freezeout.rules.variant import VARIANTS, Ruleset

GAMES = [*VARIANTS, *MIXES]
HANDS = 3  # a few hands a game; a mix plays into its second game (a new one every 6 hands, V19)
MIX_HANDS = 7


def policy(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Any legal move; a bet or raise now and then as large as allowed (all-ins, side pots)."""
    move = any_game_policy(view, rng)
    if move.get("move") in ("bet", "raise") and rng.random() < 0.2:
        move["amount"] = view["legal"]["max_to"]
    return move


async def play_a_few_hands(harness: Any, code: str, bot: str, hands: int, seed: int) -> tuple[Any, str]:
    """Two guests and ``bot`` play ``hands`` hands of ``code``; then the guests resign
    between hands.  Returns the first guest and the finished game's id."""
    ana, bo = await harness.guests(2)
    response = await ana.post("/api/tables", {"slots": [None, None, bot], "game": code})
    assert response.status_code == 200, response.text
    table_id = str(response.json()["table"]["id"])
    assert (await bo.post(f"/api/tables/{table_id}/sit")).status_code == 200
    guests = (ana, bo)
    await harness.settle()  # the game starts (the table is full), then the guests follow it
    for guest in guests:
        await guest.join(table_id)
    actor = harness.table(table_id)
    rng = random.Random(seed)
    resigned = False
    for _ in range(3000):
        await harness.settle()
        for guest in guests:
            await guest.until_version(actor.state.version)
        view = ana.view
        if view is not None and view["finished"]:
            break
        mover = next((g for g in guests if g.view is not None and g.view["legal"] is not None), None)
        if mover is not None:
            await mover.send({"version": actor.state.version, **policy(mover.view, rng)})
        elif view is not None and view["hand_over"] and view["hand_number"] >= hands and not resigned:
            for guest in guests:  # R28 between hands: the bot is left alone and wins
                await guest.send({"type": "resign"})
            resigned = True
        else:
            await harness.advance(harness.settings.pause_seconds)
    else:
        raise AssertionError(f"the {code} game did not end")
    games = (await ana.http.get(f"/api/tables/{table_id}/games")).json()["games"]
    assert [game["finished"] for game in games] == [True]
    return ana, str(games[0]["id"])


@pytest.mark.parametrize("code", GAMES)
async def test_pokerkit_replays_every_exported_hand_of_a_game_played_at_the_server(harness, code, tmp_path, capsys):
    mixed = code in MIXES
    hands = MIX_HANDS if mixed else HANDS
    ana, game_id = await play_a_few_hands(harness, code, ("random", "station")[GAMES.index(code) % 2], hands,
                                          seed=GAMES.index(code))
    response = await ana.http.get(f"/api/games/{game_id}/record")
    assert response.status_code == 200, response.text
    record = response.json()
    me = ana.user["name"]
    for hand in record["hands"]:  # V11: nobody else's discards were seen, not even at a showdown
        assert all(set(a[2]) == {"?"} for a in hand["actions"] if a[1] == "discard" and a[0] != me), hand
    path = tmp_path / "game.record.json"
    path.write_text(json.dumps(record))
    result = replay_record(parse_record(record))
    assert len(result.hands) >= min(hands, 2)

    # freezeout record replay / verify / phh on the record as the player downloaded it
    capsys.readouterr()
    assert main(["record", "replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] is True
    assert main(["record", "verify", str(path)]) == 0, capsys.readouterr()
    assert json.loads(capsys.readouterr().out)["ok"] is True
    phh = tmp_path / "game.phh"
    assert main(["record", "phh", str(path), "-o", str(phh)]) == 0
    texts = phh_hands(phh.read_text())
    served = (await ana.http.get(f"/api/games/{game_id}/phh")).text  # the server's PHH download is the same
    assert served.splitlines() == [line for line in phh.read_text().splitlines() if not line.startswith("event = ")]
    assert len(texts) == len(result.hands)

    verdicts = Counter[str]()
    played = Counter[str]()
    for hand, text in zip(result.hands, texts, strict=True):
        data = tomllib.loads(text)
        assert data["variant"] == hand.setup.variant.code
        played[hand.setup.variant.code] += 1
        assert replay_phh_text(text, Ruleset.HOUSE).matches is True, text
        if not any(isinstance(e, Resigned) for e in hand.events):  # R28 between hands: chips leave after it
            assert dict(zip(data["players"], data["finishing_stacks"], strict=True)) == hand.stacks
        verdicts[pokerkit_verdict(hand, text)] += 1
    if mixed:
        assert len(played) == 2, played  # V19: the game changed with the level
    lacks = pokerkit_lacks(code) if not mixed else ""
    if lacks:
        assert set(verdicts) == {lacks}
        pytest.skip(f"{lacks} (our replay matched the {len(result.hands)} hands played at the server)")
    assert verdicts[EXACT] >= 1, verdicts  # every other hand is a named difference
