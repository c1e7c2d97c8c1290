"""The HTTP API's ratings (R25, docs/protocol.md "Ratings"): the leaderboard of a rating
family, a player's games and a player's rating with its history."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from freezeout.server import elo
from freezeout.server.transport.apicore import ApiError, ctx
from freezeout.server.transport.apiinvite import visible_games
from freezeout.server.transport.auth import AuthDep

__all__ = ["router"]

router = APIRouter(prefix="/api")

def _family(family: str) -> str:
    """A rating family named in a query (elo.FAMILIES); a clear 400 naming them otherwise."""
    if family not in elo.FAMILIES:
        raise ApiError(400, "bad_message", f"unknown rating family {family!r} (families: {', '.join(elo.FAMILIES)})")
    return family


@router.get("/leaderboard")
async def leaderboard(request: Request, limit: int = 50, family: str = elo.HOUSE_FAMILY) -> dict[str, Any]:
    """Established ratings of ``family`` (the house game's by default) active in the last
    ``ACTIVE_DAYS`` days, ranked by ``place`` (elo.listed): established takes
    ``provisional_games`` counted games against ``establishing_opponents`` distinct established players."""
    chosen = _family(family)
    context = ctx(request)
    return {"players": await context.store.ratings.leaderboard(max(1, min(limit, 500)), chosen, context.clock.now()),
            "family": chosen, "families": list(elo.FAMILIES), "provisional_games": elo.PROVISIONAL_GAMES,
            "establishing_opponents": elo.ESTABLISHING_OPPONENTS, "active_days": elo.ACTIVE_DAYS}


@router.get("/users/{name}/games")
async def player_games(request: Request, name: str, found: AuthDep, limit: int = 50) -> dict[str, Any]:
    """Every finished game of a player, ranked or not, newest first (the profile's list); a
    private table's games only to those who may see the table by their account (apiinvite.py)."""
    store = ctx(request).store
    user = await store.accounts.by_any_name(name)
    if user is None:
        raise ApiError(404, "not_found", f"no player {name!r}")
    games = await store.games.of_player(await store.accounts.names_of(user), max(1, min(limit, 200)))
    return {"games": await visible_games(request, found.user, games)}


@router.get("/users/{name}/ratings")
async def ratings(request: Request, name: str, family: str = elo.HOUSE_FAMILY) -> dict[str, Any]:
    """A player's rating and its history in ``family`` (the house game's by default), and
    ``families``: the rating in each family the player has a counted game in."""
    chosen = _family(family)
    store = ctx(request).store
    user = await store.accounts.by_any_name(name)
    if user is None:
        raise ApiError(404, "not_found", f"no player {name!r}")
    history = await store.ratings.history(user.id, chosen)
    settled = await store.ratings.established(user.id)
    families = {elo.HOUSE_FAMILY: {"rating": round(user.rating, 1), "games": user.ranked_games,
                                   "provisional": elo.HOUSE_FAMILY not in settled},
                **await store.ratings.of_user(user.id)}
    own = families.get(chosen, {"rating": elo.INITIAL_RATING, "games": 0, "provisional": True})
    return {"id": user.id, "name": user.name, "display": user.shown, "kind": user.kind, "family": chosen, "rating": own["rating"],
            "games": own["games"], "provisional": own["provisional"], "provisional_games": elo.PROVISIONAL_GAMES,
            "history": history, "families": families}
