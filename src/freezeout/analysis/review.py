"""``freezeout review``: every hand of a record walked for all-ins, EV, luck and push/fold mistakes.

The record is replayed by :mod:`freezeout.formats` (a tournament record,
``freezeout.record/1`` or ``/2``, a cash hand's history,
``freezeout.cash_hand/1``, or many of them — a cash session: the room's
``freezeout.cash_hands/1`` download, a JSON array, JSON Lines or joined
files of cash hands); this module reads the replay's events:

* **all-in** — a hand whose betting ended with two or more players still in
  and cards still to come (the last decision was made before the river, or
  before seventh street).  Their cards at that moment are dealt out in
  every way (:mod:`.equity`; folded stud players' up cards are dead), each
  pot shared among its eligible players, and ``ev`` is what the hand was
  worth to each (equity × pot, summed over the pots, minus what they put
  in); ``result`` is what it actually paid.
* **per player** — ``result`` (chips won or lost), ``all_in_ev`` (the same,
  with every all-in hand counted at its EV instead of its result, as
  trackers' "all-in adjusted" lines), ``luck`` (``result - all_in_ev``),
  and the push/fold totals of :mod:`.mistakes`.

Pure: the text of a file in, a JSON-ready dict out (docs/formats.md "Game
review"; docs/review.md for the method).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from freezeout.analysis.equity import Deals, EquityError, deal_ranks, share_sums
from freezeout.analysis.games import GameError, game_for
from freezeout.analysis.mistakes import Decision, push_fold_decisions
from freezeout.cards import Card, format_cards
from freezeout.rules.events import (
    ActionTaken,
    CardsDealt,
    Event,
    HandEnded,
    HandStarted,
    HoleDealt,
    PotAwarded,
    StreetDealt,
)
from freezeout.rules.variant import Variant

__all__ = ["CASH_HANDS", "FORMAT", "ReviewError", "format_review", "review_cash_hands", "review_file_text", "review_hand"]

FORMAT = "freezeout.review/1"
#: Many cash hands in one file: a player's session(s), as ``GET /api/me/cash/hands.json`` writes them.
CASH_HANDS = "freezeout.cash_hands/1"
CASH_HAND = "freezeout.cash_hand/1"


class ReviewError(ValueError):
    """A file that is not a record that replays; the message is one line."""


@dataclass(slots=True)
class _Walk:
    """What the events of one hand say, up to its last decision and at its end."""

    start: list[int]
    end: list[int]
    won: list[int]
    folded: list[bool]
    cards: list[list[Card | None]]  # per seat, dealt so far at the last decision
    up: list[list[bool]]
    board: list[Card | None] = field(default_factory=list)
    street: str = ""
    pots: dict[int, tuple[int, tuple[int, ...]]] = field(default_factory=dict)  # index -> (amount, eligible)
    showdown: bool = False
    cards_after: bool = False  # cards were dealt after the last decision


def _walk(events: Sequence[Event], variant: Variant, seats: int) -> _Walk:
    walk = _Walk([0] * seats, [0] * seats, [0] * seats, [False] * seats, [[] for _ in range(seats)],
                 [[] for _ in range(seats)], street=variant.streets[0].name)
    last = max((index for index, event in enumerate(events) if isinstance(event, ActionTaken)), default=-1)
    stud = variant.deals_later_hole_cards
    for index, event in enumerate(events):
        before = index <= last
        if isinstance(event, HandStarted):  # its stacks are listed for its seats only
            for seat, stack in zip(event.seats, event.stacks, strict=True):
                walk.start[seat] = stack
        elif isinstance(event, CardsDealt) and not stud:
            for seat, cards in event.hole:
                walk.cards[seat] = list(cards)
        elif isinstance(event, HoleDealt) and stud and (before or last < 0):
            walk.cards[event.seat].extend(event.cards)
            walk.up[event.seat].extend(event.up)
        elif isinstance(event, HoleDealt) and stud:
            walk.cards_after = True
        elif isinstance(event, StreetDealt):
            if before:
                walk.street = event.street
                walk.board.extend(event.cards)
            else:
                walk.cards_after = True
        elif isinstance(event, ActionTaken) and event.kind == "fold":
            walk.folded[event.seat] = True
        elif isinstance(event, PotAwarded):
            amount, _ = walk.pots.get(event.pot, (0, event.eligible))
            walk.pots[event.pot] = (amount + event.amount, event.eligible)
            for seat, chips in event.shares:
                walk.won[seat] += chips
        elif isinstance(event, HandEnded):
            walk.end = list(event.stacks) + [0] * (seats - len(event.stacks))
            walk.showdown = event.showdown
    return walk


def _all_in(walk: _Walk, variant: Variant, names: Sequence[str], seed: int, scale: int) -> dict[str, Any] | None:
    """The hand's all-in (docs/formats.md "Game review"), or None when there was none."""
    live = [seat for seat in range(len(names)) if not walk.folded[seat] and walk.cards[seat]]
    if not walk.showdown or not walk.cards_after or len(live) < 2:
        return None
    if any(card is None for seat in live for card in walk.cards[seat]) or None in walk.board:
        return None  # a record that hides these cards (a player's copy): nothing to compute
    try:
        game = game_for(variant.code)
    except GameError:
        return None  # draw games: a draw still to come is a decision
    dead: list[int] = []
    if game.stud:
        for seat in range(len(names)):
            if walk.folded[seat]:
                dead.extend(int(card) for card, up in zip(walk.cards[seat], walk.up[seat], strict=False)
                            if up and card is not None)
    hands = [[tuple(int(card) for card in walk.cards[seat] if card is not None)] for seat in live]
    board = [int(card) for card in walk.board if card is not None]
    try:
        deals = deal_ranks(game, hands, board, dead, seed=seed)
    except EquityError:
        return None
    worth = _worth(game, deals, walk, live)
    total = sum(amount for amount, _ in walk.pots.values())
    put_in = [walk.start[seat] - walk.end[seat] + walk.won[seat] for seat in range(len(names))]
    data: dict[str, Any] = {
        "street": walk.street,
        "cards": {names[seat]: format_cards(c for c in walk.cards[seat] if c is not None) for seat in live},
        "board": format_cards(c for c in walk.board if c is not None),
        "equity": {names[seat]: round(worth[seat] / total, 6) if total else 0.0 for seat in live},
        "ev": {names[seat]: _chips(worth[seat] - put_in[seat], scale) for seat in live},
        "result": {names[seat]: _chips(walk.won[seat] - put_in[seat], scale) for seat in live},
        "exact": deals.exact,
        "deals": deals.count,
    }
    if game.stud and dead:
        data["dead"] = format_cards(Card(card) for card in dead)
    return data


def _worth(game: Any, deals: Deals, walk: _Walk, live: Sequence[int]) -> dict[int, float]:
    """Each live seat's expected chips from the pots: Σ pot × its share of that pot."""
    worth = dict.fromkeys(live, 0.0)
    for amount, eligible in walk.pots.values():
        contenders = [seat for seat in eligible if seat in worth]
        if len(contenders) == 1:
            worth[contenders[0]] += amount
            continue
        if not contenders:
            continue
        sums, _ = share_sums(game, deals, [live.index(seat) for seat in contenders])
        for position, seat in enumerate(contenders):
            worth[seat] += amount * float(sums[0, position]) / deals.count
    return worth


def _chips(value: float, scale: int) -> float | int:
    chips = value / scale
    return round(chips, 2) if abs(chips - round(chips)) > 1e-9 else round(chips)


def review_hand(
    number: int,
    events: Sequence[Event],
    variant: Variant,
    names: Sequence[str],
    *,
    seed: int = 0,
    scale: int = 1,
    push_fold: bool = False,
) -> dict[str, Any]:
    """One hand's review: its all-in (or None), each player's result and EV, push/fold decisions."""
    walk = _walk(events, variant, len(names))
    all_in = _all_in(walk, variant, names, seed + number, scale)
    started = next((event for event in events if isinstance(event, HandStarted)), None)
    dealt_in = started.seats if started is not None else tuple(range(len(names)))
    result = {names[seat]: _chips(walk.end[seat] - walk.start[seat], scale) for seat in dealt_in}
    ev = dict(result)
    if all_in is not None:
        ev.update(all_in["ev"])
    decisions: list[Decision] = push_fold_decisions(events, names) if push_fold else []
    return {
        "number": number,
        "game": variant.code,
        "all_in": all_in,
        "result": result,
        "ev": ev,
        "decisions": [decision.to_json() for decision in decisions],
    }


def _totals(hands: Sequence[Mapping[str, Any]], players: Sequence[str]) -> dict[str, dict[str, Any]]:
    totals: dict[str, dict[str, Any]] = {
        player: {"result": 0, "all_in_ev": 0.0, "luck": 0.0, "all_ins": 0, "ev_lost_bb": 0.0,
                 "mistakes": 0, "decisions": 0, "not_reviewed": 0}
        for player in players
    }
    for hand in hands:
        for player, chips in hand["result"].items():
            totals[player]["result"] += chips
            totals[player]["all_in_ev"] += hand["ev"][player]
        if hand["all_in"] is not None:
            for player in hand["all_in"]["cards"]:
                totals[player]["all_ins"] += 1
        for decision in hand["decisions"]:
            entry = totals[decision["player"]]
            if decision["ev_loss_bb"] is None:
                entry["not_reviewed"] += 1
                continue
            entry["decisions"] += 1
            entry["ev_lost_bb"] += decision["ev_loss_bb"]
            entry["mistakes"] += int(decision["mistake"])
    for entry in totals.values():
        entry["all_in_ev"] = round(entry["all_in_ev"], 2)
        entry["luck"] = round(entry["result"] - entry["all_in_ev"], 2)
        entry["ev_lost_bb"] = round(entry["ev_lost_bb"], 4)
    return totals


def review_record_text(data: Mapping[str, Any], *, seed: int = 0) -> dict[str, Any]:
    """Review a tournament record (record/1 or /2) already parsed from JSON."""
    from freezeout.formats.record import RecordError, parse_record, replay_record

    try:
        record = parse_record(data)
        replayed = replay_record(record)
    except RecordError as error:
        raise ReviewError(f"the record does not replay: {error}") from None
    hands = []
    for hand in replayed.hands:
        variant = hand.setup.variant
        names = record.players  # the events name tournament seats
        house = variant.code == "NT" and record.mix is None
        hands.append(review_hand(hand.number, hand.events, variant, names, seed=seed, push_fold=house))
    game = record.mix.code if record.mix is not None else record.variant.code
    return {"format": FORMAT, "source": record.format, "game": game, "seed": seed,
            "players": _totals(hands, record.players), "hands": hands}


def review_cash_hand(data: Mapping[str, Any], *, seed: int = 0) -> dict[str, Any]:
    """Review one cash hand's history (its PHH replayed as ``freezeout record replay`` does)."""
    from freezeout.formats.cash_hand import replay_cash_hand
    from freezeout.formats.phh_replay import replay_phh_text
    from freezeout.formats.record import RecordError

    try:
        replay_cash_hand(data)
        replayed = replay_phh_text(str(data["phh"]))
    except (RecordError, ValueError) as error:
        raise ReviewError(f"the cash hand does not replay: {error}") from None
    names = tuple(str(name) for name in replayed.hand.players)
    setup = replayed.setup
    variant = setup.variant
    raw_number = data.get("number")
    number = raw_number if isinstance(raw_number, int) else 1
    # A PHH replay starts at the blinds: its stacks and cards are the setup's.
    events: list[Event] = []
    if not any(isinstance(event, HandStarted) for event in replayed.events):
        seats = tuple(range(len(names)))
        events.append(HandStarted(number, setup.button, 0, setup.big_blind, seats, tuple(setup.stacks)))
    if not any(isinstance(event, (CardsDealt, HoleDealt)) for event in replayed.events):
        holes = tuple((seat, cards or ()) for seat, cards in enumerate(setup.hole))
        events.append(CardsDealt(holes, tuple(setup.board)))
    events.extend(replayed.events)
    hand = review_hand(number, events, variant, names, seed=seed, scale=replayed.scale)
    return {"format": FORMAT, "source": CASH_HAND, "game": variant.code, "seed": seed,
            "players": _totals([hand], names), "hands": [hand]}


def review_cash_hands(hands: Sequence[Any], *, seed: int = 0) -> dict[str, Any]:
    """Review many cash hands as one session: each hand as :func:`review_cash_hand` reviews it
    (its ``table`` kept), and per player the totals over every hand they were dealt in — the
    session's result, all-in EV and luck.  A hand that is not a cash hand or does not replay is
    one error naming it: a session reviewed without some of its hands would mislead."""
    if not hands:
        raise ReviewError("the file holds no cash hand")
    reviewed: list[dict[str, Any]] = []
    players: dict[str, None] = {}
    games: dict[str, None] = {}
    for index, data in enumerate(hands, start=1):
        if not isinstance(data, Mapping) or data.get("format") != CASH_HAND:
            raise ReviewError(f"hand {index} of the file is not a cash hand ({CASH_HAND})")
        try:
            one = review_cash_hand(data, seed=seed)
        except ReviewError as error:
            raise ReviewError(f"hand {index} of the file (number {data.get('number')}): {error}") from None
        hand = one["hands"][0]
        if "table" in data:
            hand = {"table": str(data["table"]), **hand}
        reviewed.append(hand)
        players.update(dict.fromkeys(one["players"]))
        games[hand["game"]] = None
    game = next(iter(games)) if len(games) == 1 else "/".join(games)
    return {"format": FORMAT, "source": CASH_HANDS, "game": game, "seed": seed,
            "players": _totals(reviewed, list(players)), "hands": reviewed}


def _documents(text: str) -> Any:
    """The file's JSON: one document, or several one after another — JSON Lines, or downloaded
    cash hands joined by ``cat`` (each download is one line without a newline) — as a list."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        first = error
    decoder = json.JSONDecoder()
    documents: list[Any] = []
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            break
        try:
            document, at = decoder.raw_decode(text, at)
        except (ValueError, RecursionError) as error:
            line = text.count("\n", 0, at) + 1
            raise ReviewError(f"the file is not JSON (nor JSON documents one after another: line {line}: {error})") from None
        documents.append(document)
    if len(documents) < 2:
        raise ReviewError(f"the file is not JSON: {first}")
    return documents


def review_file_text(text: str, *, seed: int = 0) -> dict[str, Any]:
    """Review a file's text: a tournament record, a cash hand's history, or many cash hands
    (``freezeout.cash_hands/1``, a JSON array, JSON Lines or joined files of cash hands: a
    session)."""
    data = _documents(text)
    if isinstance(data, list):
        return review_cash_hands(data, seed=seed)
    if isinstance(data, Mapping) and data.get("format") == CASH_HANDS:
        hands = data.get("hands")
        if not isinstance(hands, list):
            raise ReviewError(f"a {CASH_HANDS} file lists its hands in \"hands\"")
        return review_cash_hands(hands, seed=seed)
    if isinstance(data, Mapping) and data.get("format") == CASH_HAND:
        return review_cash_hand(data, seed=seed)
    if not isinstance(data, Mapping):
        raise ReviewError("the file is not a record: expected a JSON object")
    return review_record_text(data, seed=seed)


def _label(hand: Mapping[str, Any]) -> str:
    """A hand as the text names it: its number, and its table in a session's review."""
    return f"hand {hand['number']}" + (f" at {hand['table']}" if "table" in hand else "")


def format_review(review: Mapping[str, Any]) -> list[str]:
    """The lines ``freezeout review`` prints without ``--json``."""
    lines = [f"{review['game']}: {len(review['hands'])} hands"]
    header = f"  {'player':<12} {'result':>9} {'all-in EV':>10} {'luck':>9} {'EV lost':>9} mistakes"
    lines.append(header)
    for player, entry in review["players"].items():
        lines.append(
            f"  {player:<12} {entry['result']:>9} {entry['all_in_ev']:>10.1f} {entry['luck']:>9.1f} "
            f"{entry['ev_lost_bb']:>6.2f} bb {entry['mistakes']:>8}"
        )
    for hand in review["hands"]:
        all_in = hand["all_in"]
        if all_in is not None:
            shown = ", ".join(
                f"{player} {cards} {100 * all_in['equity'][player]:.1f} % (EV {all_in['ev'][player]:+}, "
                f"got {all_in['result'][player]:+})"
                for player, cards in all_in["cards"].items()
            )
            board = f" on {all_in['board']}" if all_in["board"] else ""
            lines.append(f"{_label(hand)}: all-in {all_in['street']}{board}: {shown}")
        for decision in hand["decisions"]:
            if decision["mistake"]:
                lines.append(
                    f"{_label(hand)}: {decision['player']} {decision['action']} {decision['cards']} at "
                    f"{decision['stack_bb']:g} bb; the equilibrium would {decision['equilibrium']} "
                    f"(−{decision['ev_loss_bb']:.2f} bb)"
                )
    return lines
