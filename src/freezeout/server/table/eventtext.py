"""The rules' events as the JSON a table sends (docs/protocol.md "Events").

Every event passes the rules' ``public_event`` first, so the private deal
never leaves the server and down cards are hidden; a showdown's hand names
and best cards are said here, by the server, so the page carries no poker.
The table's fan-out and the replayer's steps write events with it; the fan-out
packs an entry's events, the table's own (table/tableevents.py) first, straight
into the bytes its catch-ups keep and its updates embed (:func:`pack_events`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from freezeout.cards import Card, format_cards
from freezeout.evaluate.describe import describe_rank
from freezeout.rules.events import CardsDealt, CardsShown, Event, PotAwarded, StreetDealt, public_event
from freezeout.server.table.tableevents import TableEvent
from freezeout.server.wire import pack

__all__ = ["HAND_NAME_LANGS", "event_to_json", "events_json", "pack_events"]

# The languages a hand's name is sent in (the web page's catalogs; evaluate.words).
HAND_NAME_LANGS = ("en", "cs")


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


_EVENT_NAMES: dict[type, tuple[str, tuple[str, ...]]] = {}


def _value(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        if value and all(isinstance(v, Card) for v in value):
            return format_cards(value)
        if value and all(v is None or isinstance(v, Card) for v in value):
            return "".join("??" if v is None else str(v) for v in value)  # cards hidden from this reader
        return [_value(v) for v in value]
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """A rules event as a JSON object: ``{"type": "action_taken", ...fields}``.

    The private deal (``CardsDealt``: every hole card) is refused outright, so
    no code path can ever put it on the wire."""
    if isinstance(event, CardsDealt):
        raise ValueError("CardsDealt is private: it never leaves the server")
    cls = type(event)
    known = _EVENT_NAMES.get(cls)
    if known is None:
        known = _EVENT_NAMES[cls] = (_snake(cls.__name__), event._fields)
    name, names = known
    data: dict[str, Any] = {"type": name}
    for field_name in names:
        data[field_name] = _value(getattr(event, field_name))
    return data


def _names(ranking: str, rank: int) -> dict[str, str]:
    """The hand's name in every language the page speaks, in the game's ranking."""
    if ranking in ("", "high"):
        return {lang: describe_rank(rank, lang) for lang in HAND_NAME_LANGS}
    from freezeout.evaluate.rankings import get_ranking

    named = get_ranking(ranking)
    return {lang: named.describe(rank, lang) for lang in HAND_NAME_LANGS}


def events_json(events: Iterable[Event], board: Sequence[Card | None] | None = None) -> list[dict[str, Any]]:
    """The public events as JSON, with what a client shows at a showdown said by the server:
    ``names`` (the hand's name per language) on ``cards_shown`` (and ``low_names`` for a
    split game's low) and on a ``pot_awarded`` won with a hand, and ``best`` (the cards that
    make the hand) on ``cards_shown``.  ``board`` is the hand's board when the events do not
    deal it themselves (an update after the river); ``None``: the board is read from the
    events' ``street_dealt``.  Every event passes the rules' :func:`public_event` first: the
    private deal is left out and down cards dealt or drawn are hidden."""
    from freezeout.rules.showdown import best_cards

    out: list[dict[str, Any]] = []
    dealt: list[Card] = []
    for raw in events:
        event = public_event(raw)
        if event is None:
            continue
        data = event_to_json(event)
        if isinstance(event, StreetDealt):
            dealt.extend(card for card in event.cards if card is not None)
        elif isinstance(event, CardsShown):
            shared = dealt if board is None else [card for card in board if card is not None]
            data["names"] = _names(event.ranking, event.rank)
            if event.low_ranking and event.low:
                data["low_names"] = _names(event.low_ranking, event.low)
            enough = len(event.cards) + len(shared) >= (4 if event.ranking == "badugi" else 5)
            best = best_cards(event.ranking, event.cards, shared) if enough else ()
            if best:
                data["best"] = format_cards(best)
        elif isinstance(event, PotAwarded) and event.rank:
            data["names"] = _names(event.ranking, event.rank)
        out.append(data)
    return out


def pack_events(told: Sequence[TableEvent], events: Iterable[Event], board: Sequence[Card | None] | None) -> bytes:
    """An entry's public events as the bytes of one JSON array: the table's own first
    (table/tableevents.py), then the rules' (:func:`events_json`).  The one place they
    become text: the objects built on the way are serialised here and never leave."""
    return pack([*(event.to_json() for event in told), *events_json(events, board)])
