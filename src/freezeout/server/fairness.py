"""Provably fair dealing that opens no card which did not become public
(docs/protocol.md "Fairness").

Before a hand's first card the server commits to its shuffled deck, position
by position.  For a secret per-hand ``seed`` (256 random bits):

* ``salt_i = hmac_sha256(seed, str(i))`` as hex, first 32 characters;
* ``leaf_i = sha256_hex(f"{i}:{card_i}:{salt_i}")`` for positions 0-51;
* ``commitment = sha256_hex(leaf_0 + leaf_1 + ... + leaf_51)`` (the 64-character
  hex leaves joined), published before the deal.

Opening position ``i`` publishes ``card_i`` and ``salt_i``; with the 52 leaves
anyone recomputes the commitment, so an opened card cannot have been changed
after the hand began, while an unopened position shows nothing (its salt is
unknown).  When a hand ends the server opens exactly the cards that became
public: the board cards dealt and the hands shown at a showdown (R17), never
the cards of a hand won without a showdown (R16), folded cards or board
cards never dealt; a player's own hole cards are opened to that player only.

:func:`deal_positions` asks the rules which deck position goes where
(:func:`freezeout.rules.dealing.flop_deal_positions`: two hole cards per
player still in, in seat order, then five board cards, no burns).  :func:`verify_record` checks a record hand by hand:
``freezeout record verify FILE`` (and ``freezeout verify-record``) call it.
The full record with every ``seed`` stays on the server for audits; records
given to a player open only what that player saw (``gamelog.player_record``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from freezeout.cards import Card, CardError, format_cards, full_deck, parse_cards, shuffled_deck
from freezeout.formats.record import RecordError, parse_record, replay_record
from freezeout.rules.dealing import flop_deal_positions
from freezeout.rules.variant import NLHE, Variant

__all__ = [
    "UNKNOWN",
    "Deal",
    "Reveal",
    "deal_cards",
    "deal_map",
    "deal_positions",
    "leaf",
    "new_deal",
    "verify_record",
]

DECK_SIZE = 52
UNKNOWN = "??"  # a card that is not known (the PHH convention)


class DealSource(Protocol):
    def shuffle(self, x: list[Card]) -> None: ...

    def getrandbits(self, k: int, /) -> int: ...


def deal_positions(seats_in: Iterable[int], variant: Variant = NLHE) -> tuple[dict[int, tuple[int, ...]], tuple[int, ...]]:
    """The deck positions of each seat's hole cards and of the board, in dealing order,
    as the rules deal them (:func:`freezeout.rules.dealing.flop_deal_positions`: the house
    game's two cards to each player still in, in seat order, then the five board cards)."""
    seats = sorted(seats_in)
    hole_positions, board = flop_deal_positions(variant, len(seats))
    return dict(zip(seats, hole_positions, strict=True)), board


def deal_map(seats_in: Iterable[int], variant: Variant = NLHE) -> dict[str, Any]:
    """Which deck position became whose card, as the rules dealt it, for a reveal's readers
    (``where``: ``{"hole": {"0": [0, 1], ...}, "board": [4, 5, 6, 7, 8]}``), so that a client
    places opened cards without knowing how cards are dealt."""
    hole, board = deal_positions(seats_in, variant)
    return {"hole": {str(seat): list(positions) for seat, positions in hole.items()}, "board": list(board)}


def deal_cards(deck: Sequence[Card], seats_in: Sequence[int]) -> tuple[dict[int, tuple[Card, ...]], tuple[Card, ...]]:
    """Hole cards per seat still in and the board, as :func:`deal_positions` places them."""
    hole, board = deal_positions(seats_in)
    return {seat: tuple(deck[p] for p in positions) for seat, positions in hole.items()}, tuple(deck[p] for p in board)


def salt(seed: str, position: int) -> str:
    return hmac.new(bytes.fromhex(seed), str(position).encode("ascii"), hashlib.sha256).hexdigest()[:32]


def leaf(position: int, card: str, salt_hex: str) -> str:
    return hashlib.sha256(f"{position}:{card}:{salt_hex}".encode("ascii")).hexdigest()


def root(leaves: Sequence[str]) -> str:
    return hashlib.sha256("".join(leaves).encode("ascii")).hexdigest()


@dataclass(frozen=True, slots=True)
class Deal:
    """The deck of one hand and its secret seed (the log keeps both; nobody else sees the
    seed).  The leaves are kept as 52 raw digests (1.6 KB), the commitment as hex."""

    hand: int
    deck: tuple[Card, ...]
    seed: str
    _leaves: bytes = field(init=False, repr=False, compare=False)
    commitment: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        leaves = [leaf(i, str(card), salt(self.seed, i)) for i, card in enumerate(self.deck)]
        object.__setattr__(self, "_leaves", bytes.fromhex("".join(leaves)))
        object.__setattr__(self, "commitment", root(leaves))

    @property
    def leaves(self) -> list[str]:
        raw = self._leaves
        return [raw[i : i + 32].hex() for i in range(0, len(raw), 32)]

    def opening(self, positions: Iterable[int]) -> dict[str, Any]:
        """The hand's commitment, its 52 leaves, and the cards and salts of ``positions``
        only (``deck`` has ``??`` and ``salts`` null everywhere else)."""
        opened = set(positions)
        return {
            "commitment": self.commitment,
            "deck": "".join(str(card) if i in opened else UNKNOWN for i, card in enumerate(self.deck)),
            "salts": [salt(self.seed, i) if i in opened else None for i in range(len(self.deck))],
            "leaves": self.leaves,
        }

    def to_json(self) -> dict[str, Any]:
        """The log's (and the audit record's) form: the whole deck and the seed."""
        return {"hand": self.hand, "deck": format_cards(self.deck), "seed": self.seed}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deal | LegacyDeal:
        deck = parse_cards(str(data["deck"]))
        if "seed" not in data:  # committed by a server from before per-position commitments
            return LegacyDeal(int(data["hand"]), deck, str(data["salt"]))
        return cls(int(data["hand"]), deck, str(data["seed"]))


@dataclass(frozen=True, slots=True)
class LegacyDeal:
    """A deck committed as a whole (``sha256(deck + ":" + salt)``) by an older server: still
    dealt after an upgrade, but it can only be opened whole, so it is never opened."""

    hand: int
    deck: tuple[Card, ...]
    salt: str
    commitment: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "commitment", _legacy_commitment(self.deck, self.salt))

    def opening(self, positions: Iterable[int]) -> dict[str, Any]:
        return {"commitment": self.commitment, "legacy": True}

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "deck": format_cards(self.deck), "salt": self.salt}


AnyDeal = Deal | LegacyDeal


def _legacy_commitment(deck: Sequence[Card], salt_hex: str) -> str:
    return hashlib.sha256(f"{format_cards(deck)}:{salt_hex}".encode("ascii")).hexdigest()


def new_deal(hand: int, rng: DealSource) -> Deal:
    """Shuffle a fresh deck (R2) and draw a 256-bit seed from the same source."""
    return Deal(hand, shuffled_deck(rng), f"{rng.getrandbits(256):064x}")


@dataclass(frozen=True, slots=True)
class Reveal:
    """What a finished hand opens: ``public`` positions to everyone (board cards dealt, hands
    shown), and each dealt-in seat's own hole positions to that seat alone."""

    deal: AnyDeal
    public: tuple[int, ...]
    own: Mapping[int, tuple[int, ...]]

    @classmethod
    def after_hand(cls, deal: AnyDeal, seats_in: Sequence[int], board_dealt: int, shown: Iterable[int]) -> Reveal:
        hole, board = deal_positions(seats_in)
        public = [*board[:board_dealt], *(p for seat in sorted(shown) for p in hole[seat])]
        return cls(deal, tuple(sorted(public)), hole)

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        """The reveal as ``seat`` may see it (None: a spectator)."""
        own = self.own.get(seat, ()) if seat is not None else ()
        return {"hand": self.deal.hand, **self.deal.opening((*self.public, *own)), "where": deal_map(self.own)}


# -- verification ------------------------------------------------------------
def _check_hand(hand: Mapping[str, Any], players: Sequence[str]) -> str | None:
    """Why a record hand fails verification, or None when it is fair."""
    if not isinstance(hand.get("commitment"), str):
        return "no commitment"
    if "salt" in hand and "seed" not in hand and "salts" not in hand:
        return _check_legacy(hand, players)
    try:
        deck = _positions_text(hand.get("deck"))
    except CardError as error:
        return f"bad deck: {error}"
    if "seed" in hand:
        if not _is_hex(hand["seed"], 64):
            return "the seed is not 64 hex digits"
        salts: list[str | None] = [salt(hand["seed"], i) for i in range(DECK_SIZE)]
    else:
        salts = hand.get("salts")  # type: ignore[assignment]
        if not isinstance(salts, list) or len(salts) != DECK_SIZE:
            return f"salts must list {DECK_SIZE} salts (null where a card is not opened)"
    given = hand.get("leaves")
    if given is not None and (not isinstance(given, list) or len(given) != DECK_SIZE or not all(_is_hex(x, 64) for x in given)):
        return f"leaves must list {DECK_SIZE} sha256 hex digests"
    leaves: list[str] = []
    opened: dict[int, Card] = {}
    for i, card in enumerate(deck):
        if card is None:
            if given is None:
                return f"position {i} is not opened and no leaves are given"
            leaves.append(str(given[i]).lower())
            continue
        salt_hex = salts[i]
        if not _is_hex(salt_hex, 32):
            return f"position {i} ({card}) is opened without its salt"
        computed = leaf(i, str(card), str(salt_hex))
        if given is not None and str(given[i]).lower() != computed:
            return f"position {i}: {card} with its salt does not match the committed leaf"
        leaves.append(computed)
        opened[i] = card
    if root(leaves) != str(hand["commitment"]).lower():
        return "the commitment does not match the leaves"
    if len(set(opened.values())) != len(opened):
        return "an opened card appears twice"
    if len(opened) == DECK_SIZE and sorted(opened.values()) != list(full_deck()):
        return "the deck is not the 52 cards once each"
    return _check_deal(hand, players, opened)


def _check_deal(hand: Mapping[str, Any], players: Sequence[str], opened: Mapping[int, Card]) -> str | None:
    """Every card the record shows is the opened card at its deal position."""
    hole_raw = hand.get("hole")
    if not isinstance(hole_raw, Mapping):
        return "no hole cards"
    seats = [players.index(p) for p in hole_raw if p in players]
    if len(seats) != len(hole_raw):
        return "hole cards for an unknown player"
    hole, board = deal_positions(seats)
    shown = [(f"{players[seat]}'s hole cards", hole_raw[players[seat]], hole[seat]) for seat in sorted(seats)]
    for what, text, positions in [*shown, ("the board", hand.get("board", ""), board)]:
        try:
            cards = _positions_text(text)
        except CardError as error:
            return f"bad {what}: {error}"
        for card, position in zip(cards, positions, strict=False):
            if card is None:
                continue
            if position not in opened:
                return f"{what}: {card} is not opened in the commitment"
            if opened[position] != card:
                return f"{what}: {card} is not the committed {opened[position]} (position {position})"
    return None


def _check_legacy(hand: Mapping[str, Any], players: Sequence[str]) -> str | None:
    """A record from before per-position commitments: the whole deck and one salt."""
    try:
        deck = parse_cards(str(hand.get("deck", "")))
    except CardError as error:
        return f"bad deck: {error}"
    if sorted(deck) != list(full_deck()):
        return "the deck is not the 52 cards once each"
    if _legacy_commitment(deck, str(hand["salt"])) != str(hand["commitment"]).lower():
        return "the commitment does not match sha256(deck:salt)"
    return _check_deal(hand, players, dict(enumerate(deck)))


def _positions_text(text: Any) -> list[Card | None]:
    """Cards in a text where ``??`` is an unknown card."""
    if not isinstance(text, str) or len(text) % 2:
        raise CardError(f"expected a card string, got {text!r}")
    return [None if text[i : i + 2] == UNKNOWN else parse_cards(text[i : i + 2])[0] for i in range(0, len(text), 2)]


def _is_hex(value: Any, length: int) -> bool:
    return isinstance(value, str) and len(value) == length and all(c in "0123456789abcdefABCDEF" for c in value)


def verify_record(data: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Check every hand of a record: each opened card against the hand's commitment, and
    every card the record shows against the opened deck positions.

    Returns ``{"ok": bool, "hands": [{"hand": n, "ok": bool, "reason"?: str}],
    "error"?: str}``; ``error`` is set when the record itself does not replay.
    """
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as error:
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
        reason = _check_hand(hand, players)
        results.append({"hand": number, "ok": True} if reason is None else {"hand": number, "ok": False, "reason": reason})
    ok = bool(results) and all(r["ok"] for r in results)
    return {"ok": ok, "hands": results}
