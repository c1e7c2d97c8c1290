"""What a table's game deals, for the page's fair-dealing check (web/js/fairness.js ``verifyHand``):
the deck's positions (52, or 36 in short-deck, V16), each player's first hole cards, and whether
every card's position is known before the first move (flop games: no later hole cards, no draws)."""

from __future__ import annotations

from typing import Any

from freezeout.rules.variant import Variant

__all__ = ["dealing_json"]


def dealing_json(variant: Variant) -> dict[str, Any]:
    """``{"deck": 52, "hole": 2, "fixed": true}`` for ``variant``."""
    return {"deck": len(variant.deck), "hole": variant.hole_cards,
            "fixed": not variant.has_draws and not variant.deals_later_hole_cards}
