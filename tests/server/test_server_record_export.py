"""A finished game of any game exports as a record and as PHH that replay (issue #22 item 5).

The table's recorder (server/table/records.py) follows the table's log through its
*typed* entries (server/entries.py): a ``start`` names the button, an ``act``
carries the move.  It must never read an entry's stored JSON (``data``) itself —
the one serializer of each entry is its body type (design principle 7).  The game's
downloads, ``freezeout.record/2`` (``/1`` for the house game) and PHH, then replay:
``freezeout record verify`` opens every hand's fairness keys (R2), ``freezeout record
replay`` plays the game to its places, and each PHH hand replays to its own
finishing stacks — for a draw game (2-7 triple draw, V11: the cards another player
threw away stay ``??``) and a split stud game (V6, V7) as for the house game.
"""

from __future__ import annotations

import contextlib
import io
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from test_server_games import play_game

from freezeout.cli import main as cli
from freezeout.formats.phh import phh_from_mapping
from freezeout.formats.phh_replay import replay_phh
from freezeout.rules.variant import Ruleset
from freezeout.server.storage.store import LogEntry
from freezeout.server.table.actor import TableActor
from freezeout.server.table.exportnames import shown_name


def _cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli(list(argv))
    return status, out.getvalue()


def _typed_only(entry: LogEntry) -> LogEntry:
    """The entry as its typed body alone: its stored JSON emptied (the recorder must not need it)."""
    body = entry.body
    return LogEntry(entry.table_id, entry.seq, entry.at, entry.kind, {}, entry.epoch, body)


@pytest.mark.parametrize("code", ["F2L3D", "F7S/8"])
async def test_a_finished_game_of_any_game_exports_a_record_and_phh_that_replay(harness, tmp_path: Path, code: str) -> None:
    table_id, human = await play_game(harness, code, "station", seed=7)
    actor = harness.table(table_id)
    # The recorder reads the typed entries: the log rebuilt from bodies alone records the same game.
    entries = await harness.ctx.store.log.table_entries(table_id)
    typed = [entries[0], *(_typed_only(entry) for entry in entries[1:])]
    again = TableActor.restore(typed, store=harness.ctx.store.log, clock=harness.clock, settings=harness.settings)
    assert again.recorder.to_json() == actor.recorder.to_json()
    (game,) = await harness.ctx.store.games.of_table(table_id)
    (spectator,) = await harness.guests(1)
    for who in (human, spectator):
        response = await who.http.get(f"/api/games/{game['id']}/record")
        assert response.status_code == 200, response.text
        record: dict[str, Any] = response.json()
        assert record["format"] == "freezeout.record/2" and record["game"]["variant"] == code
        path = tmp_path / f"{who.user['name']}.record.json"
        path.write_text(json.dumps(record))
        status, out = _cli("record", "verify", str(path))
        assert status == 0 and json.loads(out)["ok"], out
        status, out = _cli("record", "replay", str(path))
        assert status == 0, out
        replayed = json.loads(out)
        assert len(replayed["hands"]) == len(record["hands"]) == actor.state.table_game.hand_number
        # the download calls the bot by the name the table showed (#31 item 9)
        places = {shown_name(player): place for player, place in zip(actor.state.players, actor.state.table_game.places,
                                                                     strict=True)}
        assert replayed["finished"] and {s["player"]: s["place"] for s in replayed["standings"]} == places
        # PHH: one hand per section, each replays to the finishing stacks it names.
        response = await who.http.get(f"/api/games/{game['id']}/phh")
        assert response.status_code == 200, response.text
        sections = tomllib.loads(response.text)
        assert len(sections) == len(record["hands"])
        for number, section in sections.items():
            hand = phh_from_mapping(section)
            assert hand.variant == code, number
            result = replay_phh(hand, Ruleset.HOUSE)
            assert result.matches, (number, result.finishing_stacks, hand.finishing_stacks)
