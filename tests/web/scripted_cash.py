"""A scripted cash table for the browser tests: the server's own messages for a cash hand
dealt from a deck the test orders.

:class:`CashScript` plays the server's :class:`~freezeout.server.table.cash.CashGame` and
builds each message from what the server builds it from (``CashGame.view_dicts``,
``events_json``, the clock's fields), checked against the protocol's models; it feeds the
real table page (``scripted.mount``) as :class:`scripted.Script` does.  So a test can put an
all-in with a side pot and a board run twice (C7) on the felt at once and every time.
"""

from __future__ import annotations

from typing import Any

from scripted import NOW, TURN, _checked

from freezeout.cards import Card
from freezeout.rules.actions import Action
from freezeout.server.gamespec import GameSpec
from freezeout.server.table.cash import CashGame
from freezeout.server.table.eventtext import events_json
from freezeout.server.transport.protocol import SnapshotMessage, UpdateMessage

__all__ = ["CashScript"]


class CashScript:
    """One cash table of ``code`` with ``players`` (seat: (name, chips)), as ``viewer`` sees it."""

    def __init__(self, code: str, players: dict[int, tuple[str, int]], *, seats: int = 6, viewer: int | None = 0,
                 options: dict[str, Any] | None = None) -> None:
        self.spec = GameSpec.parse_cash(code, options or {"big_blind": 100, "min_buy_in": 500, "max_buy_in": 10000, "run_twice": True})
        game = CashGame.open(self.spec, seats)
        for seat, (name, chips) in players.items():
            game = game.join(seat, name, chips, NOW, account=seat + 1)
        self.game = game
        self.seats = seats
        self.viewer = viewer
        self.version = 10
        self.now = NOW
        self.hand_ended_at: float | None = None
        self.served: list[Any] = []

    def deal(self, deck: list[Card]) -> list[dict[str, Any]]:
        self.game, events = self.game.deal(deck)  # type: ignore[assignment]
        self.hand_ended_at = None
        return events_json(events, self.game.board)

    def act(self, seat: int, move: str, amount: int | None = None) -> list[dict[str, Any]]:
        was = self.game.in_hand
        self.game, events = self.game.apply(Action.parse(seat, move, amount))  # type: ignore[assignment]
        if was and not self.game.in_hand:
            self.hand_ended_at = self.now
        return events_json(events, self.game.board)

    def table(self) -> dict[str, Any]:
        players = [held.player if held is not None else None for held in self.game.table.seats]
        slots = [{"slot": i, "user": {"id": i + 1, "name": name, "kind": "user"} if name else None, "bot": None}
                 for i, name in enumerate(players)]
        return {"id": "scripted", "status": "playing", "ranked": False, "size": self.seats, "version": self.version,
                "game": 1, "slots": slots, "players": players, "game_id": None, "created_at": NOW, "format": "cash",
                "table_game": self.spec.summary()}

    def clock(self) -> dict[str, Any]:
        to_act = self.game.to_act if self.game.in_hand else -1
        started = self.now if to_act >= 0 else None
        pause_end = self.hand_ended_at + 3600 if self.hand_ended_at is not None else None
        return {"now": self.now, "to_act": to_act, "turn_started": started,
                "turn_deadline": started + TURN if started is not None else None, "expired": False,
                "inactivity_deadline": None, "next_hand_at": pause_end, "result_until": pause_end}

    def view(self) -> dict[str, Any]:
        return self.game.view_dicts([self.viewer])[self.viewer]

    def snapshot(self) -> dict[str, Any]:
        self.version += 1
        name = self.view()["seats"][self.viewer]["player"] if self.viewer is not None else None
        msg = {"type": "snapshot", "version": self.version, "table": self.table(), "view": self.view(),
               "events": events_json(self.game.table.hand_log, self.game.board), "clock": self.clock(),
               "presence": [True] * self.seats, "fairness": {"next": None, "current": None, "revealed": []},
               "you": {"user": {"id": (self.viewer or 0) + 1, "name": name, "kind": "user"}, "seat": self.viewer,
                       "slot": self.viewer}}
        return _checked(SnapshotMessage, msg)

    def update(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        self.version += 1
        msg = {"type": "update", "version": self.version, "events": events, "table": self.table(), "view": self.view(),
               "clock": self.clock(), "fairness": {"next": None, "current": None, "revealed": []}}
        return _checked(UpdateMessage, msg)

    def feed(self, page: Any, message: dict[str, Any]) -> None:
        """Deliver one message to the mounted page and wait until it holds it."""
        page.evaluate("m => window.__fzFeed(m)", message)
        page.wait_for_function("v => window.__fzTable && window.__fzTable.state.version === v", arg=message["version"])


def open_cash_menu(page: Any) -> None:
    """On a phone the seat's cash controls are folded into the "⋯ Table" sheet (issue #34): open
    it (on a desktop, where they are drawn in their row, nothing to do)."""
    page.locator(".cash-controls .cash-sheet").wait_for(state="attached")
    menu = page.locator(".cash-controls button.cash-menu")
    if menu.is_visible() and menu.get_attribute("aria-expanded") != "true":
        menu.click()
        page.locator(".cash-controls.open .cash-sheet").wait_for()
