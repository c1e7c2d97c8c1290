"""Actions: small frozen values with a text form (design principle 2).

``Action(seat, kind, amount, cards)``: ``amount`` is only for ``bet``,
``raise`` and (optionally) ``complete`` and is the player's *total* bet for
the betting round ("raise to", R10); ``cards`` only for ``discard`` (V11).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

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


@dataclass(frozen=True, slots=True)
class Action:
    """One move by the player in ``seat`` (0-based seat index)."""

    seat: int
    kind: ActionKind
    amount: int | None = None
    cards: tuple[Card | None, ...] | None = None  # None inside: a card nobody saw (hand histories)

    def __post_init__(self) -> None:
        kind = self.kind
        amount = self.amount
        if (
            type(kind) is ActionKind
            and self.cards is None
            and kind in _PLAIN_OR_SIZED
            and ((amount is None and kind not in _WITH_AMOUNT) or (type(amount) is int and kind in _WITH_AMOUNT))
        ):
            return  # the common moves, checked in one step
        if not isinstance(self.kind, ActionKind):
            raise InvalidInput(f"unknown action {self.kind!r}")
        if self.kind in _WITH_AMOUNT:
            if type(self.amount) is not int:
                raise InvalidInput(f"{self.kind.value} needs a whole-number amount, got {self.amount!r}")
        elif self.kind is ActionKind.COMPLETE:
            if self.amount is not None and type(self.amount) is not int:
                raise InvalidInput(f"complete takes a whole-number amount or none, got {self.amount!r}")
        elif self.amount is not None:
            raise InvalidInput(f"{self.kind.value} takes no amount")
        if self.kind is ActionKind.DISCARD:
            if not self.cards or not all(card is None or isinstance(card, Card) for card in self.cards):
                raise InvalidInput("discard needs the cards to throw away (standpat keeps them all)")
            known = [card for card in self.cards if card is not None]
            if len(set(known)) != len(known):
                raise InvalidInput("discard names a card twice")
        elif self.cards is not None:
            raise InvalidInput(f"{self.kind.value} takes no cards")

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
