"""The cash game behind ``freezeout play --cash``: one human at a cash table against bots.

A :class:`CashSession` owns a :class:`~freezeout.rules.cash.CashTable` (a
frozen value it replaces after every request, C1–C14) and the human's local
play-chip balance.  The human buys in from the balance, plays, tops up
between hands (C2), sits out and in (C3, C4), and leaves with the chips back
on the balance; the bots are regulars as at the room's cash tables
(server/table/bots.py): each buys in for the maximum, tops up below half of
it (a rebuy when it lost everything), and plays from the view a human in its
seat would have (:func:`freezeout.bots.cashview.cash_table_view`), so
``hard`` plays its deep-stack game at 100 big blinds.  Every chip is
accounted for: :meth:`CashSession.chips` is the balance plus the human's
stack, and the bots' chips are theirs.

No clock and no I/O: the textual app (terminal/cashapp.py) decides *when* to
call it; randomness is injected as in :class:`~.session.GameSession` (a seed
splits one root into the decks and the bots' choices).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from freezeout.bots.cashview import cash_table_view, current_variant
from freezeout.cards import Card, system_random
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.cash import CashConfig, CashTable, Status
from freezeout.rules.cashevents import TableEvent
from freezeout.rules.errors import IllegalAction, InvalidInput, RulesError
from freezeout.rules.games import Game, parse_game
from freezeout.rules.legal import LegalActions
from freezeout.rules.variant import UnsupportedVariant
from freezeout.rules.views import TableView
from freezeout.terminal.session import HUMAN, Bot

__all__ = ["DEFAULT_BALANCE", "DEFAULT_BIG_BLIND", "CashSession"]

DEFAULT_BALANCE: Final = 10_000  # as the room's starting grant (C9)
DEFAULT_BIG_BLIND: Final = 20  # the house game's first level's big blind: 10/20 blinds


def _safe(legal: LegalActions | None) -> ActionKind:
    if legal is not None and legal.draw:
        return ActionKind.STANDPAT
    if legal is not None and legal.bring_in:
        return ActionKind.BRINGIN
    return ActionKind.CHECK if legal is not None and legal.can_check else ActionKind.FOLD


class CashSession:
    """The human (seat 0) and ``players - 1`` bots at a cash table of ``game`` with a big blind of
    ``big_blind`` (C1's buy-ins: 20 to 100 big blinds, 100 big bets in limit games).  The human
    buys in for ``buy_in`` chips (default: the maximum, or the balance if that is less)."""

    def __init__(
        self,
        bots: Bot | Sequence[Bot],
        *,
        game: str | Game = "NT",
        players: int = 4,
        big_blind: int = DEFAULT_BIG_BLIND,
        buy_in: int | None = None,
        balance: int = DEFAULT_BALANCE,
        seed: int | None = None,
        bot_level: str = "bot",
    ) -> None:
        try:
            self.game: Game = parse_game(game) if isinstance(game, str) else game
        except UnsupportedVariant as error:
            raise ValueError(str(error)) from None
        if type(big_blind) is not int or big_blind < 2:
            raise ValueError(f"the big blind is a whole number of at least 2 chips, not {big_blind!r}")
        try:
            config = CashConfig(game=self.game, blinds=(big_blind // 2, big_blind), seats=players)
        except RulesError as error:
            raise ValueError(str(error)) from None
        bot_list = list(bots) if isinstance(bots, Sequence) else [bots] * (players - 1)
        if len(bot_list) != players - 1:
            raise ValueError(f"need {players - 1} bots for {players} players, got {len(bot_list)}")
        if balance < config.min_buy_in:
            raise ValueError(f"a balance of {balance} cannot buy in here: the minimum is {config.min_buy_in}")
        chips = min(config.max_buy_in, balance) if buy_in is None else buy_in
        self.human = HUMAN
        self.bot_level = bot_level
        self.names = (HUMAN, *(f"bot{i}" for i in range(1, players)))
        self._bots = dict(zip(self.names[1:], bot_list, strict=True))
        self.labels = {HUMAN: HUMAN, **{name: f"{name} ({bot_level})" for name in self.names[1:]}}
        root = random.Random(seed) if seed is not None else random.Random(system_random().getrandbits(64))
        self._deck_rng: random.Random = random.Random(root.getrandbits(64)) if seed is not None else system_random()
        self._bot_rng = random.Random(root.getrandbits(64))
        self.time = 0.0  # the table's clock for C3: one second per request (no wall clock)
        self.bot_errors: list[str] = []
        self.table = CashTable.open(config)
        self.balance = balance
        self.left_with: int | None = None  # the chips the human left with (back on the balance)
        self.buy_in(chips)
        for seat, name in enumerate(self.names[1:], start=1):
            self.table, _ = self.table.join(seat, name, config.max_buy_in, self.time, post=True)

    # -- state -------------------------------------------------------------
    @property
    def config(self) -> CashConfig:
        return self.table.config

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.player if seat is not None else "" for seat in self.table.seats)

    human_seat: Final = 0

    @property
    def seated(self) -> bool:
        return self.table.seats[0] is not None

    @property
    def human_in(self) -> bool:
        """Seated and dealt in (or to be dealt in): not sitting out, not left."""
        held = self.table.seats[0]
        return held is not None and held.status in (Status.PLAYING, Status.WAITING)

    @property
    def sitting_out(self) -> bool:
        held = self.table.seats[0]
        return held is not None and held.status in (Status.SITTING_OUT, Status.AWAY)

    @property
    def stack(self) -> int:
        return self.table.current_stacks()[0]

    @property
    def chips(self) -> int:
        """The human's chips: the balance and the stack (its part in a pot still counted)."""
        held = self.table.seats[0]
        return self.balance + (held.stack if held is not None else 0)

    @property
    def in_hand(self) -> bool:
        return self.table.in_hand

    @property
    def finished(self) -> bool:
        return not self.seated

    @property
    def human_dealt(self) -> bool:
        return self.table.in_hand and 0 in self.table.hand_seats

    @property
    def human_to_act(self) -> bool:
        return self.table.in_hand and self.table.to_act == 0

    @property
    def bot_to_act(self) -> bool:
        return self.table.in_hand and self.table.to_act > 0

    @property
    def can_deal(self) -> bool:
        """Whether the next hand can be dealt with the human in it (bots never play alone:
        while the human sits out or has no chips, they wait)."""
        if self.table.in_hand or not self.human_in:
            return False
        try:
            return 0 in self.table.plan().seats
        except RulesError:
            return False

    def view(self) -> TableView:
        return cash_table_view(self.table, 0)

    def label(self, seat: int) -> str:
        return self.labels.get(self.players[seat], self.players[seat])

    @property
    def game_name(self) -> str:
        return current_variant(self.table).name

    # -- the human's requests (each raises RulesError and changes nothing) -----
    def _tick(self) -> float:
        self.time += 1.0
        return self.time

    def buy_in(self, chips: int) -> None:
        """C1: sit down with ``chips`` from the balance."""
        if type(chips) is not int or chips <= 0:
            raise InvalidInput(f"a buy-in is a positive whole number of chips, not {chips!r}")
        if chips > self.balance:
            raise IllegalAction(f"a buy-in of {chips} is more than your balance of {self.balance}")
        self.table, _ = self.table.join(0, self.human, chips, self._tick(), post=True)
        self.balance -= chips
        self.left_with = None

    def top_up(self, chips: int | None = None) -> int:
        """C2: add chips between hands (default: back to the maximum, as far as the balance
        goes); returns the chips added."""
        held = self.table.seats[0]
        if held is None:
            raise IllegalAction("you are not seated")
        amount = min(self.config.max_buy_in - held.stack, self.balance) if chips is None else chips
        if amount <= 0:
            raise IllegalAction(f"you have the most chips allowed here ({self.config.max_buy_in})"
                                if self.balance else "your balance is empty")
        if amount > self.balance:
            raise IllegalAction(f"a top-up of {amount} is more than your balance of {self.balance}")
        self.table, _ = self.table.top_up(0, amount)
        self.balance -= amount
        return amount

    def sit_out(self) -> None:
        self.table, _ = self.table.sit_out(0)

    def sit_in(self) -> None:
        self.table, _ = self.table.sit_in(0, post=True)

    def leave(self) -> int:
        """C3: leave with the chips, between hands (in a hand: fold first, R-style, then leave);
        returns them (back on the balance)."""
        held = self.table.seats[0]
        if held is None:
            raise IllegalAction("you are not seated")
        if self.human_dealt:
            raise IllegalAction("you are in a hand: leave when it is over (C3)")
        self.table, _ = self.table.leave(0, self._tick())
        self.balance += held.stack
        self.left_with = held.stack
        return held.stack

    def act(self, kind: ActionKind, amount: int | None = None, cards: tuple[Card, ...] | None = None) -> list[TableEvent]:
        if not self.human_to_act:
            raise IllegalAction("it is not your turn")
        if kind in (ActionKind.RESIGN, ActionKind.TIMEOUT):
            raise IllegalAction("at a cash table you fold, sit out or leave")
        return self._apply(Action(0, kind, amount, cards))

    def discard(self, cards: tuple[Card, ...]) -> list[TableEvent]:
        """V11: throw ``cards`` away and draw as many; none is standing pat."""
        if not cards:
            return self.act(ActionKind.STANDPAT)
        held = self.view().seats[0].cards or ()
        stranger = [str(card) for card in cards if card not in held]
        if stranger:
            raise IllegalAction(f"you do not hold {', '.join(stranger)}: discard only cards in your hand")
        return self.act(ActionKind.DISCARD, cards=cards)

    # -- the table by itself ---------------------------------------------------
    def bot_step(self) -> list[TableEvent]:
        """The bot to act moves (a move the rules refuse is replaced by check or fold)."""
        seat = self.table.to_act
        if not self.bot_to_act:
            raise IllegalAction("no bot is to act")
        name = self.players[seat]
        action = self._bots[name].act(cash_table_view(self.table, seat), self._bot_rng)
        try:
            if action.kind in (ActionKind.RESIGN, ActionKind.TIMEOUT):
                raise IllegalAction(f"a bot may not {action.kind.value}")
            return self._apply(Action(seat, action.kind, action.amount, action.cards))
        except RulesError as error:
            self.bot_errors.append(f"hand {self.table.hand_number}: {name} {action}: {error}")
            return self._apply(Action(seat, _safe(self.table.legal_actions())))

    def bots_between_hands(self) -> None:
        """The bots top up below half the maximum (a rebuy when bust, C2), as the room's do."""
        high = self.config.max_buy_in
        for seat in range(1, len(self.table.seats)):
            held = self.table.seats[seat]
            if held is not None and held.stack * 2 < high:
                self.table, _ = self.table.top_up(seat, high - held.stack)

    def deal_next(self) -> list[TableEvent]:
        """Between hands: the bots top up, then a fresh deck (R2) deals the next hand."""
        if self.table.in_hand:
            raise IllegalAction("a hand is already in progress")
        self.bots_between_hands()
        variant = self.table.next_variant
        deck = self._shuffled(variant.deck)
        reshuffle = self._shuffled(variant.deck) if variant.has_draws else ()
        self.table, events = self.table.deal(deck, reshuffle)
        return events

    def advance(self) -> list[TableEvent]:
        """One automatic step: a bot's move, or the next deal between hands (the bots top up
        first); nothing when the human is to act or no hand can be dealt with them."""
        if self.table.in_hand:
            return self.bot_step() if self.bot_to_act else []
        self.bots_between_hands()
        return self.deal_next() if self.can_deal else []

    def play_out(self, *, max_steps: int = 100_000) -> list[TableEvent]:
        """The bots move until the human must act or the hand is over."""
        events: list[TableEvent] = []
        for _ in range(max_steps):
            if self.human_to_act or not self.table.in_hand:
                return events
            events.extend(self.bot_step())
        raise RuntimeError(f"the hand did not end within {max_steps} steps")

    def close(self) -> int:
        """Quitting: the hand in progress is folded out (the bots finish it), then the human
        leaves with the chips.  Returns the balance."""
        for _ in range(100_000):
            if not self.human_dealt:
                break
            if self.human_to_act:
                legal = self.table.legal_actions()
                self.act(ActionKind.CHECK if legal is not None and legal.can_check else ActionKind.FOLD)
            else:
                self.bot_step()
        if self.seated:
            self.leave()
        return self.balance

    # -- internals ---------------------------------------------------------
    def _shuffled(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        deck = list(cards)
        self._deck_rng.shuffle(deck)
        return tuple(deck)

    def _apply(self, action: Action) -> list[TableEvent]:
        self.table, events = self.table.act(action, 0.0)
        return events
