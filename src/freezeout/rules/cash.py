"""A cash table around the hands (C1–C11, V19), as a fold like the freezeout.

A :class:`CashTable` is a frozen value: every request — take a seat, add
chips, sit out or in, leave, straddle, agree to run it twice, deal, act —
returns the new table and the events it caused, or raises the engine's
:class:`IllegalAction` / :class:`InvalidInput` and changes nothing.  No
clock (the time of a request comes in as ``now``, seconds on any clock the
caller keeps), no randomness (decks come in), no I/O.

The choices the rules leave open, and why (docs/rules.md, C section):

* **Dead button** (C10 follows the WSOP live-action rules, which use it;
  seed 002 asks that in a round every player plays every position): the
  big blind moves on one seat every hand to the next player who can take
  it; the small blind is the seat that had the big blind (dead — nobody
  posts it — when that player has left or sits out); the button is the
  seat that had the small blind, even when nobody plays it.  So nobody
  skips a big blind by sitting out, and the blinds a player misses are
  exactly the ones the positions passed them by.
* **Missed blinds** (C4, C10): a player sitting out whom the big blind
  passes owes a big blind (live) and a small blind (dead); one who sat out
  when the small blind came to them owes a small blind (dead).  Returning,
  they post what they owe at the next hand or wait for the big blind, which
  forgives it.  A new player posts a big blind to be dealt in at once or
  waits for it; in limit games they post.  Nobody is dealt in by posting
  while seated between the button and the big blind (the blinds just passed
  them): they come in when the button has passed them or at their big blind.
* **Stud** owes nothing: every player with chips who is not sitting out
  is dealt in and antes (C10).
* **Mixed games** (V19): the game changes every ``hands_per_game`` hands
  dealt at the table (the mix's 6 by default, as V19's levels), round and
  round; every game takes its stakes from the table's blinds
  (:func:`~freezeout.rules.tournament.game_level`).  The positions stay
  frozen through stud games and the big blind moves on from where it stood
  in the last button hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from freezeout.cards import Card
from freezeout.rules import hand as hand_engine
from freezeout.rules.actions import PLAYER_MOVES, Action, ActionKind
from freezeout.rules.cashconfig import CashConfig
from freezeout.rules.cashevents import ChipsAdded, Departure, SeatLeft, SeatTaken, StatusChanged, TableEvent
from freezeout.rules.cashpositions import (
    OWES_BIG,
    OWES_SMALL,
    CashSeat,
    HandPlan,
    Status,
    blinds_posted,
    hand_button,
    plan_hand,
    under_the_gun,
)
from freezeout.rules.errors import IllegalAction, InvalidInput
from freezeout.rules.events import (
    CardsDealt,
    CardsShown,
    Event,
    Forfeited,
    HandStarted,
    HandTurnedUp,
    PotAwarded,
    public_event,
)
from freezeout.rules.hand import HandSetup, HandState
from freezeout.rules.legal import LegalActions
from freezeout.rules.timebank import (
    TIME_BANK_EVERY,
    TIME_BANK_MAX,
    TIME_BANK_START,
    TIME_BANK_STEP,
    TURN_CLOCK,
    bank_after_hand,
    bank_after_turn,
    turn_limit,
)
from freezeout.rules.tournament import _to_table
from freezeout.rules.variant import BettingStructure, Forced, Variant

# The table's statement (C1, rules/cashconfig.py), its own events (rules/cashevents.py),
# the seats and positions (C4, C10, rules/cashpositions.py) and the time bank (C11,
# rules/timebank.py) live in modules of their own; their public names are this module's too.
__all__ = [
    "HIT_AND_RUN_SECONDS",
    "OWES_BIG",
    "OWES_SMALL",
    "TIME_BANK_EVERY",
    "TIME_BANK_MAX",
    "TIME_BANK_START",
    "TIME_BANK_STEP",
    "TURN_CLOCK",
    "CashConfig",
    "CashSeat",
    "CashTable",
    "ChipsAdded",
    "Departure",
    "HandPlan",
    "SeatLeft",
    "SeatTaken",
    "Status",
    "StatusChanged",
    "bank_after_hand",
    "bank_after_turn",
    "turn_limit",
]

#: C3: a player who left may not come back with fewer chips for 30 minutes.
HIT_AND_RUN_SECONDS: Final = 30 * 60


@dataclass(frozen=True, slots=True)
class CashTable:
    """A cash table between and during hands."""

    config: CashConfig
    seats: tuple[CashSeat | None, ...]
    hand_number: int = 0  # hands dealt so far
    button: int = -1  # the last hand's button seat (maybe dead; frozen through stud, V19)
    small_pos: int = -1  # the last button hand's small-blind seat (maybe dead)
    big_pos: int = -1  # the last button hand's big blind
    hand: HandState | None = None
    hand_seats: tuple[int, ...] = ()  # hand seat -> table seat for the current hand
    straddler: int = -1  # C6: the seat straddling the next hand
    departures: tuple[Departure, ...] = ()  # C3
    rake_total: int = 0  # C9: chips the house took, every hand
    hand_log: tuple[Event, ...] = ()  # public events of the current (or last) hand
    mucked: tuple[int, ...] = ()  # V17: the seats whose losing hands the last showdown mucked

    @classmethod
    def open(cls, config: CashConfig) -> CashTable:
        return cls(config=config, seats=(None,) * config.seats)

    # -- queries ---------------------------------------------------------
    @property
    def in_hand(self) -> bool:
        return self.hand is not None and not self.hand.finished

    @property
    def next_variant(self) -> Variant:
        return self.config.variant_for_hand(self.hand_number + 1)

    @property
    def to_act(self) -> int:
        if not self.in_hand:
            return -1
        assert self.hand is not None
        return self.hand_seats[self.hand.actor] if self.hand.actor >= 0 else -1

    def legal_actions(self) -> LegalActions | None:
        if not self.in_hand:
            return None
        assert self.hand is not None
        legal = self.hand.legal_actions()
        return None if legal is None else legal._replace(seat=self.hand_seats[legal.seat])

    def current_stacks(self) -> tuple[int, ...]:
        """Chips behind right now, per seat (0 for an empty seat)."""
        stacks = [seat.stack if seat is not None else 0 for seat in self.seats]
        if self.in_hand:
            assert self.hand is not None
            for hand_seat, seat in enumerate(self.hand_seats):
                stacks[seat] = self.hand.stacks[hand_seat]
        return tuple(stacks)

    def seat_of(self, player: str) -> int:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.player == player:
                return index
        raise InvalidInput(f"{player!r} is not seated at this table")

    def _seated(self, seat: int) -> CashSeat:
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            raise InvalidInput(f"seat {seat!r} is not at the table")
        held = self.seats[seat]
        if held is None:
            raise IllegalAction(f"seat {seat + 1} is not seated")
        return held

    def _dealt_in(self, seat: int) -> bool:
        return self.in_hand and seat in self.hand_seats

    def buy_in_range(self, player: str, now: float) -> tuple[int, int]:
        """C1, C3: the chips ``player`` (a seat's identity, :attr:`CashSeat.who`: the key
        it joined with, else its name) may sit down with now: the table's limits, but at
        least what they left with in the last 30 minutes (even above the maximum)."""
        low, high = self.config.min_buy_in, self.config.max_buy_in
        for departure in self.departures:
            if departure.player == player and now - departure.time < HIT_AND_RUN_SECONDS:
                low, high = max(low, departure.chips), max(high, departure.chips)
        return low, high

    # -- between hands: seats and chips -------------------------------------
    def join(self, seat: int, player: str, chips: int, now: float, *, post: bool | None = None,
             key: str = "", moved: bool = False) -> tuple[CashTable, list[TableEvent]]:
        """C1, C3, C4, C10: ``player`` sits down at ``seat`` with ``chips``.

        ``key`` names who the player is for C3 and C11 (the server gives the account, so
        a player who changed their shown name is still the one who left); "": the name.

        A new player posts a big blind to be dealt in at once (``post``) or
        waits for the big blind; in limit games they post (the default there;
        waiting is refused).  At a table that has not dealt a button hand
        yet, or in a stud game, nothing is owed.

        ``moved``: the player was moved here from a broken table of the same stakes (C14) and
        sits with the chips they had there, even below the minimum buy-in (or above the
        maximum); any positive number of chips."""
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            raise InvalidInput(f"seat {seat!r} is not at the table")
        if not isinstance(player, str) or not player:
            raise InvalidInput("a player is named by a non-empty id")
        if self.seats[seat] is not None:
            raise IllegalAction(f"seat {seat + 1} is taken")
        if any(held is not None and held.player == player for held in self.seats):
            raise IllegalAction(f"{player} is already seated at this table")
        if type(chips) is not int:
            raise InvalidInput(f"a buy-in is a whole number of chips, got {chips!r}")
        who = key or player
        if not isinstance(who, str):
            raise InvalidInput("a player's key is a string")
        low, high = self.buy_in_range(who, now)
        if moved:
            low, high = min(low, 1), max(high, chips)
        if not low <= chips <= high:
            why = (" (C3: within 30 minutes of leaving, at least the chips they left with)"
                   if low > self.config.min_buy_in or high > self.config.max_buy_in else " (C1)")
            raise IllegalAction(f"{player} may buy in for {low} to {high} chips, not {chips}{why}")
        variant = self.next_variant
        limit = variant.betting is BettingStructure.FIXED_LIMIT
        if post is False and limit and variant.forced is Forced.BLINDS and self.big_pos >= 0:
            raise IllegalAction(f"in limit games a new player posts a big blind (C10): {variant.name}")
        if self.big_pos < 0 or variant.forced is Forced.BRING_IN:
            status, owes = Status.PLAYING, 0  # a new game deals everyone in; stud owes nothing (C10)
        elif post or (post is None and limit):
            status, owes = Status.PLAYING, OWES_BIG  # C4: a big blind to be dealt in before their natural one
        else:
            status, owes = Status.WAITING, 0
        bank, hands = TIME_BANK_START, 0
        for departure in self.departures:  # C11: back within C3's 30 minutes, the bank they left with
            if departure.player == who and now - departure.time < HIT_AND_RUN_SECONDS:
                bank, hands = departure.time_bank, departure.hands
        seats = _set(self.seats, seat, CashSeat(player, chips, status, owes, time_bank=bank, hands=hands, key=key))
        departures = tuple(d for d in self.departures if d.player != who)
        return replace(self, seats=seats, departures=departures), [SeatTaken(seat, player, chips)]

    def top_up_range(self, seat: int) -> tuple[int, int]:
        """C1, C2: the fewest and the most chips ``seat`` may add: up to the maximum buy-in on the
        table, a rebuy (no chips left) at least the minimum buy-in; the most is below the fewest
        when no top-up fits (the table's view gives this range, the page draws it)."""
        stack = self._seated(seat).stack
        return (max(1, self.config.min_buy_in) if stack == 0 else 1), self.config.max_buy_in - stack

    def top_up(self, seat: int, chips: int) -> tuple[CashTable, list[TableEvent]]:
        """C2: add chips (a top-up, or a rebuy after losing them all) between
        hands only, within :meth:`top_up_range`."""
        held = self._seated(seat)
        if self._dealt_in(seat):
            raise IllegalAction(f"{held.player} is in a hand: chips are added only between hands (C2)")
        if type(chips) is not int or chips <= 0:
            raise InvalidInput(f"a top-up is a positive whole number of chips, got {chips!r}")
        total = held.stack + chips
        low, high = self.top_up_range(seat)
        if chips > high:
            raise IllegalAction(
                f"{held.player} may have at most {self.config.max_buy_in} chips on the table (C2): {held.stack} + {chips} is more"
            )
        if chips < low:
            raise IllegalAction(f"a rebuy is at least the minimum buy-in of {self.config.min_buy_in} chips (C1, C2)")
        seats = _set(self.seats, seat, held._replace(stack=total))
        return replace(self, seats=seats), [ChipsAdded(seat, chips)]

    def leave(self, seat: int, now: float) -> tuple[CashTable, list[TableEvent]]:
        """C3: leave with the chips, between hands (a player dealt in plays
        the hand out first); remembered for 30 minutes against hit-and-run,
        with the time bank (C11), which a return within them keeps."""
        held = self._seated(seat)
        if self._dealt_in(seat):
            raise IllegalAction(f"{held.player} is in a hand: a player leaves between hands (C3)")
        departures = (*(d for d in self.departures if d.player != held.who and now - d.time < HIT_AND_RUN_SECONDS),
                      Departure(held.who, held.stack, now, held.time_bank, held.hands))
        table = replace(self, seats=_set(self.seats, seat, None), departures=departures,
                        straddler=-1 if self.straddler == seat else self.straddler)
        return table, [SeatLeft(seat, held.player, held.stack)]

    def sit_out(self, seat: int) -> tuple[CashTable, list[TableEvent]]:
        """C3: from the next hand on, post nothing and be dealt nothing."""
        held = self._seated(seat)
        if held.status in (Status.SITTING_OUT, Status.AWAY):
            raise IllegalAction(f"{held.player} is already sitting out")
        changed = held._replace(status=Status.SITTING_OUT)
        table = replace(self, seats=_set(self.seats, seat, changed), straddler=-1 if self.straddler == seat else self.straddler)
        return table, [StatusChanged(seat, changed.status, changed.owes)]

    def sit_in(self, seat: int, *, post: bool | None = None) -> tuple[CashTable, list[TableEvent]]:
        """C4, C10: come back from sitting out.  Owing missed blinds, post
        them at the next hand (``post``; in limit games the default) or wait
        for the big blind (the default otherwise)."""
        held = self._seated(seat)
        if held.status not in (Status.SITTING_OUT, Status.AWAY):
            raise IllegalAction(f"{held.player} is not sitting out")
        variant = self.next_variant
        limit = variant.betting is BettingStructure.FIXED_LIMIT
        if not held.owes or post or (post is None and limit):
            status = Status.PLAYING
        else:
            status = Status.WAITING
        changed = held._replace(status=status, forfeits=0)
        return replace(self, seats=_set(self.seats, seat, changed)), [StatusChanged(seat, changed.status, changed.owes)]

    # -- the next hand ---------------------------------------------------
    def plan(self, straddler: int = -1) -> HandPlan:
        """Who the next hand deals in, the button and the blinds (dead-button
        rule), what returning and new players post, and whose blinds pass
        them by (C4, C6, C10)."""
        plan = plan_hand(self.seats, self.next_variant, self.button, self.small_pos, self.big_pos, self.config.first_button)
        if plan.big_blind < 0:
            return plan  # stud: no straddle (C6)
        return plan._replace(straddle=self._straddle(plan, straddler))

    def _straddle(self, plan: HandPlan, seat: int) -> int:
        """C6: ``seat``'s straddle for this plan if it may straddle, else -1."""
        if seat < 0:
            return -1
        try:
            self._check_straddle(plan, seat)
        except IllegalAction:
            return -1  # the table changed since it was asked: a voluntary blind lapses
        return seat

    def _check_straddle(self, plan: HandPlan, seat: int) -> None:
        held = self._seated(seat)
        variant = self.next_variant
        if variant.forced is not Forced.BLINDS or variant.betting is BettingStructure.FIXED_LIMIT:
            raise IllegalAction(f"no straddle in {variant.name}: straddles are for no-limit and pot-limit games here (C6)")
        if not self.config.straddles:
            raise IllegalAction("this table does not allow straddles (C6)")
        dealt = plan.seats
        if len(dealt) < 3:
            raise IllegalAction("no straddle heads-up (C6)")
        utg = under_the_gun(plan, len(self.seats))
        allowed = {utg} | ({plan.button} if self.config.button_straddle and plan.button in dealt else set())
        if seat not in allowed:
            who = "under the gun" + (" or on the button" if self.config.button_straddle else "")
            raise IllegalAction(f"{held.player} cannot straddle: only the player {who} may (C6)")
        if any(s == seat for s, _ in plan.posts):
            raise IllegalAction(f"{held.player} posts a big blind this hand and cannot straddle too (C6)")
        if held.stack < 2 * self.config.level(variant).big_blind:
            raise IllegalAction(f"{held.player} has fewer chips than a straddle of 2 big blinds (C6)")

    def may_straddle(self, seat: int) -> bool:
        """C6: whether ``seat`` may straddle the next hand as the table stands now (during a
        hand: the next one's plan), what a view offers it."""
        try:
            self._check_straddle(self.plan(), seat)
        except (IllegalAction, InvalidInput):
            return False
        return True

    def straddle(self, seat: int) -> tuple[CashTable, list[TableEvent]]:
        """C6: ``seat`` will post a straddle of 2 big blinds before the next
        deal (under the gun, or on the button where the table allows it) and
        act last before the flop.  Asked during a hand, it is for the next
        one (checked against the next hand's plan, as :meth:`may_straddle`
        offers it); if the table changes before that deal, it lapses."""
        self._check_straddle(self.plan(), seat)
        return replace(self, straddler=seat), []

    def deal(self, deck: Sequence[Card], reshuffle: Sequence[Card] = ()) -> tuple[CashTable, list[TableEvent]]:
        """Start the next hand dealing from ``deck`` (shuffled by the caller):
        the plan's players post (C4, C6, C10) and the engine deals (R2)."""
        if self.in_hand:
            raise IllegalAction("a hand is already in progress")
        plan = self.plan(self.straddler)
        number = self.hand_number + 1
        variant = self.config.variant_for_hand(number)
        level = self.config.level(variant)
        dealt = plan.seats
        k = len(dealt)
        blinds, dead, out_of_turn, kinds = [0] * k, [0] * k, [False] * k, [""] * k
        if variant.forced is Forced.BLINDS:
            blinds, dead, out_of_turn, kinds = blinds_posted(plan, level.small_blind, level.big_blind)
        setup = HandSetup(
            stacks=tuple(self._stack(seat) for seat in dealt),
            button=hand_button(plan.button, dealt, len(self.seats)),
            blinds=tuple(blinds) if any(blinds) else (),
            big_blind=level.big_blind or level.small_bet,
            antes=(level.ante,) * k if level.ante else (),
            dead=tuple(dead) if any(dead) else (),
            out_of_turn=tuple(out_of_turn) if any(out_of_turn) else (),
            bring_in=level.bring_in,
            small_bet=level.small_bet,
            big_bet=level.big_bet,
            ruleset=self.config.ruleset,
            variant=variant,
            names=tuple(self._player(seat) for seat in dealt),
            deck=tuple(deck),
            reshuffle=tuple(reshuffle),
            rake=self.config.rake,
            blind_kinds=tuple(kinds) if variant.forced is Forced.BLINDS else (),
        )
        state, hand_events = hand_engine.start_hand(setup)
        seats = list(self.seats)
        for seat, owes in plan.missed:
            held = seats[seat]
            assert held is not None
            seats[seat] = held._replace(owes=held.owes | owes)
        for seat in dealt:
            held = seats[seat]
            assert held is not None
            seats[seat] = held._replace(status=Status.PLAYING, owes=0)  # paid, or forgiven at the big blind
        small_pos, big_pos = self.small_pos, self.big_pos  # stud: frozen (V19)
        if plan.big_blind >= 0:
            # The dead-button rule moves on from the positions, dead or not: a
            # dead small blind's seat is where the button goes next.
            small_pos = plan.small_blind if plan.small_blind >= 0 else self.big_pos
            big_pos = plan.big_blind
        table = replace(self, seats=tuple(seats), hand_number=number, hand=state, hand_seats=dealt, straddler=-1,
                        hand_log=(), mucked=(), button=plan.button, small_pos=small_pos, big_pos=big_pos)
        events: list[TableEvent] = [
            HandStarted(number, plan.button, level.small_blind, level.big_blind, dealt, setup.stacks,
                        level.ante, level.bring_in, level.small_bet, level.big_bet),
            CardsDealt((), (), tuple(deck), tuple(reshuffle)),
        ]
        events.extend(_to_table(event, dealt, len(self.seats)) for event in hand_events)
        return table._after_hand_move(events)

    def _stack(self, seat: int) -> int:
        held = self.seats[seat]
        assert held is not None
        return held.stack

    def _player(self, seat: int) -> str:
        held = self.seats[seat]
        assert held is not None
        return held.player

    # -- during a hand -----------------------------------------------------
    def act(self, action: Action, thought: float = 0.0, *, bank_used: float | None = None) -> tuple[CashTable, list[TableEvent]]:
        """Apply a move by table seat ``action.seat`` after ``thought``
        seconds (C11: the time bank pays for what goes past the clock), or
        — as a table's log says it — after using ``bank_used`` seconds of
        the bank.  A ``timeout`` is R26's forfeit (the bank is spent); two
        in a row sit the player out from the next hand (C8)."""
        seat = action.seat
        held = self._seated(seat)
        if not self.in_hand:
            raise IllegalAction("no hand is in progress")
        assert self.hand is not None
        if action.kind is ActionKind.RESIGN:
            raise IllegalAction("at a cash table a player folds, sits out or leaves between hands")
        if seat not in self.hand_seats:
            raise IllegalAction(f"{held.player} is not in this hand")
        if self.to_act != seat:
            raise IllegalAction(f"it is {self._player(self.to_act)}'s turn, not {held.player}'s" if self.to_act >= 0
                                else "nobody is to act")
        hand_seat = self.hand_seats.index(seat)
        state, hand_events = hand_engine.apply(self.hand, action._replace(seat=hand_seat))
        events: list[TableEvent] = []
        if action.kind is ActionKind.TIMEOUT:
            count = held.forfeits + 1
            events.append(Forfeited(seat, count))
            changed = held._replace(forfeits=count, time_bank=0.0)
            if count >= 2 and held.status is not Status.AWAY:  # C8: sat out instead of eliminated
                changed = changed._replace(status=Status.AWAY)
                events.append(StatusChanged(seat, Status.AWAY, changed.owes))
        else:
            if bank_used is not None:
                if not bank_used >= 0:  # also NaN
                    raise InvalidInput(f"a turn cannot use {bank_used} seconds of the time bank")
                bank = max(0.0, held.time_bank - bank_used)
            else:
                bank = bank_after_turn(held.time_bank, thought)
            changed = held._replace(time_bank=bank)
            if action.kind in PLAYER_MOVES:
                changed = changed._replace(forfeits=0)  # D9
        events.extend(_to_table(event, self.hand_seats, len(self.seats)) for event in hand_events)
        moved = replace(self, hand=state, seats=_set(self.seats, seat, changed))
        return moved._after_hand_move(events)

    def agree_to_run_twice(self, seat: int, agree: bool = True) -> tuple[CashTable, list[TableEvent]]:
        """C7: a player in the pot agrees (or no longer agrees) to run the
        rest of the board twice if all chips go in before the river."""
        held = self._seated(seat)
        if not self.in_hand:
            raise IllegalAction("no hand is in progress")
        assert self.hand is not None
        if seat not in self.hand_seats:
            raise IllegalAction(f"{held.player} is not in the pot: only players in the pot agree to run it twice (C7)")
        state = hand_engine.agree_to_run_twice(self.hand, self.hand_seats.index(seat), agree)
        return replace(self, hand=state), []

    def _after_hand_move(self, events: list[TableEvent]) -> tuple[CashTable, list[TableEvent]]:
        table = self._settle()
        if table is not self and not self.config.show_called:
            mucked = _losers_mucked(events)
            if mucked:
                events = [e for e in events if not (isinstance(e, CardsShown) and e.seat in mucked)]
                table = replace(table, mucked=mucked)
        public = tuple(shown for event in events if not isinstance(event, (SeatTaken, ChipsAdded, SeatLeft, StatusChanged))
                       and (shown := public_event(event)) is not None)
        return replace(table, hand_log=table.hand_log + public), events

    def shown_down(self, seat: int) -> bool:
        """R17, V17: whether table seat ``seat``'s cards were shown at the last hand's showdown
        (not when it was mucked)."""
        hand = self.hand
        if hand is None or not hand.finished or not hand.showdown or not hand.shown or seat not in self.hand_seats:
            return False
        return bool(hand.shown[self.hand_seats.index(seat)]) and seat not in self.mucked

    def _settle(self) -> CashTable:
        """When the hand has ended: the stacks, the house's rake (C5, C9) and
        each player's hands dealt and time bank (C11)."""
        hand = self.hand
        if hand is None or not hand.finished:
            return self
        final = hand.final_stacks()
        seats = list(self.seats)
        for hand_seat, seat in enumerate(self.hand_seats):
            held = seats[seat]
            assert held is not None
            hands = held.hands + 1
            seats[seat] = held._replace(stack=final[hand_seat], hands=hands, time_bank=bank_after_hand(held.time_bank, hands))
        return replace(self, seats=tuple(seats), rake_total=self.rake_total + hand.rake)


def _losers_mucked(events: Sequence[object]) -> tuple[int, ...]:
    """V17 at a table that does not show all called hands: the seats whose hands the
    showdown mucks.  As an online site's "muck losing hands": the first hand shown (the
    last aggressor's, or the first left of the button: the called hand) is always shown,
    and so is every hand that wins or ties a share of any pot (of either run, C7, or half,
    V6); every other hand is mucked unseen.  Table seats; () without a showdown."""
    shown = [event.seat for event in events if isinstance(event, CardsShown)]
    if len(shown) < 2:
        return ()
    winners = {seat for event in events if isinstance(event, PotAwarded) for seat, _ in event.shares}
    winners |= {event.seat for event in events if isinstance(event, HandTurnedUp)}  # V20: up for the run-out, public
    return tuple(sorted(seat for seat in shown[1:] if seat not in winners))


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1:])
