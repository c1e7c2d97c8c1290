"""One game of each code played at the server per test run, shared by the tests that only read
its downloads (test_server_pokerkit.py replays them in PokerKit, test_server_fairness_page.py
checks them on the page): playing a game over the WebSocket is most of such a test's time.

The first test that asks for a code plays it (two guests and a bot, a few hands, then the guests
resign: ``play_a_few_hands``) and writes what the first guest downloaded — the record, the page's
events, the server's PHH, the guest's own name — to a file of this run; a test of the same code
in any xdist worker waits on the file's lock, then reads it.  The files live in the run's own
temporary directory, so no run ever reads another's.
"""

from __future__ import annotations

import fcntl
import json
import random
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest
from test_server_games import any_game_policy

from freezeout.rules.games import MIXES
from freezeout.rules.variant import VARIANTS

GAMES = [*VARIANTS, *MIXES]
HANDS = 3  # a few hands a game; a mix plays into its second game (a new one every 6 hands, V19)
MIX_HANDS = 7


@dataclass(frozen=True)
class Played:
    """What the first guest downloaded of a finished game (``hands``: how many were asked for)."""

    code: str
    hands: int
    user: dict[str, Any]
    record: dict[str, Any]
    events: dict[str, Any]
    phh: str


@pytest.fixture(scope="session")
def played_games_dir(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """This run's directory for played games: shared by the xdist workers (their temporary
    directories' parent is the run's), the run's own without workers."""
    base = tmp_path_factory.getbasetemp()
    where = (base if worker_id == "master" else base.parent) / "played-games"
    where.mkdir(exist_ok=True)
    return where


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


async def played_game(harness: Any, code: str, where: Path) -> Played:
    """The run's played game of ``code``: played now in ``harness`` if no test has, else read."""
    path = where / (code.replace("/", "-") + ".json")
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker playing it: wait (nothing else of this test runs)
        if path.exists():
            return Played(**json.loads(path.read_text()))
        hands = MIX_HANDS if code in MIXES else HANDS
        index = GAMES.index(code)
        ana, game_id = await play_a_few_hands(harness, code, ("random", "station")[index % 2], hands, seed=index)
        record = await ana.http.get(f"/api/games/{game_id}/record")
        assert record.status_code == 200, record.text
        events = await ana.http.get(f"/api/games/{game_id}/events")
        assert events.status_code == 200, events.text
        phh = await ana.http.get(f"/api/games/{game_id}/phh")
        assert phh.status_code == 200, phh.text
        assert ana.user is not None
        played = Played(code, hands, ana.user, record.json(), events.json(), phh.text)
        path.write_text(json.dumps(asdict(played)))
        return played
