"""Game records from the table log: ``freezeout.record/1`` and PHH export.

The recorder follows the same log entries as the table state, so a table
rebuilt after a restart rebuilds its record too.  Each hand carries its
fairness keys (``commitment``, ``deck``, ``salt``) which the record format
ignores and ``fairness.verify_record`` checks.
"""

from __future__ import annotations

import importlib
from typing import Any

from freezeout.rules.actions import Action
from freezeout.server.fairness import deal_cards
from freezeout.server.store import LogEntry
from freezeout.server.tablestate import TableState

__all__ = ["GameRecorder", "record_to_phh"]


class GameRecorder:
    """Builds the current game's record as its log entries are applied."""

    def __init__(self) -> None:
        self.players: tuple[str, ...] = ()
        self.button = ""
        self.hands: list[dict[str, Any]] = []
        self.game_id: str | None = None

    def apply(self, old: TableState, new: TableState, entry: LogEntry) -> None:
        if entry.kind == "start":
            self.players, self.button = new.players, new.players[int(entry.data["button"])]
            self.hands, self.game_id = [], new.game_id
        elif entry.kind == "deal":
            t, deal = old.tournament, new.current_deal  # who is in: before the deal (it may bust blinds)
            assert t is not None and deal is not None
            seats_in = [seat for seat, alive in enumerate(t.alive) if alive]
            hole, board = deal_cards(deal.deck, seats_in)
            self.hands.append({
                "hole": {self.players[s]: "".join(map(str, cards)) for s, cards in hole.items()},
                "board": "".join(map(str, board)),
                "actions": [],
                **{k: v for k, v in deal.to_json().items() if k != "hand"},
            })
        elif entry.kind == "act" and self.hands:
            action = Action.parse(int(entry.data["seat"]), str(entry.data["move"]), entry.data.get("amount"))
            row: list[Any] = [self.players[action.seat], action.kind.value]
            if action.amount is not None:
                row.append(action.amount)
            self.hands[-1]["actions"].append(row)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "freezeout.record/1",
            "ruleset": "house",
            "starting_stack": 1000,
            "players": list(self.players),
            "button": self.button,
            "game_id": self.game_id,
            "hands": [dict(hand, actions=list(hand["actions"])) for hand in self.hands],
        }


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
