"""Scripted tables of any game (issue #22 "The page"): the server's own
messages for a hand of any variant or mix, dealt from a deck the test orders.

:class:`GameScript` is :class:`scripted.Script` over the server's own
:class:`~freezeout.server.table.freezeout.FreezeoutGame` instead of the house
tournament: the views come from ``FreezeoutGame.view_dicts`` (card slots, the
level schedule, a mix's next game: exactly what a table of that game sends)
and the table summary names the game as ``table/actor.py`` does.  So a layout test
can put every game's largest hand on the felt (seven stud cards at four
seats, five draw cards and the picker, four Omaha cards and a full board)
at once and every time, without waiting for bots to get there.
"""

from __future__ import annotations

import random
from typing import Any

from scripted import Script

from freezeout.cards import Card
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.tournament import Tournament
from freezeout.server.gamespec import GameSpec
from freezeout.server.table.freezeout import FreezeoutGame

__all__ = ["GameScript", "play_to_showdown"]


class GameScript(Script):
    """One freezeout of ``code`` (a variant or a mix) as the server tells it to ``viewer``."""

    def __init__(self, code: str, players: list[str], *, button: int = 0, viewer: int | None = 0,
                 bots: dict[int, str] | None = None) -> None:
        self.spec = GameSpec.parse(code)
        self.game = FreezeoutGame.start(self.spec, tuple(players), button)
        self.players = players
        self.viewer = viewer
        self.bots = bots or {}
        self.ranked = False
        self.version = 10
        self.now = 1_700_000_000.0
        self.turn_started = self.now
        self.hand_ended_at: float | None = None
        self.pause = 4.0
        self.feed_pending: list[dict[str, Any]] = []  # events of moves not yet fed to the page
        self.served: list[Any] = []  # Script.feed's pages (no replayer here: serve_steps answers nothing)

    def serve_steps(self, page: Any) -> None:
        """These scripts check the table's layout; they never open the replayer."""

    @property  # type: ignore[override]
    def t(self) -> Tournament:
        return self.game.tournament

    # -- the game ---------------------------------------------------------
    def deal_seeded(self, seed: int) -> list[dict[str, Any]]:
        """The next hand from the game's deck shuffled by ``seed`` (R2, V16)."""
        deck = list(self.game.variant.deck)
        random.Random(seed).shuffle(deck)
        self.game, events = self.game.deal(deck)
        self.turn_started = self.now
        self.hand_ended_at = None
        return self._public(events)

    def act(self, seat: int, move: str, amount: int | None = None) -> list[dict[str, Any]]:
        was_in_hand = self.game.in_hand
        self.game, events = self.game.apply(Action.parse(seat, move, amount))
        return self._after(was_in_hand, events)

    def draw(self, seat: int, count: int) -> list[dict[str, Any]]:
        """``seat`` throws its first ``count`` cards (V11), or stands pat."""
        was_in_hand = self.game.in_hand
        held = self.cards_of(seat)
        action = (Action(seat, ActionKind.DISCARD, cards=tuple(held[:count])) if count
                  else Action(seat, ActionKind.STANDPAT))
        self.game, events = self.game.apply(action)
        return self._after(was_in_hand, events)

    def _after(self, was_in_hand: bool, events: list[Any]) -> list[dict[str, Any]]:
        self.turn_started = self.now
        if was_in_hand and not self.game.in_hand:
            self.hand_ended_at = self.now
        return self._public(events)

    def cards_of(self, seat: int) -> list[Card]:
        hand = self.t.hand
        assert hand is not None
        return [c for c in hand.cards[self.t.seats.index(seat)] if c is not None]

    def table(self) -> dict[str, Any]:
        data = super().table()
        data["table_game"] = self.spec.summary()
        return data

    def view(self) -> dict[str, Any]:
        return self.game.view_dicts([self.viewer])[self.viewer]


def bot_move(s: GameScript, raises: int) -> tuple[str, int | None]:
    """A bot's move that leaves chips on the felt: a bet or raise while the round has fewer
    than ``raises`` (a fixed-limit round allows more), else a call or check; a stud
    opener brings in.  Returns the move and its amount (None: the rules' size)."""
    legal = s.game.legal_actions()
    assert legal is not None
    moves = legal.moves
    for word in ("bet", "raise", "complete"):
        if word in moves and raises > 0:
            return word, legal.min_to
    for word in ("check", "call", "bringin"):
        if word in moves:
            return word, None
    raise AssertionError(f"no passive move in {moves}")


def play_to_showdown(s: GameScript, me: int, on_my_turn: Any, *, draw: int = 2, raises: int = 2) -> list[dict[str, Any]]:
    """Play the current hand to its end: the bots bet and raise (``raises`` per round at most)
    and throw ``draw`` cards; at each of ``me``'s turns ``on_my_turn(s, legal)`` is called
    first (the page shows that turn), then ``me`` calls or checks, or throws two cards.
    Returns the events since the last call of ``on_my_turn`` (the ones not yet fed)."""
    events: list[dict[str, Any]] = []
    round_raises: dict[int, int] = {}
    while s.game.in_hand:
        legal = s.game.legal_actions()
        assert legal is not None
        seat = s.game.to_act
        drawing = "discard" in legal.moves or "standpat" in legal.moves
        if seat == me:
            s.feed_pending = events
            on_my_turn(s, legal)
            events = []
            if drawing:
                events += s.draw(me, min(2, legal.draw or 0))
            else:
                events += s.act(me, next(w for w in ("check", "call", "bringin") if w in legal.moves))
            continue
        if drawing:
            events += s.draw(seat, min(draw, legal.draw or 0))
            continue
        key = s.t.hand.street if s.t.hand is not None else 0
        done = round_raises.get(key, 0)
        move, amount = bot_move(s, raises - done)
        if move in ("bet", "raise", "complete"):
            round_raises[key] = done + 1
        events += s.act(seat, move, amount)
    return events


