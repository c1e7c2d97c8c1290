"""Events: what happened, as small frozen values (design principle 2).

Each is a ``NamedTuple``: as immutable as a frozen dataclass and several
times cheaper to build (the engine makes one or more per move, and a frozen
dataclass's ``__init__`` was a tenth of a move's cost).  Unlike plain tuples,
two events are equal only when they are of the same kind
(:func:`_same_kind_eq`).

Seats in hand events are *hand seats* (0-based among the players dealt in);
tournament events translate them to tournament seats.  The UI animates from
these, hand histories are written from them, and views filter them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from freezeout.cards import Card
from freezeout.evaluate.describe import describe_rank

__all__ = [
    "ActionTaken",
    "BetReturned",
    "BlindPosted",
    "CardsDealt",
    "CardsShown",
    "Drew",
    "Eliminated",
    "Event",
    "Forfeited",
    "HandEnded",
    "HandStarted",
    "HandTurnedUp",
    "HoleDealt",
    "PotAwarded",
    "RakeTaken",
    "Resigned",
    "RunShowdown",
    "SecondRunDealt",
    "StreetDealt",
    "TournamentEnded",
    "distinct_kinds",
    "public_event",
]


class HandStarted(NamedTuple):
    """A hand begins; the forced bets of its level (R6, V18): blinds, or in
    stud the ante, bring-in and bet sizes (0 where the game has none)."""

    number: int
    button: int
    small_blind: int
    big_blind: int
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0


class CardsDealt(NamedTuple):
    """The deal of a hand: every hole card and the board in dealing order —
    or, for games that deal during the hand (stud, draws), the whole
    ``deck`` in the order the engine takes it (and the ``reshuffle`` order
    of V13).

    Private: it makes the event log complete (a tournament can be rebuilt
    from its events alone) but it never reaches a client — the public hand
    log and every view leave it out."""

    hole: tuple[tuple[int, tuple[Card | None, ...]], ...]  # (table seat, cards)
    board: tuple[Card | None, ...]
    deck: tuple[Card, ...] = ()
    reshuffle: tuple[Card, ...] = ()


class HoleDealt(NamedTuple):
    """Cards dealt to one player during the hand (stud's streets; V7).

    ``up`` flags the face-up cards: they are public, the others only the
    player's own (:func:`public_event` hides them as ``None``)."""

    seat: int
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]


class Drew(NamedTuple):
    """A player's draw (V11): the cards thrown away and the cards received.
    Standing pat is a draw of none.  Everyone learns how many; only the
    player which ones."""

    seat: int
    discarded: tuple[Card | None, ...]
    drawn: tuple[Card | None, ...]


class BlindPosted(NamedTuple):
    seat: int
    kind: str  # "ante", "dead", "small blind", "big blind", "straddle"
    amount: int
    all_in: bool


class ActionTaken(NamedTuple):
    """A resolved move: ``kind`` is what it counted as (an ``allin`` becomes a
    call, bet or raise; a ``timeout`` a check or fold)."""

    seat: int
    kind: str
    total: int  # the player's bet for the round after the move
    added: int  # chips moved from the stack by this move
    all_in: bool
    forced: bool = False  # a timeout (R26) or resignation fold (R28)


class BetReturned(NamedTuple):
    seat: int
    amount: int


class StreetDealt(NamedTuple):
    street: str
    cards: tuple[Card, ...]


class CardsShown(NamedTuple):
    """A hand shown down (R17, V17): its value in the game's ranking and, in
    a split game (V6), its low value (0: no qualifying low)."""

    seat: int
    cards: tuple[Card, ...]
    rank: int  # the evaluator's rank of the best hand (higher wins)
    ranking: str = "high"
    low: int = 0
    low_ranking: str = ""

    @property
    def description(self) -> str:
        return describe(self.ranking, self.rank)

    @property
    def low_description(self) -> str:
        return describe(self.low_ranking, self.low) if self.low_ranking and self.low else ""


class PotAwarded(NamedTuple):
    """One pot — or, in a split game, one half of it (V6) — and who won it."""

    pot: int  # 0 = main pot
    amount: int
    eligible: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]  # (seat, chips)
    rank: int = 0  # the winning hand's rank; 0 when won without a showdown
    ranking: str = ""  # the ranking that decided it ("" without a showdown)
    half: str = ""  # "high" or "low" in split games

    @property
    def description(self) -> str:
        """The winning hand in words ("Full house, kings full of tens"), or ""."""
        return describe(self.ranking or "high", self.rank) if self.rank else ""


def describe(ranking: str, rank: int) -> str:
    """A rank of ``ranking`` in words (English)."""
    if ranking == "high":
        return describe_rank(rank)
    from freezeout.evaluate.rankings import get_ranking

    return get_ranking(ranking).describe(rank)


class RakeTaken(NamedTuple):
    """C5: the house's cut of pot ``pot`` (0 = main pot), taken before the
    pot is awarded: the pot's ``PotAwarded`` events share what is left.
    Only at a cash table with a rake rule."""

    pot: int
    amount: int


class SecondRunDealt(NamedTuple):
    """C7: a street of the second run of the board (the first run is the
    ordinary ``StreetDealt``); dealt only when every player in the pot
    agreed to run it twice and all chips were in before the river."""

    street: str
    cards: tuple[Card, ...]


class RunShowdown(NamedTuple):
    """C7: the ``PotAwarded`` events that follow, up to the next
    ``RunShowdown``, award run ``run`` (1 or 2) of a board run twice, whose
    whole board is ``board``; each run wins half of every pot."""

    run: int
    board: tuple[Card, ...]


class HandTurnedUp(NamedTuple):
    """V20: a hand still in turned face up for everyone, once an all-in has
    ended the betting and cards remain to be dealt (a draw game: after the
    last draw) — every card the seat holds, down cards included; public from
    then on.  Cards dealt to the seat after it come face up."""

    seat: int
    cards: tuple[Card | None, ...]  # None: a card nobody knows (a record that hides it)


class HandEnded(NamedTuple):
    stacks: tuple[int, ...]
    showdown: bool


class Forfeited(NamedTuple):
    seat: int
    in_a_row: int


class Resigned(NamedTuple):
    seat: int
    vanished: int  # chips behind that left the game (R28)


class Eliminated(NamedTuple):
    seat: int
    place: int


class TournamentEnded(NamedTuple):
    winner: int
    chips: int


Event = (
    HandStarted
    | CardsDealt
    | HoleDealt
    | Drew
    | BlindPosted
    | ActionTaken
    | BetReturned
    | StreetDealt
    | CardsShown
    | PotAwarded
    | RakeTaken
    | SecondRunDealt
    | RunShowdown
    | HandTurnedUp
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
    public hand log sees (design principle 5).  The deal
    (:class:`CardsDealt`) is private as a whole; the down cards of a
    :class:`HoleDealt` and the cards of a :class:`Drew` become ``None``
    (how many cards moved stays public).
    """
    if isinstance(event, CardsDealt):
        return None
    if isinstance(event, HoleDealt):
        if all(event.up):
            return event
        return event._replace(cards=tuple(card if up else None for card, up in zip(event.cards, event.up, strict=True)))
    if isinstance(event, Drew):
        return event._replace(discarded=(None,) * len(event.discarded), drawn=(None,) * len(event.drawn))
    return event


def _same_kind_eq(self: tuple[Any, ...], other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _same_kind_ne(self: tuple[Any, ...], other: object) -> bool:
    return not _same_kind_eq(self, other)


def _kind_hash(self: tuple[Any, ...]) -> int:
    return hash((type(self).__name__, tuple.__hash__(self)))


def distinct_kinds(*kinds: type[tuple[Any, ...]]) -> None:
    """NamedTuples compare as plain tuples (BetReturned(1, 5) == Resigned(1, 5)); events
    of different kinds must never be equal, here and in the cash table's own events."""
    for kind in kinds:
        kind.__eq__ = _same_kind_eq  # type: ignore[method-assign]
        kind.__ne__ = _same_kind_ne  # type: ignore[method-assign,assignment]
        kind.__hash__ = _kind_hash  # type: ignore[method-assign]


distinct_kinds(HandStarted, CardsDealt, HoleDealt, Drew, BlindPosted, ActionTaken, BetReturned, StreetDealt, CardsShown,
               PotAwarded, RakeTaken, SecondRunDealt, RunShowdown, HandTurnedUp, HandEnded, Forfeited, Resigned, Eliminated, TournamentEnded)
