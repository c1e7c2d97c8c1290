"""Range charts (formats.md §3): ask a bot's real decision function, class by class.

For each of the 169 classes a synthetic hand is set up through the public
rules API — equal stacks of ``BB`` big blinds, the class dealt to the
position asked, everyone before it folding (or, for ``bb``, the small blind
all-in) — and the bot is shown exactly its seat's view.  Bots that expose
``allin_probability(view)`` report exact probabilities; for the others the
real ``act`` is sampled with fixed seeds.
"""

from __future__ import annotations

import random
from typing import Any, Final

from freezeout.bots.base import Bot
from freezeout.bots.classes import CLASS_COUNT, CLASS_NAMES, class_cards
from freezeout.cards import Card
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.views import TableView, seat_view

__all__ = ["CHART_FORMAT", "POSITIONS", "chart", "chart_view", "draw_chart"]

CHART_FORMAT: Final = "freezeout.chart/1"
SAMPLES: Final = 64
_SMALL, _BIG = 50, 100  # big blind of 100 chips: stacks to 0.01 bb
# Seats with the button on seat 0: heads-up 0 = small blind, 1 = big blind;
# 3-4 players 1 = small blind, 2 = big blind, 3 = first to act (4 players).
POSITIONS: Final[dict[int, dict[str, int]]] = {
    2: {"sb": 0, "btn": 0, "bb": 1},
    3: {"btn": 0, "sb": 1, "bb": 2},
    4: {"co": 3, "utg": 3, "btn": 0, "sb": 1, "bb": 2},
}


def chart_view(players: int, stack_bb: float, position: str, hand_class: int) -> TableView:
    """The view of ``position`` holding ``hand_class`` when the action reaches it."""
    seats = POSITIONS.get(players)
    if seats is None or position not in seats:
        raise ValueError(f"position {position!r} is not one of {sorted(seats or {})} for {players} players")
    target = seats[position]
    stack = round(stack_bb * _BIG)
    if stack <= 0:
        raise ValueError("the stack must be positive")
    config = TournamentConfig(
        players=tuple(f"p{i}" for i in range(players)),
        button=0,
        starting_stack=stack,
        levels=((_SMALL, _BIG),),
    )
    mine = class_cards(hand_class)
    rest = [Card(c) for c in range(52) if c not in mine]
    hole = {}
    for seat in range(players):
        hole[seat] = (Card(mine[0]), Card(mine[1])) if seat == target else (rest.pop(), rest.pop())
    tournament, _ = Tournament.start(config).deal(hole, rest[:5])
    shover = 0 if players == 2 else 1  # the small blind shoves into the big blind
    while tournament.to_act != target:
        seat = tournament.to_act
        if seat < 0:
            raise ValueError(f"the action never reaches {position} at {stack_bb} bb")
        kind = ActionKind.ALLIN if position == "bb" and seat == shover else ActionKind.FOLD
        tournament, _ = tournament.act(Action(seat, kind))
    return seat_view(tournament, target)


def _goes_allin(view: TableView, action: Action) -> bool:
    legal = view.legal
    assert legal is not None
    if action.kind is ActionKind.ALLIN:
        return True
    if action.kind in (ActionKind.BET, ActionKind.RAISE):
        return bool(action.amount == legal.all_in_to)
    facing_allin = any(s.all_in for s in view.seats)
    return facing_allin and action.kind is ActionKind.CALL


def allin_probability(bot: Bot, view: TableView) -> float:
    exact = getattr(bot, "allin_probability", None)
    if callable(exact):
        return float(exact(view))
    hits = sum(_goes_allin(view, bot.act(view, random.Random(seed))) for seed in range(SAMPLES))
    return hits / SAMPLES


def chart(bot: Bot, *, players: int, stack_bb: float, position: str) -> dict[str, Any]:
    """The ``freezeout.chart/1`` document."""
    allin = {}
    for index in range(CLASS_COUNT):
        view = chart_view(players, stack_bb, position, index)
        allin[CLASS_NAMES[index]] = round(allin_probability(bot, view), 6)
    stack: float | int = int(stack_bb) if float(stack_bb).is_integer() else stack_bb
    return {
        "format": CHART_FORMAT,
        "bot": bot.name,
        "players": players,
        "stack_bb": stack,
        "position": position,
        "allin": allin,
    }


def draw_chart(document: dict[str, Any], path: str) -> None:
    """Draw the 13×13 grid (pairs on the diagonal, suited above) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    values = [[document["allin"][CLASS_NAMES[r * 13 + c]] for c in range(13)] for r in range(13)]
    figure, axes = plt.subplots(figsize=(7.5, 7.5), dpi=100)
    axes.imshow(values, cmap="RdYlGn", vmin=0.0, vmax=1.0)
    for r in range(13):
        for c in range(13):
            p = values[r][c]
            axes.text(
                c, r - 0.12, CLASS_NAMES[r * 13 + c], ha="center", va="center", fontsize=8, weight="bold"
            )
            axes.text(c, r + 0.25, f"{p:.0%}" if p > 0 else "", ha="center", va="center", fontsize=6)
    axes.set_xticks([])
    axes.set_yticks([])
    verb = "call" if document["position"] == "bb" else "all-in"
    axes.set_title(
        f"{document['bot']}: {verb} at {document['stack_bb']} bb, {document['position']}, {document['players']} players"
    )
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
