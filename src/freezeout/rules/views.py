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

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from freezeout.cards import Card, format_cards
from freezeout.rules.events import BlindPosted, CardsShown, Event, PotAwarded, RunShowdown, describe
from freezeout.rules.legal import LegalActions
from freezeout.rules.positions import positions
from freezeout.rules.showdown import best_cards, collected_pots, hand_name
from freezeout.rules.state import HandState
from freezeout.rules.tournament import Level, Tournament

__all__ = ["NAME_LANGS", "SPECTATOR", "LimitView", "MixView", "PotView", "SeatView", "ShownHand", "TableView", "WinnerView", "before_result", "blind_seats", "hand_positions", "hand_result", "seat_view",
           "shown_down", "view_dicts"]

SPECTATOR = None

#: The languages every hand name in a view is given in (the web page's catalogs, evaluate.words).
NAME_LANGS = ("en", "cs")


def names(ranking: str, rank: int) -> dict[str, str]:
    """A rank of ``ranking`` in words, in every language of :data:`NAME_LANGS`."""
    return dict(_names(ranking, rank))


@functools.lru_cache(maxsize=1 << 14)
def _names(ranking: str, rank: int) -> tuple[tuple[str, str], ...]:
    """:func:`names` as (language, name) pairs, remembered: a finished hand's shown hands and
    pots are named again in every view of every version until the next deal (issue #22
    "Speed": 15 % of a table's views in process), and a ranking has a few thousand ranks."""
    if not rank:
        return ()
    if ranking in ("", "high"):
        from freezeout.evaluate.describe import describe_rank

        return tuple((lang, describe_rank(rank, lang)) for lang in NAME_LANGS)
    from freezeout.evaluate.rankings import get_ranking

    named = get_ranking(ranking)
    return tuple((lang, named.describe(rank, lang)) for lang in NAME_LANGS)


@functools.lru_cache(maxsize=1 << 14)
def _described(ranking: str, rank: int) -> str:
    """:func:`describe` (the English name a pot's winner's hand is given), remembered as :func:`_names`."""
    return describe(ranking, rank)


def card_slots(cards: tuple[Card | None, ...] | None, up: tuple[bool, ...], held: int) -> tuple[str, ...]:
    """A seat's cards as a client draws them, one slot per card: ``up`` (face up for
    everyone, V7), ``down`` (face down and this viewer sees it: their own, or shown
    down, R17) or ``unknown`` (face down, hidden from this viewer); ``held`` cards
    when the view shows none of them (another player's down cards)."""
    if cards is None:
        return ("unknown",) * held
    return tuple(
        "up" if index < len(up) and up[index] else "unknown" if card is None else "down"
        for index, card in enumerate(cards)
    )


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
    names: tuple[tuple[str, str], ...] = ()  # (language, the hand's name) for each of NAME_LANGS
    low_names: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"hand": self.hand, "best": format_cards(self.best)}
        if self.names:
            data["names"] = dict(self.names)
        if self.low or self.best_low:
            data.update(low=self.low, best_low=format_cards(self.best_low))
            if self.low_names:
                data["low_names"] = dict(self.low_names)
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
    slots: tuple[str, ...] = ()  # per card: "down", "up" or "unknown" (card_slots); () holds none
    position: str = ""  # C12: BTN, SB, BB, UTG, UTG+1.., LJ, HJ, CO in this hand; "" none (stud, not dealt in)

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
            "slots": list(self.slots),
        }
        if any(self.up):
            data["up"] = list(self.up)
        if self.shown is not None:
            data["shown"] = self.shown.to_dict()
        if self.hand:
            data["hand"] = self.hand
        data["position"] = self.position or None
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
    names: tuple[tuple[str, str], ...] = ()  # (language, the winning hand's name), NAME_LANGS
    run: int = 0  # C7: the run (1 or 2) of a board run twice that won it; 0: the board was run once

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "pot": self.pot,
            "half": self.half,
            "amount": self.amount,
            "hand": self.hand,
            "winners": [{"seat": w.seat, "chips": w.chips, "best": format_cards(w.best)} for w in self.winners],
        }
        if self.names:
            data["names"] = dict(self.names)
        if self.run:
            data["run"] = self.run
        return data


@dataclass(frozen=True, slots=True)
class LimitView:
    """V3, V4: a fixed-limit betting round's count toward the cap.  ``cap`` is the
    bets and raises a round allows (None: no cap now, only two players with chips)."""

    bets: int
    cap: int | None

    def to_dict(self) -> dict[str, Any]:
        left = None if self.cap is None else max(0, self.cap - self.bets)
        return {"bets": self.bets, "cap": self.cap, "left": left, "capped": left == 0}


@dataclass(frozen=True, slots=True)
class MixView:
    """V19: the mix a table plays — its code, the current game (the view's
    ``game``), the next one and how many hands after the current one are
    still dealt in this game."""

    code: str
    name: str
    games: tuple[str, ...]
    next_game: str
    next_game_name: str
    hands_to_next_game: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "games": list(self.games),
            "next_game": self.next_game,
            "next_game_name": self.next_game_name,
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
    board_size: int = 5  # board cards the game deals: 0 in stud (V7, a shared card may still come) and draw games
    dealer_button: int | None = None  # the seat the dealer button marks; None in stud (V7: no button)
    small_blind_seat: int | None = None  # who posted this hand's blinds (R5), None without
    big_blind_seat: int | None = None
    limit: LimitView | None = None  # fixed limit (V3): this round's bets toward the cap
    hands_per_level: int = 6  # R6, V18: the hands this level lasts (6; one orbit at a table of more than 6)
    level_number: int = 1  # R6, V18: the level of the current (or next) hand, 1-based (past the last level, its number)
    next_level: Level | None = None  # the next level's forced bets; None at the last level

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
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
            "format": "freezeout",  # the one field that tells a client which table it draws (a cash view: "cash")
        }
        if self.game != "NT" or self.mix is not None:
            data["game"] = self.game
            data["level"] = self.level._asdict()
            data["drawing"] = self.drawing
        if self.mix is not None:
            data["mix"] = self.mix.to_dict()
        if self.result:
            data["result"] = [pot.to_dict() for pot in self.result]
            data["before_result"] = before_result([seat.stack for seat in self.seats], self.result)
        data["board_size"] = self.board_size
        data["dealer_button"] = self.dealer_button
        data["blind_seats"] = [self.small_blind_seat, self.big_blind_seat]
        if self.limit is not None:
            data["limit"] = self.limit.to_dict()
        data["hands_per_level"] = self.hands_per_level
        data["level_number"] = self.level_number
        data["next_level"] = (
            {key: value for key, value in self.next_level._asdict().items() if value} if self.next_level is not None else None
        )
        return data


def before_result(stacks: Sequence[int | None], result: Iterable[PotView]) -> dict[str, Any]:
    """The table as it stood before the pots were awarded (a client deals an all-in run-out's cards
    one by one and says the result after the last): each seat's stack (``stacks``: now, None for
    an empty seat) without what it won, and each pot's amount (its halves and runs together), by
    pot, the empty ones left out (R16, V6, C7).  Both views give it (a cash table's: rules/cashview.py)."""
    won: dict[int, int] = {}
    pots: dict[int, int] = {}
    for part in result:
        pots[part.pot] = pots.get(part.pot, 0) + part.amount
        for winner in part.winners:
            won[winner.seat] = won.get(winner.seat, 0) + winner.chips
    return {"stacks": [None if stack is None else stack - won.get(seat, 0) for seat, stack in enumerate(stacks)],
            "pots": [{"pot": pot, "amount": amount} for pot, amount in pots.items() if amount > 0]}


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
                hand = tournament.hand
                up = hand.up[tournament.seats.index(viewer)] if hand is not None and hand.up else ()
                own_seat = {**seats[viewer], "cards": _cards_text(cards)}
                if not seats[viewer]["folded"]:
                    own_seat["slots"] = list(card_slots(cards, up, len(cards)))
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
    shown_hands = shown_down(tournament.hand, tournament.hand_log)
    named = hand_positions(tournament)
    seats: list[SeatView] = []
    for seat in range(n):
        hand_seat = tournament.seats.index(seat) if hand is not None and seat in tournament.seats else -1
        in_hand = hand_seat >= 0
        cards: tuple[Card | None, ...] | None = None
        up: tuple[bool, ...] = ()
        folded = all_in = False
        bet_amount = 0
        slots: tuple[str, ...] = ()
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
            if not folded:
                slots = card_slots(cards, up, len(held))
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
                slots=slots,
                position=named.get(seat, ""),
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
    level = tournament.level(number if hand is not None else number + 1)
    return TableView(
        viewer=viewer,
        hand_number=number,
        button=tournament.button,
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        hands_to_next_level=tournament.hands_to_next_level(),
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
        result=hand_result(tournament.hand, tournament.hand_log, shown_hands),
        mix=_mix_view(tournament),
        **_drawing_facts(tournament, level),
    )


def _drawing_facts(tournament: Tournament, level: Level) -> dict[str, Any]:
    """What a client needs to draw the table of any game without its rules: the
    board's size, the dealer button (V7: none in stud), the blinds' seats (R5), the
    fixed-limit cap (V3) and the level schedule (R6, V18)."""
    hand = tournament.hand
    variant = hand.setup.variant if hand is not None else tournament.variant
    small, big = blind_seats(tournament.hand_log) if hand is not None else (None, None)
    limit = None
    cap = variant.raise_cap
    if hand is not None and not hand.finished and cap is not None and not hand.drawing:
        with_chips = sum(1 for i, stack in enumerate(hand.stacks) if not hand.folded[i] and stack > 0)
        limit = LimitView(hand.raises, cap if with_chips > 2 else None)
    config = tournament.config
    number = max(tournament.hand_number if hand is not None else tournament.hand_number + 1, 1)
    clock = tournament.clock_for_hand(number)  # V18: a level of 6 hands, or an orbit past 6 players
    following = config.level_at(clock.level + 1)
    return {
        "board_size": variant.board_size,
        "dealer_button": tournament.button if variant.uses_button and tournament.button >= 0 else None,
        "small_blind_seat": small,
        "big_blind_seat": big,
        "limit": limit,
        "hands_per_level": clock.length,
        "level_number": min(clock.level, len(config.levels) - 1) + 1,
        "next_level": following if following != level or config.mix is not None else None,
    }


def _mix_view(tournament: Tournament) -> MixView | None:
    mix = tournament.config.mix
    if mix is None:
        return None
    return MixView(
        code=mix.code,
        name=mix.name,
        games=tuple(game.code for game in mix.games),
        next_game=tournament.following_variant.code,
        next_game_name=tournament.following_variant.name,
        hands_to_next_game=tournament.hands_to_next_game(),
    )


def _own_hand_name(tournament: Tournament, seat: int) -> str:
    hand = tournament.hand
    if hand is None or seat not in tournament.seats:
        return ""
    hand_seat = tournament.seats.index(seat)
    if hand.folded[hand_seat]:
        return ""
    return _hand_name_now(tuple(hand.setup.variant.rankings), tuple(hand.cards[hand_seat]), tuple(hand.board))


@functools.lru_cache(maxsize=1 << 14)
def _hand_name_now(rankings: tuple[str, ...], hole: tuple[Card | None, ...], board: tuple[Card | None, ...]) -> str:
    """:func:`hand_name`, remembered: a seat's cards and the board change only when a street is
    dealt, but every update (every move, every viewer) asks again.  It was a third of the cost of
    a table's views in the load bench's profile; 16k entries cover a busy room's live hands."""
    return hand_name(rankings, hole, board)


def hand_positions(tournament: Tournament) -> Mapping[int, str]:
    """C12: the position of each seat dealt in the current (or last) hand, by
    table seat; none before the first hand and in games without a button."""
    hand = tournament.hand
    if hand is None or not hand.setup.variant.uses_button:
        return {}
    small, big = blind_seats(tournament.hand_log)
    return positions(tournament.seats, tournament.button, small, big, len(tournament.players))


def blind_seats(log: Iterable[Event]) -> tuple[int | None, int | None]:
    """R5: the seats that posted a hand's small and big blind, from its public events (None: none)."""
    small = big = None
    for event in log:
        if isinstance(event, BlindPosted):
            if event.kind == "small blind":
                small = event.seat
            elif event.kind == "big blind" and big is None:
                big = event.seat
    return small, big


def shown_down(hand: HandState | None, log: Iterable[Event]) -> dict[int, ShownHand]:
    """The hands shown at a hand's showdown (R17), by table seat: ``log`` is the hand's public
    events in table seats (a tournament's or a cash table's, which leaves out the mucked, V17)."""
    if hand is None or not hand.finished or not hand.showdown:
        return {}
    board = tuple(card for card in hand.board if card is not None)
    shown: dict[int, ShownHand] = {}
    for event in log:
        if not isinstance(event, CardsShown):
            continue
        said = _names(event.ranking, event.rank)
        high = ShownHand(event.description, best_cards(event.ranking, event.cards, board), names=said)
        if event.low_ranking and event.low:
            high = ShownHand(high.hand, high.best, event.low_description, best_cards(event.low_ranking, event.cards, board),
                             said, _names(event.low_ranking, event.low))
        shown[event.seat] = high
    return shown


def hand_result(hand: HandState | None, log: Iterable[Event], shown: dict[int, ShownHand]) -> tuple[PotView, ...]:
    """R16, R17, V6, C7: every pot (and half) of a finished hand and who won it; a board run
    twice gives each pot twice, each with its run and the winners' best five of that run's board."""
    if hand is None or not hand.finished:
        return ()
    pots: list[PotView] = []
    run = 0
    run_board: tuple[Card, ...] = ()
    cards: dict[int, tuple[Card, ...]] = {}
    for event in log:
        if isinstance(event, CardsShown):
            cards[event.seat] = event.cards
        elif isinstance(event, RunShowdown):
            run, run_board = event.run, tuple(event.board)
        if not isinstance(event, PotAwarded):
            continue
        winners = tuple(WinnerView(seat, chips, _winning_cards(event, seat, shown, cards.get(seat), run_board if run == 2 else ()))
                        for seat, chips in event.shares)
        name = _described(event.ranking, event.rank) if event.rank else ""
        pots.append(PotView(event.pot, event.half, event.amount, name, winners, _names(event.ranking, event.rank), run))
    return tuple(pots)


def _winning_cards(award: PotAwarded, seat: int, shown: dict[int, ShownHand], cards: tuple[Card, ...] | None,
                   second_board: tuple[Card, ...]) -> tuple[Card, ...]:
    """The five cards that won ``seat`` its share of ``award``: of the board the pot was won on
    (``second_board``: the second run's, C7), high or low (V6); () without a showdown."""
    if seat not in shown or not award.rank:
        return ()
    if second_board and cards is not None:
        return best_cards(award.ranking, cards, second_board)
    return shown[seat].best_low if award.half == "low" else shown[seat].best
