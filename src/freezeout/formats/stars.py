"""PokerStars hand histories: a record's hands as the text PokerStars writes
(docs/formats.md "PokerStars hand histories"), so that players' tools
(Hold'em Manager 3, PokerTracker 4) import them.

One writer, :func:`hand_to_stars`, turns one replayed hand (a
:class:`~freezeout.formats.record.PlayedHand`, whose events say everything
that happened) into one PokerStars tournament hand; :func:`record_to_stars`
writes every hand of a record, separated by blank lines as the site does.

What is written is what the site writes, with the site's verbs and amounts:
the header (hand number, tournament number, "Freeroll" — play chips — the
game, the level in Roman numerals with its stakes, the date), the table
with its size and button, the seats with their chips, the posts, the hole
cards of the *hero* (the player whose history it is: a player sees only
their own cards until a showdown), every move ("raises 40 to 60", "calls
20", "bets 80 and is all-in", "brings in for 5", a completion as the site writes it: "raises 15 to 20" (or "bets 20" by the
bring-in seat itself), "Pair on board - a double bet is allowed",
"discards 2 cards", "stands pat"), the streets with their cards, the
showdown, the pots collected, eliminations, and the summary.  Chips that
leave the game with a resigner (R28) have no place in the format; the
resignation is written as a line of its own.

The rules core stays the only place that knows the game: this module only
reads events.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from freezeout.cards import Card
from freezeout.formats.record import PlayedHand, RecordError, ReplayResult, parse_record, replay_record
from freezeout.formats.stars_names import (
    STARS_GAMES,
    _date,
    _ordinal,
    _roman,
    stars_game_name,
    tournament_number,
)
from freezeout.rules.events import (
    ActionTaken,
    BetReturned,
    BlindPosted,
    CardsDealt,
    CardsShown,
    Drew,
    Eliminated,
    Event,
    Forfeited,
    HandStarted,
    HoleDealt,
    PotAwarded,
    Resigned,
    SecondRunDealt,
    StreetDealt,
    TournamentEnded,
)
from freezeout.rules.games import Mix
from freezeout.rules.tournament import Level
from freezeout.rules.variant import BettingStructure, Forced, Variant

__all__ = ["STARS_GAMES", "hand_times", "hand_to_stars", "record_json_to_stars", "record_to_stars", "stars_game_name",
           "tournament_number"]

_STUD_STREETS = {
    "fourth street": "4th STREET",
    "fifth street": "5th STREET",
    "sixth street": "6th STREET",
    "seventh street": "RIVER",
}
_STUD_FOLDS = {
    "third street": "on the 3rd Street",
    "fourth street": "on the 4th Street",
    "fifth street": "on the 5th Street",
    "sixth street": "on the 6th Street",
    "seventh street": "on the 7th Street",
}
_DRAWS = {"first draw": "FIRST DRAW", "second draw": "SECOND DRAW", "third draw": "THIRD DRAW", "draw": "DRAW"}
#: What the site writes after fourth street's cards when an up-card pair allows the big bet (V7).
PAIR_ON_BOARD = "Pair on board - a double bet is allowed"
_DRAW_FOLDS = {
    "predraw": "before the Draw",
    "first draw": "after the 1st Draw",
    "draw": "after the Draw",
    "second draw": "after the 2nd Draw",
    "third draw": "after the 3rd Draw",
}
_FLOP_FOLDS = {"preflop": "before Flop", "flop": "on the Flop", "turn": "on the Turn", "river": "on the River"}


def _cards(cards: Iterable[Card | None]) -> str:
    return " ".join(str(card) for card in cards if card is not None)


def _stakes(variant: Variant, level: Level) -> tuple[int, int]:
    """The stakes a header shows: the blinds in no-limit and pot-limit; the
    small and big bet in fixed limit (stud included)."""
    if variant.betting is BettingStructure.FIXED_LIMIT:
        return level.small_bet, level.big_bet
    return level.small_blind, level.big_blind


@dataclass
class _Seat:
    name: str
    stack: int
    committed: int = 0  # chips put in this hand (antes and blinds included)
    voluntary: bool = False  # put chips in by a move of their own
    folded: str = ""  # where the player folded ("before Flop" …)
    shown: str = ""  # "[As Kd]" once shown down
    hand: str = ""  # the shown hand's name
    won: int = 0
    cards: list[Card | None] = field(default_factory=list)  # every card the player holds now
    up: list[bool] = field(default_factory=list)


class _Writer:
    """Walks one hand's events and writes its lines."""

    def __init__(self, hand: PlayedHand, players: Sequence[str], *, hero: str | None, header: str, table: str,
                 numbers: Sequence[int] | None = None, rake: int = 0) -> None:
        """``header`` is the hand's first line, ``table`` its table line without the button;
        ``numbers`` the site's seat number of each seat (default: seat + 1); ``rake`` the chips
        the house took (C5; the summary's ``| Rake N``)."""
        self.hand = hand
        self.players = players
        self.hero = hero
        self.numbers = numbers
        self.rake = rake
        self.variant = hand.setup.variant
        self.lines: list[str] = []
        self.seats: dict[int, _Seat] = {}
        self.round: dict[int, int] = {}  # each seat's bet in the current betting round
        self.high = 0  # the round's highest bet
        self.street = self.variant.streets[0].name
        self.board: list[Card] = []
        self.showdown = False
        self.pots: dict[int, int] = {}
        self.awards: list[PotAwarded] = []
        self.blind_of: dict[int, str] = {}  # the table's own blinds by seat (the summary's labels)
        self.late: set[int] = set()  # seats that posted as a returning player (C4)
        self.deal: CardsDealt | None = None  # a flop game's deal, written after the posts
        self.pair_check = False  # fourth street dealt in stud high: say an open pair once its cards are written
        self.second: list[Card] = []  # the board's second run (C7)
        started = next(event for event in hand.events if isinstance(event, HandStarted))
        self.started = started
        for seat, stack in zip(started.seats, started.stacks, strict=True):
            self.seats[seat] = _Seat(players[seat], stack)
        self.lines.append(header)
        if self.variant.uses_button:
            table += f" Seat #{self.number(started.button)} is the button"
        self.lines.append(table)
        for seat in sorted(self.seats, key=self.number):
            self.lines.append(f"Seat {self.number(seat)}: {self.seats[seat].name} ({self.seats[seat].stack} in chips)")

    def number(self, seat: int) -> int:
        """The site's number of a seat (from 1)."""
        return self.numbers[seat] if self.numbers is not None else seat + 1

    # -- helpers -----------------------------------------------------------
    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def is_hero(self, seat: int) -> bool:
        return self.hero is not None and self.seats[seat].name == self.hero

    def _new_round(self) -> None:
        self.round = {}
        self.high = 0

    # -- events ------------------------------------------------------------
    def write(self) -> str:
        for event in self.hand.events:
            self.event(event)
        self.summary()
        return "\n".join(self.lines) + "\n"

    def event(self, event: Event) -> None:
        if isinstance(event, BlindPosted):
            self.posted(event)
            return
        if isinstance(event, CardsDealt):  # stud and draws: their cards come one dealing at a time (HoleDealt, Drew)
            flop_game = not (self.variant.deals_later_hole_cards or self.variant.has_draws)
            self.deal = event if event.hole and flop_game else None
            return
        if self.deal is not None:  # the site writes the posts, then the hole cards
            self.dealt(self.deal)
            self.deal = None
        if self.pair_check and not isinstance(event, HoleDealt):
            self.pair_check = False
            if self.open_pair():
                self.lines.append(PAIR_ON_BOARD)
        if isinstance(event, HoleDealt):
            self.hole(event)
        elif isinstance(event, ActionTaken):
            self.acted(event)
        elif isinstance(event, Drew):
            self.drew(event)
        elif isinstance(event, BetReturned):
            seat = self.seats[event.seat]
            seat.committed -= event.amount
            self.lines.append(f"Uncalled bet ({event.amount}) returned to {seat.name}")
        elif isinstance(event, StreetDealt):
            self.street_dealt(event)
        elif isinstance(event, SecondRunDealt):
            self.second_run(event)
        elif isinstance(event, CardsShown):
            self.shown(event)
        elif isinstance(event, PotAwarded):
            self.awards.append(event)
        elif isinstance(event, Forfeited) and event.seat in self.seats:
            self.lines.append(f"{self.name(event.seat)} has timed out")
        elif isinstance(event, Resigned):
            self.lines.append(f"{self.players[event.seat]} resigns and leaves the tournament")
        elif isinstance(event, Eliminated):
            self.collected()
            self.lines.append(f"{self.players[event.seat]} finished the tournament in {_ordinal(event.place)} place")
        elif isinstance(event, TournamentEnded):
            self.collected()
            self.lines.append(f"{self.players[event.winner]} wins the tournament - congratulations!")

    def posted(self, event: BlindPosted) -> None:
        seat = self.seats[event.seat]
        seat.committed += event.amount
        suffix = " and is all-in" if event.all_in else ""
        if event.kind == "ante":
            self.lines.append(f"{seat.name}: posts the ante {event.amount}{suffix}")
            return
        returning = event.kind == "small & big blinds" or event.kind in self.blind_of.values()
        if not returning:
            self.blind_of[event.seat] = event.kind
        else:  # a returning player's post (C4), after the table's own blinds
            self.late.add(event.seat)
        # a dead small blind is no bet of the round (fpdb-3 reads it as dead money); with the
        # big blind, only the big blind is
        live = 0 if returning and event.kind == "small blind" else \
            min(event.amount, self.started.big_blind) if event.kind == "small & big blinds" else event.amount
        self.round[event.seat] = self.round.get(event.seat, 0) + live
        self.high = max(self.high, self.round[event.seat])
        self.lines.append(f"{seat.name}: posts {event.kind} {event.amount}{suffix}")

    def dealt(self, event: CardsDealt) -> None:
        """A flop game's deal: every hole card at once (a stud or draw game
        deals during the hand: :meth:`hole`)."""
        if not event.hole:
            return
        self.lines.append("*** HOLE CARDS ***")
        for seat, cards in event.hole:
            self.seats[seat].cards = list(cards)
            if self.is_hero(seat) and None not in cards:
                self.lines.append(f"Dealt to {self.name(seat)} [{_cards(cards)}]")

    def hole(self, event: HoleDealt) -> None:
        seat = self.seats[event.seat]
        before = [card for card, up in zip(seat.cards, seat.up, strict=True) if up or self.is_hero(event.seat)]
        first = not seat.cards
        seat.cards.extend(event.cards)
        seat.up.extend(event.up)
        if first and event.seat == min(self.seats):
            if self.variant.has_draws:
                self.lines.append("*** DEALING HANDS ***")
            else:
                self.lines.append("*** 3rd STREET ***")
        if self.is_hero(event.seat):
            new = list(event.cards)
        else:
            new = [card for card, up in zip(event.cards, event.up, strict=True) if up]
        if None in new or not new:
            return
        if before and None not in before:
            self.lines.append(f"Dealt to {seat.name} [{_cards(before)}] [{_cards(new)}]")
        else:
            self.lines.append(f"Dealt to {seat.name} [{_cards(new)}]")

    def acted(self, event: ActionTaken) -> None:
        seat = self.seats[event.seat]
        kind = event.kind
        if kind in ("discard", "standpat"):
            return  # written from the draw itself (:meth:`drew`)
        suffix = " and is all-in" if event.all_in else ""
        seat.committed += event.added
        if event.added and kind != "bringin":
            seat.voluntary = True
        if kind == "fold":
            seat.folded = self.fold_place()
            self.lines.append(f"{seat.name}: folds")
        elif kind == "check":
            self.lines.append(f"{seat.name}: checks")
        elif kind == "call":
            self.lines.append(f"{seat.name}: calls {event.added}{suffix}")
        elif kind == "bringin":
            self.lines.append(f"{seat.name}: brings in for {event.added}{suffix}")
        elif kind == "bet" or (kind == "complete" and not self.high):  # the bring-in seat completing (V7): "bets"
            self.lines.append(f"{seat.name}: bets {event.added}{suffix}")
        else:  # a raise; a completion of the bring-in (V7) or of a short all-in (V4): the site's "raises X to Y"
            self.lines.append(f"{seat.name}: raises {event.total - self.high} to {event.total}{suffix}")
        self.round[event.seat] = event.total
        self.high = max(self.high, event.total)

    def open_pair(self) -> bool:
        """Whether a player still in shows a pair among their up-cards (V7: the big bet may be bet)."""
        for seat in self.seats.values():
            if seat.folded:
                continue
            ranks = [card.rank for card, up in zip(seat.cards, seat.up, strict=False) if up and card is not None]
            if len(ranks) != len(set(ranks)):
                return True
        return False

    def fold_place(self) -> str:
        if self.variant.forced is Forced.BRING_IN:
            return _STUD_FOLDS.get(self.street, "")
        if self.variant.has_draws:
            return _DRAW_FOLDS.get(self.street, "")
        return _FLOP_FOLDS.get(self.street, "")

    def drew(self, event: Drew) -> None:
        seat = self.seats[event.seat]
        count = len(event.discarded)
        hero = self.is_hero(event.seat)
        kept = list(seat.cards)
        for card in event.discarded:
            if card in kept:
                kept.remove(card)
            elif None in kept:
                kept.remove(None)
        seat.cards = kept + list(event.drawn)
        seat.up = [False] * len(seat.cards)
        if not count:
            self.lines.append(f"{seat.name}: stands pat" + (f" on [{_cards(kept)}]" if hero and None not in kept else ""))
            return
        plural = "card" if count == 1 else "cards"
        if hero and None not in event.discarded and None not in event.drawn and None not in kept:
            self.lines.append(f"{seat.name}: discards {count} {plural} [{_cards(event.discarded)}]")
            self.lines.append(f"Dealt to {seat.name} [{_cards(kept)}] [{_cards(event.drawn)}]")
        else:
            self.lines.append(f"{seat.name}: discards {count} {plural}")

    def street_dealt(self, event: StreetDealt) -> None:
        self._new_round()
        self.street = event.street
        if self.variant.forced is Forced.BRING_IN:
            self.pair_check = self.variant.open_pair_big_bet and event.street == "fourth street"
            header = _STUD_STREETS.get(event.street, event.street.upper())
            self.lines.append(f"*** {header} ***" + (f" [{_cards(event.cards)}]" if event.cards else ""))
            self.board.extend(event.cards)
            return
        if self.variant.has_draws:
            self.lines.append(f"*** {_DRAWS.get(event.street, event.street.upper())} ***")
            return
        before = list(self.board)
        self.board.extend(event.cards)
        if event.street == "flop":
            self.lines.append(f"*** FLOP *** [{_cards(event.cards)}]")
        else:
            self.lines.append(f"*** {event.street.upper()} *** [{_cards(before)}] [{_cards(event.cards)}]")

    def second_run(self, event: SecondRunDealt) -> None:
        """C7: a street of the board's second run, as the site writes it: ``*** SECOND TURN ***``."""
        if not self.second:
            self.second = self.board[: {"flop": 0, "turn": 3, "river": 4}.get(event.street, len(self.board))]
        before = list(self.second)
        self.second.extend(event.cards)
        name = event.street.upper()
        if event.street == "flop" or not before:
            self.lines.append(f"*** SECOND {name} *** [{_cards(event.cards)}]")
        else:
            self.lines.append(f"*** SECOND {name} *** [{_cards(before)}] [{_cards(event.cards)}]")

    def shown(self, event: CardsShown) -> None:
        if not self.showdown:
            self.showdown = True
            self.lines.append("*** SHOW DOWN ***")
        seat = self.seats[event.seat]
        seat.cards = list(event.cards)
        seat.shown = f"[{_cards(event.cards)}]"
        if self.variant.split:
            low = event.low_description or "no low"
            seat.hand = f"HI: {event.description}; LO: {low}"
        else:
            seat.hand = event.description
        self.lines.append(f"{seat.name}: shows {seat.shown} ({seat.hand})")

    def collected(self) -> None:
        """The pots, once: "X collected 300 from pot" (or main / side pot)."""
        if not self.awards:
            return
        many = len({award.pot for award in self.awards}) > 1
        sides = max(award.pot for award in self.awards)
        for award in self.awards:
            self.pots[award.pot] = self.pots.get(award.pot, 0) + award.amount
            where = "pot" if not many else "main pot" if award.pot == 0 else "side pot" if sides == 1 else f"side pot-{award.pot}"
            for seat, chips in award.shares:
                if chips:
                    self.seats[seat].won += chips
                    self.lines.append(f"{self.players[seat]} collected {chips} from {where}")
        self.awards = []

    def summary(self) -> None:
        self.collected()
        total = sum(self.pots.values())
        if len(self.pots) > 1:
            sides = len(self.pots) - 1
            parts = [f"Main pot {self.pots.get(0, 0)}."]
            for pot in sorted(p for p in self.pots if p):
                parts.append(f"Side pot {self.pots[pot]}." if sides == 1 else f"Side pot-{pot} {self.pots[pot]}.")
            pot_line = f"Total pot {total + self.rake} {' '.join(parts)} | Rake {self.rake}"
        else:
            pot_line = f"Total pot {total + self.rake} | Rake {self.rake}"
        self.lines.append("*** SUMMARY ***")
        self.lines.append(pot_line)
        if self.second:
            self.lines.append("Hand was run twice")
            self.lines.append(f"FIRST Board [{_cards(self.board)}]")
            self.lines.append(f"SECOND Board [{_cards(self.second)}]")
        elif self.board:  # the board, or stud's shared card (V7)
            self.lines.append(f"Board [{_cards(self.board)}]")
        for seat_number in sorted(self.seats, key=self.number):
            self.lines.append(f"Seat {self.number(seat_number)}: {self.summary_line(seat_number)}")

    def summary_line(self, seat_number: int) -> str:
        seat = self.seats[seat_number]
        label = seat.name
        if self.variant.uses_button and seat_number == self.started.button:
            label += " (button)"
        if seat_number in self.blind_of:
            label += f" ({self.blind_of[seat_number]})"
        if seat.folded:
            quiet = " (didn't bet)" if not seat.voluntary and not self.round_blind(seat_number) else ""
            return f"{label} folded {seat.folded}{quiet}"
        if seat.shown:
            if seat.won:
                return f"{label} showed {seat.shown} and won ({seat.won}) with {seat.hand}"
            return f"{label} showed {seat.shown} and lost with {seat.hand}"
        if seat.won:
            return f"{label} collected ({seat.won})"
        return f"{label} mucked"

    def round_blind(self, seat_number: int) -> bool:
        return seat_number in self.blind_of or seat_number in self.late


def hand_to_stars(
    hand: PlayedHand,
    players: Sequence[str],
    *,
    tournament: int,
    when: datetime,
    hero: str | None = None,
    table_size: int | None = None,
    mix: Mix | None = None,
    level_number: int = 1,
    hand_id: int | None = None,
) -> str:
    """One replayed hand as a PokerStars tournament hand history.

    ``players`` are the tournament's players by seat (seat ``i`` is written
    as ``Seat i+1``); ``hero`` the player whose hole cards are dealt to
    them in the history (``None``: an observer's history, cards only as
    shown down); ``tournament`` the tournament number; ``when`` the hand's
    time; ``level_number`` its level (I, II, …); ``hand_id`` the hand
    number (default: tournament number × 1000 + the hand's number)."""
    size = table_size or max(len(players), 2)
    number = hand_id if hand_id is not None else tournament * 1000 + hand.number
    variant = hand.setup.variant
    level = hand.level or Level(*hand.blinds)
    if not level.small_bet and variant.betting is BettingStructure.FIXED_LIMIT:
        level = level._replace(small_bet=hand.setup.small_bet, big_bet=hand.setup.big_bet)
    small, big = _stakes(variant, level)
    header = (f"PokerStars Hand #{number}: Tournament #{tournament}, Freeroll  {stars_game_name(variant, mix)}"
              f" - Level {_roman(level_number)} ({small}/{big}) - {_date(when)}")
    return _Writer(hand, players, hero=hero, header=header, table=f"Table '{tournament} 1' {size}-max").write()


def record_to_stars(
    result: ReplayResult,
    *,
    tournament: int,
    when: datetime | None = None,
    hero: str | None = None,
    times: Sequence[datetime | None] = (),
) -> str:
    """Every hand of a replayed record, as PokerStars writes a tournament's
    hands to one file: each hand, then two blank lines.  Each hand carries its
    own start time (``times``, by hand; the room's records keep each hand's
    ``started_at``); a hand without one carries ``when`` (the game's time;
    default the Unix epoch).  A hero's file ends with the hand the hero went
    out in, as the site's does: the hands dealt without them are not theirs."""
    config = result.tournament.config
    players = config.players
    moment = when or datetime.fromtimestamp(0, UTC)
    size = len(players)  # the table seats its players (V19: a mix up to its smallest maximum)
    chunks = []
    for index, hand in enumerate(result.hands):
        if hero is not None and players.index(hero) not in _dealt_in(hand):
            continue
        level_number = min(hand.level_index, len(config.levels) - 1) + 1  # V18: orbit levels past 6 players
        at = times[index] if index < len(times) else None
        chunks.append(hand_to_stars(
            hand, players, tournament=tournament, when=at or moment, hero=hero, table_size=size, mix=config.mix,
            level_number=level_number,
        ))
    return "\n\n".join(chunks) + ("\n\n" if chunks else "")


def _dealt_in(hand: PlayedHand) -> tuple[int, ...]:
    started = next(event for event in hand.events if isinstance(event, HandStarted))
    return started.seats


def hand_times(data: Any) -> list[datetime | None]:
    """Each hand's start time from a record's hands (``started_at``, Unix seconds), None where absent."""
    hands = data.get("hands") if isinstance(data, Mapping) else None
    if not isinstance(hands, list):
        return []
    out: list[datetime | None] = []
    for hand in hands:
        at = hand.get("started_at") if isinstance(hand, Mapping) else None
        out.append(datetime.fromtimestamp(at, UTC) if isinstance(at, int | float) and not isinstance(at, bool) else None)
    return out


def _loaded(record: str | bytes | Mapping[str, Any]) -> Any:
    if isinstance(record, (str, bytes)):
        try:
            return json.loads(record)
        except (json.JSONDecodeError, UnicodeDecodeError):
            return record  # parse_record names the error
    return record


def record_json_to_stars(
    record: str | bytes | Mapping[str, Any],
    *,
    hero: str | None = None,
    when: datetime | None = None,
    tournament: int | None = None,
) -> str:
    """A record (JSON text or object, docs/formats.md §1) as PokerStars hand
    histories: ``freezeout record stars`` and the room's download.  The
    tournament number defaults to one made from the record's ``game_id``
    (:func:`tournament_number`).  Bad input raises :class:`RecordError`."""
    data = _loaded(record)
    result = replay_record(parse_record(data))
    players = result.tournament.config.players
    if hero is not None and hero not in players:
        raise RecordError(f"hero {hero!r} is not a player of this record (players: {', '.join(players)})")
    return record_to_stars(result, tournament=_number(data, players, tournament), when=when, hero=hero,
                           times=hand_times(data))


def _number(data: Any, players: Sequence[str], tournament: int | None) -> int:
    if tournament is not None:
        return tournament
    key = data.get("game_id") if isinstance(data, Mapping) else None
    return tournament_number(key if key is not None else "|".join(players))
