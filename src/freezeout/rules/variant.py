"""Games as data (design principle 4; docs/rules.md V1–V18).

A :class:`Variant` declares everything the hand engine needs to know about
a game: the deck, the streets (cards dealt down, up or to the board, draws,
which fixed-limit bet size), the forced bets (blinds, or antes and a
bring-in), the betting structure (V1–V4), who opens each betting round and
how hands are ranked (one ranking wins the whole pot; two split it high and
low, V6).  The engine reads these fields; nothing in it is written for one
game.  :data:`VARIANTS` is the one registry, keyed by the PHH variant codes
plus a few codes of our own for combinations PHH has no code for (see
docs/formats.md "Variant codes").

>>> variant("FO/8").rankings
('omaha-high', 'omaha-low8')
>>> [street.name for street in variant("F7S").streets]
['third street', 'fourth street', 'fifth street', 'sixth street', 'seventh street']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property

from freezeout.cards import Card, full_deck
from freezeout.rules.errors import RulesError

__all__ = [
    "NLHE",
    "VARIANTS",
    "BettingStructure",
    "Forced",
    "Opening",
    "Ruleset",
    "Street",
    "UnsupportedVariant",
    "Variant",
    "variant",
]


class Ruleset(StrEnum):
    """docs/rules.md: ``house`` (default) or ``standard`` — they differ only in R12."""

    HOUSE = "house"
    STANDARD = "standard"


class BettingStructure(StrEnum):
    """V1–V3."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"


class Forced(StrEnum):
    """The forced bets that start a hand (antes come on top of either)."""

    BLINDS = "blinds"  # R5: small and big blind left of the button
    BRING_IN = "bring-in"  # V7: no button, no blinds; a bring-in by the up cards


class Opening(StrEnum):
    """Who acts first in a betting round (R9, V7, V10)."""

    POSITION = "position"  # blinds order preflop (R9), then the first seat left of the button
    LOW_CARD = "low-card"  # the lowest up-card brings in (stud, stud hi/lo: deuce lowest, ace high; clubs lowest)
    HIGH_CARD = "high-card"  # the highest up-card brings in (razz: king highest, ace low; spades highest)
    HIGH_HAND = "high-hand"  # the best showing high hand opens (stud from 4th street)
    LOW_HAND = "low-hand"  # the best showing ace-to-five low opens (razz from 4th street)


@dataclass(frozen=True, slots=True)
class Street:
    """One dealing step and the betting round that follows it.

    ``hole`` holds one flag per card each player still in the hand receives,
    ``True`` for a card dealt face up (stud); ``board`` is the number of
    community cards turned; ``draw`` means the players discard and draw
    (V11, V14, V15) before the betting; ``big_bet`` picks the fixed-limit
    bet size of the round (V3).
    """

    name: str
    hole: tuple[bool, ...] = ()
    board: int = 0
    draw: bool = False
    big_bet: bool = False


class UnsupportedVariant(RulesError):
    """A variant code that is not in the registry."""


@dataclass(frozen=True)
class Variant:
    """Static description of a poker game; see the module docstring."""

    code: str
    name: str
    streets: tuple[Street, ...]
    betting: BettingStructure
    rankings: tuple[str, ...]  # freezeout.evaluate ranking names; two = high half and low half (V6)
    short_deck: bool = False  # V16: 36 cards, six to ace
    forced: Forced = Forced.BLINDS
    opening: Opening = Opening.POSITION  # who opens the first betting round
    later_opening: Opening = Opening.POSITION  # who opens the later ones
    open_pair_big_bet: bool = False  # V7: an open pair on 4th street allows the big bet (stud high only)
    min_players: int = 2
    max_players: int = 10

    @cached_property
    def deck(self) -> tuple[Card, ...]:
        """The cards of the game's deck (R2, V16), in index order."""
        cards = full_deck()
        return tuple(card for card in cards if card.rank >= 4) if self.short_deck else tuple(cards)

    @property
    def hole_cards(self) -> int:
        """Cards each player holds before any draw: the initial hand."""
        return len(self.streets[0].hole)

    @cached_property
    def total_hole_cards(self) -> int:
        """Cards a player still in at the end has received (stud: seven)."""
        return sum(len(street.hole) for street in self.streets)

    @cached_property
    def hole_card_range(self) -> tuple[int, int]:
        """How many cards a player's list of cards may hold in a record:
        flop games exactly their hole cards; stud three to seven; draws the
        initial hand and any cards drawn."""
        if self.deals_later_hole_cards:
            return self.hole_cards, self.total_hole_cards
        if self.has_draws:
            return self.hole_cards, 99
        return self.hole_cards, self.hole_cards

    @cached_property
    def board_size(self) -> int:
        return sum(street.board for street in self.streets)

    @property
    def street_names(self) -> tuple[str, ...]:
        return tuple(street.name for street in self.streets)

    @cached_property
    def has_draws(self) -> bool:
        return any(street.draw for street in self.streets)

    @cached_property
    def deals_later_hole_cards(self) -> bool:
        """True when hole cards come after the first street (stud)."""
        return any(street.hole for street in self.streets[1:])

    @property
    def split(self) -> bool:
        """V6: high and low each win half of every pot."""
        return len(self.rankings) == 2

    @property
    def uses_bring_in(self) -> bool:
        return self.forced is Forced.BRING_IN

    @property
    def uses_button(self) -> bool:
        """Stud games have no button (V7): positions come from the cards."""
        return self.forced is Forced.BLINDS

    @cached_property
    def raise_cap(self) -> int | None:
        """V3: bets and raises allowed in one fixed-limit round — a bet and three
        raises with three or more betting rounds, a bet and four with two."""
        if self.betting is not BettingStructure.FIXED_LIMIT:
            return None
        return 4 if len(self.streets) >= 3 else 5


# -- declarations -----------------------------------------------------------

_HOLDEM_STREETS = (
    Street("preflop", hole=(False, False)),
    Street("flop", board=3),
    Street("turn", board=1, big_bet=True),
    Street("river", board=1, big_bet=True),
)
_OMAHA_STREETS = (Street("preflop", hole=(False,) * 4), *_HOLDEM_STREETS[1:])
_STUD_STREETS = (
    Street("third street", hole=(False, False, True)),
    Street("fourth street", hole=(True,)),
    Street("fifth street", hole=(True,), big_bet=True),
    Street("sixth street", hole=(True,), big_bet=True),
    Street("seventh street", hole=(False,), big_bet=True),
)


def _draw_streets(cards: int, draws: int) -> tuple[Street, ...]:
    """A deal of ``cards`` down, then ``draws`` draws, each followed by a
    betting round; fixed-limit bets double from the second half on (V3:
    single draw bets small then big, triple draw small twice, big twice)."""
    rounds = draws + 1
    names = ("predraw", "first draw", "second draw", "third draw")
    return tuple(
        Street(
            names[index] if draws > 1 or index == 0 else "draw",
            hole=(False,) * cards if index == 0 else (),
            draw=index > 0,
            big_bet=index >= rounds // 2,
        )
        for index in range(rounds)
    )


def _stud(code: str, name: str, rankings: tuple[str, ...], *, opening: Opening, later: Opening, open_pair: bool) -> Variant:
    return Variant(
        code=code,
        name=name,
        streets=_STUD_STREETS,
        betting=BettingStructure.FIXED_LIMIT,
        rankings=rankings,
        forced=Forced.BRING_IN,
        opening=opening,
        later_opening=later,
        open_pair_big_bet=open_pair,
        max_players=8,
    )


_LIMITS = {"N": BettingStructure.NO_LIMIT, "P": BettingStructure.POT_LIMIT, "F": BettingStructure.FIXED_LIMIT}
_LIMIT_NAMES = {"N": "No-Limit", "P": "Pot-Limit", "F": "Fixed-Limit"}


def _family(letters: str, code: str, name: str, **fields: object) -> list[Variant]:
    """The same game under several betting structures (``letters`` from N, P, F)."""
    return [
        Variant(code=letter + code, name=f"{_LIMIT_NAMES[letter]} {name}", betting=_LIMITS[letter], **fields)  # type: ignore[arg-type]
        for letter in letters
    ]


_DECLARED: list[Variant] = [
    # Hold'em (R8, V1–V3) and short-deck hold'em (V16).
    *_family("NPF", "T", "Texas Hold'em", streets=_HOLDEM_STREETS, rankings=("high",)),
    *_family("NP", "S", "Short-Deck Hold'em", streets=_HOLDEM_STREETS, rankings=("short-deck",), short_deck=True,
             max_players=6),  # C12: 36 cards seat 6
    # Omaha (V5) and Omaha Hi/Lo 8-or-better (V6).
    *_family("PNF", "O", "Omaha", streets=_OMAHA_STREETS, rankings=("omaha-high",)),
    *(
        replace(v, code=v.code + "/8", name=v.name + " Hi/Lo", rankings=("omaha-high", "omaha-low8"))
        for v in _family("FP", "O", "Omaha", streets=_OMAHA_STREETS, rankings=())
    ),
    # Stud (V7), stud hi/lo (V8) and razz (V10).
    _stud("F7S", "Fixed-Limit Seven-Card Stud", ("high",), opening=Opening.LOW_CARD, later=Opening.HIGH_HAND, open_pair=True),
    _stud(
        "F7S/8", "Fixed-Limit Seven-Card Stud Hi/Lo", ("high", "low8"),
        opening=Opening.LOW_CARD, later=Opening.HIGH_HAND, open_pair=False,
    ),
    _stud("FR", "Fixed-Limit Razz", ("low-a5",), opening=Opening.HIGH_CARD, later=Opening.LOW_HAND, open_pair=False),
    # Five-card draw (V11), 2-7 lowball (V14), badugi (V15).
    *_family("NPF", "5CD", "Five-Card Draw", streets=_draw_streets(5, 1), rankings=("high",), max_players=6),
    *_family("NPF", "2L1D", "Deuce-to-Seven Lowball Single Draw", streets=_draw_streets(5, 1), rankings=("low-27",), max_players=6),
    *_family("FPN", "2L3D", "Deuce-to-Seven Lowball Triple Draw", streets=_draw_streets(5, 3), rankings=("low-27",), max_players=6),
    *_family("FPN", "B", "Badugi", streets=_draw_streets(4, 3), rankings=("badugi",), max_players=6),
]

VARIANTS: dict[str, Variant] = {v.code: v for v in _DECLARED}
#: The house game (R1–R30).
NLHE = VARIANTS["NT"]
#: Codes of the PHH specification; the others are ours (docs/formats.md).
PHH_CODES = frozenset({"NT", "FT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB"})


def variant(code: str) -> Variant:
    """Look a variant up by its code (``"NT"``, ``"FO/8"``, ``"F7S"`` …)."""
    try:
        return VARIANTS[code]
    except KeyError:
        raise UnsupportedVariant(f"unknown variant {code!r} (known: {', '.join(VARIANTS)})") from None
