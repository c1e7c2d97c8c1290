"""Variants as data (design principle 4).

A variant says how many hole cards each player gets, how many board cards
each street deals, how bets are structured and how hands are ranked.  The
hand engine reads these fields instead of hard-coding Texas Hold'em, so that
Omaha (four hole cards, ``ranking="omaha-high"``), pot-limit or fixed-limit
betting become a declaration plus the few hooks data cannot express.  Only
No-Limit Texas Hold'em is implemented today; asking for anything else is a
clear :class:`UnsupportedVariant` error.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from freezeout.rules.errors import RulesError

__all__ = ["NLHE", "VARIANTS", "BettingStructure", "Ruleset", "UnsupportedVariant", "Variant", "variant"]


class Ruleset(StrEnum):
    """rules.md: ``house`` (default) or ``standard`` — they differ only in R12."""

    HOUSE = "house"
    STANDARD = "standard"


class BettingStructure(StrEnum):
    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"


class UnsupportedVariant(RulesError):
    """A variant that is declared in the seeds but not implemented yet."""


@dataclass(frozen=True, slots=True)
class Variant:
    """Static description of a poker variant.

    ``streets`` lists the board cards dealt before each betting round
    (preflop deals none); ``ranking`` names the evaluator used at showdown.
    """

    code: str
    name: str
    hole_cards: int
    streets: tuple[int, ...]
    betting: BettingStructure
    ranking: str
    street_names: tuple[str, ...]

    @property
    def board_size(self) -> int:
        return sum(self.streets)


NLHE = Variant(
    code="NT",
    name="No-Limit Texas Hold'em",
    hole_cards=2,
    streets=(0, 3, 1, 1),
    betting=BettingStructure.NO_LIMIT,
    ranking="high",
    street_names=("preflop", "flop", "turn", "river"),
)

VARIANTS: dict[str, Variant] = {NLHE.code: NLHE}


def variant(code: str) -> Variant:
    """Look a variant up by its PHH code (``"NT"``)."""
    try:
        return VARIANTS[code]
    except KeyError:
        raise UnsupportedVariant(f"variant {code!r} is not supported yet (supported: {', '.join(VARIANTS)})") from None
