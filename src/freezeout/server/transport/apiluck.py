"""``GET /api/me/luck``: your luck over your recent freezeouts and cash sessions (issue #36).

Luck per player is shown on one's own profile only: this route answers the signed-in asker
about themselves and has no form that names anyone else.  Each recent freezeout is the game's
review (transport/apireview.py, the asker's copy of the record); each recent cash session
(the ledger's ``sessions``: one stay at one table) is the review of every cash hand the asker
was dealt there between sitting down and leaving, as the asker may download it
(``cash_hand_for``: their own cards, the others' as shown or turned up).  The arithmetic is
analysis/sessions.py's; the work runs in a thread, and a reviewed hand (a finished hand never
changes) is kept per process.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

import orjson
from fastapi import APIRouter, Request

from freezeout.server.table.state import Refused
from freezeout.server.transport.apicore import ApiError, ctx
from freezeout.server.transport.auth import Auth, AuthDep

__all__ = ["router"]

router = APIRouter(prefix="/api")

LIMIT = 10  # freezeouts and sessions a summary reviews by default (at most MAX_LIMIT)
MAX_LIMIT = 30
CACHED_HANDS = 4096  # reviewed cash hands a process keeps: (table, hand, player) → line


def _hand_cache(request: Request) -> OrderedDict[tuple[str, int, str], dict[str, Any] | None]:
    state = request.app.state
    cache: OrderedDict[tuple[str, int, str], dict[str, Any] | None] | None = getattr(state, "cash_hand_lines", None)
    if cache is None:
        cache = OrderedDict()
        state.cash_hand_lines = cache
    return cache


def _session_lines(sessions: list[dict[str, Any]], logs: dict[str, Any], names: set[str],
                   cache: OrderedDict[tuple[str, int, str], dict[str, Any] | None]) -> list[dict[str, Any]]:
    """Each session's line (analysis/sessions.py) from its table's log; runs in a thread."""
    from freezeout.analysis.sessions import hand_line, in_session, session_line
    from freezeout.server.table.exportnames import table_label
    from freezeout.server.table.records import cash_hand_for, cash_hands_of_log

    hands_of: dict[str, list[dict[str, Any]]] = {}
    for table_id, entries in logs.items():
        try:
            hands_of[table_id] = [orjson.loads(packed) for packed in cash_hands_of_log(entries, keep=10**9).hands]
        except Refused:
            hands_of[table_id] = []
    lines = []
    for session in sessions:
        table_id = str(session["table"])
        found: list[dict[str, Any] | None] = []
        for hand in hands_of.get(table_id, []):
            viewer = next((name for name in hand["players"] if name in names), None)
            if viewer is None or not in_session(hand, session):
                continue
            key = (table_id, int(hand["number"]), viewer)
            if key not in cache:
                cache[key] = hand_line(cash_hand_for(hand, viewer), viewer)
                while len(cache) > CACHED_HANDS:
                    cache.popitem(last=False)
            found.append(cache[key])
        lines.append(session_line({**session, "label": table_label(table_id)}, found))
    return lines


async def _freezeout_lines(request: Request, found: Auth, names: list[str], limit: int) -> list[dict[str, Any]]:
    from freezeout.analysis.sessions import freezeout_line
    from freezeout.server.transport.apireview import reviewed

    lines = []
    for game in await ctx(request).store.games.of_player(names, limit):
        try:
            review = await reviewed(request, str(game["id"]), found)
        except ApiError:
            continue  # a game whose record does not replay (or is gone): not in the summary
        line = freezeout_line(game, review, str(game["as"]))
        if line is not None:
            lines.append(line)
    return lines


@router.get("/me/luck")
async def my_luck(request: Request, found: AuthDep, limit: int = LIMIT) -> dict[str, Any]:
    """Your result, all-in EV and luck (result − all-in EV) per recent freezeout and cash
    session, newest first, and their totals (docs/protocol.md "Luck")."""
    from freezeout.analysis.sessions import luck_totals

    if found.user is None:
        raise ApiError(401, "unauthorized", "sign in to see your luck")
    if not 1 <= limit <= MAX_LIMIT:
        raise ApiError(400, "bad_message", f"limit is 1 to {MAX_LIMIT}, got {limit}")
    store = ctx(request).store
    names = list(await store.accounts.names_of(found.user))
    freezeouts = await _freezeout_lines(request, found, names, limit)
    sessions = (await store.ledger.sessions(found.user.id))[:limit]
    logs = {str(s["table"]): await store.log.table_entries(str(s["table"])) for s in sessions}
    lines = await asyncio.to_thread(_session_lines, sessions, logs, set(names), _hand_cache(request))
    return {"freezeouts": {"games": freezeouts, "total": luck_totals(freezeouts)},
            "sessions": {"sessions": lines, "total": luck_totals(lines)}}
