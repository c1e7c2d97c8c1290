"""Events: what happened, as small frozen values (design principle 2).

Seats in hand events are *hand seats* (0-based among the players dealt in);
tournament events translate them to tournament seats.  The UI animates from
these, hand histories are written from them, and views filter them.
"""

from __future__ import annotations

from dataclasses import dataclass

from freezeout.cards import Card
from freezeout.evaluate.describe import describe_rank

__all__ = [
    "ActionTaken",
    "BetReturned",
    "BlindPosted",
    "CardsDealt",
    "CardsShown",
    "Eliminated",
    "Event",
    "Forfeited",
    "HandEnded",
    "HandStarted",
    "PotAwarded",
    "Resigned",
    "StreetDealt",
    "TournamentEnded",
    "public_event",
]


@dataclass(frozen=True, slots=True)
class HandStarted:
    number: int
    button: int
    small_blind: int
    big_blind: int
    seats: tuple[int, ...]
    stacks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """The deal of a hand: every hole card and the board in dealing order.

    Private: it makes the event log complete (a tournament can be rebuilt
    from its events alone) but it never reaches a client — the public hand
    log and every view leave it out."""

    hole: tuple[tuple[int, tuple[Card, ...]], ...]  # (table seat, cards)
    board: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class BlindPosted:
    seat: int
    kind: str  # "ante", "dead", "small blind", "big blind", "straddle"
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A resolved move: ``kind`` is what it counted as (an ``allin`` becomes a
    call, bet or raise; a ``timeout`` a check or fold)."""

    seat: int
    kind: str
    total: int  # the player's bet for the round after the move
    added: int  # chips moved from the stack by this move
    all_in: bool
    forced: bool = False  # a timeout (R26) or resignation fold (R28)


@dataclass(frozen=True, slots=True)
class BetReturned:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class StreetDealt:
    street: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsShown:
    seat: int
    cards: tuple[Card, ...]
    rank: int  # the evaluator's rank of the best five (higher wins)

    @property
    def description(self) -> str:
        return describe_rank(self.rank)


@dataclass(frozen=True, slots=True)
class PotAwarded:
    pot: int  # 0 = main pot
    amount: int
    eligible: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]  # (seat, chips)
    rank: int = 0  # the winning hand's rank; 0 when won without a showdown

    @property
    def description(self) -> str:
        """The winning hand in words ("Full house, kings full of tens"), or ""."""
        return describe_rank(self.rank) if self.rank else ""


@dataclass(frozen=True, slots=True)
class HandEnded:
    stacks: tuple[int, ...]
    showdown: bool


@dataclass(frozen=True, slots=True)
class Forfeited:
    seat: int
    in_a_row: int


@dataclass(frozen=True, slots=True)
class Resigned:
    seat: int
    vanished: int  # chips behind that left the game (R28)


@dataclass(frozen=True, slots=True)
class Eliminated:
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class TournamentEnded:
    winner: int
    chips: int


Event = (
    HandStarted
    | CardsDealt
    | BlindPosted
    | ActionTaken
    | BetReturned
    | StreetDealt
    | CardsShown
    | PotAwarded
    | HandEnded
    | Forfeited
    | Resigned
    | Eliminated
    | TournamentEnded
)


def public_event(event: Event) -> Event | None:
    """What everyone at the table may learn from ``event``: the event itself,
    a redacted copy, or ``None`` when it is private as a whole.

    The single gate between the rules' complete event stream (which the
    server logs so that a table can be rebuilt) and anything a client or a
    public hand log sees (design principle 5).  Today only the deal
    (:class:`CardsDealt`) is private; games with down cards dealt during the
    hand and draws add events whose hidden cards this function strips.
    """
    if isinstance(event, CardsDealt):
        return None
    return event
