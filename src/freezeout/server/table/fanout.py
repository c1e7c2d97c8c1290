"""What a table tells its followers: each change as every seat's text, snapshots and catch-ups.

One job: turn the table's state after an entry into the messages its
followers read (principle 5: each seat's own view).  The costly parts are
built once and shared: the public events of each version serialised once
(kept for catch-ups, ``catchup``), the update without its per-seat fields
serialised once for every seat, each seat's view and fairness object once per
version and seat, the spectators' view once per version.  The actor (table/actor.py)
says *when*; an owned table (cluster/workertable.py) sends the same texts over the bus.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from freezeout.rules.events import Event
from freezeout.rules.views import TableView
from freezeout.server.fairness import Reveal
from freezeout.server.gamespec import game_summary
from freezeout.server.settings import Settings
from freezeout.server.storage.store import UserRow
from freezeout.server.table import timers
from freezeout.server.table.eventtext import events_json, pack_events
from freezeout.server.table.state import TableState
from freezeout.server.table.tableevents import TableEvent
from freezeout.server.wire import Fragment, dumps, join_arrays

__all__ = ["Fanout", "table_summary"]


def table_summary(s: TableState) -> dict[str, Any]:
    """The table as the lobby and the HTTP API show it (a cash table adds its lobby fields:
    table/cashlobby.py)."""
    summary = {
        "id": s.id, "status": s.status, "ranked": s.ranked, "size": s.size, "version": s.version, "game": s.game,
        "slots": [{"slot": i, "user": {"id": x.user_id, "name": x.name, "kind": x.kind} if x.taken else None,
                   "bot": x.bot} for i, x in enumerate(s.slots)],
        "players": list(s.players) if s.players else None, "game_id": s.game_id, "created_at": s.created_at,
        "table_game": game_summary(s.spec),
    }
    if s.private:  # never the secret: only the creator is told it (transport/apiinvite.py)
        summary["private"], summary["created_by"] = True, s.created_by
    lobby = s.table_game.lobby_fields(s) if s.table_game is not None else None
    return {**summary, **lobby} if lobby else summary


class Fanout:
    """The table's messages, built from its state (read-only) with the caches above."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        # Recent public events per version, serialised (wire.pack): kept long, so kept untracked by the GC.
        self.catchup: deque[tuple[int, bytes]] = deque(maxlen=settings.catchup_entries)
        self._spectator: tuple[int, TableView] | None = None
        self._views: tuple[int, dict[int | None, dict[str, Any]]] = (-1, {})
        # The fairness object per version, serialised, per viewer whose own cards it opens (None: everyone else).
        self._fairness: tuple[int, dict[tuple[bool, int | None], str]] = (-1, {})
        # The last hand's reveal opened for each such viewer: the same from the hand's end to the next
        # deal (several versions), and each opening hashes its salts (server/fairness.py).
        self._opened: tuple[Reveal | None, dict[int | None, dict[str, Any]]] = (None, {})

    def record(self, state: TableState, told: list[TableEvent], events: list[Event]) -> None:
        """Keep the public events of the entry that brought the table to ``state``: serialised once,
        straight to the bytes every update of this version embeds and catch-ups join."""
        game = state.table_game
        self.catchup.append((state.version, pack_events(told, events, game.board if game is not None else ())))

    # -- the parts -------------------------------------------------------------------
    def seat_view(self, state: TableState, seat: int | None) -> TableView:
        """The view of ``seat`` at the current version (the spectators' is shared)."""
        t = state.table_game
        assert t is not None
        if seat is None:
            cached = self._spectator
            if cached is None or cached[0] != state.version:
                cached = self._spectator = (state.version, t.seat_view(None))
            return cached[1]
        return t.seat_view(seat)

    def fairness(self, state: TableState, seat: int | None, *, reveal: bool | None = None) -> str:
        """The fairness object for ``seat`` as JSON text, built once per version and per viewer
        whose own hole cards the last finished hand opens (everyone else shares one text).
        The last hand's reveal travels between hands (from its end to the next deal, ``reveal``
        None) and in every snapshot and catch-up (``reveal=True``): not in every update."""
        s = state
        if reveal is None:
            reveal = s.table_game is None or not s.table_game.in_hand
        opened = s.revealed if reveal else None
        key = (reveal, seat if opened is not None and seat in opened.own else None)
        version, texts = self._fairness
        if version != s.version:
            texts = {}
            self._fairness = (s.version, texts)
        text = texts.get(key)
        if text is None:
            nxt = {"hand": s.next_deal.hand, "commitment": s.next_deal.commitment} if s.next_deal else None
            cur = s.current_deal if s.table_game is not None and s.table_game.in_hand else None
            text = texts[key] = dumps({"next": nxt, "current": {"hand": cur.hand, "commitment": cur.commitment} if cur else None,
                                       "revealed": [self._opening(opened, key[1])] if opened is not None else []})
        return text

    def _opening(self, revealed: Reveal, seat: int | None) -> dict[str, Any]:
        """``revealed.to_json(seat)``, once per reveal and viewer (read-only)."""
        kept, openings = self._opened
        if kept is not revealed:
            openings = {}
            self._opened = (revealed, openings)
        found = openings.get(seat)
        if found is None:
            found = openings[seat] = revealed.to_json(seat)
        return found

    def view(self, state: TableState, seat: int | None) -> dict[str, Any] | None:
        return self.view_dicts(state, [seat])[seat] if state.table_game is not None else None

    def view_dicts(self, state: TableState, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """The views of ``seats`` at the current version, built at most once per version and seat
        (one change is told to every seat of the table; see ``view_dicts``).  Read-only."""
        t = state.table_game
        assert t is not None
        version, views = self._views
        if version != state.version:
            views = {}
            self._views = (state.version, views)
        missing = [seat for seat in seats if seat not in views]
        if missing:
            views.update(t.view_dicts(missing))
        return views

    def common(self, state: TableState, now: float) -> dict[str, Any]:
        return {"table": table_summary(state), "clock": timers.clock_json(state, now, self.settings)}

    # -- the messages ------------------------------------------------------------------
    def update_texts(self, state: TableState, now: float, seats: Iterable[int | None]) -> dict[int | None, str]:
        """The update of the last entry for each of ``seats`` (None: a spectator): the message
        without its per-seat fields (fairness, view) is serialised once for all of them."""
        wanted = list(dict.fromkeys(seats))
        if state.table_game is not None:
            self.view_dicts(state, wanted)  # every seat's view in one pass
        shared = {"type": "update", "version": state.version, "events": Fragment(self.catchup[-1][1]),
                  **self.common(state, now)}
        head = dumps(shared)[:-1] + ',"fairness":'
        texts = {seat: f'{head}{self.fairness(state, seat)},"view":{dumps(self.view(state, seat))}}}' for seat in wanted}
        self._views = (-1, {})  # built for this update: not kept (fewer objects for the GC to scan)
        return texts

    def _message(self, state: TableState, now: float, kind: str, seat: int | None, events: list[dict[str, Any]] | Fragment,
                 ) -> dict[str, Any]:
        """A snapshot or catch-up for ``seat`` (with the last hand's reveal, see :meth:`fairness`)."""
        return {"type": kind, "version": state.version, "events": events, **self.common(state, now),
                "fairness": Fragment(self.fairness(state, seat, reveal=True)), "view": self.view(state, seat)}

    def catchup_text(self, state: TableState, now: float, seat: int | None, since: int | None) -> str | None:
        """What a follower at version ``since`` missed, as one update; None when the kept events
        do not reach back that far (a snapshot then)."""
        version = state.version
        if since is None or since > version or (since != version and not (self.catchup and self.catchup[0][0] <= since + 1)):
            return None
        missed = join_arrays([events for v, events in self.catchup if v > since])
        # ``since`` right after the version: a gateway forwards a catch-up only to a connection
        # that is at that version (cluster/gateway.py), so no event reaches a client twice.
        catchup = self._message(state, now, "update", seat, missed)
        return dumps({"type": "update", "version": version, "since": since, **catchup})

    def snapshot_text(self, state: TableState, now: float, seat: int | None, user: UserRow | None,
                      presence: list[bool]) -> str:
        """Everything a new follower needs: the table, its view, the hand so far and who is online."""
        t = state.table_game
        history = events_json(self.seat_view(state, None).history) if t is not None else []
        you = {"user": user.public() if user else None, "seat": seat,
               "slot": state.slot_of_user(user.id) if user else None}
        return dumps({**self._message(state, now, "snapshot", seat, history), "you": you, "presence": presence})
