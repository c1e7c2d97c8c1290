"""One hand of poker as a pure state machine (R5, R7–R22, D1–D7).

``start_hand(setup)`` posts antes and blinds; ``apply(state, action)``
returns a *new* state and the events the move caused, or raises
:class:`IllegalAction` and leaves the old state as it was (states are frozen).
Cards come in through :class:`HandSetup` — the engine never shuffles — so a
hand replays exactly.  Seats here are hand seats ``0..n-1`` in clockwise
order; the tournament maps them to its own seats.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from freezeout.cards import Card
from freezeout.evaluate import hand_rank
from freezeout.rules.actions import PLAYER_MOVES, Action, ActionKind
from freezeout.rules.errors import IllegalAction, InvalidInput
from freezeout.rules.events import (
    ActionTaken,
    BetReturned,
    BlindPosted,
    CardsShown,
    Event,
    HandEnded,
    PotAwarded,
    Resigned,
    StreetDealt,
)
from freezeout.rules.legal import LegalActions, legal_actions, resolve
from freezeout.rules.pots import Pot, build_pots, split_pot, uncalled_bet
from freezeout.rules.variant import NLHE, Ruleset, Variant

__all__ = ["HandSetup", "HandState", "apply", "collected_pots", "concede", "resign", "start_hand"]

Hole = tuple[Card, ...] | None
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Everything a hand needs before the first card: the inputs of a replay.

    ``blinds`` are the nominal live forced bets per seat (small blind, big
    blind, straddles); a short stack posts what it has, but the bet to match
    stays the nominal largest blind (D1).  ``antes`` and ``dead`` are per-seat
    dead money.  ``hole`` holds each seat's cards (``None`` when unknown, as in
    hand histories); ``board`` the board cards in dealing order, as many as
    are known.
    """

    stacks: tuple[int, ...]
    button: int
    blinds: tuple[int, ...]
    big_blind: int
    hole: tuple[Hole, ...]
    board: tuple[Card, ...] = ()
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

    def name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"seat {seat + 1}"


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
    board_dealt: int = 0
    finished: bool = False
    showdown: bool = False
    payouts: tuple[int, ...] = ()  # chips won, once finished
    shown: tuple[bool, ...] = ()  # whose cards were shown at showdown
    dead: int = 0  # dead money (untrimmed antes, dead blinds): it joins the main pot

    @property
    def seat_count(self) -> int:
        return len(self.stacks)

    @property
    def board(self) -> tuple[Card, ...]:
        return self.setup.board[: self.board_dealt]

    @property
    def pot_total(self) -> int:
        return sum(self.committed) + sum(self.bets) + self.dead

    def legal_actions(self) -> LegalActions | None:
        return legal_actions(self)

    def final_stacks(self) -> tuple[int, ...]:
        if not self.finished:
            raise IllegalAction("the hand is not finished")
        return tuple(s + p for s, p in zip(self.stacks, self.payouts, strict=True))


def _make_evolve() -> Callable[..., HandState]:
    """A fast ``_replace`` for :class:`HandState`: keyword-only, every field
    defaulting to "unchanged", building the tuple directly."""
    names = HandState._fields
    params = ", ".join(f"{name}=_KEEP" for name in names)
    args = ", ".join(f"state[{i}] if {name} is _KEEP else {name}" for i, name in enumerate(names))
    namespace: dict[str, object] = {"HandState": HandState, "_KEEP": object(), "_new": tuple.__new__}
    exec(f"def evolve(state, *, {params}):\n    return _new(HandState, ({args},))", namespace)
    evolve: Callable[..., HandState] = namespace["evolve"]  # type: ignore[assignment]
    return evolve


_evolve = _make_evolve()


def _check_setup(setup: HandSetup) -> None:
    n = len(setup.stacks)
    if not 2 <= n <= 10:
        raise InvalidInput(f"a hand needs 2 to 10 players, got {n}")
    for label, values in (
        ("blinds", setup.blinds),
        ("antes", setup.antes),
        ("dead", setup.dead),
        ("hole", setup.hole),
        ("out_of_turn", setup.out_of_turn),
    ):
        if values and len(values) != n:
            raise InvalidInput(f"{label} has {len(values)} entries for {n} players")
    for label, values in (("stacks", setup.stacks), ("blinds", setup.blinds), ("antes", setup.antes), ("dead", setup.dead)):
        for value in values:
            if type(value) is not int or value < 0:
                raise InvalidInput(f"{label} must be whole numbers of chips >= 0, got {value!r}")
    if any(stack == 0 for stack in setup.stacks):
        raise InvalidInput("every player dealt in needs chips")
    if not 0 <= setup.button < n:
        raise InvalidInput(f"button seat {setup.button} is not at the table")
    if type(setup.big_blind) is not int or setup.big_blind <= 0:
        raise InvalidInput(f"the big blind must be a positive whole number, got {setup.big_blind!r}")
    seen: set[Card] = set(setup.board)
    if len(seen) != len(setup.board):
        raise InvalidInput("the board repeats a card")
    if len(setup.board) > setup.variant.board_size:
        raise InvalidInput(f"the board has {len(setup.board)} cards, more than {setup.variant.board_size}")
    for seat, cards in enumerate(setup.hole):
        if cards is None:
            continue
        if len(cards) != setup.variant.hole_cards:
            raise InvalidInput(f"{setup.name(seat)} needs {setup.variant.hole_cards} hole cards, got {len(cards)}")
        for card in cards:
            if card in seen:
                raise InvalidInput(f"card {card} is dealt twice")
            seen.add(card)


def start_hand(setup: HandSetup) -> tuple[HandState, list[Event]]:
    """Post antes, dead blinds and blinds (R5, R7) and find the first actor (R9)."""
    _check_setup(setup)
    n = len(setup.stacks)
    stacks = list(setup.stacks)
    committed = [0] * n
    bets = [0] * n
    events: list[Event] = []
    dead = 0
    for kind, amounts in (("ante", setup.antes), ("dead", setup.dead)):
        for seat, amount in enumerate(amounts):
            if amount:
                paid = min(amount, stacks[seat])
                stacks[seat] -= paid
                if kind == "ante" and setup.ante_trimming:
                    committed[seat] += paid
                else:
                    dead += paid
                events.append(BlindPosted(seat, kind, paid, stacks[seat] == 0))
    blinds = setup.blinds or (0,) * n
    posters = [seat for seat in _posting_order(n, setup.button) if blinds[seat]]
    for index, seat in enumerate(posters):
        paid = min(blinds[seat], stacks[seat])
        stacks[seat] -= paid
        bets[seat] += paid
        name = "big blind" if len(posters) == 1 or index == 1 else "small blind" if index == 0 else "straddle"
        events.append(BlindPosted(seat, name, paid, stacks[seat] == 0))
    to_match = max(blinds)  # D1: a short blind does not lower the bet to match
    state = HandState(
        setup=setup,
        stacks=tuple(stacks),
        bets=tuple(bets),
        committed=tuple(committed),
        folded=(False,) * n,
        acted=(False,) * n,
        faced=(0,) * n,
        street=0,
        to_match=to_match,
        increment=max(setup.big_blind, to_match),
        actor=-1,
        dead=dead,
    )
    # R9: preflop the first to act sits left of the (last) largest blind
    # posted in turn.
    in_turn = [seat for seat in posters if not (setup.out_of_turn and setup.out_of_turn[seat])]
    largest = max((blinds[seat] for seat in in_turn), default=0)
    largest_posters = [seat for seat in in_turn if blinds[seat] == largest]
    first = largest_posters[-1] + 1 if largest_posters else setup.button + 1
    return _continue(state, first, events)


def _posting_order(n: int, button: int) -> list[int]:
    """R5: blinds are posted from the left of the button; heads-up the button
    posts the small blind, so posting starts at the button."""
    start = button if n == 2 else button + 1
    return [(start + offset) % n for offset in range(n)]


def _next_actor(state: HandState, start: int) -> int:
    return _next_actor_of(state.stacks, state.bets, state.folded, state.acted, state.to_match, start)


def _next_actor_of(
    stacks: tuple[int, ...],
    bets: tuple[int, ...],
    folded: tuple[bool, ...],
    acted: tuple[bool, ...],
    to_match: int,
    start: int,
) -> int:
    """R9, R14, D1: the next seat from ``start`` that still has to act, or -1."""
    n = len(stacks)
    can_act = [seat for seat in range(n) if not folded[seat] and stacks[seat] > 0]
    if not can_act:
        return -1
    if len(can_act) == 1:  # D1: nobody left to bet against him
        only = can_act[0]
        others = max((bets[seat] for seat in range(n) if seat != only), default=0)
        return only if bets[only] < others else -1
    for offset in range(n):
        seat = (start + offset) % n
        if not folded[seat] and stacks[seat] > 0 and (not acted[seat] or bets[seat] < to_match):
            return seat
    return -1


def apply(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """Apply one move of the player to act (R10–R14, R26 timeouts)."""
    if state.finished:
        raise IllegalAction("the hand is over")
    if action.kind is ActionKind.RESIGN:
        return resign(state, action.seat)
    legal = legal_actions(state)
    if legal is None:
        raise IllegalAction("nobody is to act")
    if not 0 <= action.seat < state.seat_count:
        raise InvalidInput(f"seat {action.seat} is not in the hand")
    if action.seat != legal.seat:
        setup = state.setup
        raise IllegalAction(f"it is {setup.name(legal.seat)}'s turn, not {setup.name(action.seat)}'s")
    kind, total, forced = resolve(state, legal, action)
    seat = legal.seat
    stacks = list(state.stacks)
    bets = list(state.bets)
    added = total - bets[seat]
    stacks[seat] -= added
    bets[seat] = total
    to_match, increment = state.to_match, state.increment
    if total > to_match:
        if total - to_match >= increment:  # a full bet or raise sets the new increment (D2)
            increment = total - to_match
        to_match = total
    folded = state.folded
    if kind == "fold":
        folded = _set(folded, seat, True)
    new_stacks, new_bets, acted = tuple(stacks), tuple(bets), _set(state.acted, seat, True)
    events: list[Event] = [
        ActionTaken(seat, kind, total, added, stacks[seat] == 0 and kind != "fold", forced or action.kind not in PLAYER_MOVES)
    ]
    # The common case — someone else still has to act — builds one state.
    actor = -1 if folded.count(False) < 2 else _next_actor_of(new_stacks, new_bets, folded, acted, to_match, (seat + 1) % len(stacks))
    new = _evolve(
        state,
        stacks=new_stacks,
        bets=new_bets,
        folded=folded,
        acted=acted,
        faced=_set(state.faced, seat, to_match),
        to_match=to_match,
        increment=increment,
        actor=actor,
    )
    if actor >= 0:
        return new, events
    return _continue(new, seat + 1, events)


def resign(state: HandState, seat: int) -> tuple[HandState, list[Event]]:
    """R28, D8: the player folds at once and the chips behind leave the game;
    bets already made stay and must still be matched by the others."""
    if not 0 <= seat < state.seat_count:
        raise InvalidInput(f"seat {seat} is not in the hand")
    if state.finished:
        raise IllegalAction("the hand is over")
    vanished = state.stacks[seat]
    new = _evolve(state, stacks=_set(state.stacks, seat, 0), folded=_set(state.folded, seat, True))
    events: list[Event] = [Resigned(seat, vanished)]
    if not state.folded[seat]:
        events.append(ActionTaken(seat, "fold", state.bets[seat], 0, False, True))
    start = seat + 1 if state.actor in (seat, -1) else state.actor
    return _continue(new, start, events)


def concede(state: HandState, winner: int) -> tuple[HandState, list[Event]]:
    """D8: when a resignation leaves one player in the tournament, that player
    takes every chip on the table (all pots and the round's bets) at once."""
    events: list[Event] = []
    return _award_everything(state, winner, state.stacks, events), events


def _award_everything(state: HandState, winner: int, stacks: tuple[int, ...], events: list[Event]) -> HandState:
    """End the hand with every chip still on the table going to ``winner``."""
    n = state.seat_count
    total = state.pot_total - (sum(stacks) - sum(state.stacks))  # less any bet just returned
    payouts = [0] * n
    payouts[winner] = total
    if total:
        events.append(PotAwarded(0, total, (winner,), ((winner, total),)))
    done = _evolve(
        state,
        stacks=stacks,
        bets=(0,) * n,
        committed=(0,) * n,
        dead=0,
        actor=-1,
        finished=True,
        payouts=tuple(payouts),
        shown=(False,) * n,
    )
    events.append(HandEnded(done.final_stacks(), False))
    return done


def _set(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*values[:index], value, *values[index + 1:])


def _continue(state: HandState, start: int, events: list[Event]) -> tuple[HandState, list[Event]]:
    """After a move: find the next actor, or close the round, deal the next
    street (running the board out when nobody can bet, R18) or finish."""
    n = state.seat_count
    while True:
        if state.folded.count(False) == 1:  # R16
            return _win_uncontested(state, events), events
        actor = _next_actor(state, start % n)
        if actor >= 0:
            return _evolve(state, actor=actor), events
        state = _close_round(state, events)
        if state.street + 1 >= len(state.setup.variant.streets):
            return _finish(state, events, showdown=True), events
        state = _deal_street(state, events)
        start = state.setup.button + 1


def _win_uncontested(state: HandState, events: list[Event]) -> HandState:
    """R16: the last player in the hand wins every pot without showing.

    The same chips as closing the round and awarding each pot (D6, D7) —
    every pot's only eligible player is him — in one step, because this is
    how most hands end."""
    winner = state.folded.index(False)
    seat, amount = uncalled_bet(state.bets, state.folded)
    stacks = state.stacks
    if amount:
        events.append(BetReturned(seat, amount))
        stacks = _set(stacks, seat, stacks[seat] + amount)
    return _award_everything(state, winner, stacks, events)


def _close_round(state: HandState, events: list[Event]) -> HandState:
    """R21/D6: return the unmatched part of the largest bet, sweep bets in."""
    bets = list(state.bets)
    stacks = state.stacks
    seat, amount = uncalled_bet(bets, state.folded)
    if amount:
        bets[seat] -= amount
        stacks = _set(stacks, seat, stacks[seat] + amount)
        events.append(BetReturned(seat, amount))
    n = state.seat_count
    return _evolve(
        state,
        stacks=stacks,
        bets=(0,) * n,
        committed=tuple(c + b for c, b in zip(state.committed, bets, strict=True)),
        acted=(False,) * n,
        faced=(0,) * n,
        to_match=0,
        increment=state.setup.big_blind,
        actor=-1,
    )


def _deal_street(state: HandState, events: list[Event]) -> HandState:
    street = state.street + 1
    variant = state.setup.variant
    count = variant.streets[street]
    dealt = state.board_dealt + count
    if dealt > len(state.setup.board):
        missing = variant.street_names[street]
        raise InvalidInput(f"the hand reaches the {missing} but the board has only {len(state.setup.board)} cards")
    events.append(StreetDealt(variant.street_names[street], state.setup.board[state.board_dealt : dealt]))
    return _evolve(state, street=street, board_dealt=dealt)


def collected_pots(state: HandState) -> list[Pot]:
    """The pots formed so far from earlier rounds (R20, D7); dead money
    (untrimmed antes, dead blinds) joins the main pot."""
    pots = build_pots(state.committed, state.folded)
    if state.dead:
        if pots:
            pots[0] = Pot(pots[0].amount + state.dead, pots[0].eligible)
        else:
            live = tuple(seat for seat in range(state.seat_count) if not state.folded[seat])
            pots = [Pot(state.dead, live)]
    return pots


def _finish(state: HandState, events: list[Event], *, showdown: bool) -> HandState:
    """Award every pot (R16, R17, R20, R22) and end the hand."""
    n = state.seat_count
    setup = state.setup
    pots = collected_pots(state)
    payouts = [0] * n
    shown = [False] * n
    ranks: dict[int, int] = {}
    if showdown:
        board = state.board
        for seat in range(n):
            cards = setup.hole[seat] if setup.hole else None
            if state.folded[seat] or cards is None:
                continue  # R17: a mucked (unknown) hand cannot win
            rank = hand_rank(cards + board)
            ranks[seat] = rank
            shown[seat] = True
            events.append(CardsShown(seat, cards, rank))
    for index, pot in enumerate(pots):
        if showdown:
            contenders = [seat for seat in pot.eligible if seat in ranks] or (
                list(pot.eligible) if len(pot.eligible) == 1 else []  # uncontested: no need to show (R16)
            )
            if not contenders:
                raise InvalidInput(f"no shown hand can win pot {index + 1} (eligible: {', '.join(setup.name(s) for s in pot.eligible)})")
            best = max(ranks.get(seat, 0) for seat in contenders)
            winners = [seat for seat in contenders if ranks.get(seat, 0) == best]
        else:
            winners = list(pot.eligible)
            best = 0
        shares = split_pot(pot.amount, winners, seat_count=n, button=setup.button)
        for seat, chips in shares:
            payouts[seat] += chips
        events.append(PotAwarded(index, pot.amount, pot.eligible, tuple(shares), best))
    done = _evolve(
        state,
        committed=(0,) * n,
        dead=0,
        actor=-1,
        finished=True,
        showdown=showdown,
        payouts=tuple(payouts),
        shown=tuple(shown),
    )
    events.append(HandEnded(done.final_stacks(), showdown))
    return done
