"""The lobby pushed to the connections that watch it (docs/protocol.md "The lobby").

A connection that sends ``{"type": "lobby"}`` gets the lobby's list at once
(``lobby``: of each format, freezeout then cash, the newest ``limit`` waiting
tables, then the newest ``limit`` playing ones, as ``GET
/api/tables?format=…&status=…`` pages them: busy freezeouts never push the
cash tables out of it) and from then on
only what changed in that list (``lobby_update``: the tables that entered it
or changed, the ids that left it).  Changes are gathered for ``period``
seconds and the list is computed once per process, not per connection: every
watcher is sent the same text, so a busy lobby costs one diff per period
plus one send per watcher.

Where changes come from: a gateway is told by the bus (each table's owner
publishes its lobby record on the ``LOBBY`` channel when what the lobby
shows changes) and calls :meth:`LobbyFeed.changed`; one process owns its
tables and simply looks again every period while anyone watches (its list
is built from memory, the newest tables' summaries only).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from freezeout.server.gamespec import FORMATS
from freezeout.server.table.gameinfo import with_format
from freezeout.server.tasks import stop_tasks
from freezeout.server.wire import dumps

__all__ = ["STATUSES", "LobbyFeed"]

STATUSES = ("waiting", "playing")  # what the lobby lists (finished tables are left out)

Listing = Callable[[str, int, str], list[dict[str, Any]]]  # (status, limit, format) -> the newest tables' summaries
Send = Callable[[str], None]


def _shown(summary: dict[str, Any]) -> dict[str, Any]:
    """What the lobby shows of a table: its summary less the version, which moves at every move."""
    return {key: value for key, value in summary.items() if key != "version"}


class LobbyFeed:
    def __init__(self, listing: Listing, *, period: float, limit: int = 50, polled: bool = False) -> None:
        self.listing, self.period, self.limit, self.polled = listing, period, limit, polled
        self.watchers: dict[object, Send] = {}
        self._window: dict[str, dict[str, Any]] = {}  # what every watcher has been told, in order
        self._dirty = True
        self._task: asyncio.Task[None] | None = None
        self.pushed = 0  # lobby_update messages sent (one text to every watcher)

    # -- watchers --------------------------------------------------------------
    def watch(self, key: object, send: Send) -> None:
        """``send`` gets the list now and every change from now on (until :meth:`unwatch`)."""
        if not self.watchers:
            self._window = self._compute()  # nobody was told anything: start from now
            self._dirty = False
        else:
            self.flush()  # the others hear what changed first, so the list sent now is theirs too
        self.watchers[key] = send
        send(dumps({"type": "lobby", "tables": list(self._window.values())}))

    def unwatch(self, key: object) -> None:
        self.watchers.pop(key, None)

    # -- changes -----------------------------------------------------------------
    def changed(self) -> None:
        """Something the lobby shows may have changed: look at the next period."""
        self._dirty = True

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="lobby-feed")

    async def stop(self) -> None:
        await stop_tasks(self._task)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            if self.watchers and (self._dirty or self.polled):
                self.flush()

    def flush(self) -> None:
        """Tell every watcher what changed in the list since it was last told (if anything)."""
        self._dirty = False
        window = self._compute()
        old = self._window
        tables = [summary for table_id, summary in window.items()
                  if table_id not in old or _shown(old[table_id]) != _shown(summary)]
        removed = [table_id for table_id in old if table_id not in window]
        self._window = window
        if not tables and not removed:
            return
        text = dumps({"type": "lobby_update", "tables": tables, "removed": removed})
        self.pushed += 1
        for send in list(self.watchers.values()):
            send(text)

    def _compute(self) -> dict[str, dict[str, Any]]:
        """The list, each table with the game it deals in words (``format``, table/gameinfo.py)."""
        return {summary["id"]: with_format(summary) for format in FORMATS for status in STATUSES
                for summary in self.listing(status, self.limit, format)}
