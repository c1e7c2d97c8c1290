"""The page's fair-dealing check (web/js/fairness.js ``verifyHand``) gives the verdict
``freezeout record verify`` gives on the player's own record (issue #32 item 1): honest
hands of every game and both mixes (52 and 36 cards, every count of hole cards) pass,
and tampered reveals — a leaf of the wrong shape, leaves out of order, one too few, the
two-board cut of one commitment — fail, as they fail in Python.

The JavaScript runs in Node (``/usr/bin/node``) against the server's own data: the
``/api/games/{id}/events`` download (the page's events and reveals, rebuilt from the
player's record) and the ``/record`` download, for games played at the server."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from playedgames import GAMES, played_game

from freezeout.server.fairness import verify_record

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

STUBS = {
    "dom.js": "export const h = () => null;\n",
    "gamelog.js": "export function saveKept() {}\n",
    "i18n.js": "export const t = key => key;\n",
    "poker.js": "export function splitCards(text) { const o = []; for (let i = 0; i + 1 < (text || '').length; i += 2) "
                "o.push(text.slice(i, i + 2)); return o; }\n",
}
RUNNER = """
import {verifyHand} from './fairness.js';
import {readFileSync} from 'node:fs';
const cases = JSON.parse(readFileSync(0, 'utf8'));
const out = [];
for (const c of cases) out.push(await verifyHand(c.revealed, c.hand, c.mySeat, c.myCards, c.game || null));
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def page_check(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``check(cases)``: verifyHand's result for each case, run by Node on fairness.js as served."""
    where = tmp_path_factory.mktemp("fairness-js")
    shutil.copy(ROOT / "src/freezeout/web/js/fairness.js", where / "fairness.js")
    for name, text in STUBS.items():
        (where / name).write_text(text)
    (where / "package.json").write_text('{"type": "module"}')
    (where / "run.js").write_text(RUNNER)

    def check(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
        done = subprocess.run([str(NODE), "run.js"], input=json.dumps(cases), capture_output=True, text=True,
                              cwd=where, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        return list(json.loads(done.stdout))

    return check


def page_cases(record: dict[str, Any], events: dict[str, Any], viewer: str) -> list[dict[str, Any]]:
    """What the page holds for each hand: the reveal, the events with the commitment received
    before the hand, the viewer's seat and own cards."""
    seat = record["players"].index(viewer)
    cases = []
    for raw, hand in zip(record["hands"], events["hands"], strict=True):
        mine = raw["hole"].get(viewer, "")
        cases.append({"revealed": hand["revealed"], "hand": {"events": hand["events"], "commitment": hand["commitment"]},
                      "mySeat": seat, "myCards": "".join(mine) if isinstance(mine, list) else mine})
    return cases


@pytest.mark.parametrize("code", GAMES)
async def test_honest_hands_of_every_game_pass_on_the_page_as_in_record_verify(harness, played_games_dir, page_check,
                                                                              code):
    played = await played_game(harness, code, played_games_dir)  # this run's game of the code (playedgames.py)
    record, events, user = played.record, played.events, played.user
    viewer = user["display"] if user["display"] in record["players"] else user["name"]
    python = verify_record(record)
    assert python["ok"], python
    results = page_check(page_cases(record, events, viewer))
    for number, (result, verdict) in enumerate(zip(results, python["hands"], strict=True), start=1):
        assert result["hashOk"] and result["dealOk"], (code, number, result)
        assert verdict["ok"]
        assert result["ok"] or result["reshuffled"], (code, number, result)  # ✓, or V13's "cannot tell"


def _a_hold_em_hand() -> tuple[dict[str, Any], dict[str, Any]]:
    """One honest NT hand as the page holds it, and the record hand it came from (made by the
    server's own code: a deal, its reveal to seat 0, a record hand with the same keys)."""
    import random

    from freezeout.cards import format_cards
    from freezeout.server.fairness import Reveal, deal_cards, flop_hand_cards, new_deal

    deal = new_deal(1, random.Random(32))
    hole, board = deal_cards(deal.deck, [0, 1])
    cards = flop_hand_cards(deal.deck, [0, 1], 5, shown=[0, 1])
    revealed = Reveal.after_hand(deal, cards).to_json(0)
    events = [{"type": "hand_started", "number": 1, "button": 0, "seats": [0, 1]},
              {"type": "street_dealt", "street": "flop", "cards": format_cards(board[:3])},
              {"type": "street_dealt", "street": "turn", "cards": format_cards(board[3:4])},
              {"type": "street_dealt", "street": "river", "cards": format_cards(board[4:])},
              {"type": "cards_shown", "seat": 1, "cards": format_cards(hole[1])}]
    case = {"revealed": revealed, "hand": {"events": events, "commitment": deal.commitment}, "mySeat": 0,
            "myCards": format_cards(hole[0])}
    record_hand = {"hole": {"a": format_cards(hole[0]), "b": format_cards(hole[1])}, "board": format_cards(board),
                   "actions": [], **{k: revealed[k] for k in ("commitment", "deck", "salts", "leaves")}}
    return case, record_hand


def _tampered(case: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(case)
    leaves = bad["revealed"]["leaves"]
    if how == "short leaf":
        leaves[7] = leaves[7][:63]
    elif how == "order":
        leaves[20], leaves[21] = leaves[21], leaves[20]
    elif how == "count":
        leaves.pop()
    elif how == "two-board cut":
        # one string holding two leaves cut elsewhere: the joined text, and so the commitment, is the same
        leaves[30], leaves[31] = leaves[30] + leaves[31][:32], leaves[31][32:]
    elif how == "shown card":
        events = bad["hand"]["events"]
        shown = events[-1]["cards"]
        other = next(c for c in ("As", "Kd", "2c") if c not in shown and c not in bad["myCards"])
        events[-1]["cards"] = other + shown[2:]
    elif how == "not before the hand":
        bad["hand"]["commitment"] = None
    return bad


@pytest.mark.parametrize("how", ["short leaf", "order", "count", "two-board cut", "shown card"])
def test_tampered_reveals_fail_on_the_page_and_in_record_verify(page_check, how):
    case, record_hand = _a_hold_em_hand()
    honest, bad = page_check([case, _tampered(case, how)])
    assert honest["ok"] and honest["hashOk"] and honest["dealOk"]
    assert not bad["ok"] and not (bad["hashOk"] and bad["dealOk"]), bad
    tampered = _tampered(case, how)
    hand = dict(record_hand, leaves=tampered["revealed"]["leaves"])
    if how == "shown card":
        hand["hole"] = dict(hand["hole"], b=tampered["hand"]["events"][-1]["cards"])
    from freezeout.server.fairness import _check_hand

    assert _check_hand(record_hand, ["a", "b"]) is None
    assert _check_hand(hand, ["a", "b"]) is not None


def test_the_two_board_cut_keeps_the_commitment_and_still_fails(page_check):
    """The cut leaves the commitment as it was: only the shape of each leaf gives it away."""
    case, _ = _a_hold_em_hand()
    cut = _tampered(case, "two-board cut")
    assert "".join(cut["revealed"]["leaves"]) == "".join(case["revealed"]["leaves"])
    (result,) = page_check([cut])
    assert not result["hashOk"] and "64 hex" in result["reason"]


def test_a_hand_whose_commitment_came_late_is_not_verifiable(page_check):
    case, _ = _a_hold_em_hand()
    (result,) = page_check([_tampered(case, "not before the hand")])
    assert result["unverifiable"] and not result["ok"] and result["hashOk"] and result["dealOk"]


def test_a_36_card_deck_holds_no_2_to_5(page_check):
    """Short-deck (V16): 36 leaves are a deck only without 2s to 5s; given the table's game, a
    52-card game's reveal of 36 leaves fails however the cards look."""
    case, _ = _a_hold_em_hand()
    (as_nt,) = page_check([dict(case, game={"deck": 36, "hole": 2, "fixed": True})])
    assert not as_nt["ok"] and not as_nt["hashOk"]


def test_a_v13_reshuffle_is_said_as_such_never_a_verdict_by_guess(page_check):
    """A draw that ran out of cards (more cards taken than the deck holds) dealt other players'
    discards in an order only the full record shows: every card seen still checks, and the
    page says the hand was reshuffled — neither ✓ nor ✗."""
    case, _ = _a_hold_em_hand()
    drawn = [{"type": "drew", "seat": seat, "discarded": "??" * 5, "drawn": "??" * 5} for _ in range(5) for seat in (0, 1)]
    start = case["hand"]["events"][0]
    events = [start, *drawn, {"type": "cards_shown", "seat": 0, "cards": case["myCards"]}]
    (result,) = page_check([dict(case, hand={"events": events, "commitment": case["hand"]["commitment"]})])
    assert result["reshuffled"] and result["hashOk"] and result["dealOk"] and not result["ok"]
    assert not result["unverifiable"]
