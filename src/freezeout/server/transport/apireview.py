"""``GET /api/games/{id}/review``: a finished game's review (docs/protocol.md "Game review").

The review is ``freezeout review --json`` (analysis/review.py) run on the record the asker may
download (``GET /api/games/{id}/record``): a player of the game reviews with their own hole
cards, anyone else with what became public, so a decision whose cards the asker never saw is
listed as not reviewed.  All-in EV is public once the hands are up; luck (result − all-in EV)
is answered for the asker's own seat only.  The work runs in a thread, off the event loop,
and each (game, asker's seat) is computed once per process: a finished game never changes.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request

from freezeout.server.transport.apicore import ApiError
from freezeout.server.transport.apihistory import finished_record, viewer_name
from freezeout.server.transport.auth import Auth, AuthDep

__all__ = ["for_viewer", "reviewed", "router"]

router = APIRouter(prefix="/api")

CACHED = 64  # reviews a process keeps (each a few kB per hand)


def _cache(request: Request) -> OrderedDict[tuple[str, str | None], asyncio.Future[dict[str, Any]]]:
    """The app's reviews, newest last: one future per (game, viewer), so asks at once share one run."""
    state = request.app.state
    cache: OrderedDict[tuple[str, str | None], asyncio.Future[dict[str, Any]]] | None = getattr(
        state, "game_reviews", None)
    if cache is None:
        cache = OrderedDict()
        state.game_reviews = cache
    return cache


def _review(record: dict[str, Any]) -> dict[str, Any]:
    from freezeout.analysis.review import review_record_text

    return review_record_text(record)


def for_viewer(review: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """The review as the asker may see it: luck only in their own seat's totals."""
    players = {name: {**totals, "luck": totals["luck"] if name == viewer else None}
               for name, totals in review["players"].items()}
    return {**review, "players": players, "viewer": viewer}


@router.get("/games/{game_id}/review")
async def game_review(request: Request, game_id: str, found: AuthDep) -> dict[str, Any]:
    """A finished game's all-ins, EV, luck and push/fold mistakes (docs/review.md), as the asker saw it."""
    return await reviewed(request, game_id, found)


async def reviewed(request: Request, game_id: str, found: Auth) -> dict[str, Any]:
    """The game's review as the asker may see it (also the profile's luck, transport/apiluck.py)."""
    from freezeout.analysis.review import ReviewError

    record = await finished_record(request, game_id, found)
    viewer = await viewer_name(request, found, record.get("players", ()))
    cache = _cache(request)
    key = (game_id, viewer)
    future = cache.get(key)
    if future is None:
        future = asyncio.ensure_future(asyncio.to_thread(_review, record))
        cache[key] = future
        while len(cache) > CACHED:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    try:
        review = await asyncio.shield(future)
    except ReviewError as error:
        raise ApiError(422, "unavailable", str(error)) from None
    return for_viewer(review, viewer)
