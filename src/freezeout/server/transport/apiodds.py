"""``GET /api/odds``: the odds calculator (docs/protocol.md "Odds", docs/review.md).

Computing changes nothing, so it is a GET (no CSRF token), and its address is
the whole question: the page's shareable ``#/odds?…`` carries the same query.
The work is done by :class:`~freezeout.server.oddsdesk.OddsDesk`: capped per
request, rate-limited per client address, off the event loop.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Query, Request

from freezeout.server.oddsdesk import MAX_BATCH, MAX_HANDS, OddsBusy, OddsDesk, OddsRefused, Question, check
from freezeout.server.transport.apicore import ApiError, ctx

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.get("/odds")
async def odds(request: Request, hand: Annotated[list[str], Query()] = [],  # noqa: B006 - FastAPI copies it
               game: str = "NT", board: str = "", dead: str = "") -> dict[str, Any]:
    """Equities of 2-10 ``hand`` (repeated; hold'em and short-deck: ranges too) in ``game``, with
    ``board`` and ``dead`` cards: exact where feasible, else seeded Monte Carlo with its ±."""
    desk = ctx(request).odds
    if len(hand) > MAX_HANDS:
        raise ApiError(400, "bad_message", f"give 2 to {MAX_HANDS} hands, got {len(hand)}")
    address, cost = _spend(desk, request, [(game, tuple(hand), board, dead)])
    try:
        return await desk.odds(game, hand, board, dead)
    except (OddsRefused, OddsBusy) as error:
        raise _unanswered(desk, address, cost, error) from None


def _spend(desk: OddsDesk, request: Request, questions: list[Question]) -> tuple[str, int]:
    """Count the questions' work (those not answered lately) against the client's address, or
    429; the address and what was counted, to give back if they are not answered."""
    address = f"ip:{request.client.host if request.client else '?'}"
    cost = desk.cost(questions)
    wait = desk.retry_after(address, cost)
    if wait is not None:
        raise ApiError(429, "rate_limited", "too many odds from this address; try again in a minute",
                       {"Retry-After": str(int(wait) + 1)})
    return address, cost


def _unanswered(desk: OddsDesk, address: str, cost: int, error: OddsRefused | OddsBusy) -> ApiError:
    """The error of questions counted but not answered (400 refused, 503 busy), their count
    given back: only questions answered count against the address's limit."""
    desk.refund(address, cost)
    if isinstance(error, OddsBusy):
        return ApiError(503, "busy", str(error), {"Retry-After": "2"})
    return ApiError(400, "bad_message", str(error))


def _question(number: int, text: str) -> Question:
    """One ``q`` of a batch: a query as the single route takes it (``game``, ``hand`` twice or
    more, ``board``, ``dead``), cards only."""
    fields = parse_qs(text, keep_blank_values=True)
    unknown = sorted(set(fields) - {"game", "hand", "board", "dead"})
    if unknown:
        raise OddsRefused(f"unknown field {unknown[0]!r}")
    for name in ("game", "board", "dead"):
        if len(fields.get(name, [])) > 1:
            raise OddsRefused(f"{name} given twice")
    hands = fields.get("hand", [])
    if len(hands) > MAX_HANDS:
        raise OddsRefused(f"give 2 to {MAX_HANDS} hands, got {len(hands)}")
    game, board, dead = (fields.get(name, [default])[0] for name, default in (("game", "NT"), ("board", ""), ("dead", "")))
    check(game, hands, board, dead, ranges=False)
    return game, tuple(hands), board, dead


@router.get("/odds/batch")
async def odds_batch(request: Request, q: Annotated[list[str], Query()] = []) -> dict[str, Any]:  # noqa: B006
    """Every question of a moment at once (a run-out's pots and runs, docs/protocol.md "Odds"):
    ``q`` repeated, each a query of ``GET /api/odds`` with cards only, at most MAX_BATCH.  All are
    checked before any is computed; the new ones count against the address's limit."""
    desk = ctx(request).odds
    if not 1 <= len(q) <= MAX_BATCH:
        raise ApiError(400, "bad_message", f"give 1 to {MAX_BATCH} questions (q), got {len(q)}")
    questions = []
    for number, text in enumerate(q, start=1):
        try:
            questions.append(_question(number, text))
        except OddsRefused as error:
            raise ApiError(400, "bad_message", f"question {number}: {error}") from None
    address, cost = _spend(desk, request, questions)
    try:
        return {"answers": await desk.batch(questions)}
    except (OddsRefused, OddsBusy) as error:
        raise _unanswered(desk, address, cost, error) from None
