"""One hand's public events, read as decisions in their context.

Every read on an opponent asks the same questions of the public record:
what did this seat do, on which street, facing how much, into how big a
pot, with how many raises before, and — when the hand was shown down —
holding what.  :func:`read_hand` answers them once per hand as a
:class:`HandRecord` of :class:`Move` values, so :mod:`.reads` only counts.

Records are memoised per hand (the events are frozen values), so a
tournament's past is walked once, not once per decision; the cache holds
no state that could change a decision, only work already done.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from freezeout.rules.events import (
    ActionTaken,
    BetReturned,
    BlindPosted,
    CardsShown,
    Event,
    HandStarted,
    StreetDealt,
)

__all__ = ["HandRecord", "Move", "read_hand"]


@dataclass(frozen=True, slots=True)
class Move:
    """One action of one seat, with what it faced."""

    seat: int
    street: int  # 0 preflop, 1 flop, 2 turn, 3 river
    kind: str  # fold, check, call, bet, raise (an all-in is one of these with ``all_in``)
    all_in: bool
    forced: bool  # a timeout or resignation fold: says nothing about the player
    total: int  # the seat's bet for the round after the move
    added: int
    to_match: int  # the bet to match before the move
    facing: int  # chips a call would have added
    middle: int  # every chip in the middle before the move, this round's bets included
    raises_before: int  # bets and raises earlier in this round (preflop: not the blinds)
    chips: int  # the seat's chips before the move: behind plus already bet this round
    effective_bb: float  # those chips against the deepest other stack, in big blinds
    big_blind: int

    @property
    def aggressive(self) -> bool:
        """A bet or raise, an all-in that raises included."""
        return self.kind in ("bet", "raise") or (self.all_in and self.total > self.to_match)

    @property
    def free_fold(self) -> bool:
        """A fold when checking was free (never right; forced folds excluded)."""
        return self.kind == "fold" and self.facing == 0 and not self.forced

    @property
    def pot_fraction(self) -> float:
        """A bet or raise's size beyond the call, in pots (after the call)."""
        raised_by = self.total - self.to_match
        return raised_by / max(self.middle + self.facing, self.big_blind)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A hand's moves in order, its board per street, and the hands shown down."""

    moves: tuple[Move, ...]
    board: tuple[int, ...]  # the cards dealt by the end of the hand
    shown: tuple[tuple[int, tuple[int, int]], ...]  # (seat, hole cards)
    seats: tuple[int, ...]  # seats dealt in
    big_blind: int

    def board_at(self, street: int) -> tuple[int, ...]:
        """The board on ``street`` (empty preflop)."""
        return self.board[: (0 if street == 0 else street + 2)]

    def cards_of(self, seat: int) -> tuple[int, int] | None:
        for shown_seat, cards in self.shown:
            if shown_seat == seat:
                return cards
        return None


@lru_cache(maxsize=4096)
def read_hand(events: Sequence[Event]) -> HandRecord:
    """The moves of one hand's public events (``events`` must be hashable: a tuple)."""
    moves: list[Move] = []
    board: list[int] = []
    shown: list[tuple[int, tuple[int, int]]] = []
    seats: tuple[int, ...] = ()
    big_blind = 1
    stacks: dict[int, int] = {}
    bets: dict[int, int] = {}
    pot = 0  # chips in the middle before this round's bets
    street = 0
    raises = 0
    for event in events:
        if isinstance(event, HandStarted):
            big_blind = max(1, event.big_blind)
            seats = event.seats
            stacks = dict(zip(event.seats, event.stacks, strict=True))
        elif isinstance(event, BlindPosted):
            bets[event.seat] = bets.get(event.seat, 0) + event.amount
            stacks[event.seat] = stacks.get(event.seat, 0) - event.amount
        elif isinstance(event, BetReturned):
            bets[event.seat] = bets.get(event.seat, 0) - event.amount
            stacks[event.seat] = stacks.get(event.seat, 0) + event.amount
        elif isinstance(event, StreetDealt):
            pot += sum(bets.values())
            bets = {}
            street += 1
            raises = 0
            board.extend(int(card) for card in event.cards)
        elif isinstance(event, CardsShown) and len(event.cards) == 2:
            shown.append((event.seat, (int(event.cards[0]), int(event.cards[1]))))
        elif isinstance(event, ActionTaken):
            to_match = max(bets.values(), default=0)
            before = bets.get(event.seat, 0)
            behind = stacks.get(event.seat, 0)
            others = [chips for seat, chips in stacks.items() if seat != event.seat]
            chips = behind + before
            move = Move(
                seat=event.seat,
                street=street,
                kind=event.kind,
                all_in=event.all_in,
                forced=event.forced,
                total=event.total,
                added=event.added,
                to_match=to_match,
                facing=max(0, to_match - before),
                middle=pot + sum(bets.values()),
                raises_before=raises,
                chips=chips,
                effective_bb=min(chips, max(others, default=0) + to_match) / big_blind,
                big_blind=big_blind,
            )
            moves.append(move)
            if move.aggressive:
                raises += 1
            bets[event.seat] = event.total
            stacks[event.seat] = behind - event.added
    return HandRecord(tuple(moves), tuple(board), tuple(shown), seats, big_blind)
