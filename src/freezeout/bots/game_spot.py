"""A decision in any game, read off the seat's view (V1–V19).

The house-game bots read a :class:`~freezeout.bots.base.Situation` made
for two hole cards and a board.  :class:`Spot` is the same idea for every
game of the registry: the game being dealt this hand (a mix names its
current game, V19), our cards, the board, what each opponent shows (stud's
up cards, V7) and how many cards they hold or still get, the dead cards
(folded players' up cards), how many draws are left (V11) and how many
cards each opponent drew, the pot and the price, and how often each
opponent has bet, raised and folded so far at this table (public history
only).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from freezeout.rules.events import ActionTaken, BlindPosted, Drew, Event, StreetDealt
from freezeout.rules.games import Mix, parse_game
from freezeout.rules.legal import LegalActions
from freezeout.rules.variant import BettingStructure, Variant
from freezeout.rules.views import TableView

__all__ = ["Opponent", "Spot", "Style", "current_variant", "read_spot", "table_styles"]


@dataclass(frozen=True, slots=True)
class Opponent:
    seat: int
    shown: tuple[int, ...]  # face-up cards (stud), in dealing order
    hidden: int  # cards held face down
    future: int  # cards still to be dealt to them (stud)
    drew: tuple[int, ...]  # cards drawn at each draw of this hand (V11)
    aggression: int  # bets, raises and completions this hand
    street_aggression: int  # of those, this betting round
    all_in: bool
    stack: int  # chips behind


@dataclass(frozen=True, slots=True)
class Style:
    """How an opponent has played so far at this table, shrunk towards a
    population of sound players (two in ten moves aggressive, one fold in
    five chances to fold)."""

    aggression: float  # bets and raises per voluntary move
    folds: float  # folds per time facing a bet
    moves: int


@dataclass(frozen=True, slots=True)
class Spot:
    variant: Variant
    seat: int
    mine: tuple[int, ...]  # our cards, in dealing order
    my_future: int  # cards still to come to us (stud)
    board: tuple[int, ...]
    board_future: int
    dead: tuple[int, ...]  # seen cards out of play (folded players' up cards)
    opponents: tuple[Opponent, ...]  # still in the hand
    draws_left: int  # draws still to come, the one in progress included
    drawing: bool  # it is our draw now
    street: int  # betting round index (0 = the first)
    last_street: bool
    pot: int  # every chip in the middle, this round's bets included
    to_call: int
    to_match: int
    my_bet: int
    stack: int  # chips behind
    unit: int  # the big blind, or the small bet
    legal: LegalActions
    my_drew: tuple[int, ...]  # our own draws of this hand
    street_moves: int  # voluntary moves made this betting round before ours
    street_bets: int = 0  # bets, raises and completions of this betting round, everyone's (ours too)
    behind: int = 0  # opponents still to make their first move of this round: they act after us

    @property
    def structure(self) -> BettingStructure:
        return self.variant.betting

    @property
    def pot_odds(self) -> float:
        return self.to_call / (self.pot + self.to_call) if self.to_call else 0.0

    @property
    def active(self) -> int:
        """Opponents who can still bet."""
        return sum(1 for o in self.opponents if not o.all_in)


def current_variant(view: TableView) -> Variant:
    """The game of this hand: the table's game, or a mix's game of the hand (V19)."""
    game = parse_game(view.game)
    if isinstance(game, Mix):
        return game.game_for_hand(max(view.hand_number, 1))
    return game


def _ints(cards: tuple[object, ...] | None) -> tuple[int, ...]:
    return tuple(int(c) for c in cards or () if c is not None)  # type: ignore[call-overload]


def read_spot(view: TableView) -> Spot:
    """The facts of the decision the view's seat faces."""
    seat, legal = view.viewer, view.legal
    if seat is None or legal is None:
        raise ValueError("the view is not of a seat whose turn it is")
    variant = current_variant(view)
    me = view.seats[seat]
    mine = _ints(me.cards)
    streets_dealt = 1 + sum(1 for e in view.history if isinstance(e, StreetDealt))
    street = streets_dealt - 1
    later = variant.streets[streets_dealt:]
    draws_left = sum(1 for s in later if s.draw) + (1 if view.drawing else 0)
    total = variant.total_hole_cards
    stud = variant.deals_later_hole_cards
    aggression: dict[int, int] = {}
    street_aggression: dict[int, int] = {}
    drew: dict[int, list[int]] = {}
    street_moves = street_bets = 0
    moved: set[int] = set()
    for event in view.history:
        if isinstance(event, StreetDealt):
            street_aggression = {}
            street_moves = street_bets = 0
            moved = set()
        elif isinstance(event, ActionTaken) and not event.forced and event.kind != "bringin":
            street_moves += 1
            moved.add(event.seat)
        if isinstance(event, ActionTaken) and not event.forced and event.kind in ("bet", "raise", "complete"):
            aggression[event.seat] = aggression.get(event.seat, 0) + 1
            street_aggression[event.seat] = street_aggression.get(event.seat, 0) + 1
            street_bets += 1
        if isinstance(event, Drew):
            drew.setdefault(event.seat, []).append(len(event.discarded))
    opponents = []
    dead: list[int] = []
    for other in view.seats:
        if other.seat == seat:
            continue
        if other.folded:
            dead.extend(_ints(other.cards))
            continue
        if not other.in_hand:
            continue
        held = len(other.cards) if other.cards is not None else variant.hole_cards
        shown = _ints(other.cards)
        opponents.append(
            Opponent(
                seat=other.seat,
                shown=shown,
                hidden=held - len(shown),
                future=total - held if stud else 0,
                drew=tuple(drew.get(other.seat, ())),
                aggression=aggression.get(other.seat, 0),
                street_aggression=street_aggression.get(other.seat, 0),
                all_in=other.stack == 0,
                stack=other.stack,
            )
        )
    board = _ints(view.board)
    pot = sum(amount for amount, _ in view.pots) + sum(s.bet for s in view.seats)
    level = view.level
    return Spot(
        variant=variant,
        seat=seat,
        mine=mine,
        my_future=total - len(mine) if stud else 0,
        board=board,
        board_future=variant.board_size - len(board),
        dead=tuple(dead),
        opponents=tuple(opponents),
        draws_left=draws_left,
        drawing=bool(legal.draw),
        street=street,
        last_street=streets_dealt >= len(variant.streets),
        pot=pot,
        to_call=legal.call_amount,
        to_match=legal.to_match,
        my_bet=me.bet,
        stack=me.stack,
        unit=level.small_bet or view.big_blind or level.big_blind or 1,
        legal=legal,
        my_drew=tuple(drew.get(seat, ())),
        street_moves=street_moves,
        street_bets=street_bets,
        behind=sum(1 for o in opponents if o.seat not in moved and not o.all_in),
    )


def table_styles(view: TableView, *, this_hand: bool = True) -> dict[int, Style]:
    """Every seat's aggression and folding so far (this hand, unless
    ``this_hand`` is false, and the earlier ones), each shrunk towards a
    sound player's (prior worth ten moves)."""
    moves: dict[int, int] = {}
    aggressive: dict[int, int] = {}
    faced: dict[int, int] = {}
    folds: dict[int, int] = {}
    for log in (*view.past, view.history) if this_hand else view.past:
        for seat, (m, a, f, fo) in _log_counts(log).items():
            moves[seat] = moves.get(seat, 0) + m
            aggressive[seat] = aggressive.get(seat, 0) + a
            faced[seat] = faced.get(seat, 0) + f
            folds[seat] = folds.get(seat, 0) + fo
    return {
        seat: Style(
            aggression=(aggressive.get(seat, 0) + 2.0) / (moves.get(seat, 0) + 10.0),
            folds=(folds.get(seat, 0) + 2.0) / (faced.get(seat, 0) + 10.0),
            moves=moves.get(seat, 0),
        )
        for seat in range(len(view.seats))
    }


@lru_cache(maxsize=4096)
def _log_counts(log: tuple[Event, ...]) -> dict[int, tuple[int, int, int, int]]:
    """Per seat of one hand's public log: voluntary moves, aggressive ones,
    times facing a bet, folds then (memoised: a finished hand never changes)."""
    counts: dict[int, list[int]] = {}
    to_match = 0
    bets: dict[int, int] = {}
    for event in log:
        if isinstance(event, StreetDealt):
            to_match = 0
            bets = {}
        elif isinstance(event, BlindPosted):
            if event.kind != "ante":
                bets[event.seat] = bets.get(event.seat, 0) + event.amount
                to_match = max(to_match, bets[event.seat])
        elif isinstance(event, ActionTaken):
            if event.forced or event.kind == "bringin":
                bets[event.seat] = event.total
                to_match = max(to_match, event.total)
                continue
            row = counts.setdefault(event.seat, [0, 0, 0, 0])
            row[0] += 1
            if event.kind in ("bet", "raise", "complete"):
                row[1] += 1
            if to_match > bets.get(event.seat, 0):
                row[2] += 1
                row[3] += event.kind == "fold"
            bets[event.seat] = event.total
            to_match = max(to_match, event.total)
    return {seat: (row[0], row[1], row[2], row[3]) for seat, row in counts.items()}
