"""Bot seats: the real bots of ``freezeout.bots`` when installed, else a
trivial built-in so the server works while the bots package is being built.

A bot sees exactly what a human in its seat would: the seat view.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.legal import LegalActions
from freezeout.rules.views import TableView

__all__ = ["BOT_LEVELS", "bots_for", "choose", "safe_move"]

BOT_LEVELS: tuple[str, ...] = ("random", "station", "easy", "medium", "hard")

_Decide = Callable[[TableView, random.Random], Action]
_cache: dict[str, _Decide] = {}


def bots_for(code: str) -> tuple[str, ...]:
    """The bot levels offered at a table of game ``code`` (a variant or a mix), weakest first:
    the bots package says which play it (``bots_for_game``: the whole ladder in the house
    game, ``random``, ``station``, ``medium`` and ``hard`` in every other game)."""
    from freezeout.bots.registry import bots_for_game  # the bots load on first use, not with the server

    return tuple(level for level in bots_for_game(code) if level in BOT_LEVELS)


def safe_move(seat: int, legal: LegalActions | None) -> Action:
    """The move nobody can get wrong: stand pat in a draw, post a bring-in (V7), check, or fold."""
    if legal is not None and legal.draw:
        return Action(seat, ActionKind.STANDPAT)
    if legal is not None and legal.bring_in:
        return Action(seat, ActionKind.BRINGIN)
    return Action(seat, ActionKind.CHECK if legal is not None and legal.can_check else ActionKind.FOLD)


def _fallback(view: TableView, rng: random.Random) -> Action:
    """Check or call, now and then fold to a bet or raise the minimum (a draw: stand pat; a
    bring-in: post it)."""
    legal = view.legal
    moves = legal.moves if legal is not None else ()
    seat = view.viewer if view.viewer is not None else -1
    if legal is not None and (legal.draw or legal.bring_in):
        return safe_move(seat, legal)
    roll = rng.random()
    if legal is not None and "raise" in moves and roll < 0.1:
        return Action(seat, ActionKind.RAISE, legal.min_to)
    if legal is not None and "bet" in moves and roll < 0.15:
        return Action(seat, ActionKind.BET, legal.min_to)
    if "call" in moves:
        return Action(seat, ActionKind.FOLD) if roll > 0.9 else Action(seat, ActionKind.CALL)
    return Action(seat, ActionKind.CHECK)


def _load(level: str) -> _Decide:
    try:
        bots: Any = importlib.import_module("freezeout.bots")
        bot = bots.get_bot(level)
    except (ImportError, AttributeError, KeyError, ValueError):
        return _fallback
    decide: _Decide = bot.act
    return decide


def choose(level: str, view: TableView, rng: random.Random) -> Action:
    """The bot's move for the seat of ``view``; an illegal or failing bot checks or folds."""
    decide = _cache.get(level)
    if decide is None:
        decide = _cache[level] = _load(level)
    seat = view.viewer if view.viewer is not None else -1
    try:
        action = decide(view, rng)
    except Exception:
        action = _fallback(view, rng)
    if not isinstance(action, Action):
        return _fallback(view, rng)
    return Action(seat, action.kind, action.amount, action.cards)  # a discard keeps its cards (V11)
