"""A player's luck over their cash sessions and freezeouts (issue #36, the profile's summary).

A cash session is one stay at one table, from the buy-in to the cash-out (the ledger's
``sessions``); its hands are the cash hands the player was dealt at that table between the
two.  Each hand is reviewed as :mod:`.review` reviews a cash hand's history (the copy the
player may download: their own cards, the others' as shown or turned up, V20); the session's
``result`` is the chips its hands won or lost (rake included), ``all_in_ev`` the same with
every all-in counted at its EV, and ``luck`` the difference.  A freezeout's line is the game's
review's totals for the player.  Pure: hands and reviews in, JSON-ready dicts out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from freezeout.analysis.review import ReviewError, review_cash_hand

__all__ = ["freezeout_line", "hand_line", "in_session", "luck_totals", "session_line"]


def in_session(hand: Mapping[str, Any], session: Mapping[str, Any]) -> bool:
    """Whether ``hand`` was dealt during ``session`` (at its table, between sitting down and leaving)."""
    if str(hand.get("table", session["table"])) != str(session["table"]):
        return False
    at = hand.get("started_at")
    if not isinstance(at, (int, float)):
        return False
    ended = session.get("ended_at")
    return float(session["started_at"]) <= at and (ended is None or at <= float(ended))


def hand_line(hand: Mapping[str, Any], viewer: str, *, seed: int = 0) -> dict[str, Any] | None:
    """One cash hand's ``result``, ``all_in_ev`` and ``all_in`` (whether the viewer was in an
    all-in) for ``viewer``, or None when the hand does not replay or the viewer was not dealt in."""
    try:
        review = review_cash_hand(hand, seed=seed)
    except ReviewError:
        return None
    totals = review["players"].get(viewer)
    if totals is None:
        return None
    return {"result": totals["result"], "all_in_ev": totals["all_in_ev"], "all_in": totals["all_ins"] > 0}


def _summed(lines: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    result: float = 0
    ev = 0.0
    all_ins = 0
    count = 0
    for line in lines:
        count += 1
        result += line["result"]
        ev += line["all_in_ev"]
        all_ins += int(line["all_in"])
    result = round(result, 2) if isinstance(result, float) else result
    return {"hands": count, "result": result, "all_in_ev": round(ev, 2), "luck": round(result - ev, 2), "all_ins": all_ins}


def session_line(session: Mapping[str, Any], hands: Sequence[Mapping[str, Any] | None]) -> dict[str, Any]:
    """A session's totals from its hands' lines (:func:`hand_line`; None: a hand not reviewed)."""
    line = _summed(h for h in hands if h is not None)
    line["not_reviewed"] = sum(1 for h in hands if h is None)
    keep = ("table", "label", "started_at", "ended_at", "open", "net")
    return {**{key: session[key] for key in keep if key in session}, **line}


def freezeout_line(game: Mapping[str, Any], review: Mapping[str, Any], viewer: str) -> dict[str, Any] | None:
    """A freezeout's line for ``viewer`` from its review (docs/formats.md "Game review"), or None
    when the viewer did not play in it."""
    totals = review["players"].get(viewer)
    if totals is None:
        return None
    return {"game": game["id"], "code": review.get("game"), "finished_at": game.get("finished_at"),
            "hands": sum(1 for hand in review["hands"] if viewer in hand["result"]), "result": totals["result"],
            "all_in_ev": totals["all_in_ev"], "luck": round(totals["result"] - totals["all_in_ev"], 2),
            "all_ins": totals["all_ins"]}


def luck_totals(lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The total over freezeouts' or sessions' lines (each in its own chips: a freezeout's
    chips are not play chips, so the two are never added): result, all-in EV, luck, all-ins."""
    result: float = 0
    ev = 0.0
    all_ins = 0
    for line in lines:
        result += line["result"]
        ev += line["all_in_ev"]
        all_ins += line["all_ins"]
    result = round(result, 2) if isinstance(result, float) else result
    return {"count": len(lines), "result": result, "all_in_ev": round(ev, 2), "luck": round(result - ev, 2),
            "all_ins": all_ins}
