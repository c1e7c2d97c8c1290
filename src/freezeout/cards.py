"""Cards and the deck (formats.md "Cards", rules.md R2).

A card is a small immutable value.  It subclasses ``int`` (its index 0..51,
``rank * 4 + suit``) so that it hashes fast, sorts by rank and goes straight
into numpy arrays for the batch evaluator, while ``str(card)`` gives the
canonical two-character form (``"As"``, ``"Td"``).

The deck never shuffles itself from global state: the caller injects the
random source (``secrets.SystemRandom()`` in production, a seeded
``random.Random`` in tests and replays).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Final, Protocol

RANKS: Final = "23456789TJQKA"
SUITS: Final = "shdc"

__all__ = [
    "RANKS",
    "SUITS",
    "Card",
    "CardError",
    "ShuffleSource",
    "format_cards",
    "full_deck",
    "parse_card",
    "parse_cards",
    "shuffled_deck",
    "system_random",
]


class CardError(ValueError):
    """A card string that is not a card, or a list with a duplicate card."""


class Card(int):
    """One of the 52 cards; ``int(card)`` is its index ``rank * 4 + suit``."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise CardError(f"card index {index} is not in 0..51")
        return _ALL[index] if _ALL else super().__new__(cls, index)

    @property
    def rank(self) -> int:
        """Rank index: 0 for a deuce up to 12 for an ace."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """Suit index in the order ``s h d c``."""
        return int(self) & 3

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank]

    @property
    def suit_char(self) -> str:
        return SUITS[self.suit]

    def __str__(self) -> str:
        return RANKS[int(self) >> 2] + SUITS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)


_ALL: list[Card] = []
_ALL.extend([Card(i) for i in range(52)])
_BY_TEXT: dict[str, Card] = {}
for _card in _ALL:
    for _rank_text in {_card.rank_char, _card.rank_char.lower()}:
        _BY_TEXT[_rank_text + _card.suit_char] = _card
    if _card.rank_char == "T":
        _BY_TEXT["10" + _card.suit_char] = _card


def parse_card(text: str) -> Card:
    """Parse ``"As"``, ``"as"``, ``"Td"`` or ``"10d"`` into a :class:`Card`."""
    if not isinstance(text, str):
        raise CardError(f"card must be a string, not {type(text).__name__}")
    card = _BY_TEXT.get(text.strip())
    if card is None:
        raise CardError(f"invalid card {text!r}: expected rank 23456789TJQKA and suit shdc")
    return card


def parse_cards(text: str | Iterable[str | Card], *, distinct: bool = True) -> tuple[Card, ...]:
    """Parse a joined string (``"AsKd"``, ``"10sKd"``) or a list of cards.

    With ``distinct`` (the default) a card listed twice is a :class:`CardError`.
    """
    cards: list[Card]
    if isinstance(text, str):
        cards = _split_joined(text)
    else:
        cards = [item if isinstance(item, Card) else parse_card(item) for item in text]
    if distinct and len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise CardError(f"duplicate card {card}")
            seen.add(card)
    return tuple(cards)


def _split_joined(text: str) -> list[Card]:
    cards: list[Card] = []
    rest = "".join(text.split())
    position = 0
    while position < len(rest):
        width = 3 if rest.startswith("10", position) else 2
        chunk = rest[position : position + width]
        if len(chunk) < 2:
            raise CardError(f"invalid card {chunk!r} at the end of {text!r}")
        cards.append(parse_card(chunk))
        position += width
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical joined form: ``"AsKd"``."""
    return "".join(str(card) for card in cards)


def full_deck() -> tuple[Card, ...]:
    """The 52 cards in index order (2s 2h 2d 2c 3s ... Ac)."""
    return tuple(_ALL)


class ShuffleSource(Protocol):
    """What the deck needs from a random source: ``random.Random``'s shuffle."""

    def shuffle(self, x: list[Card]) -> None: ...


def shuffled_deck(rng: ShuffleSource) -> tuple[Card, ...]:
    """A freshly shuffled 52-card deck drawn from the injected ``rng`` (R2)."""
    deck = list(_ALL)
    rng.shuffle(deck)
    return tuple(deck)


def system_random() -> random.Random:
    """The production random source: the operating system's CSPRNG."""
    return secrets.SystemRandom()


def as_cards(cards: str | Sequence[str | Card]) -> tuple[Card, ...]:
    """Lenient front door used by public APIs: strings, joined strings or Cards."""
    return parse_cards(cards)
