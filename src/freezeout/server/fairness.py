"""Provably fair dealing: commit to each deck before its first card, reveal
it after the hand (docs/protocol.md "Fairness").

``commitment = sha256_hex(deck + ":" + salt)`` where ``deck`` is the 52
cards as one canonical string.  Cards are dealt from the front of the deck:
two to each player still in, in seat order, then the five board cards.
:func:`verify_record` checks a downloaded ``freezeout.record/1`` file hand by
hand; ``freezeout verify-record FILE`` (and ``freezeout record verify``) call it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from freezeout.cards import Card, CardError, format_cards, full_deck, parse_cards, shuffled_deck
from freezeout.formats.record import RecordError, parse_record, replay_record

__all__ = ["Deal", "commitment", "deal_cards", "new_deal", "verify_record"]

BOARD_CARDS = 5


class DealSource(Protocol):
    def shuffle(self, x: list[Card]) -> None: ...

    def getrandbits(self, k: int, /) -> int: ...


@dataclass(frozen=True, slots=True)
class Deal:
    """The deck of one hand, its secret salt and the published commitment
    (computed once: every message of the hand repeats it)."""

    hand: int
    deck: tuple[Card, ...]
    salt: str
    deck_text: str = field(init=False, repr=False, compare=False)
    commitment: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        text = format_cards(self.deck)
        object.__setattr__(self, "deck_text", text)
        object.__setattr__(self, "commitment", hashlib.sha256(f"{text}:{self.salt}".encode("ascii")).hexdigest())

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "deck": self.deck_text, "salt": self.salt, "commitment": self.commitment}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deal:
        return cls(int(data["hand"]), parse_cards(str(data["deck"])), str(data["salt"]))


def commitment(deck: Sequence[Card], salt: str) -> str:
    return hashlib.sha256(f"{format_cards(deck)}:{salt}".encode("ascii")).hexdigest()


def new_deal(hand: int, rng: DealSource) -> Deal:
    """Shuffle a fresh deck (R2) and draw a 128-bit salt from the same source."""
    return Deal(hand, shuffled_deck(rng), f"{rng.getrandbits(128):032x}")


def deal_cards(deck: Sequence[Card], seats_in: Sequence[int]) -> tuple[dict[int, tuple[Card, ...]], tuple[Card, ...]]:
    """Hole cards per seat still in (seat order) and the board, from the deck's front."""
    hole = {seat: tuple(deck[2 * i : 2 * i + 2]) for i, seat in enumerate(sorted(seats_in))}
    start = 2 * len(hole)
    return hole, tuple(deck[start : start + BOARD_CARDS])


def _check_hand(number: int, hand: Mapping[str, Any], players: Sequence[str]) -> str | None:
    """Return why hand ``number`` fails verification, or None when it is fair."""
    for key in ("deck", "salt", "commitment"):
        if not isinstance(hand.get(key), str):
            return f"no {key}"
    try:
        deck = parse_cards(hand["deck"])
    except CardError as error:
        return f"bad deck: {error}"
    if sorted(deck) != list(full_deck()):
        return "the deck is not the 52 cards once each"
    if commitment(deck, hand["salt"]) != hand["commitment"].lower():
        return "the commitment does not match sha256(deck:salt)"
    hole_raw = hand.get("hole")
    if not isinstance(hole_raw, Mapping):
        return "no hole cards"
    seats = [players.index(p) for p in hole_raw if p in players]
    if len(seats) != len(hole_raw):
        return "hole cards for an unknown player"
    hole, board = deal_cards(deck, seats)
    for seat, cards in hole.items():
        try:
            given = parse_cards(hole_raw[players[seat]])
        except CardError as error:
            return f"bad hole cards: {error}"
        if given != cards:
            return f"{players[seat]}'s hole cards {format_cards(given)} are not the deck's {format_cards(cards)}"
    try:
        given_board = parse_cards(hand.get("board", ""))
    except CardError as error:
        return f"bad board: {error}"
    if given_board != board[: len(given_board)]:
        return f"the board {format_cards(given_board)} is not the deck's {format_cards(board)}"
    return None


def verify_record(data: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Check every hand of a record: the commitment, the deck and the deal.

    Returns ``{"ok": bool, "hands": [{"hand": n, "ok": bool, "reason"?: str}],
    "error"?: str}``; ``error`` is set when the record itself does not replay.
    """
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            return {"ok": False, "hands": [], "error": f"malformed JSON: {error}"}
    if not isinstance(data, Mapping):
        return {"ok": False, "hands": [], "error": "the record must be a JSON object"}
    try:
        replay_record(parse_record(data))
    except RecordError as error:
        return {"ok": False, "hands": [], "error": str(error)}
    players = list(data["players"])
    results: list[dict[str, Any]] = []
    for number, hand in enumerate(data["hands"], start=1):
        reason = _check_hand(number, hand, players)
        results.append({"hand": number, "ok": True} if reason is None else {"hand": number, "ok": False, "reason": reason})
    ok = bool(results) and all(r["ok"] for r in results)
    return {"ok": ok, "hands": results}
