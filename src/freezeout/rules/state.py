"""The values a hand is made of: its inputs (:class:`HandSetup`) and its
state (:class:`HandState`).

They live apart from the code that moves them (``hand``) and the code that
asks what may be done (``legal``), so that neither module needs the other
to know what a state is.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeVar

from freezeout.cards import Card
from freezeout.rules.errors import IllegalAction
from freezeout.rules.pots import Rake
from freezeout.rules.variant import NLHE, Ruleset, Variant

if TYPE_CHECKING:
    from freezeout.rules.legal import LegalActions

__all__ = ["BIG", "EITHER", "SMALL", "HandSetup", "HandState", "Hole", "evolve", "set_at"]  # and the field positions

Hole = tuple[Card | None, ...] | None

# Fixed-limit bet sizes of a round (HandState.bet_size).
SMALL: Final = 0
BIG: Final = 1
EITHER: Final = 2
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Everything a hand needs before the first card: the inputs of a replay.

    ``blinds`` are the nominal live forced bets per seat (small blind, big
    blind, straddles); a short stack posts what it has, but the bet to match
    stays the nominal largest blind (D1).  ``antes`` and ``dead`` are per-seat
    dead money.  ``big_blind`` is the smallest bet of a no-limit or pot-limit
    round (D2); fixed-limit rounds bet ``small_bet`` or ``big_bet`` (V3),
    which default to the big blind and twice it.  Stud games post
    ``bring_in`` instead of blinds (V7).

    Cards: ``deck`` lists the cards in the order the engine takes them (see
    :mod:`freezeout.rules.dealing`), ``None`` for a card nobody knows (hand
    histories).  Flop games may give ``hole`` (each seat's cards, ``None``
    when unknown) and ``board`` (in dealing order) instead: they are the same
    deck, read seat by seat and then the board.  ``reshuffle`` orders the
    cards reshuffled when a draw runs out of cards (V13).
    """

    stacks: tuple[int, ...]
    button: int
    blinds: tuple[int, ...] = ()
    big_blind: int = 0
    hole: tuple[Hole, ...] = ()
    board: tuple[Card | None, ...] = ()
    antes: tuple[int, ...] = ()
    dead: tuple[int, ...] = ()
    ruleset: Ruleset = Ruleset.HOUSE
    variant: Variant = NLHE
    names: tuple[str, ...] = ()
    # PHH ``ante_trimming_status``: with trimming, antes count as each
    # player's contribution (an ante nobody else matched can only come back to
    # its poster); without, they are dead money in the main pot, winnable by
    # whoever wins it (a big-blind ante, say).  Dead blinds are always dead.
    ante_trimming: bool = True
    # Blinds posted out of turn (PHH negative ``blinds_or_straddles``, e.g. a
    # player joining the table): live bets that do not decide who acts first.
    out_of_turn: tuple[bool, ...] = ()
    deck: tuple[Card | None, ...] = ()
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    reshuffle: tuple[Card, ...] = ()
    # Hands mucked at the showdown (hand histories, standard ruleset, V17);
    # never in the house game, where every hand is shown (R17).
    mucks: tuple[bool, ...] = ()
    # The cards each seat shows down where the deck did not know them (hand
    # histories record many hands only at the showdown).
    shows: tuple[tuple[Card, ...] | None, ...] = ()
    # Cash tables (C5, C6, C7, C10).  ``rake``: the house's cut of the pots
    # (None: no rake, as in every freezeout).  ``run_twice``: the hand seats
    # that agree to deal the rest of the board twice when all chips are in
    # before the river (C7; decided before the run-out, so a replay is
    # exact).  ``blind_kinds``: what each seat's blind is called ("small
    # blind", "big blind", "straddle"; "" for none) when the table knows
    # better than the posting order — a dead small blind, a new player's big
    # blind, a straddle; empty: named by the posting order (R5).
    rake: Rake | None = None
    run_twice: tuple[int, ...] = ()
    blind_kinds: tuple[str, ...] = ()

    def name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"seat {seat + 1}"

    # Pickled and copied through the constructor: the compiled engine's
    # frozen classes (freezeout.native) cannot be rebuilt field by field.
    def __reduce__(self) -> tuple[type[HandSetup], tuple[Any, ...]]:
        return HandSetup, tuple(getattr(self, name) for name in _SETUP_FIELDS)

    def __copy__(self) -> HandSetup:
        return self  # immutable

    def __deepcopy__(self, memo: dict[int, Any]) -> HandSetup:
        return self  # immutable all the way down

    @property
    def min_bet(self) -> int:
        """The smallest bet of a round (D2; V3's small bet in fixed limit)."""
        return self.small_bet or self.big_blind

    @property
    def bet_sizes(self) -> tuple[int, int]:
        """Fixed-limit small and big bet (V3)."""
        small = self.small_bet or self.big_blind
        return small, self.big_bet or 2 * small


_SETUP_FIELDS: tuple[str, ...] = tuple(field.name for field in fields(HandSetup))


class HandState(NamedTuple):
    """A hand in progress or finished.  Per-seat tuples are indexed by hand seat.

    A ``NamedTuple`` rather than a frozen dataclass: just as immutable, and
    five times cheaper to build — the engine builds one per move, and
    building states was its largest cost."""

    setup: HandSetup
    stacks: tuple[int, ...]  # chips behind
    bets: tuple[int, ...]  # this betting round
    committed: tuple[int, ...]  # in the pot from earlier rounds (and trimmed antes)
    folded: tuple[bool, ...]
    acted: tuple[bool, ...]  # has acted this round (posting a blind is not acting)
    faced: tuple[int, ...]  # the bet to match right after the seat's last action (D3)
    street: int  # index into variant.streets
    to_match: int
    increment: int  # the last full bet or raise increment of the round (D2)
    actor: int  # seat to act, -1 when nobody
    board_cards: tuple[Card | None, ...] = ()
    finished: bool = False
    showdown: bool = False
    payouts: tuple[int, ...] = ()  # chips won, once finished
    shown: tuple[bool, ...] = ()  # whose cards were shown at showdown
    dead: int = 0  # dead money (untrimmed antes, dead blinds): it joins the main pot
    cards: tuple[tuple[Card | None, ...], ...] = ()  # each seat's cards now, in dealing order
    up: tuple[tuple[bool, ...], ...] = ()  # which of them are face up (stud)
    dealt: int = 0  # cards taken from the deck so far
    drawing: bool = False  # the players are discarding and drawing (V11)
    discards: tuple[tuple[Card | None, ...], ...] = ()  # each seat's discards so far (private)
    raises: int = 0  # bets, raises, completions and all-ins this round (V3, V4 cap)
    full_to: int = 0  # fixed limit: the last full bet level, the base of the next raise (V4)
    bet_size: int = 0  # fixed limit: SMALL, BIG, or EITHER after an open pair on 4th street (V3, V7)
    bring_in_due: bool = False  # the actor must bring in or complete (V7)
    aggressor: int = -1  # the last seat to bet or raise this round (V17)
    opener: int = -1  # the seat that opened this round (V17, stud showdown order)
    # The moves of the seat to act, worked out once when the engine makes the
    # state (every caller asks, and apply() checks against them).  Code that
    # builds a changed copy itself (``_replace``) must set it back to None.
    offer: LegalActions | None = None
    rake: int = 0  # chips the house took from the pots (C5), once finished
    second_board: tuple[Card | None, ...] = ()  # the second run's whole board (C7), once finished

    @property
    def seat_count(self) -> int:
        return len(self.stacks)

    @property
    def board(self) -> tuple[Card | None, ...]:
        return self.board_cards

    @property
    def board_dealt(self) -> int:
        return len(self.board_cards)

    @property
    def pot_total(self) -> int:
        return sum(self.committed) + sum(self.bets) + self.dead

    def legal_actions(self) -> LegalActions | None:
        """The moves of the seat to act (:func:`freezeout.rules.legal.legal_actions`)."""
        if self.offer is not None or self.actor < 0:
            return self.offer
        from freezeout.rules.legal import legal_actions

        return legal_actions(self)

    def final_stacks(self) -> tuple[int, ...]:
        if not self.finished:
            raise IllegalAction("the hand is not finished")
        return tuple(s + p for s, p in zip(self.stacks, self.payouts, strict=True))


_FIELD_INDEX: dict[str, int] = {name: index for index, name in enumerate(HandState._fields)}
_new_tuple = tuple.__new__


def evolve(state: HandState, **changes: Any) -> HandState:
    """A copy of ``state`` with some fields changed: a fast ``_replace``
    (the engine builds a state per move, and building states was its largest
    cost); an unknown field name is a ``KeyError``."""
    values = list(state)
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return _new_tuple(HandState, values)


def set_at(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    """A copy of ``values`` with one entry replaced (through a list: cheaper
    than joining slices, interpreted or compiled)."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


# The position of each field (``list(state)[i]``): the engine builds a new
# state in a list of the old one's fields, cheaper than a keyword copy.
# ``Final`` literals, so that compiled code reads them as constants.
STACKS: Final = 1
BETS: Final = 2
COMMITTED: Final = 3
FOLDED: Final = 4
ACTED: Final = 5
FACED: Final = 6
STREET: Final = 7
TO_MATCH: Final = 8
INCREMENT: Final = 9
ACTOR: Final = 10
BOARD_CARDS: Final = 11
FINISHED: Final = 12
SHOWDOWN: Final = 13
PAYOUTS: Final = 14
SHOWN: Final = 15
DEAD: Final = 16
CARDS: Final = 17
UP: Final = 18
DEALT: Final = 19
DRAWING: Final = 20
DISCARDS: Final = 21
RAISES: Final = 22
FULL_TO: Final = 23
BET_SIZE: Final = 24
BRING_IN_DUE: Final = 25
AGGRESSOR: Final = 26
OPENER: Final = 27
OFFER: Final = 28
RAKE: Final = 29
SECOND_BOARD: Final = 30
assert HandState._fields == (
    "setup", "stacks", "bets", "committed", "folded", "acted", "faced", "street", "to_match", "increment",
    "actor", "board_cards", "finished", "showdown", "payouts", "shown", "dead", "cards", "up", "dealt",
    "drawing", "discards", "raises", "full_to", "bet_size", "bring_in_due", "aggressor", "opener", "offer",
    "rake", "second_board",
)

