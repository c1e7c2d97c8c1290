"""Scripted tables for the browser tests: the server's own messages for hands
whose cards the test chooses.

A :class:`Script` plays a tournament with the rules core (``Tournament.deal``
and ``act``), builds each message from what the server builds it from
(``view_dicts``, ``event_to_json``, ``timers.clock_json``'s fields) and checks
it against the protocol's models; :func:`mount` opens the real table page
(``TablePage``) on a connection that receives exactly these messages.  So a
test can show a showdown with a busted player, a second forfeit or the final
hand at once and every time, without waiting for a random deck to produce it.
"""

from __future__ import annotations

from typing import Any

from freezeout.cards import parse_cards
from freezeout.formats.record import RecordWriter
from freezeout.rules.actions import Action
from freezeout.rules.events import Event
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.views import view_dicts
from freezeout.server.gamespec import GameSpec
from freezeout.server.transport.protocol import SnapshotMessage, UpdateMessage, events_json

NOW = 1_700_000_000.0
TURN = 30.0

MOUNT_JS = """async () => {
  const {TablePage} = await import('/static/js/table.js');
  window.__fzSent = [];
  window.__fzFeed = null;
  const connect = (id, handlers) => {
    window.__fzFeed = m => handlers.onMessage(m);
    handlers.onStatus('open');
    return {send: m => { window.__fzSent.push(m); return window.__fzSent.length; }, close() {}};
  };
  if (window.__fzTable) window.__fzTable.destroy();
  new TablePage(document.getElementById('main'), 'scripted', {connect});
}"""


def mount(page: Any) -> None:
    """Replace the page's content by a live table page fed by the test (see :meth:`Script.feed`)."""
    page.goto("/#/rules")
    page.locator("#rule-R1").wait_for()
    page.evaluate(MOUNT_JS)
    page.wait_for_function("() => typeof window.__fzFeed === 'function'")


def dealt(page: Any, players: list[str], holes: dict[int, str], board: str, **options: Any) -> Script:
    """A table page mounted and fed the snapshot of a first hand dealt with
    ``holes`` and ``board`` (nothing acted yet); the script to go on with."""
    mount(page)
    s = Script(players, **options)
    s.deal(holes, board)
    s.feed(page, s.snapshot())
    return s


def sent(page: Any) -> list[dict[str, Any]]:
    """What the page sent to the server so far."""
    return list(page.evaluate("window.__fzSent"))


class Script:
    """One tournament as the server would tell it to ``viewer`` (a seat, None: a spectator)."""

    def __init__(self, players: list[str], *, button: int = 0, viewer: int | None = 0,
                 bots: dict[int, str] | None = None, ranked: bool = False) -> None:
        self.t = Tournament.start(TournamentConfig(players=tuple(players), button=button))
        self.players = players
        self.viewer = viewer
        self.bots = bots or {}
        self.ranked = ranked
        self.version = 10
        self.now = NOW
        self.turn_started = NOW
        self.hand_ended_at: float | None = None
        self.pause = 4.0
        # the game's record, as the server writes it: the replayer's steps are built from it
        self.writer = RecordWriter(tuple(players), players[button])
        self.served: list[Any] = []  # pages answered the replayer's steps (serve_steps)

    # -- the game ---------------------------------------------------------
    def deal(self, holes: dict[int, str], board: str) -> list[dict[str, Any]]:
        hole = {seat: parse_cards(cards) for seat, cards in holes.items()}
        self.t, events = self.t.deal(hole, parse_cards(board))
        self.writer.observe(events)
        self.turn_started = self.now
        self.hand_ended_at = None
        return self._public(events)

    def act(self, seat: int, move: str, amount: int | None = None) -> list[dict[str, Any]]:
        was_in_hand = self.t.in_hand
        action = Action.parse(seat, move, amount)
        self.t, events = self.t.act(action)
        self.writer.act(self.players[seat], action)
        self.writer.observe(events)
        self.turn_started = self.now
        if was_in_hand and not self.t.in_hand:
            self.hand_ended_at = self.now
        return self._public(events)

    def _public(self, events: list[Event]) -> list[dict[str, Any]]:
        hand = self.t.hand
        return events_json(events, hand.board if hand is not None else ())

    def serve_steps(self, page: Any) -> None:
        """Answer the replayer's GET /api/tables/scripted/hands/{n}/steps as the server does
        (server/table/replaysteps.py: the rules replay this game's record for the viewer)."""
        from freezeout.server.table.replaysteps import hand_steps

        def fulfil(route: Any) -> None:
            number = int(route.request.url.rsplit("/hands/", 1)[1].split("/")[0])
            record = self.writer.to_json()
            done = self.t.hand_number - (1 if self.t.in_hand else 0)
            if not 1 <= number <= done:
                route.fulfill(status=404, json={"error": {"code": "not_found", "message": f"hand {number} is not finished"}})
                return
            viewer = self.players[self.viewer] if self.viewer is not None else None
            route.fulfill(json=hand_steps({**record, "hands": record["hands"][:done]}, number, viewer))

        page.route("**/api/tables/scripted/hands/*/steps", fulfil)

        def review(route: Any) -> None:
            """GET /api/games/scripted-1/review as the server answers it (transport/apireview.py)."""
            from freezeout.analysis.review import review_record_text
            from freezeout.server.table.records import player_record
            from freezeout.server.transport.apireview import for_viewer

            viewer = self.players[self.viewer] if self.viewer is not None else None
            route.fulfill(json=for_viewer(review_record_text(player_record(self.writer.to_json(), viewer)), viewer))

        page.route("**/api/games/scripted-*/review", review)

    # -- messages ------------------------------------------------------------
    def table(self) -> dict[str, Any]:
        finished = self.t.finished
        slots = []
        for i, name in enumerate(self.players):
            bot = self.bots.get(i)
            slots.append({"slot": i, "user": None if bot else {"id": i + 1, "name": name, "kind": "user"}, "bot": bot})
        return {"id": "scripted", "status": "finished" if finished else "playing", "ranked": self.ranked,
                "size": len(self.players), "version": self.version, "game": 1, "slots": slots,
                "players": list(self.players), "game_id": "scripted-1", "created_at": NOW,
                "table_game": GameSpec(starting_stack=self.t.config.starting_stack).summary()}

    def clock(self, *, left: float | None = None) -> dict[str, Any]:
        to_act = self.t.to_act
        started = self.turn_started if to_act >= 0 else None
        deadline = None
        if started is not None:
            deadline = self.now + left if left is not None else started + TURN
        pause_end = self.hand_ended_at + self.pause if self.hand_ended_at is not None else None
        return {"now": self.now, "to_act": to_act, "turn_started": started, "turn_deadline": deadline,
                "expired": deadline is not None and self.now >= deadline,
                "inactivity_deadline": started + 36000 if started is not None else None,
                "next_hand_at": pause_end if not self.t.finished else None,
                "result_until": pause_end, "grace_until": None}

    def view(self) -> dict[str, Any]:
        return view_dicts(self.t, [self.viewer])[self.viewer]

    def snapshot(self, **clock: Any) -> dict[str, Any]:
        self.version += 1
        events = events_json(self.t.hand_log)
        msg = {"type": "snapshot", "version": self.version, "table": self.table(), "view": self.view(),
               "events": events, "clock": self.clock(**clock), "presence": [True] * len(self.players),
               "fairness": {"next": None, "current": None, "revealed": []},
               "you": {"user": {"id": 1, "name": self.players[self.viewer or 0], "kind": "user"},
                       "seat": self.viewer, "slot": self.viewer}}
        return _checked(SnapshotMessage, msg)

    def update(self, events: list[dict[str, Any]], **clock: Any) -> dict[str, Any]:
        self.version += 1
        msg = {"type": "update", "version": self.version, "events": events, "table": self.table(), "view": self.view(),
               "clock": self.clock(**clock), "fairness": {"next": None, "current": None, "revealed": []}}
        return _checked(UpdateMessage, msg)

    def feed(self, page: Any, message: dict[str, Any]) -> None:
        """Deliver one server message to the mounted page and wait until it is drawn (the
        first time, the page's replayer is also given this game's steps: serve_steps)."""
        if page not in self.served:
            self.served.append(page)
            self.serve_steps(page)
        page.evaluate("m => window.__fzFeed(m)", message)
        page.wait_for_function("v => window.__fzTable && window.__fzTable.state.version === v", arg=message["version"])


def _checked(model: Any, msg: dict[str, Any]) -> dict[str, Any]:
    """The message as the protocol's model accepts it (extra fields the model lacks are refused)."""
    fields = set(model.model_fields["clock"].annotation.model_fields)
    clock = {k: v for k, v in msg["clock"].items() if k in fields}
    model.model_validate({**msg, "clock": clock})
    return msg
