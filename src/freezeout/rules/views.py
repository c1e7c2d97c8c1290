"""What one seat (or a spectator) may see — the only serialiser of state
for clients (design principle 5, R8, R16, R17, V7, V11).

A seat sees its own cards; of another player's cards it sees the face-up
ones (stud) and, if the hand reached a showdown and that hand was shown
(R17), all of them.  Hands won without a showdown show no hidden card at all
(R16); a draw shows how many cards each player changed, never which.  A
finished hand's result names, per pot and per half, the winners, the cards
that make their hands and the hands' names, so that no client needs an
evaluator of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from freezeout.cards import Card, format_cards
from freezeout.rules.events import CardsShown, Event, PotAwarded, describe
from freezeout.rules.legal import LegalActions
from freezeout.rules.showdown import best_cards, collected_pots, hand_name
from freezeout.rules.tournament import Level, Tournament

__all__ = ["SPECTATOR", "MixView", "PotView", "SeatView", "ShownHand", "TableView", "WinnerView", "seat_view", "view_dicts"]

SPECTATOR = None


def _cards_text(cards: tuple[Card | None, ...]) -> str:
    return "".join("??" if card is None else str(card) for card in cards)


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown down: its name and the cards that make it, high and (in
    split games, V6) low."""

    hand: str
    best: tuple[Card, ...]
    low: str = ""  # "" when the game has no low half or the hand has no qualifying low
    best_low: tuple[Card, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"hand": self.hand, "best": format_cards(self.best)}
        if self.low or self.best_low:
            data.update(low=self.low, best_low=format_cards(self.best_low))
        return data


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
    cards: tuple[Card | None, ...] | None  # None: nothing visible or not dealt; None inside: a hidden card
    up: tuple[bool, ...] = ()  # per card: face up for everyone (stud, V7)
    shown: ShownHand | None = None  # set once the hand was shown down (R17)
    hand: str = ""  # the name of the seat's best hand now, for the seat itself

    def to_dict(self) -> dict[str, Any]:
        data = {
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
            "cards": _cards_text(self.cards) if self.cards is not None else None,
        }
        if any(self.up):
            data["up"] = list(self.up)
        if self.shown is not None:
            data["shown"] = self.shown.to_dict()
        if self.hand:
            data["hand"] = self.hand
        return data


@dataclass(frozen=True, slots=True)
class WinnerView:
    seat: int
    chips: int
    best: tuple[Card, ...]  # the cards that make the winning hand (empty without a showdown)


@dataclass(frozen=True, slots=True)
class PotView:
    """How one pot, or one half of a split pot (V6), was won."""

    pot: int  # 0 = main pot
    half: str  # "", "high" or "low"
    amount: int
    hand: str  # the winning hand's name, "" without a showdown
    winners: tuple[WinnerView, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "pot": self.pot,
            "half": self.half,
            "amount": self.amount,
            "hand": self.hand,
            "winners": [{"seat": w.seat, "chips": w.chips, "best": format_cards(w.best)} for w in self.winners],
        }


@dataclass(frozen=True, slots=True)
class MixView:
    """V19: the mix a table plays — its code, the current game (the view's
    ``game``), the next one and how many hands after the current one are
    still dealt in this game."""

    code: str
    name: str
    games: tuple[str, ...]
    next_game: str
    hands_to_next_game: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "games": list(self.games),
            "next_game": self.next_game,
            "hands_to_next_game": self.hands_to_next_game,
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
    board: tuple[Card | None, ...]
    pots: tuple[tuple[int, tuple[int, ...]], ...]  # (amount, eligible table seats)
    to_act: int
    legal: LegalActions | None  # the viewer's moves when it is the viewer's turn
    hand_over: bool
    showdown: bool
    finished: bool
    winner: int | None
    history: tuple[Event, ...] = ()  # public events of the current hand, table seats
    past: tuple[tuple[Event, ...], ...] = ()  # public events of each earlier hand, oldest first
    game: str = "NT"  # the variant's code of the current (or last) hand (docs/formats.md)
    level: Level = Level()  # noqa: RUF009 (an immutable NamedTuple)
    drawing: bool = False  # the players are drawing (V11)
    result: tuple[PotView, ...] = ()  # once the hand is over: who won what
    mix: MixView | None = None  # V19: the table plays a mix

    def to_dict(self) -> dict[str, Any]:
        data = {
            "viewer": self.viewer,
            "hand_number": self.hand_number,
            "button": self.button,
            "blinds": [self.small_blind, self.big_blind],
            "hands_to_next_level": self.hands_to_next_level,
            "seats": [seat.to_dict() for seat in self.seats],
            "board": _cards_text(self.board),
            "pots": [{"amount": amount, "eligible": list(eligible)} for amount, eligible in self.pots],
            "to_act": self.to_act,
            "legal": self.legal.to_dict() if self.legal is not None else None,
            "hand_over": self.hand_over,
            "showdown": self.showdown,
            "finished": self.finished,
            "winner": self.winner,
        }
        if self.game != "NT" or self.mix is not None:
            data["game"] = self.game
            data["level"] = self.level._asdict()
            data["drawing"] = self.drawing
        if self.mix is not None:
            data["mix"] = self.mix.to_dict()
        if self.result:
            data["result"] = [pot.to_dict() for pot in self.result]
        return data


def _viewer_legal(legal: LegalActions | None, viewer: int | None) -> LegalActions | None:
    return legal if legal is not None and legal.seat == viewer else None


def _own_cards(tournament: Tournament, seat: int) -> tuple[Card | None, ...] | None:
    """The cards ``seat`` itself sees (``None`` when it is not dealt in)."""
    hand = tournament.hand
    if hand is None or seat not in tournament.seats:
        return None
    return hand.cards[tournament.seats.index(seat)]


def view_dicts(tournament: Tournament, viewers: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """``seat_view(tournament, v).to_dict()`` for every ``v`` in ``viewers``, equal key for key.

    A server tells every seat of a table about each change, and the seats'
    views differ only in ``viewer``, the viewer's own cards and ``legal``:
    this builds the spectator's view once and patches those three fields per
    seat instead of rebuilding the whole view for each.  The dicts share
    their unchanged parts, so callers must treat them as read-only."""
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
        if 0 <= viewer < len(seats):
            cards = _own_cards(tournament, viewer)
            if cards is not None:
                own_seat = {**seats[viewer], "cards": _cards_text(cards)}
                name = _own_hand_name(tournament, viewer)
                if name:
                    own_seat["hand"] = name
                if own_seat != seats[viewer]:
                    seats = list(seats)
                    seats[viewer] = own_seat
                    view["seats"] = seats
        own = _viewer_legal(legal, viewer)
        view["legal"] = own.to_dict() if own is not None else None
        result[viewer] = view
    return result


def seat_view(tournament: Tournament, viewer: int | None) -> TableView:
    """Build exactly what ``viewer`` (a table seat, or ``None`` for a
    spectator) may see of ``tournament``."""
    hand = tournament.hand
    n = len(tournament.players)
    stacks = tournament.current_stacks()
    shown_hands = _shown_hands(tournament)
    seats: list[SeatView] = []
    for seat in range(n):
        hand_seat = tournament.seats.index(seat) if hand is not None and seat in tournament.seats else -1
        in_hand = hand_seat >= 0
        cards: tuple[Card | None, ...] | None = None
        up: tuple[bool, ...] = ()
        folded = all_in = False
        bet_amount = 0
        if in_hand and hand is not None:
            held = hand.cards[hand_seat]
            up = hand.up[hand_seat]
            folded = hand.folded[hand_seat]
            bet_amount = hand.bets[hand_seat]
            all_in = not folded and hand.stacks[hand_seat] == 0 and not hand.finished
            revealed = hand.finished and hand.showdown and hand.shown[hand_seat]
            if seat == viewer or revealed:
                cards = held
            elif any(up):
                cards = tuple(card if face_up else None for card, face_up in zip(held, up, strict=True))
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
                up=up,
                shown=shown_hands.get(seat),
                hand=_own_hand_name(tournament, seat) if seat == viewer and not folded else "",
            )
        )
    pots: tuple[tuple[int, tuple[int, ...]], ...] = ()
    board: tuple[Card | None, ...] = ()
    if hand is not None:
        board = hand.board
        if not hand.finished:
            pots = tuple(
                (pot.amount, tuple(tournament.seats[s] for s in pot.eligible))
                for pot in collected_pots(hand)
            )
    number = tournament.hand_number
    per_level = tournament.config.hands_per_level
    level = tournament.level(number if hand is not None else number + 1)
    return TableView(
        viewer=viewer,
        hand_number=number,
        button=tournament.button,
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        hands_to_next_level=per_level - ((max(number, 1) - 1) % per_level) - 1,
        seats=tuple(seats),
        board=board,
        pots=pots,
        to_act=tournament.to_act,
        legal=_viewer_legal(tournament.legal_actions(), viewer),
        hand_over=hand is None or hand.finished,
        showdown=bool(hand is not None and hand.finished and hand.showdown),
        finished=tournament.finished,
        winner=tournament.winner if tournament.finished else None,
        history=tournament.hand_log,
        past=tournament.past_logs,
        game=tournament.variant.code,
        level=level,
        drawing=bool(hand is not None and hand.drawing),
        result=_result(tournament, shown_hands),
        mix=_mix_view(tournament),
    )


def _mix_view(tournament: Tournament) -> MixView | None:
    mix = tournament.config.mix
    if mix is None:
        return None
    return MixView(
        code=mix.code,
        name=mix.name,
        games=tuple(game.code for game in mix.games),
        next_game=tournament.following_variant.code,
        hands_to_next_game=tournament.hands_to_next_game(),
    )


def _own_hand_name(tournament: Tournament, seat: int) -> str:
    hand = tournament.hand
    if hand is None or seat not in tournament.seats:
        return ""
    hand_seat = tournament.seats.index(seat)
    if hand.folded[hand_seat]:
        return ""
    return hand_name(hand.setup.variant.rankings, hand.cards[hand_seat], hand.board)


def _shown_hands(tournament: Tournament) -> dict[int, ShownHand]:
    """The hands shown at this hand's showdown (R17), by table seat."""
    hand = tournament.hand
    if hand is None or not hand.finished or not hand.showdown:
        return {}
    board = tuple(card for card in hand.board if card is not None)
    shown: dict[int, ShownHand] = {}
    for event in tournament.hand_log:
        if not isinstance(event, CardsShown):
            continue
        high = ShownHand(event.description, best_cards(event.ranking, event.cards, board))
        if event.low_ranking and event.low:
            high = ShownHand(high.hand, high.best, event.low_description, best_cards(event.low_ranking, event.cards, board))
        shown[event.seat] = high
    return shown


def _result(tournament: Tournament, shown: dict[int, ShownHand]) -> tuple[PotView, ...]:
    """R16, R17, V6: every pot (and half) of a finished hand and who won it."""
    hand = tournament.hand
    if hand is None or not hand.finished:
        return ()
    pots: list[PotView] = []
    for event in tournament.hand_log:
        if not isinstance(event, PotAwarded):
            continue
        low = event.half == "low"
        winners = tuple(
            WinnerView(seat, chips, (shown[seat].best_low if low else shown[seat].best) if seat in shown and event.rank else ())
            for seat, chips in event.shares
        )
        name = describe(event.ranking, event.rank) if event.rank else ""
        pots.append(PotView(event.pot, event.half, event.amount, name, winners))
    return tuple(pots)
