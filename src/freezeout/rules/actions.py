"""Actions: small frozen values with a text form (design principle 2).

``Action(seat, kind, amount)``: ``amount`` is only for ``bet`` and ``raise``
and is the player's *total* bet for the betting round ("raise to", R10).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from freezeout.rules.errors import InvalidInput

__all__ = ["PLAYER_MOVES", "Action", "ActionKind"]


class ActionKind(StrEnum):
    """The move words of rules.md D5 plus the two forced ones (R26, R28)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALLIN = "allin"
    TIMEOUT = "timeout"
    RESIGN = "resign"

    def __str__(self) -> str:
        return self.value


# Moves that are the player's own decision: they reset the forfeit count (D9).
PLAYER_MOVES = frozenset(
    {ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE, ActionKind.ALLIN}
)
_WITH_AMOUNT = frozenset({ActionKind.BET, ActionKind.RAISE})


@dataclass(frozen=True, slots=True)
class Action:
    """One move by the player in ``seat`` (0-based seat index)."""

    seat: int
    kind: ActionKind
    amount: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, ActionKind):
            raise InvalidInput(f"unknown action {self.kind!r}")
        if self.kind in _WITH_AMOUNT:
            if type(self.amount) is not int:
                raise InvalidInput(f"{self.kind.value} needs a whole-number amount, got {self.amount!r}")
        elif self.amount is not None:
            raise InvalidInput(f"{self.kind.value} takes no amount")

    @classmethod
    def parse(cls, seat: int, word: str, amount: int | None = None) -> Action:
        """Build from the move word used in records (``"raise"``, 60)."""
        try:
            kind = ActionKind(word)
        except ValueError:
            raise InvalidInput(f"unknown action {word!r}") from None
        return cls(seat, kind, amount)

    def __str__(self) -> str:
        return f"{self.kind.value} {self.amount}" if self.amount is not None else self.kind.value
