"""Fair dealing that shows nothing hidden (issue #10, finding 1; docs/protocol.md
"Fairness"): a salted commitment per deck position before the deal; a finished
hand opens only the cards that became public (R16: none of a hand won without a
showdown; R17: the hands shown at one), and a player's own hole cards to that
player alone.  Records given to a player hold only what they saw."""

from __future__ import annotations

import hashlib
import hmac
import random
from typing import Any

import pytest

from freezeout.cards import format_cards
from freezeout.formats.record import parse_record, replay_record
from freezeout.rules.dealing import flop_deal_positions
from freezeout.rules.variant import NLHE
from freezeout.server.fairness import (
    UNKNOWN,
    Deal,
    Reveal,
    deal_cards,
    deal_positions,
    flop_hand_cards,
    new_deal,
    verify_record,
)
from freezeout.server.table.records import player_record


def full_hand(deal: Deal, holes: dict[str, tuple], board: tuple, actions: list) -> dict[str, Any]:
    return {"hole": {p: format_cards(c) for p, c in holes.items()}, "board": format_cards(board), "actions": actions,
            "commitment": deal.commitment, "deck": format_cards(deal.deck), "seed": deal.seed}


def heads_up_record(seed: int, actions: list) -> dict[str, Any]:
    """A full (audit) record of one heads-up hand: ``a`` on the button posts the small blind."""
    deal = new_deal(1, random.Random(seed))
    hole, board = deal_cards(deal.deck, [0, 1])
    return {"format": "freezeout.record/1", "players": ["a", "b"], "button": "a",
            "hands": [full_hand(deal, {"a": hole[0], "b": hole[1]}, board, actions)]}


CHECK_DOWN = [["a", "call"], ["b", "check"], ["b", "check"], ["a", "check"], ["b", "check"], ["a", "check"],
              ["b", "check"], ["a", "check"]]


class TestCommitment:
    def test_each_position_is_committed_with_its_own_salt(self):
        deal = new_deal(1, random.Random(1))
        salts = [hmac.new(bytes.fromhex(deal.seed), str(i).encode(), hashlib.sha256).hexdigest()[:32] for i in range(52)]
        leaves = [hashlib.sha256(f"{i}:{card}:{salts[i]}".encode()).hexdigest() for i, card in enumerate(deal.deck)]
        assert deal.leaves == leaves
        assert deal.commitment == hashlib.sha256("".join(leaves).encode()).hexdigest()
        assert len(deal.seed) == 64 and len(set(deal.deck)) == 52 and len(set(salts)) == 52

    def test_the_deal_comes_from_the_front_of_the_deck_in_seat_order(self):
        hole, board = deal_positions([3, 0, 2])
        assert hole == {0: (0, 1), 2: (2, 3), 3: (4, 5)} and board == (6, 7, 8, 9, 10)
        deal = new_deal(1, random.Random(2))
        cards, board_cards = deal_cards(deal.deck, [3, 0, 2])
        assert cards[2] == deal.deck[2:4] and board_cards == deal.deck[6:11]

    def test_a_reveal_says_which_position_became_whose_card_as_the_rules_dealt_it(self):
        deal = new_deal(1, random.Random(4))
        where = Reveal.after_hand(deal, flop_hand_cards(deal.deck, (0, 2, 3), board_dealt=5, shown=(0,))).to_json(None)["where"]
        assert where == {"hole": {"0": [0, 1], "2": [2, 3], "3": [4, 5]}, "board": [6, 7, 8, 9, 10]}
        hole, board = flop_deal_positions(NLHE, 3)  # the rules' own map, hand seats in order
        assert [where["hole"][seat] for seat in ("0", "2", "3")] == [list(p) for p in hole]
        assert where["board"] == list(board)

    def test_a_hand_won_without_showdown_opens_only_what_was_dealt_face_up(self):
        deal = new_deal(1, random.Random(3))
        reveal = Reveal.after_hand(deal, flop_hand_cards(deal.deck, (0, 2, 3), board_dealt=3, shown=()))  # three players, the flop dealt
        spectator = reveal.to_json(None)
        assert [i for i, s in enumerate(spectator["salts"]) if s] == [6, 7, 8]
        assert spectator["deck"] == UNKNOWN * 6 + format_cards(deal.deck[6:9]) + UNKNOWN * 43
        mine = reveal.to_json(2)  # seat 2: the second pair of cards
        assert [i for i, s in enumerate(mine["salts"]) if s] == [2, 3, 6, 7, 8]
        assert reveal.to_json(1) == spectator  # a seat not dealt in sees what everyone sees
        shown = Reveal.after_hand(deal, flop_hand_cards(deal.deck, (0, 2, 3), board_dealt=5, shown=(0, 3))).to_json(None)
        assert [i for i, s in enumerate(shown["salts"]) if s] == [0, 1, 4, 5, 6, 7, 8, 9, 10]


class TestVerify:
    def test_an_honest_audit_record_verifies(self):
        assert verify_record(heads_up_record(3, [["a", "fold"]])) == {"ok": True, "hands": [{"hand": 1, "ok": True}]}

    @pytest.mark.parametrize("tamper", ["deck", "seed", "hole", "board", "commitment"])
    def test_any_tampering_with_an_audit_record_is_caught(self, tamper):
        record = heads_up_record(3, CHECK_DOWN)
        hand = record["hands"][0]
        if tamper == "deck":
            hand["deck"] = hand["deck"][2:4] + hand["deck"][0:2] + hand["deck"][4:]
        elif tamper == "seed":
            hand["seed"] = "f" * 64
        elif tamper == "hole":
            hand["hole"]["a"], hand["hole"]["b"] = hand["hole"]["b"], hand["hole"]["a"]
        elif tamper == "board":
            hand["board"] = hand["board"][2:] + hand["board"][:2]
        else:
            hand["commitment"] = "0" * 64
        report = verify_record(record)
        assert not report["ok"] and not report["hands"][0]["ok"]

    def test_a_record_from_before_per_position_commitments_still_verifies(self):
        deal = new_deal(1, random.Random(5))
        salt = "ab" * 16
        old = hashlib.sha256(f"{format_cards(deal.deck)}:{salt}".encode()).hexdigest()
        hole, board = deal_cards(deal.deck, [0, 1])
        hand = {"hole": {"a": format_cards(hole[0]), "b": format_cards(hole[1])}, "board": format_cards(board),
                "actions": [["a", "fold"]], "deck": format_cards(deal.deck), "salt": salt, "commitment": old}
        record = {"format": "freezeout.record/1", "players": ["a", "b"], "button": "a", "hands": [hand]}
        assert verify_record(record)["ok"]
        hand["salt"] = "cd" * 16
        assert "sha256(deck:salt)" in verify_record(record)["hands"][0]["reason"]


class TestPlayerRecord:
    def test_a_hand_won_without_showdown_shows_only_the_viewers_own_cards(self):
        full = heads_up_record(7, [["a", "raise", 60], ["b", "fold"]])
        hole_a, hole_b = full["hands"][0]["hole"]["a"], full["hands"][0]["hole"]["b"]
        for viewer, own in (("a", {"a": hole_a, "b": "????"}), ("b", {"a": "????", "b": hole_b}),
                            (None, {"a": "????", "b": "????"})):
            mine = player_record(full, viewer)
            hand = mine["hands"][0]
            assert hand["hole"] == own and hand["board"] == ""  # R16: the winner shows nothing
            assert "seed" not in hand and set(hand["deck"][8:]) == {"?"}
            opened = [i for i, s in enumerate(hand["salts"]) if s]
            assert opened == ([] if viewer is None else [0, 1] if viewer == "a" else [2, 3])
            assert verify_record(mine) == {"ok": True, "hands": [{"hand": 1, "ok": True}]}
            assert replay_record(parse_record(mine)).to_json() == replay_record(parse_record(full)).to_json()

    def test_a_showdown_shows_both_hands_and_the_board(self):
        full = heads_up_record(8, CHECK_DOWN)
        hand = player_record(full, None)["hands"][0]
        assert hand["hole"] == full["hands"][0]["hole"] and hand["board"] == full["hands"][0]["board"]
        assert [i for i, s in enumerate(hand["salts"]) if s] == list(range(9))
        assert verify_record(player_record(full, None))["ok"]

    def test_a_folded_hand_and_the_undealt_board_stay_hidden(self):
        full = heads_up_record(9, [["a", "call"], ["b", "check"], ["b", "bet", 20], ["a", "fold"]])
        hand = player_record(full, "b")["hands"][0]
        assert hand["hole"]["a"] == "????" and len(hand["board"]) == 6  # the flop only
        assert hand["deck"][8:14] == full["hands"][0]["board"][:6] and set(hand["deck"][14:]) == {"?"}

    @pytest.mark.parametrize("tamper", ["board", "leaf", "claim", "salt"])
    def test_a_doctored_player_record_fails(self, tamper):
        record = player_record(heads_up_record(10, [["a", "call"], ["b", "check"], ["b", "bet", 20], ["a", "fold"]]), "b")
        hand = record["hands"][0]
        if tamper == "board":  # another card where the flop was
            other = next(c for c in ("2c", "2d", "2h", "2s") if c not in hand["deck"])
            hand["board"] = other + hand["board"][2:]
            hand["deck"] = hand["deck"][:8] + other + hand["deck"][10:]
        elif tamper == "leaf":
            hand["leaves"][20] = "0" * 64
        elif tamper == "claim":  # "a held ...": cards that were never opened
            hidden = [c for c in ("2c", "2d", "2h", "2s", "3c", "3d", "3h") if c not in hand["deck"]]
            hand["hole"]["a"] = hidden[0] + hidden[1]
        else:
            hand["salts"][5] = "0" * 32  # the second flop card
        report = verify_record(record)
        assert not report["ok"], report


# -- over the wire ------------------------------------------------------------------
def opened_positions(entry: dict[str, Any]) -> list[int]:
    return [i for i, s in enumerate(entry["salts"]) if s]


async def test_a_hand_won_without_showdown_reveals_no_hole_card_to_anyone_else(harness):
    table, ana, bo, eve = await harness.heads_up_with_a_spectator()
    state = harness.table(table).state
    for p in (ana, bo, eve):
        await p.until_version(state.version)
    committed = eve.latest["fairness"]["next"]
    assert committed is None or committed["hand"] == 2  # hand 1 was committed with the start
    mover = next(p for p in (ana, bo) if p.view["viewer"] == state.tournament.to_act)
    await mover.send({"type": "act", "version": state.version, "move": "fold"})
    await harness.settle()
    version = harness.table(table).state.version
    entries = {}
    for p in (ana, bo, eve):
        await p.until_version(version)
        entry = next(r for m in p.messages if m["type"] == "update" for r in m["fairness"]["revealed"] if r["hand"] == 1)
        entries[p] = entry
        assert "seed" not in entry and "salt" not in entry
    assert opened_positions(entries[eve]) == [] and set(entries[eve]["deck"]) == {"?"}
    for p in (ana, bo):
        seat = p.view["viewer"]
        assert opened_positions(entries[p]) == [2 * seat, 2 * seat + 1]
        assert entries[p]["deck"][4 * seat: 4 * seat + 4] == next(
            m["view"]["seats"][seat]["cards"] for m in p.messages if m.get("view") and m["view"]["hand_number"] == 1
            and m["view"]["seats"][seat]["cards"])
    during = next(m for m in eve.messages if m["type"] == "snapshot")["fairness"]["current"]  # joined mid-hand
    assert during["hand"] == 1 and entries[eve]["commitment"] == during["commitment"]


async def test_downloads_hold_only_what_the_asker_saw(harness):
    table, ana, bo, eve = await harness.heads_up_with_a_spectator()
    await ana.send({"type": "resign"})
    await harness.settle()
    game_id = harness.table(table).state.game_id
    full = (await harness.ctx.store.games.get(game_id))["record"]
    assert full["hands"][0]["seed"] and UNKNOWN not in full["hands"][0]["hole"]["bo"]
    for p, name in ((ana, "ana"), (bo, "bo"), (eve, None)):
        record = (await p.http.get(f"/api/games/{game_id}/record")).json()
        assert record == player_record(full, name)
        assert verify_record(record)["ok"]
        hole = record["hands"][0]["hole"]
        assert [player for player, cards in hole.items() if cards != "????"] == ([name] if name else [])
        phh = (await p.http.get(f"/api/games/{game_id}/phh")).text
        for player, cards in full["hands"][0]["hole"].items():
            assert (cards in phh) == (player == name)
        events = (await p.http.get(f"/api/games/{game_id}/events")).json()
        assert events["hands"][0]["revealed"]["deck"] == record["hands"][0]["deck"]


def commitments_before_the_deal(messages: list[dict[str, Any]]) -> tuple[dict[int, str], list[int]]:
    """What a client following the table learnt, in order: the commitment of each hand that
    reached it before the hand's first card (a ``next`` in a message from before that hand),
    and the hands it saw start."""
    committed: dict[int, str] = {}
    started: list[int] = []
    for m in messages:
        if m["type"] not in ("snapshot", "update"):
            continue
        starts = [e["number"] for e in m["events"] if e["type"] == "hand_started"]
        at_hand = m["view"]["hand_number"] if m.get("view") else 0
        nxt = m["fairness"]["next"]
        if nxt is not None:
            assert nxt["hand"] > max([at_hand, *starts]), "a commitment for a hand already dealt"
            assert committed.setdefault(nxt["hand"], nxt["commitment"]) == nxt["commitment"], "re-committed"
        started += starts
    return committed, started


async def test_every_hand_is_committed_to_every_follower_before_its_first_card(harness, policies):
    """Issue #23 item 4, the server's half: a client that follows the table receives each
    hand's commitment (``fairness.next``) before the update that deals it, and the hand's
    reveal opens exactly that deck; a client that joined mid-hand has the current hand's
    commitment only as ``current`` (after the deal: the page calls that hand not verifiable)."""
    table, ana, bo, eve = await harness.heads_up_with_a_spectator()
    await harness.play_out(table, [ana, bo], policies["random"], watchers=(eve,), seed=5)
    for p in (ana, bo, eve):
        committed, started = commitments_before_the_deal(p.messages)
        first = next(m for m in p.messages if m["type"] == "snapshot")
        joined_at = first["view"]["hand_number"] if first["view"] else 0
        if first["fairness"]["current"] is not None:
            assert first["fairness"]["current"]["hand"] == joined_at and joined_at not in committed
        assert len(started) >= 3
        assert all(n in committed for n in started if n > joined_at), (committed.keys(), started)
        reveals = {r["hand"]: r for m in p.messages if m["type"] == "update" for r in m["fairness"]["revealed"]}
        assert all(reveals[n]["commitment"] == committed[n] for n in started if n > joined_at and n in reveals)
        assert sum(n in reveals for n in started if n > joined_at) >= 2
