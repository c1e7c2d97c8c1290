"""What one seat (or a spectator) may see — the only serialiser of state
for clients (design principle 5, R8, R16, R17).

A seat sees its own hole cards; nobody sees another player's cards unless
the hand reached a showdown and that player's hand was shown (R17).  Hands
won without a showdown show no cards at all (R16).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from freezeout.cards import Card, format_cards
from freezeout.rules.events import Event
from freezeout.rules.hand import collected_pots
from freezeout.rules.legal import LegalActions
from freezeout.rules.tournament import Tournament, blinds_for_hand

__all__ = ["SPECTATOR", "SeatView", "TableView", "seat_view", "view_dicts"]

SPECTATOR = None


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    player: str
    stack: int
    bet: int
    in_tournament: bool
    in_hand: bool
    folded: bool
    all_in: bool
    place: int | None
    forfeits: int
    cards: tuple[Card, ...] | None  # None: hidden or not dealt

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player,
            "stack": self.stack,
            "bet": self.bet,
            "in_tournament": self.in_tournament,
            "in_hand": self.in_hand,
            "folded": self.folded,
            "all_in": self.all_in,
            "place": self.place,
            "forfeits": self.forfeits,
            "cards": format_cards(self.cards) if self.cards is not None else None,
        }


@dataclass(frozen=True, slots=True)
class TableView:
    viewer: int | None
    hand_number: int
    button: int
    small_blind: int
    big_blind: int
    hands_to_next_level: int
    seats: tuple[SeatView, ...]
    board: tuple[Card, ...]
    pots: tuple[tuple[int, tuple[int, ...]], ...]  # (amount, eligible table seats)
    to_act: int
    legal: dict[str, Any] | None
    hand_over: bool
    showdown: bool
    finished: bool
    winner: int | None
    history: tuple[Event, ...] = ()  # public events of the current hand, table seats
    past: tuple[tuple[Event, ...], ...] = ()  # public events of each earlier hand, oldest first

    def to_dict(self) -> dict[str, Any]:
        return {
            "viewer": self.viewer,
            "hand_number": self.hand_number,
            "button": self.button,
            "blinds": [self.small_blind, self.big_blind],
            "hands_to_next_level": self.hands_to_next_level,
            "seats": [seat.to_dict() for seat in self.seats],
            "board": format_cards(self.board),
            "pots": [{"amount": amount, "eligible": list(eligible)} for amount, eligible in self.pots],
            "to_act": self.to_act,
            "legal": self.legal,
            "hand_over": self.hand_over,
            "showdown": self.showdown,
            "finished": self.finished,
            "winner": self.winner,
        }


def _legal_dict(legal: LegalActions | None, viewer: int | None) -> dict[str, Any] | None:
    """The moves open to ``viewer`` when it is that seat's turn (else ``None``)."""
    if legal is None or legal.seat != viewer:
        return None
    return {
        "moves": list(legal.moves),
        "call": legal.call_amount,
        "to_match": legal.to_match,
        "min_to": legal.min_to if legal.can_raise else None,
        "max_to": legal.max_to if legal.can_raise else None,
        "all_in_to": legal.all_in_to,
    }


def _own_cards(tournament: Tournament, seat: int) -> tuple[Card, ...] | None:
    """The hole cards ``seat`` itself sees (``None`` when it is not dealt in)."""
    hand = tournament.hand
    if hand is None or seat not in tournament.seats:
        return None
    return hand.setup.hole[tournament.seats.index(seat)]


def view_dicts(tournament: Tournament, viewers: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """``seat_view(tournament, v).to_dict()`` for every ``v`` in ``viewers``, equal key for key.

    A server tells every seat of a table about each change, and the seats'
    views differ only in ``viewer``, the viewer's own hole cards and
    ``legal``: this builds the spectator's view once and patches those three
    fields per seat instead of rebuilding the whole view for each.  The
    dicts share their unchanged parts, so callers must treat them as
    read-only."""
    base = seat_view(tournament, None).to_dict()
    legal = tournament.legal_actions()
    result: dict[int | None, dict[str, Any]] = {}
    for viewer in viewers:
        if viewer in result:
            continue
        if viewer is None:
            result[None] = base
            continue
        view = dict(base)
        view["viewer"] = viewer
        seats: list[dict[str, Any]] = base["seats"]
        if 0 <= viewer < len(seats) and seats[viewer]["cards"] is None:
            cards = _own_cards(tournament, viewer)
            if cards is not None:
                seats = list(seats)
                seats[viewer] = {**seats[viewer], "cards": format_cards(cards)}
                view["seats"] = seats
        view["legal"] = _legal_dict(legal, viewer)
        result[viewer] = view
    return result


def seat_view(tournament: Tournament, viewer: int | None) -> TableView:
    """Build exactly what ``viewer`` (a table seat, or ``None`` for a
    spectator) may see of ``tournament``."""
    hand = tournament.hand
    n = len(tournament.players)
    stacks = tournament.current_stacks()
    seats: list[SeatView] = []
    for seat in range(n):
        hand_seat = tournament.seats.index(seat) if hand is not None and seat in tournament.seats else -1
        in_hand = hand_seat >= 0
        cards: tuple[Card, ...] | None = None
        folded = all_in = False
        bet_amount = 0
        if in_hand and hand is not None:
            hole = hand.setup.hole[hand_seat]
            folded = hand.folded[hand_seat]
            bet_amount = hand.bets[hand_seat]
            all_in = not folded and hand.stacks[hand_seat] == 0 and not hand.finished
            revealed = hand.finished and hand.showdown and hand.shown[hand_seat]
            if hole is not None and (seat == viewer or revealed):
                cards = hole
        seats.append(
            SeatView(
                seat=seat,
                player=tournament.players[seat],
                stack=stacks[seat],
                bet=bet_amount,
                in_tournament=tournament.alive[seat],
                in_hand=in_hand and not folded,
                folded=bool(folded),
                all_in=bool(all_in),
                place=tournament.places[seat],
                forfeits=tournament.forfeits[seat],
                cards=cards,
            )
        )
    pots: tuple[tuple[int, tuple[int, ...]], ...] = ()
    board: tuple[Card, ...] = ()
    if hand is not None:
        board = hand.board
        if not hand.finished:
            pots = tuple(
                (pot.amount, tuple(tournament.seats[s] for s in pot.eligible))
                for pot in collected_pots(hand)
            )
    legal_dict = _legal_dict(tournament.legal_actions(), viewer)
    number = tournament.hand_number
    per_level = tournament.config.hands_per_level
    if hand is not None:
        small, big = blinds_for_hand(number, tournament.config.levels, per_level)
    else:
        small, big = tournament.next_blinds()
    return TableView(
        viewer=viewer,
        hand_number=number,
        button=tournament.button,
        small_blind=small,
        big_blind=big,
        hands_to_next_level=per_level - ((max(number, 1) - 1) % per_level) - 1,
        seats=tuple(seats),
        board=board,
        pots=pots,
        to_act=tournament.to_act,
        legal=legal_dict,
        hand_over=hand is None or hand.finished,
        showdown=bool(hand is not None and hand.finished and hand.showdown),
        finished=tournament.finished,
        winner=tournament.winner if tournament.finished else None,
        history=tournament.hand_log,
        past=tournament.past_logs,
    )

