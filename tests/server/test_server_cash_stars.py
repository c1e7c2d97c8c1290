"""PokerStars text of cash hands (issue #32 item 9): every exported cash hand — raked with a
side pot, run twice, a missed blind posted dead, stud, a draw — is written as the site writes
a ring game's hand, from each asker's copy: their own cards only, the chips adding up (read
the way fpdb-3's PokerStars parser reads them) to the hand's finishing stacks."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from test_server_cash_hand_export import HANDS

from freezeout.formats.record import RecordError
from freezeout.formats.stars_cash import cash_hand_to_stars
from freezeout.server.table.records import cash_hand_for

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "formats"))
from fpdb_forms import read_chips

_HEADER = re.compile(r"^PokerStars Hand #\d+:  [\w' /+-]+ (No Limit|Pot Limit|Limit) \(\d+/\d+\) - \d{4}/\d\d/\d\d \d\d:\d\d:\d\d UTC")
_TABLE = re.compile(r"^Table '(?P<name>[^']+)' (?P<size>\d+)-max \(Play Money\)( Seat #(?P<button>\d+) is the button)?$")


def _kind(code: str) -> str:
    return "stud" if code.endswith("7S") else "triple draw" if code.endswith("3D") else "flop"


@pytest.mark.parametrize("name", list(HANDS))
def test_every_cash_hand_is_written_as_a_ring_game_hand_for_each_asker(name: str) -> None:
    hand = HANDS[name]()
    expected = dict(zip(hand["players"], hand["finishing_stacks"], strict=True))
    for viewer in (None, *hand["players"]):
        mine = cash_hand_for(hand, viewer)
        text = cash_hand_to_stars(mine, hero=viewer, table="Eli's table", table_size=9)
        lines = text.splitlines()
        assert _HEADER.match(lines[0]), lines[0]
        table = _TABLE.match(lines[1])
        assert table and table["size"] == "9", lines[1]
        assert f"| Rake {hand['rake']}" in text
        assert read_chips(text, _kind(hand["game"])) == expected, text
        dealt = [line for line in lines if line.startswith("Dealt to ")]
        for line in dealt:  # nobody's hidden cards: the asker's own, or up-cards (stud)
            assert (viewer is not None and line.startswith(f"Dealt to {viewer} ")) or hand["game"].endswith("7S"), text
        if viewer is not None and not hand["game"].endswith("7S"):
            assert any(line.startswith(f"Dealt to {viewer} [") for line in dealt), text


@pytest.mark.parametrize(("name", "first"), [("missed blind", "p14: checks"), ("back and raising", "p14: raises 400 to 600"),
                                             ("back and folding", "p14: folds")])
def test_a_returning_player_posts_both_blinds_after_the_table_s_own(name: str, first: str) -> None:
    """C4: back from missing the blinds, the player posts the small blind dead and the big blind
    live, written as the site writes them after the small and big blinds of the hand; their first
    move is then only what it adds (a check when nobody raised)."""
    lines = cash_hand_to_stars(HANDS[name]()).splitlines()
    posts = lines[lines.index("Seat 4: p14 (8000 in chips)") + 1: lines.index("*** HOLE CARDS ***")]
    assert posts == ["p12: posts small blind 100", "p13: posts big blind 200", "p14: posts small & big blinds 300"]
    assert lines[lines.index("*** HOLE CARDS ***") + 1] == first
    assert "Seat 4: p14 (small blind)" not in "\n".join(lines)


def test_a_cash_hand_names_its_table_s_seats_and_the_names_people_saw() -> None:
    hand = HANDS["raked side pot"]()
    mine = cash_hand_for(hand, None)
    personas = {player: f"Eli{index}" for index, player in enumerate(hand["players"])}
    text = cash_hand_to_stars(mine, table="Main", names=personas)
    for seat, player in zip(hand["seats"], hand["players"], strict=True):
        assert f"Seat {seat + 1}: {personas[player]} (" in text
        assert player not in text.replace("Main", "")


def test_a_hand_without_phh_or_with_a_wrong_game_is_refused() -> None:
    hand = HANDS["stud"]()
    with pytest.raises(RecordError, match="PHH"):
        cash_hand_to_stars({**hand, "phh": None})
    with pytest.raises(RecordError, match="game"):
        cash_hand_to_stars({**hand, "game": "NT"})


# -- over HTTP: a player's cash hands, and the names people saw (issue #31 item 9) ----------


async def test_a_player_downloads_their_cash_hands_as_pokerstars_text(harness) -> None:
    from test_server_cash import cash_heads_up, play_hands

    from freezeout.server.table.exportnames import table_label

    h = harness
    table, ana, bo = await cash_heads_up(h)
    await play_hands(h, table, [ana, bo], 3)
    full = [h.table(table).recorder.cash.hand(n) for n in (1, 2, 3)]
    mine = await ana.http.get("/api/me/cash/hands.stars")
    assert mine.status_code == 200, mine.text
    hands = mine.text.strip().split("\n\n\n")
    assert len(hands) == 3
    for hand, text in zip(full, hands, strict=True):
        assert f"Dealt to ana [{' '.join(hand['hole']['ana'][i:i + 2] for i in (0, 2))}]" in text
        assert f"Table '{table_label(table)}' 4-max (Play Money)" in text and table not in text
        if "bo" not in hand["shown"]:
            assert hand["hole"]["bo"][:2] not in text.split("*** SUMMARY ***")[0]
    assert read_chips(hands[0], "flop") == dict(zip(full[0]["players"], full[0]["finishing_stacks"], strict=True))
    one = await ana.http.get(f"/api/tables/{table}/hands/2.stars")
    assert one.status_code == 200 and one.text.strip() == hands[1].strip()
    only = await ana.http.get(f"/api/me/cash/hands.stars?table={table}")
    assert only.text == mine.text
    visitor = await h.player()
    assert (await visitor.http.get("/api/me/cash/hands.stars")).status_code == 401
    assert (await ana.http.get("/api/me/cash/hands.stars?table=nope")).status_code == 404


async def test_a_cash_hand_calls_a_bot_by_the_name_the_table_showed(harness) -> None:
    from test_server_cash import open_cash_table, request
    from test_server_cash_bots import human_moves

    h = harness
    table = await open_cash_table(h)
    ana = await (await h.player()).register("ana")
    await ana.join(table)
    assert await request(h, table, ana, {"type": "buy_in", "chips": 4000, "slot": 0}) is None
    user = await h.ctx.store.accounts.by_id(ana.user["id"])
    await h.ctx.room.add_cash_bot(table, user, "station")
    await h.settle()
    actor = h.table(table)
    for _ in range(200):
        if actor.recorder.cash.hand(1) is not None:
            break
        assert await human_moves(h, table, ana, "call")
    downloads = [await ana.http.get(f"/api/tables/{table}/hands/1{suffix}") for suffix in ("", ".phh", ".stars")]
    assert all(d.status_code == 200 for d in downloads), [d.text for d in downloads]
    record, phh, stars = downloads[0].json(), downloads[1].text, downloads[2].text
    assert "Eli" in record["players"] and not any(p.startswith("bot-") for p in record["players"])
    assert "bot-" not in phh and '"Eli"' in phh
    assert "bot-" not in stars and "Eli (" in stars


def test_record_stars_writes_a_downloaded_cash_hand_and_refuses_a_wrong_game(tmp_path, capsys) -> None:
    """``freezeout record stars`` on a cash hand; and a cash hand whose ``game`` is not its
    PHH's game is refused by ``record replay``, ``record phh`` and ``record stars`` alike
    (issue #32 item 11), as ``verify`` refuses it."""
    import json

    from freezeout.cli import main

    hand = HANDS["raked side pot"]()
    mine = {**cash_hand_for(hand, hand["players"][0]), "table": "t1", "table_name": "Vega IV"}
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(mine), encoding="utf-8")
    assert main(["record", "stars", str(path), "--hero", hand["players"][0]]) == 0
    out = capsys.readouterr().out
    assert "Table 'Vega IV' 4-max (Play Money)" in out and f"Dealt to {hand['players'][0]} [" in out
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({**mine, "game": "PO"}), encoding="utf-8")
    for command in ("replay", "phh", "stars"):
        assert main(["record", command, str(wrong)]) == 2, command
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "'PO'" in err, (command, err)


async def test_a_player_downloads_their_cash_session_as_one_file_that_reviews(harness) -> None:
    """``GET /api/me/cash/hands.json``: the same hands as the PokerStars download, each the
    hand's own history as its own download gives it, in one ``freezeout.cash_hands/1`` file that
    ``freezeout review`` reviews as a session (issue #36)."""
    import json

    from test_server_cash import cash_heads_up, play_hands

    from freezeout.analysis.review import review_file_text

    h = harness
    table, ana, bo = await cash_heads_up(h)
    await play_hands(h, table, [ana, bo], 3)
    mine = await ana.http.get("/api/me/cash/hands.json")
    assert mine.status_code == 200, mine.text
    data = mine.json()
    assert data["format"] == "freezeout.cash_hands/1" and len(data["hands"]) == 3
    for number, hand in enumerate(data["hands"], start=1):
        one = await ana.http.get(f"/api/tables/{table}/hands/{number}")
        assert hand == one.json()
    only = await ana.http.get(f"/api/me/cash/hands.json?table={table}")
    assert only.json() == data
    review = review_file_text(json.dumps(data))
    singles = [review_file_text(json.dumps(hand)) for hand in data["hands"]]
    for name in ("ana", "bo"):
        assert review["players"][name]["result"] == sum(s["players"][name]["result"] for s in singles)
        assert review["players"][name]["all_in_ev"] == pytest.approx(sum(s["players"][name]["all_in_ev"] for s in singles), abs=0.01)
    assert sum(entry["result"] for entry in review["players"].values()) <= 0  # chips only leave as rake
    assert [hand["table"] for hand in review["hands"]] == [table] * 3
    visitor = await h.player()
    assert (await visitor.http.get("/api/me/cash/hands.json")).status_code == 401
    assert (await ana.http.get("/api/me/cash/hands.json?table=nope")).status_code == 404
