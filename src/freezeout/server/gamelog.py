"""Game records from the table log: ``freezeout.record/1`` and PHH export.

The recorder follows the same log entries as the table state, so a table
rebuilt after a restart rebuilds its record too.  It builds the *full*
record, kept on the server for audits: every hand's hole cards and whole
board, and its fairness keys (``commitment``, ``deck``, ``seed``) which the
record format ignores and ``fairness.verify_record`` checks.  Nobody
downloads that: :func:`player_record` gives each player the record of what
they saw (docs/protocol.md "Fair dealing").
"""

from __future__ import annotations

import importlib
from typing import Any

import orjson

from freezeout.cards import parse_cards
from freezeout.rules.actions import Action
from freezeout.rules.events import CardsShown, StreetDealt
from freezeout.server.fairness import UNKNOWN, Deal, deal_cards, deal_positions
from freezeout.server.store import LogEntry
from freezeout.server.tablestate import TableState
from freezeout.server.wire import pack

__all__ = ["GameRecorder", "player_record", "record_to_phh"]


class GameRecorder:
    """Builds the current game's record as its log entries are applied.

    A game may run to a hundred hands: each finished hand is kept serialised
    (``wire.pack``, a few hundred bytes, untracked by the GC), only the hand in
    progress as a dict."""

    def __init__(self) -> None:
        self.players: tuple[str, ...] = ()
        self.button = ""
        self.finished: list[bytes] = []
        self.hand: dict[str, Any] | None = None
        self.game_id: str | None = None

    def apply(self, old: TableState, new: TableState, entry: LogEntry) -> None:
        if entry.kind == "start":
            self.players, self.button = new.players, new.players[int(entry.data["button"])]
            self.finished, self.hand, self.game_id = [], None, new.game_id
        elif entry.kind == "deal":
            t, deal = old.tournament, new.current_deal  # who is in: before the deal (it may bust blinds)
            assert t is not None and deal is not None
            if self.hand is not None:
                self.finished.append(pack([self.hand]))
            seats_in = [seat for seat, alive in enumerate(t.alive) if alive]
            hole, board = deal_cards(deal.deck, seats_in)
            self.hand = {
                "hole": {self.players[s]: "".join(map(str, cards)) for s, cards in hole.items()},
                "board": "".join(map(str, board)),
                "actions": [],
                "commitment": deal.commitment,
                **{k: v for k, v in deal.to_json().items() if k != "hand"},
            }
        elif entry.kind == "act" and self.hand is not None:
            action = Action.parse(int(entry.data["seat"]), str(entry.data["move"]), entry.data.get("amount"))
            row: list[Any] = [self.players[action.seat], action.kind.value]
            if action.amount is not None:
                row.append(action.amount)
            self.hand["actions"].append(row)

    def copy(self) -> GameRecorder:
        """An independent recorder in the same state (to record a move not yet committed)."""
        other = GameRecorder()
        other.players, other.button, other.finished, other.game_id = self.players, self.button, list(self.finished), self.game_id
        if self.hand is not None:
            other.hand = {**self.hand, "actions": [list(row) for row in self.hand["actions"]]}
        return other

    def to_json(self) -> dict[str, Any]:
        hands = [orjson.loads(packed)[0] for packed in self.finished]
        if self.hand is not None:
            hands.append(dict(self.hand, actions=list(self.hand["actions"])))
        return {
            "format": "freezeout.record/1",
            "ruleset": "house",
            "starting_stack": 1000,
            "players": list(self.players),
            "button": self.button,
            "game_id": self.game_id,
            "hands": hands,
        }


def player_record(record: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """The full record as ``viewer`` (a player of the game; None: anyone else) saw the game.

    Hole cards are ``????`` unless they are the viewer's own or were shown at a
    showdown (R17; never those of a hand won without one, R16); the board lists
    the cards the hand reached.  Each hand's fairness keys open exactly those
    cards: ``commitment``, ``leaves`` (all 52), ``deck`` (``??`` where not
    opened) and ``salts`` (null where not opened) — ``fairness.verify_record``
    checks them.  Moves, places and everything else are as in the full record."""
    from freezeout.formats.record import parse_record, replay_record

    players = list(record["players"])
    result = replay_record(parse_record(record))
    hands = []
    for number, (raw, played) in enumerate(zip(record["hands"], result.hands, strict=True), start=1):
        shown = {players[e.seat] for e in played.events if isinstance(e, CardsShown)}
        reached = sum(len(e.cards) for e in played.events if isinstance(e, StreetDealt))
        visible = {player for player in raw["hole"] if player in shown or player == viewer}
        hole_positions, board_positions = deal_positions(players.index(p) for p in raw["hole"])
        opened = [*board_positions[:reached], *(p for player in visible for p in hole_positions[players.index(player)])]
        hand: dict[str, Any] = {
            "hole": {player: cards if player in visible else UNKNOWN * 2 for player, cards in raw["hole"].items()},
            "board": raw["board"][: 2 * reached],
            "actions": raw["actions"],
        }
        if "seed" in raw:
            deal = Deal(number, parse_cards(raw["deck"]), raw["seed"])
            hand.update(deal.opening(opened))
        elif "commitment" in raw:  # a deck committed as a whole (before per-position commitments) is never opened
            hand["commitment"] = raw["commitment"]
        hands.append(hand)
    return {**record, "hands": hands}


def record_to_phh(record: dict[str, Any]) -> str:
    """One PHH hand per dealt hand (``[1]``, ``[2]``, … sections), as ``freezeout record phh``."""
    from freezeout.formats.record import parse_record, replay_record

    exporter: Any = importlib.import_module("freezeout.formats.phh_export")
    result = replay_record(parse_record(record))
    seats = result.tournament.config.players
    chunks = []
    for hand in result.hands:
        actions = [Action(hand.setup.names.index(seats[a.seat]), a.kind, a.amount) for _, a in hand.actions]
        text = exporter.played_hand_to_phh(hand.setup, actions, hand_number=hand.number)
        chunks.append(f"[{hand.number}]\n{text}")
    return "\n".join(chunks)
