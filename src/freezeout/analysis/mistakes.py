"""Push/fold decisions of the house game held against the stored equilibrium.

A push/fold spot is a preflop decision where every earlier voluntary move
was an all-in or a fold, and the player goes all-in, calls one, or folds.
The stored solutions (:mod:`freezeout.bots.pushfold`, ``data/pushfold.npz``)
cover equal stacks of ``S`` big blinds without antes; a hand maps onto them
by its **effective stack**: the smaller of the two stacks heads-up (chips
beyond it are never at risk), the actor's stack capped by the largest other
stack 3–4 handed, rounded to the nearest stored depth (heads-up every
0.25 bb from 1 to 30; 3–4 handed 1.5–20 bb).  Deeper spots, hands with
antes and moves off the push/fold tree (a limp, a raise short of all-in)
are not reviewed.

Heads-up, the EV of each move is computed against the opponent's
equilibrium strategy at that depth, hand class by hand class with the
class-pair equities and combo counts of :mod:`freezeout.bots.equity_table`
(card removal at the class level); ``ev_loss_bb`` is the best move's EV
minus the chosen one's.  3–4 handed the EVs are estimated by
:mod:`.multiway_ev` over sampled deals with the player's cards fixed;
``ev_error_bb`` is their 95 % error, and a loss counts as a mistake only
beyond it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

import numpy as np

from freezeout.rules.events import ActionTaken, BlindPosted, CardsDealt, Event, HandStarted, StreetDealt

__all__ = ["MISTAKE_BB", "Decision", "push_fold_decisions"]

#: An EV loss at least this large (big blinds) counts as a mistake.
MISTAKE_BB: Final = 0.05
HU_DEEPEST: Final = 30.125
MULTIWAY_DEEPEST: Final = 20.5


@dataclass(frozen=True, slots=True)
class Decision:
    player: str
    position: str  # "SB", "BB", "BTN", "CO"
    cards: str
    action: str  # "push", "call", "fold"
    stack_bb: float  # effective stack
    depth_bb: float | None  # the stored depth it maps onto
    equilibrium: str | None  # the equilibrium's more likely move
    equilibrium_probability: float | None  # its probability of pushing / calling
    ev: dict[str, float] | None  # EV (bb) of each move against the equilibrium
    ev_loss_bb: float | None
    reason: str | None = None  # why it is not reviewed
    ev_error_bb: float = 0.0  # 3-4 handed: the 95 % error of the sampled EVs

    @property
    def mistake(self) -> bool:
        """A loss of at least :data:`MISTAKE_BB`, beyond its sampling error."""
        if self.ev_loss_bb is not None:
            return bool(self.ev_loss_bb - self.ev_error_bb >= MISTAKE_BB)
        return False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "player": self.player,
            "position": self.position,
            "cards": self.cards,
            "action": self.action,
            "stack_bb": round(self.stack_bb, 2),
            "depth_bb": self.depth_bb,
            "equilibrium": self.equilibrium,
            "equilibrium_probability": None if self.equilibrium_probability is None
            else round(self.equilibrium_probability, 4),
            "ev": None if self.ev is None else {move: round(value, 4) for move, value in self.ev.items()},
            "ev_loss_bb": None if self.ev_loss_bb is None else round(self.ev_loss_bb, 4),
            "mistake": self.mistake,
        }
        if self.ev_error_bb:
            data["ev_error_bb"] = round(self.ev_error_bb, 4)
        if self.reason is not None:
            data["reason"] = self.reason
        return data


@dataclass(frozen=True, slots=True)
class _Stored:
    """``data/pushfold.npz`` read directly (``freezeout.bots.pushfold`` would import scipy's solver)."""

    grid: Any
    push: Any
    call: Any
    multiway: dict[int, Any]

    def index(self, stack_bb: float) -> int:
        return int(np.abs(self.grid - stack_bb).argmin())


@cache
def _stored() -> _Stored:
    from freezeout.bots.equity_table import DATA_DIR

    with np.load(DATA_DIR / "pushfold.npz") as data:
        multiway = {n: data[f"multiway_{n}"] for n in (3, 4) if f"multiway_{n}" in data}
        return _Stored(data["grid"], data["push"], data["call"], multiway)


def _positions(players: int) -> tuple[str, ...]:
    return {2: ("SB", "BB"), 3: ("BTN", "SB", "BB"), 4: ("CO", "BTN", "SB", "BB")}[players]


def push_fold_decisions(events: Sequence[Event], names: Sequence[str]) -> list[Decision]:
    """The hand's push/fold decisions, each against the stored equilibrium."""
    start = next((event for event in events if isinstance(event, HandStarted)), None)
    dealt = next((event for event in events if isinstance(event, CardsDealt)), None)
    if start is None or dealt is None or not 2 <= len(start.seats) <= 4 or start.big_blind <= 0:
        return []
    holes = dict(dealt.hole)
    blinds = {event.kind: event.seat for event in events if isinstance(event, BlindPosted)}
    if "small blind" not in blinds or "big blind" not in blinds:
        return []
    if any(isinstance(event, BlindPosted) and event.all_in for event in events):
        return []  # a blind all-in: nobody faces a push/fold choice as solved
    seats = list(start.seats)  # the seats dealt in, in table order
    players = len(seats)
    after = seats.index(blinds["big blind"]) + 1
    order = [seats[(after + k) % players] for k in range(players)]  # preflop order, the big blind last
    positions = dict(zip(order, _positions(players), strict=True))
    stacks = dict(zip(seats, start.stacks, strict=True))
    history: list[bool] = []
    decisions: list[Decision] = []
    for event in events:
        if isinstance(event, StreetDealt):
            break
        if not isinstance(event, ActionTaken):
            continue
        if event.forced or event.seat != order[len(history)]:
            break
        if event.kind == "fold":
            move = "fold"
        elif event.all_in or (event.kind == "call" and any(history)):
            move = "call" if any(history) else "push"
        else:
            break  # off the push/fold tree
        cards = holes.get(event.seat, ())
        if len(cards) != 2 or None in cards:
            break
        others = [stacks[seat] for seat in order if seat != event.seat]
        effective = min(stacks[event.seat], max(others)) / start.big_blind
        decision = _judge(players, tuple(history), event.seat, positions[event.seat], names[event.seat],
                          (int(cards[0]), int(cards[1])), move, effective, start.ante > 0)  # type: ignore[arg-type]
        decisions.append(decision)
        history.append(move != "fold")
        if len(history) == players - 1 and not any(history):
            break
        if len(history) == players:
            break
    return decisions


def _judge(
    players: int, history: tuple[bool, ...], seat: int, position: str, player: str,
    cards: tuple[int, int], move: str, effective: float, antes: bool,
) -> Decision:
    from freezeout.bots.classes import class_of_cards
    from freezeout.cards import Card

    text = f"{Card(cards[0])}{Card(cards[1])}"
    hand_class = class_of_cards(*cards)
    solved = _stored()

    def not_reviewed(reason: str) -> Decision:
        return Decision(player, position, text, move, effective, None, None, None, None, None, reason)

    if antes:
        return not_reviewed("antes: the stored solutions have none")
    if players == 2:
        if effective > HU_DEEPEST:
            return not_reviewed("deeper than the stored heads-up depths (1-30 bb)")
        return _heads_up(solved, history, player, position, text, hand_class, move, effective)
    from freezeout.bots.multiway import MULTIWAY_GRID, node_index

    if players not in solved.multiway or effective > MULTIWAY_DEEPEST:
        return not_reviewed(f"deeper than the stored {players}-handed depths (1.5-20 bb)")
    from freezeout.analysis.multiway_ev import multiway_ev

    depth_index = int(np.abs(MULTIWAY_GRID - effective).argmin())
    depth = float(MULTIWAY_GRID[depth_index])
    strategy = solved.multiway[players][depth_index]
    probability = float(strategy[node_index(players, history), hand_class])
    wanted = ("call" if any(history) else "push") if probability >= 0.5 else "fold"
    try:
        ev, error = multiway_ev(players, history, cards, depth, strategy)
    except ValueError as problem:
        return Decision(player, position, text, move, effective, depth, wanted, probability, None, None, str(problem))
    loss = max(ev.values()) - ev[move]
    return Decision(player, position, text, move, effective, depth, wanted, probability, ev, loss, None, float(error))


def _heads_up(
    solved: _Stored, history: tuple[bool, ...], player: str, position: str, text: str,
    hand_class: int, move: str, effective: float,
) -> Decision:
    from freezeout.bots.equity_table import load_equity

    table = load_equity()
    index = solved.index(effective)
    depth = float(solved.grid[index])
    if not history:  # the small blind: push or fold against the big blind's calling range
        call = solved.call[index]
        weights = table.pairs[hand_class]
        called = depth * (2.0 * table.equity[hand_class] - 1.0)
        push = float((weights * ((1.0 - call) * 1.0 + call * called)).sum() / weights.sum())
        ev = {"push": push, "fold": -0.5}
        probability = float(solved.push[index, hand_class])
        wanted = "push" if probability >= 0.5 else "fold"
    else:  # the big blind facing a push: call or fold against the small blind's pushing range
        pushing = solved.push[index] * table.pairs[:, hand_class]
        if pushing.sum() <= 0:
            return Decision(player, position, text, move, effective, depth, None, None, None, None,
                            "the equilibrium never pushes into this hand")
        called = -depth * (2.0 * table.equity[:, hand_class] - 1.0)
        ev = {"call": float((pushing * called).sum() / pushing.sum()), "fold": -1.0}
        probability = float(solved.call[index, hand_class])
        wanted = "call" if probability >= 0.5 else "fold"
    loss = max(ev.values()) - ev[move]
    return Decision(player, position, text, move, effective, depth, wanted, probability, ev, loss)
