"""``GET /api/games/{id}/review`` (docs/protocol.md "Game review", issue #36): the numbers are
``freezeout review --json``'s on the record the asker may download; luck shows only in the
asker's own seat; a private table's game is refused as its other game routes are
(test_server_private.py)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

from test_server_games import play_game

from freezeout.cli import main as cli


def _review_cli(path: Path) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli(["review", str(path), "--json"])
    assert status == 0, out.getvalue()
    review: dict[str, Any] = json.loads(out.getvalue())
    return review


async def test_the_review_route_answers_what_the_command_prints_on_the_askers_record(harness, tmp_path: Path) -> None:
    table_id, human = await play_game(harness, "NT", "station", seed=3)
    (game,) = await harness.ctx.store.games.of_table(table_id)
    (spectator,) = await harness.guests(1)
    me = human.user["name"]
    for who in (human, spectator):
        record = (await who.http.get(f"/api/games/{game['id']}/record")).json()
        path = tmp_path / f"{who.user['name']}.record.json"
        path.write_text(json.dumps(record))
        expected = _review_cli(path)
        response = await who.http.get(f"/api/games/{game['id']}/review")
        assert response.status_code == 200, response.text
        got = response.json()
        assert got["hands"] == expected["hands"]
        assert len(got["hands"]) == len(record["hands"])
        viewer = me if who is human else None
        assert got["viewer"] == viewer
        for name, totals in expected["players"].items():
            shown = got["players"][name]
            assert {k: v for k, v in shown.items() if k != "luck"} == {k: v for k, v in totals.items() if k != "luck"}
            # luck only in the asker's own seat
            assert shown["luck"] == (totals["luck"] if name == viewer else None)
        # asked again: the same answer (a finished game's review is kept)
        assert (await who.http.get(f"/api/games/{game['id']}/review")).json() == got
    # the house game: push/fold decisions are reviewed, all-in EV per hand is there
    mine = (await human.http.get(f"/api/games/{game['id']}/review")).json()
    assert any(hand["decisions"] for hand in mine["hands"]) or any(hand["all_in"] for hand in mine["hands"])
    assert (await human.http.get("/api/games/g0000000000/review")).status_code == 404
