"""``GET /api/odds``: the odds calculator (docs/protocol.md "Odds", docs/review.md).

Computing changes nothing, so it is a GET (no CSRF token), and its address is
the whole question: the page's shareable ``#/odds?…`` carries the same query.
The work is done by :class:`~freezeout.server.oddsdesk.OddsDesk`: capped per
request, rate-limited per client address, off the event loop.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from freezeout.server.oddsdesk import MAX_HANDS, OddsBusy, OddsRefused
from freezeout.server.transport.api import ApiError, ctx

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.get("/odds")
async def odds(request: Request, hand: Annotated[list[str], Query()] = [],  # noqa: B006 - FastAPI copies it
               game: str = "NT", board: str = "", dead: str = "") -> dict[str, Any]:
    """Equities of 2-10 ``hand`` (repeated; hold'em and short-deck: ranges too) in ``game``, with
    ``board`` and ``dead`` cards: exact where feasible, else seeded Monte Carlo with its ±."""
    desk = ctx(request).odds
    address = f"ip:{request.client.host if request.client else '?'}"
    wait = desk.retry_after(address)
    if wait is not None:
        raise ApiError(429, "rate_limited", "too many odds from this address; try again in a minute",
                       {"Retry-After": str(int(wait) + 1)})
    if len(hand) > MAX_HANDS:
        raise ApiError(400, "bad_message", f"give 2 to {MAX_HANDS} hands, got {len(hand)}")
    try:
        return await desk.odds(game, hand, board, dead)
    except OddsRefused as error:
        raise ApiError(400, "bad_message", str(error)) from None
    except OddsBusy as error:
        raise ApiError(503, "busy", str(error), {"Retry-After": "2"}) from None
