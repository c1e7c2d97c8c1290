"""Heads-up no-limit flop games against a player whose moves ignore their cards.

The house game's ``hard`` learned that against a card-independent player
(``random``: free folds, absurd sizes — :func:`.reads.wild_seats`) every
range is any hand and the game is only which confrontations to accept
(:mod:`.versus_wild`).  In the other no-limit flop games (short-deck
``NS``, no-limit Omaha ``NO``) the every-game bot's pot-odds calls took the
near coin flips for the whole stack that a player who knows the
opponent passes up, and stayed 4–7 points under what such a player wins
(``bench/ceiling_games.py``).  So once the opponent is read as wild,
heads-up, ``hard`` plays that player's strategy: all-in with a pot share
of ``premium`` or more against one random hand, check when it is free,
call a bet when, valued as an all-in at that share, it beats folding in
skill-adjusted chips with edge ``k`` (:func:`.versus_wild.skill_utility`),
fold otherwise.  ``premium`` and ``k`` are each game's best of the
ceiling's sweep.
"""

from __future__ import annotations

from typing import Final

from freezeout.bots.base import legal_action
from freezeout.bots.game_spot import Spot
from freezeout.bots.reads import wild_probability
from freezeout.bots.versus_wild import skill_utility
from freezeout.rules.actions import Action
from freezeout.rules.variant import BettingStructure
from freezeout.rules.views import TableView

__all__ = ["MULTIWAY_READ", "SETTINGS", "knowing_action", "players_left", "plays_wild", "wild_pot", "wild_settings"]

#: (premium, k) per game: the best of bench/ceiling_games.py's sweep; others take the default.
SETTINGS: Final[dict[str, tuple[float, float]]] = {"NO": (0.65, 1.0), "NS": (0.6, 1.5)}
DEFAULT: Final = (0.65, 1.5)


def _no_limit_flop(spot: Spot) -> bool:
    """A no-limit game with a board and no draws: where the knowing player's rules apply."""
    variant = spot.variant
    return variant.betting is BettingStructure.NO_LIMIT and not variant.has_draws and variant.board_size > 0


def players_left(view: TableView) -> int:
    """How many players are still in the tournament."""
    return sum(1 for s in view.seats if s.in_tournament)


def plays_wild(spot: Spot, view: TableView) -> bool:
    """A no-limit flop game (no draws), two players left in the tournament."""
    return _no_limit_flop(spot) and players_left(view) == 2 and len(spot.opponents) == 1


#: From this probability on (:func:`.reads.wild_probability`) a seat in a
#: multiway pot is played as card-independent: more likely wild than not.
#: Heads-up the bar stays :data:`.reads.WILD_READ`; at a bigger table every
#: opponent in the pot must clear it, and ``random``'s ordinary moves (half
#: of them) keep a read under 0.75 in many pots it has given itself away in.
MULTIWAY_READ: Final = 0.5


def wild_pot(spot: Spot, view: TableView) -> bool:
    """A no-limit flop game at a table of three or more, every opponent
    still in the hand read as card-independent (:func:`.reads.wild_seats`)."""
    if not _no_limit_flop(spot) or players_left(view) < 3 or not spot.opponents:
        return False
    return all(wild_probability(view, o.seat) >= MULTIWAY_READ for o in spot.opponents)


def wild_settings(code: str) -> tuple[float, float]:
    """The game's (premium, k): its best of the ceiling sweep, or the default."""
    return SETTINGS.get(code, DEFAULT)


def knowing_action(
    view: TableView, spot: Spot, share: float, *, premium: float | None = None, k: float | None = None
) -> Action:
    """The knowing player's move (module docstring) with our ``share`` against
    any hand; ``premium`` and ``k`` default to the game's :data:`SETTINGS`."""
    default_premium, default_k = wild_settings(spot.variant.code)
    premium = default_premium if premium is None else premium
    k = default_k if k is None else k
    can_raise = spot.legal.can_raise and spot.active > 0
    if share >= premium and (can_raise or spot.to_call > 0):
        return legal_action(view, "allin")
    if spot.to_call == 0:
        return legal_action(view, "passive")
    total = sum(s.stack + s.bet for s in view.seats) + sum(amount for amount, _ in view.pots)
    if total <= 0:
        return legal_action(view, "passive")
    call = min(spot.to_call, spot.stack)
    theirs = max((view.seats[o.seat].bet for o in spot.opponents), default=0)
    returned = max(0, theirs - (spot.my_bet + call))  # R21: what we cannot match comes back
    win, lose = spot.stack + spot.pot - returned, spot.stack - call
    called = share * skill_utility(win / total, k) + (1 - share) * skill_utility(lose / total, k)
    if called > skill_utility(spot.stack / total, k):
        return legal_action(view, "passive")
    return legal_action(view, "fold")
