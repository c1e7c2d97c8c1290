"""Actions: small frozen values with a text form (design principle 2).

``Action(seat, kind, amount, cards)``: ``amount`` is only for ``bet``,
``raise`` and (optionally) ``complete`` and is the player's *total* bet for
the betting round ("raise to", R10); ``cards`` only for ``discard`` (V11).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from freezeout.cards import Card
from freezeout.rules.errors import InvalidInput

__all__ = ["PLAYER_MOVES", "Action", "ActionKind"]


class ActionKind(StrEnum):
    """The move words of docs/rules.md D5, the stud and draw moves (V7, V11)
    and the two forced ones (R26, R28)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALLIN = "allin"
    BRINGIN = "bringin"  # V7: post the bring-in
    COMPLETE = "complete"  # V7: raise a bring-in (or a short all-in, V4) to the full bet
    DISCARD = "discard"  # V11: throw away some cards and draw as many
    STANDPAT = "standpat"  # V11: keep every card
    TIMEOUT = "timeout"
    RESIGN = "resign"

    def __str__(self) -> str:
        return self.value


# Moves that are the player's own decision: they reset the forfeit count (D9).
PLAYER_MOVES = frozenset(
    {
        ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE, ActionKind.ALLIN,
        ActionKind.BRINGIN, ActionKind.COMPLETE, ActionKind.DISCARD, ActionKind.STANDPAT,
    }
)
_WITH_AMOUNT = frozenset({ActionKind.BET, ActionKind.RAISE})
_PLAIN_OR_SIZED = frozenset(ActionKind) - {ActionKind.DISCARD, ActionKind.COMPLETE}
_tuple_new = tuple.__new__
_DISCARD = ActionKind.DISCARD
_JUST_CARDS = {Card}


def _check(kind: object, amount: object, cards: tuple[object, ...] | None) -> None:
    """Why an action is malformed (an :class:`InvalidInput`), for the moves
    that are not plain or sized ones."""
    if not isinstance(kind, ActionKind):
        raise InvalidInput(f"unknown action {kind!r}")
    if kind in _WITH_AMOUNT:
        if type(amount) is not int:
            raise InvalidInput(f"{kind.value} needs a whole-number amount, got {amount!r}")
    elif kind is ActionKind.COMPLETE:
        if amount is not None and type(amount) is not int:
            raise InvalidInput(f"complete takes a whole-number amount or none, got {amount!r}")
    elif amount is not None:
        raise InvalidInput(f"{kind.value} takes no amount")
    if kind is ActionKind.DISCARD:
        if not cards or not all(card is None or isinstance(card, Card) for card in cards):
            raise InvalidInput("discard needs the cards to throw away (standpat keeps them all)")
        known = [card for card in cards if card is not None]
        if len(set(known)) != len(known):
            raise InvalidInput("discard names a card twice")
    elif cards is not None:
        raise InvalidInput(f"{kind.value} takes no cards")


class _ActionFields(NamedTuple):
    seat: int
    kind: ActionKind
    amount: int | None = None
    cards: tuple[Card | None, ...] | None = None  # None inside: a card nobody saw (hand histories)


class Action(_ActionFields):
    """One move by the player in ``seat`` (0-based seat index).

    A ``NamedTuple`` checked as it is made: as immutable as a frozen
    dataclass and several times cheaper to build (every move makes one).
    Two actions are equal only to each other, never to a plain tuple."""

    __slots__ = ()

    def __new__(cls, seat: int, kind: ActionKind, amount: int | None = None, cards: tuple[Card | None, ...] | None = None) -> Action:
        if cards is None:
            if not (
                type(kind) is ActionKind
                and kind in _PLAIN_OR_SIZED
                and ((amount is None and kind not in _WITH_AMOUNT) or (type(amount) is int and kind in _WITH_AMOUNT))
            ):
                _check(kind, amount, cards)  # the common moves pass in the one test above
        elif not (
            kind is _DISCARD
            and amount is None
            and type(cards) is tuple
            and 0 < len(set(cards)) == len(cards)  # a discard of known cards, none twice
            and set(map(type, cards)) == _JUST_CARDS
        ):
            _check(kind, amount, cards)  # and so does a discard of known cards
        return _tuple_new(cls, (seat, kind, amount, cards))

    def __eq__(self, other: object) -> bool:
        return type(other) is Action and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(("Action", tuple.__hash__(self)))

    @classmethod
    def parse(cls, seat: int, word: str, amount: int | None = None, cards: tuple[Card | None, ...] | None = None) -> Action:
        """Build from the move word used in records (``"raise"``, 60)."""
        try:
            kind = ActionKind(word)
        except ValueError:
            raise InvalidInput(f"unknown action {word!r}") from None
        return cls(seat, kind, amount, cards)

    def __str__(self) -> str:
        if self.cards is not None:
            return f"{self.kind.value} {''.join('??' if card is None else str(card) for card in self.cards)}"
        return f"{self.kind.value} {self.amount}" if self.amount is not None else self.kind.value
